//! The event log: what happened, in plain words, with a category to filter by.

use serde::{Deserialize, Serialize};

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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// Its number in the run (from 1).
    pub seq: u64,
    /// Simulated time, ms.
    pub time: u64,
    /// The node it is about, if one.
    pub node: Option<NodeId>,
    /// Its category.
    pub kind: EventKind,
    /// What happened, in plain English words (kept for tests, traces and search).
    pub text: String,
    /// For a refused or timed-out request: the error an etcd client would print, word for
    /// word (the text already shows it after a dash; this is for panels that set it apart).
    #[serde(default)]
    pub etcd_error: Option<String>,
    /// What happened, as a message that can be worded in any language.
    pub msg: Msg,
}

impl Event {
    /// What happened, in `lang`.
    pub fn text_in(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.text.clone(),
            _ => self.msg.render(lang),
        }
    }
}
