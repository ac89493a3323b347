//! Time travel: a run is its options plus its actions, each taken at a known position, so any
//! past moment can be rebuilt by replaying from the nearest checkpoint.
//!
//! Checkpoints are whole copies of the simulator, taken at growing intervals and thinned when
//! there are too many, so memory stays bounded however long the run; a seek replays at most
//! one interval. Acting while looking at the past forks: the old future is discarded.

use crate::i18n::Msg;
use serde::{Deserialize, Serialize};

use super::action::Action;
use super::cluster::{Sim, TICK_MS};
use super::event::EventKind;
use super::options::Options;

/// An action and the position at which it was taken.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recorded {
    /// Events processed before it.
    pub processed: u64,
    /// Simulated time, ms.
    pub time: u64,
    /// The action.
    pub action: Action,
}

/// A notable moment for the timeline's markers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marker {
    /// Simulated time, ms.
    pub time: u64,
    /// What kind of moment.
    pub kind: EventKind,
    /// What happened, worded in the page's language when shown (an English copy made here
    /// made a Chinese page fetch English texts, `i18n::parts`).
    pub msg: Msg,
}

#[derive(Clone, Debug)]
struct Checkpoint {
    sim: Sim,
    next_action: usize,
}

/// At most this many checkpoints are kept.
pub const MAX_CHECKPOINTS: usize = 1024;

/// Events kept in a checkpoint's copy of the event log.
const CHECKPOINT_EVENTS: usize = 40;

/// Answered requests kept in a checkpoint (pending ones are always kept).
const CHECKPOINT_REQUESTS: usize = 16;

/// A run with its history.
#[derive(Clone, Debug)]
pub struct Timeline {
    n: usize,
    opts: Options,
    actions: Vec<Recorded>,
    checkpoints: Vec<Checkpoint>,
    interval: u64,
    cur: Sim,
    next_action: usize,
    head_time: u64,
    head_processed: u64,
    markers: Vec<Marker>,
    marked_upto: u64,
}

impl Timeline {
    /// A new run of `n` voters with `opts`.
    pub fn new(n: usize, opts: Options) -> Timeline {
        let cur = Sim::new(n, opts.clone());
        let marked_upto = cur.event_count;
        Timeline {
            n,
            opts,
            actions: Vec::new(),
            checkpoints: vec![Checkpoint {
                sim: cur.clone(),
                next_action: 0,
            }],
            interval: 50 * TICK_MS,
            cur,
            next_action: 0,
            head_time: 0,
            head_processed: 0,
            markers: Vec::new(),
            marked_upto,
        }
    }

    /// The simulator at the moment being viewed.
    pub fn sim(&self) -> &Sim {
        &self.cur
    }

    /// Number of nodes the run started with.
    pub fn initial_size(&self) -> usize {
        self.n
    }

    /// The options the run started with.
    pub fn initial_options(&self) -> &Options {
        &self.opts
    }

    /// The recorded actions of this branch.
    pub fn actions(&self) -> &[Recorded] {
        &self.actions
    }

    /// The furthest moment of this branch, ms.
    pub fn head_time(&self) -> u64 {
        self.head_time
    }

    /// Whether the view is at the head (not in the past).
    pub fn at_head(&self) -> bool {
        self.cur.processed >= self.head_processed && self.next_action >= self.actions.len()
    }

    /// Notable moments of this branch.
    pub fn markers(&self) -> &[Marker] {
        &self.markers
    }

    /// How many checkpoints are held (for memory benchmarks).
    pub fn checkpoint_count(&self) -> usize {
        self.checkpoints.len()
    }

    /// Performs `action` now. If the view is in the past, the future after it is discarded
    /// (a fork). A rejected action changes nothing and is not recorded.
    pub fn act(&mut self, action: Action) -> Result<(), String> {
        self.act_worded(action)
            .map_err(|e| e.render(crate::i18n::Lang::En))
    }

    /// [`Timeline::act`], with the error as a message for any language.
    pub fn act_worded(&mut self, action: Action) -> Result<(), Msg> {
        if !self.at_head() {
            self.fork_here();
        }
        // Finish everything due at this millisecond first, so that "at TIME action" in an
        // exported scenario replays at exactly the same position.
        let now = self.cur.now;
        self.cur.advance_to(now);
        let processed = self.cur.processed;
        let time = self.cur.now;
        self.cur.apply_worded(&action)?;
        self.actions.push(Recorded {
            processed,
            time,
            action,
        });
        self.next_action = self.actions.len();
        self.after_forward();
        Ok(())
    }

    fn fork_here(&mut self) {
        self.actions.truncate(self.next_action);
        let p = self.cur.processed;
        let t = self.cur.now;
        self.checkpoints.retain(|c| {
            c.sim.processed <= p && c.sim.now <= t && c.next_action <= self.next_action
        });
        self.markers.retain(|m| m.time <= t);
        self.head_time = t;
        self.head_processed = p;
        self.marked_upto = self.cur.event_count;
    }

    /// Moves forward to time `t` (ms), replaying recorded actions on the way and extending
    /// the branch when past its head.
    pub fn advance_to(&mut self, t: u64) {
        while self.pending_action().is_some_and(|a| a.time <= t) {
            self.replay_next_action(true);
        }
        while self.cur.now < t {
            let step_to = (self.cur.now / self.interval + 1) * self.interval;
            self.cur.advance_to(step_to.min(t));
            self.after_forward();
        }
        self.after_forward();
    }

    /// Advances by `n` ticks.
    pub fn tick(&mut self, n: u64) {
        let t = self.cur.now + n * TICK_MS;
        self.advance_to(t);
    }

    /// Processes the next event (or the next recorded action, if it comes first).
    pub fn step_event(&mut self) {
        let processed = self.cur.processed;
        if self
            .pending_action()
            .is_some_and(|a| a.processed <= processed)
        {
            self.replay_next_action(false);
        } else {
            self.cur.step_event();
        }
        self.after_forward();
    }

    /// Goes back one event.
    pub fn step_back_event(&mut self) {
        let p = self.cur.processed.saturating_sub(1);
        self.goto(p, 0);
    }

    /// Shows the moment `t` ms (clamped to the head when going back and forth in history).
    pub fn seek(&mut self, t: u64) {
        // Jump to the nearest checkpoint unless the target is just ahead of us.
        let near_ahead = t >= self.cur.now && t - self.cur.now <= self.interval;
        let cp_ahead = self
            .checkpoints
            .iter()
            .rev()
            .find(|c| c.sim.now <= t)
            .is_some_and(|c| c.sim.now > self.cur.now);
        if t < self.cur.now || (!near_ahead && cp_ahead) {
            self.restore_before(u64::MAX, t);
        }
        self.advance_to(t);
    }

    /// Rebuilds the state after `processed` events (and at least time `time`).
    pub fn goto(&mut self, processed: u64, time: u64) {
        self.restore_before(processed, u64::MAX);
        while self
            .pending_action()
            .is_some_and(|a| a.processed <= processed)
        {
            self.replay_next_action(false);
        }
        self.cur.replay_to(processed, time);
    }

    /// The next recorded action not yet taken in the current state.
    fn pending_action(&self) -> Option<&Recorded> {
        self.actions.get(self.next_action)
    }

    /// Brings the simulator to the position of the next recorded action and takes it again;
    /// `via_checkpoints` takes checkpoints on the way (when this may extend the branch).
    fn replay_next_action(&mut self, via_checkpoints: bool) {
        let Some(a) = self.pending_action().cloned() else {
            return;
        };
        if via_checkpoints {
            self.run_events_to(a.processed, a.time);
        } else {
            self.cur.replay_to(a.processed, a.time);
        }
        // It succeeded when it was first taken and the state is the same now.
        let _ = self.cur.apply(&a.action);
        self.next_action += 1;
    }

    fn restore_before(&mut self, processed: u64, time: u64) {
        let cp = self
            .checkpoints
            .iter()
            .rev()
            .find(|c| c.sim.processed <= processed && c.sim.now <= time)
            .unwrap_or(&self.checkpoints[0])
            .clone();
        self.cur = cp.sim;
        self.next_action = cp.next_action;
    }

    fn run_events_to(&mut self, processed: u64, time: u64) {
        while self.cur.processed < processed {
            let next = self.cur.next_event_time().unwrap_or(time).max(self.cur.now);
            let step_to = (self.cur.now / self.interval + 1) * self.interval;
            if next >= step_to && step_to <= time {
                // Cross a checkpoint boundary on the way.
                self.cur.replay_to(self.cur.processed, step_to);
                self.after_forward();
                continue;
            }
            if !self.cur.step_event() {
                break;
            }
        }
        self.cur.replay_to(processed, time);
        self.after_forward();
    }

    fn after_forward(&mut self) {
        let beyond = self.cur.processed > self.head_processed
            || (self.cur.processed == self.head_processed && self.cur.now > self.head_time);
        if beyond || self.at_head() {
            self.collect_markers();
        }
        if beyond {
            self.head_processed = self.cur.processed;
            self.head_time = self.head_time.max(self.cur.now);
        }
        let last = self.checkpoints.last().expect("never empty");
        if self.cur.now >= last.sim.now + self.interval && self.cur.processed > last.sim.processed {
            // The event log is for display only; a restored moment shows its recent past, and
            // only the recent requests. Both are left out of the clone and only their kept part
            // copied: cloning them whole to drop most of them cost more than the rest of the
            // state.
            let events = std::mem::take(&mut self.cur.events);
            let requests = std::mem::take(&mut self.cur.requests);
            let mut sim = self.cur.clone();
            self.cur.events = events;
            self.cur.requests = requests;
            let keep = CHECKPOINT_EVENTS.min(self.cur.events.len());
            sim.events = self
                .cur
                .events
                .range(self.cur.events.len() - keep..)
                .cloned()
                .collect();
            sim.requests = self.cur.kept_requests(CHECKPOINT_REQUESTS);
            self.checkpoints.push(Checkpoint {
                sim,
                next_action: self.next_action,
            });
            if self.checkpoints.len() > MAX_CHECKPOINTS {
                // Keep the first and every other one; space future ones twice as far.
                let old = std::mem::take(&mut self.checkpoints);
                self.checkpoints = old
                    .into_iter()
                    .enumerate()
                    .filter(|(i, _)| i % 2 == 0)
                    .map(|(_, c)| c)
                    .collect();
                self.interval *= 2;
            }
        }
    }

    fn collect_markers(&mut self) {
        if self.cur.event_count <= self.marked_upto {
            return;
        }
        // The log is in sequence order and this runs after every step: the new events are
        // found from the end, not by a pass over the whole log.
        let events = &self.cur.events;
        let new = events
            .iter()
            .rev()
            .take_while(|e| e.seq > self.marked_upto)
            .count();
        for e in events.range(events.len() - new..) {
            let notable = matches!(
                e.kind,
                EventKind::Leader | EventKind::Fault | EventKind::Membership | EventKind::Invariant
            ) || e.is_campaign();
            if notable {
                self.markers.push(Marker {
                    time: e.time,
                    kind: e.kind,
                    msg: e.msg.clone(),
                });
            }
        }
        self.marked_upto = self.cur.event_count;
    }

    /// The run as a scenario: its options, then every action at the tick it was taken.
    /// Replaying it with `raftlab run` (or loading it) gives the same run.
    pub fn export_scn(&self) -> String {
        let mut out = String::from("# exported from raftlab\n");
        out.push_str(&format!(
            "cluster {} {}\n",
            self.n,
            self.opts.to_words().join(" ")
        ));
        for a in &self.actions[..self.next_action.min(self.actions.len())] {
            out.push_str(&format!("at {} {}\n", a.time, a.action.to_scn()));
        }
        out.push_str(&format!("at {}\n", self.cur.now));
        out
    }

    /// The event trace of the moment viewed, as JSON lines-friendly array (the text
    /// `serde_json::to_string_pretty` writes for the events, without linking it into the
    /// browser build: see [`crate::json`]).
    pub fn trace_json(&self) -> String {
        let events = self.cur.events.iter().map(|e| e.to_json()).collect();
        crate::json::pretty(&crate::json::Val::Arr(events))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Timeline {
        let mut tl = Timeline::new(3, Options::default());
        tl.tick(30);
        tl.act(Action::Propose {
            key: "a".into(),
            value: "1".into(),
            via: None,
        })
        .unwrap();
        tl.tick(20);
        let l = tl.sim().leader().unwrap();
        tl.act(Action::Kill(l)).unwrap();
        tl.tick(60);
        tl
    }

    fn fingerprint(s: &Sim) -> u64 {
        s.fingerprint()
    }

    /// The exported trace is the text serde_json writes for the events, on runs with every
    /// kind of event (each lesson run to its end, and a run with refused requests).
    #[test]
    fn the_trace_is_what_serde_json_writes() {
        let mut runs = vec![sample()];
        for p in crate::sim::presets::PRESETS {
            let script = crate::sim::scenario::Script::parse(p.text).unwrap();
            let mut player = crate::sim::player::Player::new(script);
            player.run_all();
            if let Some(t) = player.timeline() {
                runs.push(t.clone());
            }
        }
        let (mut checked, mut etcd_errors, mut nested) = (0, 0, 0);
        for tl in &runs {
            let theirs = serde_json::to_string_pretty(&tl.sim().events).unwrap();
            assert_eq!(tl.trace_json(), theirs);
            checked += tl.sim().events.len();
            etcd_errors += theirs.matches("\"etcd_error\": \"").count();
            nested += theirs.matches("\"Msg\": {").count();
        }
        // Every shape of event was compared: many events, some with an etcd error, some
        // with a message inside a message.
        assert!(checked > 500, "{checked}");
        assert!(etcd_errors > 0 && nested > 0, "{etcd_errors} {nested}");
    }

    /// The timeline's markers are the notable events of the whole run, in order, each once,
    /// whether the run moves an event or many ticks at a time (the log itself keeps only the
    /// recent ones).
    #[test]
    fn markers_are_every_notable_event_once() {
        let mut tl = Timeline::new(5, Options::default());
        let mut expected: Vec<(u64, String)> = Vec::new();
        let mut seen = 0;
        let mut rng = crate::raft::Rng::new(3);
        for step in 0..300u64 {
            let id = rng.range(1, 6);
            let action = match rng.range(0, 8) {
                0 => Action::Kill(id),
                1 => Action::Restart(id),
                2 => Action::Isolate(id),
                3 => Action::Heal,
                _ => Action::Propose {
                    key: format!("k{step}"),
                    value: "v".into(),
                    via: None,
                },
            };
            let _ = tl.act(action);
            if step % 3 == 0 {
                for _ in 0..rng.range(1, 40) {
                    tl.step_event();
                }
            } else {
                tl.tick(rng.range(1, 30));
            }
            // Between two looks the log never dropped an unseen event (it keeps 400).
            for e in tl.sim().events.iter().filter(|e| e.seq > seen) {
                let notable = matches!(
                    e.kind,
                    EventKind::Leader
                        | EventKind::Fault
                        | EventKind::Membership
                        | EventKind::Invariant
                ) || e.is_campaign();
                if notable {
                    expected.push((e.time, e.text().to_string()));
                }
            }
            seen = tl.sim().event_count;
        }
        let got: Vec<(u64, String)> = tl
            .markers()
            .iter()
            .map(|m| (m.time, m.msg.render(crate::i18n::Lang::En)))
            .collect();
        assert!(expected.len() > 50, "{}", expected.len());
        assert_eq!(got, expected);
    }

    #[test]
    fn seeking_back_and_forth_reproduces_each_moment() {
        let mut tl = sample();
        let head = fingerprint(tl.sim());
        let head_t = tl.sim().now;
        let mut fresh = Timeline::new(3, Options::default());
        fresh.tick(25);
        let at_25 = fingerprint(fresh.sim());
        tl.seek(25 * TICK_MS);
        assert_eq!(fingerprint(tl.sim()), at_25);
        tl.seek(head_t);
        assert_eq!(fingerprint(tl.sim()), head);
    }

    #[test]
    fn step_back_then_forward_is_identity() {
        let mut tl = sample();
        tl.step_event();
        let before = fingerprint(tl.sim());
        let p = tl.sim().processed;
        tl.step_back_event();
        assert_eq!(tl.sim().processed, p - 1);
        tl.step_event();
        assert_eq!(tl.sim().processed, p);
        assert_eq!(fingerprint(tl.sim()), before);
    }

    #[test]
    fn acting_in_the_past_forks() {
        let mut tl = sample();
        assert_eq!(tl.actions().len(), 2);
        tl.seek(35 * TICK_MS);
        tl.act(Action::Heal).unwrap();
        assert_eq!(
            tl.actions().len(),
            2,
            "the kill was in the discarded future"
        );
        assert!(matches!(tl.actions()[1].action, Action::Heal));
        assert!(tl.at_head());
    }
}
