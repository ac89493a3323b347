//! The event log: what happened, in plain words, with a category to filter by.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::OnceLock;

use crate::i18n::{Lang, Msg};
use crate::raft::NodeId;

/// The category of an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EventKind {
    /// Campaigns and their outcomes.
    Election,
    /// Leadership gained or lost.
    Leader,
    /// Individual vote decisions.
    Vote,
    /// Replication progress (probe / replicate / snapshot).
    Replication,
    /// Snapshots and compaction.
    Snapshot,
    /// Membership changes.
    Membership,
    /// Client writes.
    Client,
    /// Client reads.
    Read,
    /// Faults injected by the user.
    Fault,
    /// An invariant broke.
    Invariant,
    /// Anything else.
    Info,
}

impl EventKind {
    /// Every kind, for filters.
    pub const ALL: [EventKind; 11] = [
        EventKind::Election,
        EventKind::Leader,
        EventKind::Vote,
        EventKind::Replication,
        EventKind::Snapshot,
        EventKind::Membership,
        EventKind::Client,
        EventKind::Read,
        EventKind::Fault,
        EventKind::Invariant,
        EventKind::Info,
    ];

    /// Its name in `lang`, for the filters.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            EventKind::Election => crate::tr!(lang, "kind.election"),
            EventKind::Leader => crate::tr!(lang, "kind.leader"),
            EventKind::Vote => crate::tr!(lang, "kind.vote"),
            EventKind::Replication => crate::tr!(lang, "kind.replication"),
            EventKind::Snapshot => crate::tr!(lang, "kind.snapshot"),
            EventKind::Membership => crate::tr!(lang, "kind.membership"),
            EventKind::Client => crate::tr!(lang, "kind.client"),
            EventKind::Read => crate::tr!(lang, "kind.read"),
            EventKind::Fault => crate::tr!(lang, "kind.fault"),
            EventKind::Invariant => crate::tr!(lang, "kind.invariant"),
            EventKind::Info => crate::tr!(lang, "kind.info"),
        }
    }

    /// A lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Election => "election",
            EventKind::Leader => "leader",
            EventKind::Vote => "vote",
            EventKind::Replication => "replication",
            EventKind::Snapshot => "snapshot",
            EventKind::Membership => "membership",
            EventKind::Client => "client",
            EventKind::Read => "read",
            EventKind::Fault => "fault",
            EventKind::Invariant => "invariant",
            EventKind::Info => "info",
        }
    }
}

/// One logged event.
///
/// Its English text is worded the first time it is asked for ([`Event::text`]), not when
/// the event is logged: a run logs far more events than anyone reads. Equality, `Debug` and
/// the serialized form are as if the text were an ordinary field.
#[derive(Clone, Serialize, Deserialize)]
#[serde(into = "EventRepr", from = "EventRepr")]
pub struct Event {
    /// Its number in the run (from 1).
    pub seq: u64,
    /// Simulated time, ms.
    pub time: u64,
    /// The node it is about, if one.
    pub node: Option<NodeId>,
    /// Its category.
    pub kind: EventKind,
    /// For a refused or timed-out request: the error an etcd client would print, word for
    /// word (the text already shows it after a dash; this is for panels that set it apart).
    pub etcd_error: Option<String>,
    /// What happened, as a message that can be worded in any language.
    pub msg: Msg,
    /// `msg` in English, once worded.
    text: OnceLock<String>,
}

impl Event {
    /// An event; its text is worded from `msg` when first asked for.
    pub fn new(
        seq: u64,
        time: u64,
        node: Option<NodeId>,
        kind: EventKind,
        msg: Msg,
        etcd_error: Option<String>,
    ) -> Event {
        Event {
            seq,
            time,
            node,
            kind,
            etcd_error,
            msg,
            text: OnceLock::new(),
        }
    }

    /// Whether a node started a real campaign for a term (by its timer or a leader transfer;
    /// a pre-vote round is not one): what the live region and the timeline's markers name.
    pub fn is_campaign(&self) -> bool {
        self.kind == EventKind::Election
            && matches!(self.msg.key(), Some("ev.campaign" | "ev.transfer_campaign"))
    }

    /// What happened, in plain English words (for tests, traces and search).
    pub fn text(&self) -> &str {
        self.text.get_or_init(|| self.msg.render(Lang::En))
    }

    /// What happened, in `lang`.
    pub fn text_in(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.text().to_string(),
            _ => self.msg.render(lang),
        }
    }
}

impl PartialEq for Event {
    fn eq(&self, other: &Self) -> bool {
        // The text follows from `msg`; whether it was worded yet does not matter.
        (
            self.seq,
            self.time,
            self.node,
            self.kind,
            &self.etcd_error,
            &self.msg,
        ) == (
            other.seq,
            other.time,
            other.node,
            other.kind,
            &other.etcd_error,
            &other.msg,
        )
    }
}

impl Eq for Event {}

impl fmt::Debug for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Event")
            .field("seq", &self.seq)
            .field("time", &self.time)
            .field("node", &self.node)
            .field("kind", &self.kind)
            .field("text", &self.text())
            .field("etcd_error", &self.etcd_error)
            .field("msg", &self.msg)
            .finish()
    }
}

impl Event {
    /// The event as serde writes it (the fields of [`EventRepr`], in order), for
    /// [`crate::json`].
    pub fn to_json(&self) -> crate::json::Val {
        use crate::json::Val;
        Val::Obj(vec![
            ("seq", Val::Num(self.seq)),
            ("time", Val::Num(self.time)),
            ("node", Val::opt_num(self.node)),
            // A unit variant is written as its name, which is what Debug prints.
            ("kind", Val::Str(format!("{:?}", self.kind))),
            ("text", Val::Str(self.text().to_string())),
            (
                "etcd_error",
                self.etcd_error.clone().map_or(Val::Null, Val::Str),
            ),
            ("msg", self.msg.to_json()),
        ])
    }
}

/// An event as it is serialized: the text written out.
#[derive(Serialize, Deserialize)]
struct EventRepr {
    seq: u64,
    time: u64,
    node: Option<NodeId>,
    kind: EventKind,
    text: String,
    #[serde(default)]
    etcd_error: Option<String>,
    msg: Msg,
}

impl From<Event> for EventRepr {
    fn from(e: Event) -> EventRepr {
        EventRepr {
            text: e.text().to_string(),
            seq: e.seq,
            time: e.time,
            node: e.node,
            kind: e.kind,
            etcd_error: e.etcd_error,
            msg: e.msg,
        }
    }
}

impl From<EventRepr> for Event {
    fn from(r: EventRepr) -> Event {
        Event {
            seq: r.seq,
            time: r.time,
            node: r.node,
            kind: r.kind,
            etcd_error: r.etcd_error,
            msg: r.msg,
            text: OnceLock::from(r.text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crashed() -> Event {
        let msg = crate::msg!("ev.crashed").arg("id", 3u64);
        Event::new(1, 200, Some(3), EventKind::Fault, msg, None)
    }

    /// The text is worded late, but reads, compares, prints and serializes as a field would.
    #[test]
    fn the_lazy_text_behaves_as_a_field() {
        let english = crate::msg!("ev.crashed").arg("id", 3u64).render(Lang::En);
        assert!(english.contains("n3"), "{english}");
        let e = crashed();
        let json = serde_json::to_string(&e).unwrap();
        let field = format!("\"text\":{}", serde_json::to_string(&english).unwrap());
        assert!(json.contains(&field), "{json}");
        let back: Event = serde_json::from_str(&json).unwrap();
        assert_eq!(back.text(), english);
        // `crashed()` has not worded its text yet; `back` has.
        assert_eq!(back, crashed());
        assert_eq!(format!("{back:?}"), format!("{:?}", crashed()));
        assert!(format!("{back:?}").contains(&english));
        assert_eq!(e.text_in(Lang::En), english);
    }
}
