//! "Next change": stepping that skips quiet timer ticks and stops at the first event that
//! changes something a person debugging would look at: a message sent or delivered (or
//! dropped), a role, term, commit index or process state, a logged event (a refusal, a
//! commit, a lost request), or a recorded action replayed.

use crate::i18n::{Lang, Msg};
use crate::raft::vec_map::VecMap;
use crate::raft::{MsgType, NodeId, Role};

use super::cluster::{NextEvent, Sim, Status};
use super::history::Timeline;
use super::labels;

/// What of a node a step can visibly change.
#[derive(Clone, Debug, PartialEq, Eq)]
struct NodeGlance {
    role: Role,
    term: u64,
    committed: u64,
    status: Status,
}

/// The parts of a simulator a step can change that matter when debugging; comparing two
/// glances says whether a step was quiet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glance {
    nodes: VecMap<NodeId, NodeGlance>,
    next_msg: u64,
    event_count: u64,
    processed: u64,
}

impl Glance {
    /// Takes a glance at `sim`.
    pub fn of(sim: &Sim) -> Glance {
        let mut nodes = VecMap::new();
        nodes.extend(sim.nodes.iter().map(|(id, n)| {
            (
                *id,
                NodeGlance {
                    role: n.raft.role,
                    term: n.raft.term,
                    committed: n.raft.log.committed,
                    status: n.status,
                },
            )
        }));
        Glance {
            nodes,
            next_msg: sim.net.next_id,
            event_count: sim.event_count,
            processed: sim.processed,
        }
    }

    /// What changed from this glance to `sim`, in words, most telling first: events logged,
    /// then roles, terms, commit indexes and process states, then messages sent. Empty when
    /// nothing did.
    pub fn changes_to(&self, sim: &Sim) -> Vec<Msg> {
        let mut out: Vec<Msg> = sim
            .events
            .iter()
            .filter(|e| e.seq > self.event_count)
            .map(|e| e.msg.clone())
            .collect();
        for (id, n) in &sim.nodes {
            let Some(was) = self.nodes.get(id) else {
                out.push(
                    crate::msg!("chg.created")
                        .arg("id", *id)
                        .arg("status", labels::status(n.status)),
                );
                continue;
            };
            if was.role != n.raft.role {
                out.push(
                    crate::msg!("chg.became")
                        .arg("id", *id)
                        .arg("from", labels::role(was.role))
                        .arg("to", labels::role(n.raft.role)),
                );
            }
            if was.term != n.raft.term {
                out.push(
                    crate::msg!("chg.term")
                        .arg("id", *id)
                        .arg("from", was.term)
                        .arg("to", n.raft.term),
                );
            }
            if was.committed != n.raft.log.committed {
                out.push(
                    crate::msg!("chg.commit")
                        .arg("id", *id)
                        .arg("from", was.committed)
                        .arg("to", n.raft.log.committed),
                );
            }
            if was.status != n.status {
                out.push(
                    crate::msg!("chg.became")
                        .arg("id", *id)
                        .arg("from", labels::status(was.status))
                        .arg("to", labels::status(n.status)),
                );
            }
        }
        // Messages sent by this step, grouped by sender and type.
        let mut sent: VecMap<(NodeId, MsgType), Vec<NodeId>> = VecMap::new();
        for f in sim.net.in_flight.range(self.next_msg..).map(|(_, f)| f) {
            sent.get_or_insert_with((f.msg.from, f.msg.msg_type), Vec::new)
                .push(f.msg.to);
        }
        for ((from, t), to) in sent {
            let to: Vec<String> = to.iter().map(|t| format!("n{t}")).collect();
            out.push(
                crate::msg!("chg.sent")
                    .arg("from", from)
                    .arg("type", labels::msg_type(t))
                    .arg("to", to.join(", ")),
            );
        }
        out
    }
}

/// Several sentences as one message, joined the way `lang` joins clauses ("; ", "；").
fn joined(parts: &[Msg]) -> Msg {
    let mut it = parts.iter().cloned();
    let first = it.next().unwrap_or_else(|| Msg::verbatim(""));
    it.fold(first, |a, b| crate::msg!("chg.and").arg("a", a).arg("b", b))
}

/// What one "next change" step did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The event applied last, in words ("n3 timer tick", "vote n3→n1 (term 2) delivered").
    pub event: Msg,
    /// What it changed, in words (never empty).
    pub changes: Vec<Msg>,
    /// Simulated time after it, ms.
    pub time: u64,
    /// Quiet events stepped over before it.
    pub skipped: u64,
}

impl Change {
    /// One line in English: "t=10.300s: vote n3→n1 (term 1) delivered: n1 grants vote to n3
    /// for term 1; n1 term 0 → 1; n1 sent vote-resp to n3 (after 12 quiet events)".
    pub fn line(&self) -> String {
        self.words().render(Lang::En)
    }

    /// The line as a message, worded when shown (so switching language rewords it).
    pub fn words(&self) -> Msg {
        let mut m = crate::msg!("chg.line")
            .arg("time", super::decimal::fixed(self.time as f64 / 1000.0, 3))
            .arg("event", self.event.clone())
            .arg("changes", joined(&self.changes));
        m = m.arg(
            "after",
            match self.skipped {
                0 => Msg::verbatim(""),
                1 => crate::msg!("chg.after_one"),
                n => crate::msg!("chg.after").arg("n", n),
            },
        );
        m
    }
}

/// The next event in words, before it runs; None when nothing is scheduled.
pub fn next_event_words(sim: &Sim) -> Option<Msg> {
    Some(match sim.peek_event()? {
        NextEvent::Tick(id) => crate::msg!("chg.tick").arg("id", id),
        NextEvent::Void => crate::msg!("chg.void"),
        NextEvent::Deadline(req) => crate::msg!("chg.deadline").arg("req", req),
        NextEvent::Retry => crate::msg!("chg.retry"),
        NextEvent::StopRemoved(id) => crate::msg!("chg.stop_removed").arg("id", id),
        NextEvent::Delivery(f) => {
            let what = crate::msg!("chg.message")
                .arg("type", labels::msg_type(f.msg.msg_type))
                .arg("from", f.msg.from)
                .arg("to", f.msg.to)
                .arg("term", f.msg.term);
            match sim.drop_why(f) {
                None => crate::msg!("chg.delivered").arg("what", what),
                Some(r) => crate::msg!("chg.dropped").arg("what", what).arg("why", r),
            }
        }
    })
}

/// Whether the next event is a message arriving (delivered or dropped): always worth a stop.
fn next_is_message(sim: &Sim) -> bool {
    matches!(
        sim.peek_event(),
        Some(NextEvent::Delivery(f)) if f.msg.msg_type != MsgType::SnapStatus
    )
}

/// One event (or one recorded action) stepped and worded, with whether it changed anything.
struct Stepped {
    change: Change,
    /// Nothing a glance shows moved.
    quiet: bool,
}

/// Steps `tl` by one event; None when nothing was left to run (the position did not move,
/// nothing changed and no event was due).
fn step_and_word(tl: &mut Timeline, skipped: u64) -> Option<Stepped> {
    let before = Glance::of(tl.sim());
    let event = next_event_words(tl.sim());
    tl.step_event();
    let after = tl.sim();
    let changes = before.changes_to(after);
    // A step that did not move the position replayed a recorded action (or found nothing to
    // do, if the queue was empty).
    let replayed = after.processed == before.processed;
    if replayed && changes.is_empty() && event.is_none() {
        return None;
    }
    let quiet = changes.is_empty();
    Some(Stepped {
        change: Change {
            event: if replayed {
                crate::msg!("chg.replayed")
            } else {
                event.unwrap_or_else(|| crate::msg!("chg.event"))
            },
            changes: if quiet {
                vec![crate::msg!("chg.nothing")]
            } else {
                changes
            },
            time: after.now,
            skipped,
        },
        quiet,
    })
}

/// Steps `tl` by exactly one event (or one recorded action) and says what it was and what it
/// changed, quiet or not; None when nothing is left to run.
pub fn step_one(tl: &mut Timeline) -> Option<Change> {
    step_and_word(tl, 0).map(|s| s.change)
}

/// Steps `tl` event by event (replaying recorded actions on the way) until one changes
/// something, at most `limit` events. Returns that step, or None when the run has nothing
/// more to do within `limit` (every node stopped, or only quiet ticks).
pub fn step_to_next_change(tl: &mut Timeline, limit: u64) -> Option<Change> {
    for skipped in 0..limit {
        let is_message = next_is_message(tl.sim());
        let stepped = step_and_word(tl, skipped)?;
        if !stepped.quiet || is_message {
            return Some(stepped.change);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Action, Options};

    /// From t=0 with 5 nodes, one step reaches the first message sent, exactly: stepping
    /// one event at a time needs the same number of events to see it.
    #[test]
    fn from_the_start_one_step_reaches_the_first_message() {
        let mut tl = Timeline::new(5, Options::default());
        assert_eq!(tl.sim().net.next_id, 0);
        let c = step_to_next_change(&mut tl, 10_000).expect("something happens");
        assert!(tl.sim().net.next_id > 0, "a message was sent: {c:?}");
        assert!(c.skipped > 10, "quiet ticks were skipped: {c:?}");
        assert!(c.event.to_string().ends_with("timer tick"), "{c:?}");
        assert!(
            c.changes
                .iter()
                .any(|s| s.to_string().contains("sent pre-vote")),
            "{c:?}"
        );
        assert!(c.line().contains("election timeout"), "{}", c.line());

        let mut slow = Timeline::new(5, Options::default());
        let mut events = 0;
        while slow.sim().net.next_id == 0 {
            slow.step_event();
            events += 1;
        }
        assert_eq!(events, c.skipped + 1);
        assert_eq!(slow.sim().fingerprint(), tl.sim().fingerprint());
    }

    /// The next step after a campaign is a message arriving, even one that changes no role.
    #[test]
    fn deliveries_are_stops() {
        let mut tl = Timeline::new(3, Options::default());
        step_to_next_change(&mut tl, 10_000).unwrap();
        let c = step_to_next_change(&mut tl, 10_000).unwrap();
        assert!(c.event.to_string().contains("pre-vote n"), "{c:?}");
        assert!(c.event.to_string().ends_with("delivered"), "{c:?}");
        assert_eq!(c.skipped, 0, "nothing was quiet in between? {c:?}");
    }

    /// A dropped message is named as dropped, with the reason.
    #[test]
    fn a_dropped_message_says_why() {
        let mut tl = Timeline::new(3, Options::default());
        let c = step_to_next_change(&mut tl, 10_000).unwrap();
        let candidate = tl
            .sim()
            .nodes
            .values()
            .find(|n| n.raft.role != Role::Follower)
            .map(|n| n.raft.id)
            .unwrap_or_else(|| panic!("a campaign: {c:?}"));
        tl.act(Action::Isolate(candidate)).unwrap();
        let c = step_to_next_change(&mut tl, 10_000).unwrap();
        assert!(
            c.event.to_string().ends_with("dropped (partitioned)"),
            "{c:?}"
        );
    }

    /// One event step names even a quiet tick.
    #[test]
    fn one_event_names_a_quiet_tick() {
        let mut tl = Timeline::new(3, Options::default());
        let c = step_one(&mut tl).unwrap();
        assert!(c.event.to_string().ends_with("timer tick"), "{c:?}");
        assert_eq!(c.changes, vec![crate::msg!("chg.nothing")]);
        assert_eq!(tl.sim().processed, 1);
    }

    /// With every node stopped nothing changes: the step says so instead of spinning.
    #[test]
    fn nothing_left_gives_none() {
        let mut tl = Timeline::new(1, Options::default());
        tl.act(Action::Kill(1)).unwrap();
        assert_eq!(step_to_next_change(&mut tl, 1000), None);
    }

    /// Stepping in the past replays recorded actions, and names them.
    #[test]
    fn a_recorded_action_is_a_stop() {
        let mut tl = Timeline::new(3, Options::default());
        tl.tick(5);
        tl.act(Action::Kill(2)).unwrap();
        tl.tick(5);
        tl.seek(4 * crate::sim::TICK_MS);
        let mut seen = None;
        for _ in 0..100 {
            let c = step_to_next_change(&mut tl, 1000).unwrap();
            if c.event.to_string() == "recorded action replayed" {
                seen = Some(c);
                break;
            }
        }
        let c = seen.expect("the kill was replayed");
        assert!(
            c.changes.iter().any(|s| s.to_string() == "n2 crashed"),
            "{c:?}"
        );
    }
}
