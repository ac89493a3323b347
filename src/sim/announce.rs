//! What a screen reader hears: the notable events of a run (elections, new leaders,
//! step-downs, commits, refusals, lost writes, membership changes, broken invariants), batched
//! and rate-limited so a polite live region is never flooded while the run plays.
//!
//! Pure and clock-free: the caller passes the wall time, so the batching is tested natively.

use super::cluster::Sim;
use crate::i18n::Lang;
use crate::tr;

use super::event::{Event, EventKind};

/// The shortest gap between two announcements, ms of wall time.
pub const MIN_GAP_MS: f64 = 2000.0;

/// Most events named in one announcement; the rest are counted.
pub const MAX_ITEMS: usize = 3;

/// Collects notable events as the run moves forward and hands them out in batches.
#[derive(Clone, Debug, Default)]
pub struct Announcer {
    /// The last event seen (by sequence number).
    seen: u64,
    /// Notable events not yet announced, most important first within equal rank.
    pending: Vec<(u8, Event)>,
    /// Wall time of the last announcement.
    last_at: Option<f64>,
}

/// How much an event matters to someone listening (None: not announced). Sorted by the
/// event's catalog key, so a key or value that happens to read "lost" or "committed" does
/// not change its rank.
fn rank(e: &Event) -> Option<u8> {
    let key = e.msg.key().unwrap_or("");
    match (e.kind, key) {
        (EventKind::Invariant, _) => Some(0),
        (
            EventKind::Leader,
            "ev.became_leader"
            | "ev.stepdown_checkquorum"
            | "ev.stepdown_higher_term"
            | "ev.stepdown_removed",
        ) => Some(1),
        (EventKind::Leader, _) => Some(3),
        (EventKind::Election, _) if e.is_campaign() => Some(2),
        // A write or read the cluster refused, lost or gave up on: what a client would see.
        (
            EventKind::Client | EventKind::Read,
            "ev.rejected_etcd" | "ev.req_lost" | "ev.timed_out",
        ) => Some(1),
        (EventKind::Client, "ev.committed" | "ev.timed_out_committed_later") => Some(2),
        (EventKind::Membership, _) => Some(2),
        (EventKind::Fault, _) => Some(3),
        _ => None,
    }
}

impl Announcer {
    /// An announcer that starts after the events `sim` already holds.
    pub fn new(sim: &Sim) -> Announcer {
        Announcer {
            seen: sim.event_count,
            ..Announcer::default()
        }
    }

    /// Takes note of events logged since the last call. Going back in time (or a new run)
    /// announces nothing and starts again from there.
    pub fn observe(&mut self, sim: &Sim) {
        if sim.event_count < self.seen {
            self.seen = sim.event_count;
            self.pending.clear();
            return;
        }
        for e in sim.events.iter().filter(|e| e.seq > self.seen) {
            if let Some(r) = rank(e) {
                self.pending.push((r, e.clone()));
            }
        }
        self.seen = sim.event_count;
    }

    /// Whether events wait to be announced (held back by the rate limit).
    pub fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// The announcement due at wall time `now_ms`, if any: at most one per [`MIN_GAP_MS`],
    /// naming the [`MAX_ITEMS`] most important pending events and counting the others.
    pub fn take(&mut self, now_ms: f64) -> Option<String> {
        self.take_in(now_ms, Lang::En)
    }

    /// [`Announcer::take`], worded in `lang`.
    pub fn take_in(&mut self, now_ms: f64, lang: Lang) -> Option<String> {
        if self.pending.is_empty() {
            return None;
        }
        if self.last_at.is_some_and(|t| now_ms - t < MIN_GAP_MS) {
            return None;
        }
        let mut items: Vec<(usize, u8, Event)> = std::mem::take(&mut self.pending)
            .into_iter()
            .enumerate()
            .map(|(i, (r, t))| (i, r, t))
            .collect();
        // The most important ones, told in the order they happened.
        super::small_sort::sort_small_by_key(&mut items, |(i, r, _)| (*r, *i));
        let more = items.len().saturating_sub(MAX_ITEMS);
        items.truncate(MAX_ITEMS);
        super::small_sort::sort_small_by_key(&mut items, |(i, _, _)| *i);
        let mut text: Vec<String> = items.into_iter().map(|(_, _, e)| e.text_in(lang)).collect();
        match more {
            0 => {}
            1 => text.push(tr!(lang, "ann.one_more").to_string()),
            n => text.push(tr!(lang, "ann.more", n = n)),
        }
        self.last_at = Some(now_ms);
        Some(tr!(
            lang,
            "ann.joined",
            items = text.join(tr!(lang, "ann.sep"))
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Action, Options};

    fn elected(sim: &mut Sim) {
        while sim.leader().is_none() {
            sim.tick(1);
        }
    }

    #[test]
    fn a_new_leader_is_announced_once() {
        let mut sim = Sim::new(3, Options::default());
        let mut a = Announcer::new(&sim);
        elected(&mut sim);
        a.observe(&sim);
        let text = a.take(0.0).expect("an election happened");
        let l = sim.leader().unwrap();
        assert!(text.contains(&format!("n{l} became leader")), "{text}");
        assert_eq!(a.take(10_000.0), None, "nothing new");
    }

    #[test]
    fn announcements_are_rate_limited_and_batched() {
        let mut sim = Sim::new(3, Options::default());
        let mut a = Announcer::new(&sim);
        elected(&mut sim);
        a.observe(&sim);
        assert!(a.take(1000.0).is_some());
        for i in 0..5 {
            sim.apply(&Action::Propose {
                key: "k".into(),
                value: i.to_string(),
                via: None,
            })
            .unwrap();
            sim.tick(5);
            a.observe(&sim);
            assert_eq!(a.take(1000.0 + 100.0 * i as f64), None, "too soon");
        }
        let text = a.take(1000.0 + MIN_GAP_MS).expect("the commits");
        assert!(text.contains("committed"), "{text}");
        assert!(text.ends_with("And 2 more events."), "{text}");
    }

    #[test]
    fn refusals_and_leaders_come_first() {
        let mut sim = Sim::new(3, Options::default());
        let mut a = Announcer::new(&sim);
        elected(&mut sim);
        sim.apply(&Action::Propose {
            key: "k".into(),
            value: "1".into(),
            via: None,
        })
        .unwrap();
        sim.tick(5);
        sim.apply(&Action::Promote(1)).unwrap();
        a.observe(&sim);
        let text = a.take(0.0).unwrap();
        // Named before the campaign and the commit, though it came last.
        assert!(
            text.contains("became leader") && text.contains("promote n1 rejected"),
            "{text}"
        );
        assert!(!text.contains("committed"), "{text}");
    }

    /// A write to a key named "lost" that commits is a commit, not a loss: ranks come from
    /// the event's catalog key, not from words that happen to be in its text.
    #[test]
    fn a_commit_is_ranked_as_a_commit_whatever_its_key_is_called() {
        let mut sim = Sim::new(3, Options::default());
        elected(&mut sim);
        let mut a = Announcer::new(&sim);
        sim.apply(&Action::Propose {
            key: "lost".into(),
            value: "refused".into(),
            via: None,
        })
        .unwrap();
        sim.tick(20);
        a.observe(&sim);
        let ranks: Vec<u8> = a.pending.iter().map(|(r, _)| *r).collect();
        assert_eq!(ranks, vec![2], "{:?}", a.pending);
    }

    /// A write the client gave up on (etcd's `context deadline exceeded`) is what a listener
    /// most needs to hear, like a refusal.
    #[test]
    fn a_timed_out_write_is_announced_first() {
        let mut sim = Sim::new(3, Options::default());
        elected(&mut sim);
        let l = sim.leader().unwrap();
        for f in (1..=3).filter(|&n| n != l) {
            sim.apply(&Action::Kill(f)).unwrap();
        }
        let mut a = Announcer::new(&sim);
        sim.apply(&Action::Propose {
            key: "k".into(),
            value: "1".into(),
            via: None,
        })
        .unwrap();
        sim.tick(600);
        a.observe(&sim);
        let timed_out: Vec<u8> = a
            .pending
            .iter()
            .filter(|(_, e)| e.msg.key() == Some("ev.timed_out"))
            .map(|(r, _)| *r)
            .collect();
        assert_eq!(timed_out, vec![1], "{:?}", a.pending);
    }

    #[test]
    fn going_back_in_time_announces_nothing() {
        let mut sim = Sim::new(3, Options::default());
        let start = sim.clone();
        elected(&mut sim);
        let mut a = Announcer::new(&sim);
        a.observe(&start);
        assert_eq!(a.take(0.0), None);
        // Forward again from the earlier moment: the election is new to the listener.
        let mut again = start.clone();
        elected(&mut again);
        a.observe(&again);
        assert!(a.take(0.0).unwrap().contains("became leader"));
    }
}
