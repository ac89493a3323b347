//! The simulated cluster: raft nodes, a clock finer than a tick, the network between them,
//! clients, and the invariant checker run after every event.
//!
//! Time is in milliseconds. Each node ticks every 100 ms on its own phase, so nodes are not
//! in lockstep; each message takes its own latency. Everything random comes from one seeded
//! generator, and events at the same millisecond run in the order they were scheduled, so
//! options plus actions replay the same run anywhere.

use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

use crate::i18n::{Lang, Msg};
use crate::raft::invariants::{Checker, Observed};
use crate::raft::vec_map::{VecMap, VecSet};
use crate::raft::{
    ConfChange, ConfChangeSingle, Config, Message, MsgType, NodeId, Note, Raft, Rng, Role, StepDown,
};

use super::action::Action;
use super::client::{Outcome, Refusal, ReqKind, Request};
use super::event::{Event, EventKind};
use super::health::Shape;
use super::id_map::IdMap;
use super::network::{InFlight, Network};
use super::options::Options;
use super::requests::Waiting;
use super::{invariant_words, labels, words};

mod fnv;
mod force;
mod lost;
mod peek;
mod queue;
#[cfg(test)]
mod settled_tests;

use fnv::Fnv1a;
use queue::EventQueue;

pub use peek::NextEvent;

/// Milliseconds per tick (etcd's default heartbeat interval).
pub const TICK_MS: u64 = 100;

/// How long a member that applied its own removal keeps running before it stops, ms:
/// etcd's server stops it with a delay of 10 x 100 ms (stopWithDelay, "the member has been
/// permanently removed from the cluster"). A removed leader keeps replicating meanwhile, so
/// followers learn that the change committed.
pub const REMOVED_STOP_DELAY_MS: u64 = 1000;

/// How many events the simulator keeps for display.
pub const EVENT_CAP: usize = 400;

/// How many client requests it keeps.
pub const REQUEST_CAP: usize = 200;

/// A node's process state, as an operator sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// The process runs.
    Running,
    /// Crashed; durable state kept.
    Killed,
    /// Added to the configuration, process not started yet.
    NotStarted,
    /// Added with a wrong peer URL: never reachable.
    Misconfigured,
    /// Removed from the cluster; the process stopped.
    Removed,
}

impl Status {
    /// "running", "killed", "not started", "misconfigured" or "removed".
    pub fn name(self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Killed => "killed",
            Status::NotStarted => "not started",
            Status::Misconfigured => "misconfigured",
            Status::Removed => "removed",
        }
    }
}

/// One simulated server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimNode {
    /// Its raft state (frozen while not running).
    pub raft: Raft,
    /// Its process state.
    pub status: Status,
    /// Its tick phase within each 100 ms.
    pub phase: u64,
    /// Bumped on every crash and start, to cancel ticks scheduled for an earlier life.
    pub epoch: u64,
}

impl SimNode {
    /// Whether it is a learner by its own raft or by `learners`, the configuration in force's
    /// (`Sim::config`): a new learner's raft learns it is one only when it applies the entry
    /// that added it, and until then every view still names it a learner.
    pub fn is_learner(&self, learners: &VecSet<NodeId>) -> bool {
        self.raft.is_learner() || learners.contains(&self.raft.id)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Due {
    Tick {
        node: NodeId,
        epoch: u64,
    },
    Deliver {
        msg: u64,
    },
    /// A client's request timeout.
    Deadline {
        req: u64,
    },
    /// Clients retry the requests that a member can now take (its own event, so that what
    /// made a member able to take them and what they do are observed apart).
    Retry,
    /// A member that applied its own removal stops (unless it went down meanwhile).
    StopRemoved {
        node: NodeId,
        epoch: u64,
    },
}

/// Why a message never reached its receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Undelivered {
    /// Lost to random loss.
    Lost,
    /// The network separates sender and receiver.
    Partitioned,
    /// The receiver was added with a wrong peer URL.
    WrongPeerUrl,
    /// The receiver's process does not run.
    Down(Status),
    /// No such node.
    Missing,
    /// The receiver applied the sender's removal and rejects it (etcd: 410 Gone).
    RemovedSender,
}

/// The event an invariant check follows, worded only when a violation needs it.
enum Cause {
    Tick(NodeId),
    Delivered(MsgType, NodeId, NodeId),
    Dropped(MsgType, NodeId, NodeId, Undelivered),
}

impl Cause {
    fn words(&self) -> Msg {
        match self {
            Cause::Tick(id) => crate::msg!("cause.tick").arg("id", *id),
            Cause::Delivered(t, from, to) => crate::msg!("cause.delivered")
                .arg("type", labels::msg_type(*t))
                .arg("from", *from)
                .arg("to", *to),
            Cause::Dropped(t, from, to, reason) => crate::msg!("cause.dropped")
                .arg("type", labels::msg_type(*t))
                .arg("from", *from)
                .arg("to", *to)
                .arg("why", words::undelivered(*reason, *from, *to)),
        }
    }
}

/// A recorded invariant violation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViolationRecord {
    /// Simulated time, ms.
    pub time: u64,
    /// The property.
    pub invariant: String,
    /// What broke.
    pub detail: String,
    /// The event that caused it.
    pub cause: String,
    /// The event that caused it, worded when shown (None in a run read back from JSON).
    #[serde(skip)]
    pub cause_words: Option<Msg>,
}

/// The whole simulated world.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Sim {
    /// Options in force.
    pub opts: Options,
    /// Simulated time, ms.
    pub now: u64,
    /// Events processed so far (a position in the run, finer than time).
    pub processed: u64,
    /// Every node ever created, by id.
    pub nodes: VecMap<NodeId, SimNode>,
    /// The configuration every node starts from (the initial voters).
    pub genesis: Config,
    /// The network and the messages in flight.
    pub net: Network,
    queue: EventQueue<Due>,
    seq: u64,
    rng: Rng,
    /// Recent events, oldest first (at most [`EVENT_CAP`]).
    pub events: VecDeque<Event>,
    /// Events ever logged.
    pub event_count: u64,
    /// Recent client requests by id.
    pub requests: IdMap<Request>,
    pub(super) next_req: u64,
    /// Requests no member could take yet, retried after every event until their deadline.
    pub waiting: VecMap<u64, Waiting>,
    /// Whether a retry event is in the queue.
    retry_scheduled: bool,
    /// Since when each pair of members (lower id first) has been connected, ms: etcd's
    /// transport ActiveSince, for the strict reconfiguration check.
    pub links: VecMap<NodeId, VecMap<NodeId, u64>>,
    /// Members that ever started (etcd: published their name).
    pub started: VecSet<NodeId>,
    /// The last read request.
    pub last_read: Option<u64>,
    /// The invariant checker.
    pub checker: Checker,
    /// Whether to run it after every event.
    pub check_invariants: bool,
    /// Every violation seen.
    pub violations: Vec<ViolationRecord>,
    /// Indexes whose configuration change was already reported.
    conf_reported: VecSet<u64>,
    /// Members ever removed. Like etcd's membership store, a node that has applied the
    /// removal rejects their messages, and the removed member stops when it hears so (or,
    /// once it applied its own removal, `REMOVED_STOP_DELAY_MS` later).
    pub removed: VecSet<NodeId>,
    /// Members that applied their own removal and stop after `REMOVED_STOP_DELAY_MS`. Until
    /// then a peer that rejects their messages does not stop them: etcd's peers drop a
    /// removed member's messages on established streams and only log it.
    #[serde(default)]
    pub stopping: VecSet<NodeId>,
    /// Where each pending request's entry was appended (index, term), to tell when that
    /// index commits with another entry and the request is lost.
    #[serde(default)]
    appended: VecMap<u64, (u64, u64)>,
    /// No started node has a commit index above this (an upper bound, `u64::MAX` when
    /// unknown): raised by every step of a node, set to the true maximum by
    /// [`Sim::settle_lost`] when it computes it. It lets `settle_lost` skip the pass over all
    /// nodes after the many events that commit nothing at an appended index.
    #[serde(skip, default = "unknown_commit_bound")]
    commit_bound: u64,
    /// Stable leaders deposed by a higher term: leaders connected to a quorum of running
    /// voters, without message loss, for at least an election timeout, that stepped down
    /// because of a higher term other than a leader transfer's. This is the disruption
    /// pre-vote and check-quorum exist to prevent (a rejoining node with an inflated term).
    /// Read by the `disruptions` condition.
    #[serde(default)]
    pub disruptions: u64,
    /// The term each node last campaigned in because of a leader transfer (TimeoutNow), so a
    /// transfer's step-down is not counted as a disruption.
    #[serde(default)]
    transfer_campaigns: VecMap<NodeId, u64>,
    /// Since when (ms) each node has been able to reach a quorum, as of the last action
    /// (only actions change who can reach whom); absent while it cannot.
    #[serde(default)]
    reachable_since: VecMap<NodeId, u64>,
    /// The [`Shape`] at the last action that brought `links` and `reachable_since` up to
    /// date: while it stays the same, both already hold what they would be brought to.
    #[serde(skip)]
    shape_seen: Option<Shape>,
    /// When each node last became leader, ms (etcd's leadElectedTime, which a server's
    /// request timeout reads to blame a previous leader's failure).
    #[serde(default)]
    pub(super) led_since: VecMap<NodeId, u64>,
}

impl Sim {
    /// A cluster of `n` running voters n1..nN with empty logs at term 0.
    pub fn new(n: usize, opts: Options) -> Sim {
        let n = n.clamp(1, 64) as u64;
        let mut rng = Rng::new(opts.seed);
        let genesis = Config::with_voters(1..=n);
        let mut sim = Sim {
            opts,
            now: 0,
            processed: 0,
            nodes: VecMap::new(),
            genesis,
            net: Network::default(),
            queue: EventQueue::default(),
            seq: 0,
            rng: rng.fork(0),
            events: VecDeque::new(),
            event_count: 0,
            requests: IdMap::new(),
            next_req: 1,
            waiting: VecMap::new(),
            retry_scheduled: false,
            links: VecMap::new(),
            started: VecSet::new(),
            last_read: None,
            checker: Checker::new(),
            check_invariants: true,
            violations: Vec::new(),
            conf_reported: VecSet::new(),
            removed: VecSet::new(),
            stopping: VecSet::new(),
            appended: VecMap::new(),
            commit_bound: u64::MAX,
            disruptions: 0,
            transfer_campaigns: VecMap::new(),
            reachable_since: VecMap::new(),
            led_since: VecMap::new(),
            shape_seen: None,
        };
        for id in 1..=n {
            sim.create_node(id);
            sim.start_node(id);
        }
        sim.refresh_links();
        sim.note_reachability();
        sim.log(
            None,
            EventKind::Info,
            crate::msg!("ev.cluster_created")
                .arg("n", n)
                .arg("seed", sim.opts.seed),
        );
        sim
    }

    pub(super) fn create_node(&mut self, id: NodeId) {
        // A member joins the cluster of the leader that adds it (which matters once
        // force-new-cluster has split the history in two).
        if let Some(l) = self.leader() {
            self.checker.adopt(id, l);
        }
        let node_rng = self.rng.fork(id);
        let phase = self.rng.range(0, TICK_MS);
        let raft = Raft::new(id, self.genesis.clone(), self.opts.raft_config(), node_rng);
        self.checker.unsettle(id);
        self.commit_bound = self.commit_bound.max(raft.log.committed);
        self.nodes.insert(
            id,
            SimNode {
                raft,
                status: Status::NotStarted,
                phase,
                epoch: 0,
            },
        );
    }

    fn start_node(&mut self, id: NodeId) {
        let Some(node) = self.nodes.get_mut(&id) else {
            return;
        };
        node.status = Status::Running;
        node.epoch += 1;
        self.checker.unsettle(id);
        // Its commit index now counts for `settle_lost`.
        self.commit_bound = self.commit_bound.max(node.raft.log.committed);
        self.started.insert(id);
        let (epoch, phase) = (node.epoch, node.phase);
        let next = (self.now / TICK_MS) * TICK_MS + phase;
        let at = if next <= self.now {
            next + TICK_MS
        } else {
            next
        };
        self.schedule(at, Due::Tick { node: id, epoch });
    }

    fn schedule(&mut self, at: u64, due: Due) {
        enqueue(&mut self.queue, &mut self.seq, at, due);
    }

    /// Schedules the request timeout of `req` at `at`.
    pub(super) fn schedule_deadline(&mut self, at: u64, req: u64) {
        self.schedule(at, Due::Deadline { req });
    }

    // ---- queries ---------------------------------------------------------------------------

    /// Simulated time in ticks (fractional).
    pub fn ticks(&self) -> f64 {
        self.now as f64 / TICK_MS as f64
    }

    /// The live leader with the highest term.
    pub fn leader(&self) -> Option<NodeId> {
        self.nodes
            .values()
            .filter(|n| n.status == Status::Running && n.raft.role == Role::Leader)
            .max_by_key(|n| (n.raft.term, std::cmp::Reverse(n.raft.id)))
            .map(|n| n.raft.id)
    }

    /// Whether `id` is a running node.
    pub fn is_running(&self, id: NodeId) -> bool {
        self.nodes
            .get(&id)
            .is_some_and(|n| n.status == Status::Running)
    }

    /// The node whose configuration counts: the leader, or with no leader the live node
    /// with the highest applied index.
    pub fn config_source(&self) -> Option<NodeId> {
        self.leader().or_else(|| {
            self.nodes
                .values()
                .filter(|n| n.status == Status::Running)
                .max_by_key(|n| (n.raft.log.applied, std::cmp::Reverse(n.raft.id)))
                .map(|n| n.raft.id)
        })
    }

    /// The configuration in force, as [`Sim::config_source`] has applied it.
    pub fn config(&self) -> Config {
        self.config_source()
            .and_then(|id| self.nodes.get(&id))
            .map(|n| n.raft.trk.config.clone())
            .unwrap_or_else(|| self.genesis.clone())
    }

    /// How many of `voters` the leader can reach now (itself included): running and
    /// connected. None without a leader. Pass one half of a joint configuration to count it.
    pub fn reachable_voters(&self, voters: &VecSet<NodeId>) -> Option<usize> {
        let l = self.leader()?;
        Some(
            voters
                .iter()
                .filter(|v| **v == l || (self.is_running(**v) && self.net.connected(l, **v)))
                .count(),
        )
    }

    /// Whether running node `id` is connected to a quorum of running voters of each half of
    /// its own configuration (itself included): nothing forces it to lose leadership.
    pub fn could_reach_quorum(&self, id: NodeId) -> bool {
        let Some(n) = self.nodes.get(&id) else {
            return false;
        };
        let cfg = &n.raft.trk.config;
        let half_ok = |voters: &VecSet<NodeId>| {
            voters.is_empty()
                || voters
                    .iter()
                    .filter(|v| **v == id || (self.is_running(**v) && self.net.connected(id, **v)))
                    .count()
                    > voters.len() / 2
        };
        self.is_running(id) && half_ok(&cfg.voters) && half_ok(&cfg.outgoing)
    }

    fn note_reachability(&mut self) {
        let now = self.now;
        for (id, reaches) in self.reachability() {
            if reaches {
                self.reachable_since.get_or_insert_with(id, || now);
            } else {
                self.reachable_since.remove(&id);
            }
        }
    }

    /// A 64-bit digest of the whole protocol state (time, nodes, network, messages in
    /// flight). Equal runs give equal digests on every platform, so a run in the browser can
    /// be compared with the same run natively.
    pub fn fingerprint(&self) -> u64 {
        use std::fmt::Write;
        // The digest of the text, hashed as it is written rather than gathered into one
        // string first (megabytes for a long run's logs and key-value states).
        let mut h = Fnv1a(0xcbf2_9ce4_8422_2325);
        write!(
            h,
            "{}|{}|{:?}|{:?}|{:?}",
            self.now, self.processed, self.nodes, self.net, self.violations
        )
        .expect("hashing never fails");
        h.0
    }

    /// All node ids.
    pub fn ids(&self) -> Vec<NodeId> {
        self.nodes.keys().copied().collect()
    }

    /// The next event's time, if any.
    pub fn next_event_time(&self) -> Option<u64> {
        self.queue.peek().map(|(at, _, _)| at)
    }

    // ---- running ---------------------------------------------------------------------------

    /// Processes every event due up to `t` (ms) and moves the clock to `t`.
    pub fn advance_to(&mut self, t: u64) {
        while self.step_event_due_by(t) {}
        if t > self.now {
            self.now = t;
        }
    }

    /// Advances the clock by `n` ticks.
    pub fn tick(&mut self, n: u64) {
        self.advance_to(self.now + n * TICK_MS);
    }

    /// Processes exactly the next event; returns false when nothing is scheduled.
    pub fn step_event(&mut self) -> bool {
        self.step_event_due_by(u64::MAX)
    }

    /// Processes the next event if it is due at `by` (ms) or before; returns whether it did.
    fn step_event_due_by(&mut self, by: u64) -> bool {
        let Some((at, _, due)) = self.queue.pop_due_by(by) else {
            return false;
        };
        self.now = self.now.max(at);
        self.processed += 1;
        let cause = match due {
            Due::Tick { node, epoch } => self.process_tick(node, epoch),
            Due::Deliver { msg } => self.process_delivery(msg),
            Due::StopRemoved { node, epoch } => {
                self.stopping.remove(&node);
                let current = self.nodes.get(&node).is_some_and(|n| n.epoch == epoch);
                if current {
                    self.stop_as_removed(node, crate::msg!("ev.stopped_removed").arg("id", node));
                }
                None
            }
            Due::Deadline { req } => {
                self.request_deadline(req);
                None
            }
            Due::Retry => {
                self.retry_scheduled = false;
                let sent_to = self.retry_waiting();
                if !sent_to.is_empty() {
                    self.check(|| crate::msg!("cause.retried"), Some(&sent_to));
                }
                None
            }
        };
        if let Some(cause) = cause {
            self.settle_lost();
            // What an event can change: the node that ticks; the receiver of a message, and
            // its sender (told about a snapshot's fate, or stopped as a removed member). Of
            // these, a settled node is left out: unchanged since a clean check (a sender the
            // event did not touch, a receiver the message did not change), its check would
            // skip it as quiet.
            let (a, b) = match cause {
                Cause::Tick(id) => (id, id),
                Cause::Delivered(_, from, to) | Cause::Dropped(_, from, to, _) => (to, from),
            };
            let keep_a = !self.checker.settled(a);
            let keep_b = b != a && !self.checker.settled(b);
            let touched: &[NodeId] = match (keep_a, keep_b) {
                (true, true) => &[a, b],
                (true, false) => &[a],
                (false, true) => &[b],
                (false, false) => &[],
            };
            if !touched.is_empty() {
                self.check(|| cause.words(), Some(touched));
            }
        }
        // Not after a retry itself: what it could not send waits for the next change.
        if due != Due::Retry {
            self.schedule_retry();
        }
        true
    }

    /// Schedules a retry at `at` (after a client's back-off).
    pub(super) fn schedule_retry_at(&mut self, at: u64) {
        self.schedule(at, Due::Retry);
    }

    /// Schedules a retry now when a waiting request can be taken (once).
    pub(super) fn schedule_retry(&mut self) {
        if !self.retry_scheduled && self.any_waiting_takeable() {
            self.retry_scheduled = true;
            self.schedule(self.now, Due::Retry);
        }
    }

    /// Processes events until `processed` reaches `count` (for exact replay), then sets the
    /// clock to `time`.
    pub fn replay_to(&mut self, count: u64, time: u64) {
        while self.processed < count {
            if !self.step_event() {
                break;
            }
        }
        if time > self.now {
            self.now = time;
        }
    }

    fn process_tick(&mut self, id: NodeId, epoch: u64) -> Option<Cause> {
        let node = self.nodes.get_mut(&id)?;
        if node.epoch != epoch || node.status != Status::Running {
            return None;
        }
        node.raft.tick();
        self.schedule(self.now + TICK_MS, Due::Tick { node: id, epoch });
        self.flush(id);
        Some(Cause::Tick(id))
    }

    fn process_delivery(&mut self, msg_id: u64) -> Option<Cause> {
        // Read where it was taken out, and only its message moved on into the step (this
        // runs for nearly every event).
        let taken = self.net.in_flight.remove(&msg_id);
        let f = taken.as_ref()?;
        let (from, to) = (f.msg.from, f.msg.to);
        let msg_type = f.msg.msg_type;
        let check_invariants = self.check_invariants;
        // One lookup of the receiver, for why it would not get the message and for the step
        // (this runs for nearly every event).
        let (nodes, mut out) = self.split();
        let receiver = nodes.get_mut(&to);
        let reason = peek::undelivered_at(f, receiver.as_deref(), out.net, out.removed);
        let (Some(node), None) = (receiver, reason) else {
            let reason = reason.unwrap_or(Undelivered::Missing);
            if reason == Undelivered::RemovedSender && !self.stopping.contains(&from) {
                self.stop_removed(from, to);
            }
            self.dropped(f);
            return Some(Cause::Dropped(msg_type, from, to, reason));
        };
        let InFlight { msg, .. } = taken?;
        out.change(to, &mut node.raft, |raft| raft.step(msg));
        if !node.raft.notes.is_empty() {
            self.word_notes(to);
        } else if check_invariants && msg_type != MsgType::Snap {
            // Nothing else this event does can change the receiver (no note to act on, no
            // snapshot report): if the step left it looking as at its last clean check, the
            // check after the event may leave it out, as it leaves out a settled sender.
            let o = Observed {
                raft: &node.raft,
                alive: true,
            };
            out.checker.settle_if_quiet(o);
        }
        if msg_type == MsgType::Snap {
            self.report_snapshot(to, from, false);
        }
        Some(Cause::Delivered(msg_type, from, to))
    }

    /// etcd's transport answers a removed member with "410 Gone" and the member shuts down.
    fn stop_removed(&mut self, id: NodeId, by: NodeId) {
        self.stop_as_removed(
            id,
            crate::msg!("ev.told_removed").arg("id", id).arg("by", by),
        );
    }

    /// A running member that knows it was removed stops for good (etcd: "the member has been
    /// permanently removed from the cluster").
    fn stop_as_removed(&mut self, id: NodeId, why: Msg) {
        if let Some(n) = self.nodes.get_mut(&id) {
            if n.status == Status::Running {
                n.status = Status::Removed;
                n.epoch += 1;
                self.checker.unsettle(id);
                self.log(Some(id), EventKind::Membership, why);
                self.fail_requests_held_by(id);
                self.refresh_links();
            }
        }
    }

    /// A message that never arrives. A lost snapshot is reported back to the leader, as
    /// etcd's transport does (ReportSnapshot), so it can retry.
    fn dropped(&mut self, f: &InFlight) {
        if f.msg.msg_type == MsgType::Snap {
            self.report_snapshot(f.msg.to, f.msg.from, true);
        }
    }

    /// etcd's transport tells the leader whether a snapshot got through (ReportSnapshot), so
    /// a leader never waits forever in the snapshot state for an answer that was lost.
    fn report_snapshot(&mut self, follower: NodeId, leader: NodeId, failed: bool) {
        if !self.is_running(leader) {
            return;
        }
        let mut st = Message::new(MsgType::SnapStatus, follower, leader);
        st.reject = failed;
        if let Some(n) = self.nodes.get_mut(&leader) {
            st.term = n.raft.term;
            n.raft.step(st);
        }
        self.flush(leader);
    }

    /// Sends what node `id` wrote to its outbox and words what it noted.
    pub(super) fn flush(&mut self, id: NodeId) {
        self.update_and_flush(id, |_| {});
    }

    /// Runs `update` on node `id`'s raft state (if the node exists), then [`Sim::flush`]es
    /// it, with one lookup of the node for both.
    fn update_and_flush(&mut self, id: NodeId, update: impl FnOnce(&mut Raft)) {
        // One lookup of the node for its messages (this runs after every event).
        let (nodes, mut out) = self.split();
        let Some(node) = nodes.get_mut(&id) else {
            return;
        };
        out.change(id, &mut node.raft, update);
        if !node.raft.notes.is_empty() {
            self.word_notes(id);
        }
    }

    /// The node map, and apart from it what a node's step writes to: the hot paths look a node
    /// up once and still send its messages and tell the checker.
    fn split(&mut self) -> (&mut VecMap<NodeId, SimNode>, Outlet<'_>) {
        let Sim {
            nodes,
            rng,
            net,
            queue,
            seq,
            opts,
            now,
            checker,
            commit_bound,
            removed,
            ..
        } = self;
        let out = Outlet {
            rng,
            net,
            queue,
            seq,
            opts,
            now: *now,
            checker,
            commit_bound,
            removed,
        };
        (nodes, out)
    }

    /// Words what node `id` noted (taken out first: wording a note needs the whole
    /// simulator).
    fn word_notes(&mut self, id: NodeId) {
        let Some(node) = self.nodes.get_mut(&id) else {
            return;
        };
        let mut notes = std::mem::take(&mut node.raft.notes);
        for note in notes.drain(..) {
            self.on_note(id, note);
        }
        // The emptied Vec goes back, so the next step notes without allocating.
        if let Some(node) = self.nodes.get_mut(&id) {
            if node.raft.notes.is_empty() {
                node.raft.notes = notes;
            }
        }
    }

    fn on_note(&mut self, id: NodeId, note: Note) {
        if let Note::BecameLeader { .. } = note {
            self.led_since.insert(id, self.now);
        }
        match &note {
            Note::Applied { req, index } => {
                // One lookup of the request in the usual case (a write applied on each node).
                let Some(r) = self.requests.get_mut(req) else {
                    return;
                };
                // A client that had its error (a time-out, its member down) may still hear
                // of the commit: `answered_late` says it once.
                if matches!(
                    r.outcome,
                    Outcome::TimedOut { .. }
                        | Outcome::Rejected {
                            refusal: Refusal::MemberDown { .. }
                        }
                ) {
                    self.answered_late(id, *req, *index);
                    return;
                }
                if r.outcome == Outcome::Pending {
                    r.outcome = Outcome::Committed { index: *index };
                    let label = labels::request(&r.kind);
                    self.log(
                        Some(id),
                        EventKind::Client,
                        crate::msg!("ev.committed")
                            .arg("label", label)
                            .arg("index", *index),
                    );
                }
                return;
            }
            Note::Appended { req, index, term } => {
                self.on_appended(*req, *index, *term);
                return;
            }
            Note::ConfApplied {
                req,
                index,
                change,
                config,
                removed,
            } => {
                self.removed.extend(removed.iter().copied());
                self.on_conf_applied(id, *req, *index, change, config, removed);
                return;
            }
            Note::ProposalDropped { req, reason } => {
                match self
                    .requests
                    .get(req)
                    .map(|r| r.outcome == Outcome::Pending)
                {
                    Some(true) => self.reject(*req, Refusal::Dropped { reason: *reason }),
                    None if *req == 0 => {
                        let text = crate::msg!("ev.node_refused")
                            .arg("id", id)
                            .arg("why", words::proposal_refusal(*reason));
                        self.log(Some(id), EventKind::Membership, text);
                    }
                    _ => {}
                }
                return;
            }
            Note::ReadDropped { req, reason } => {
                if self.requests.get(req).map(|r| &r.outcome) == Some(&Outcome::Pending) {
                    self.read_dropped(*req, words::read_refusal(*reason).into());
                }
                return;
            }
            Note::ReadServed { req, index, value } => {
                if self.answered_late(id, *req, *index) {
                    return;
                }
                if let Some(r) = self.requests.get_mut(req) {
                    if r.outcome == Outcome::Pending {
                        r.outcome = Outcome::Value {
                            value: value.clone(),
                            index: Some(*index),
                            stale: None,
                        };
                        let label = labels::request(&r.kind);
                        let shown = shown_value(value.as_deref());
                        self.log(
                            Some(id),
                            EventKind::Read,
                            crate::msg!("ev.read_result")
                                .arg("label", label)
                                .arg("id", id)
                                .arg("value", shown)
                                .arg("index", *index),
                        );
                    }
                }
                return;
            }
            Note::Campaign {
                transfer: true,
                term,
                ..
            } => {
                self.transfer_campaigns.insert(id, *term);
            }
            Note::SteppedDown {
                why: StepDown::HigherTerm { from, term },
            } => {
                // Stable: connected to a quorum, with no message loss, for at least an
                // election timeout, so nothing but the higher term forced it down.
                let by_transfer = self.transfer_campaigns.get(from) == Some(term);
                let stable = self
                    .reachable_since
                    .get(&id)
                    .is_some_and(|t| self.now >= t + self.opts.election * TICK_MS)
                    && self.could_reach_quorum(id)
                    && self.net.loss == 0;
                if !by_transfer && stable {
                    self.disruptions += 1;
                }
            }
            _ => {}
        }
        let (kind, text) = words::note(id, &note);
        self.log(Some(id), kind, text);
    }

    fn on_conf_applied(
        &mut self,
        id: NodeId,
        req: u64,
        index: u64,
        change: &str,
        config: &str,
        removed: &[NodeId],
    ) {
        let self_removed = removed.contains(&id);
        self.answered_late(id, req, index);
        if let Some(r) = self.requests.get_mut(&req) {
            if r.outcome == Outcome::Pending {
                r.outcome = Outcome::Committed { index };
            }
        }
        if self.conf_reported.insert(index) {
            self.log(
                Some(id),
                EventKind::Membership,
                crate::msg!("ev.conf_applied")
                    .arg("change", words::conf_change(change))
                    .arg("index", index)
                    .arg("config", config),
            );
        }
        // A member added by a request that waited for a leader may be added by the cluster
        // force-new-cluster made after the request was issued: a member that holds nothing
        // yet joins the history of the nodes that apply its addition.
        if let Some(members) = self.nodes.get(&id).map(|n| n.raft.trk.config.members()) {
            for m in members {
                let fresh = self.nodes.get(&m).is_some_and(|n| {
                    n.raft.log.last_index() == 0 && n.raft.log.snapshot.index == 0
                });
                if m != id && fresh {
                    self.checker.adopt(m, id);
                }
            }
        }
        if self_removed {
            if let Some(n) = self.nodes.get(&id).filter(|n| n.status == Status::Running) {
                let epoch = n.epoch;
                self.log(
                    Some(id),
                    EventKind::Membership,
                    crate::msg!("ev.learned_removed").arg("id", id),
                );
                self.stopping.insert(id);
                self.schedule(
                    self.now + REMOVED_STOP_DELAY_MS,
                    Due::StopRemoved { node: id, epoch },
                );
            }
        }
        // Members removed before they ever ran are gone too.
        for g in removed {
            if let Some(n) = self.nodes.get_mut(g) {
                if matches!(n.status, Status::NotStarted | Status::Misconfigured) {
                    n.status = Status::Removed;
                    self.checker.unsettle(*g);
                }
            }
        }
    }

    /// Appends an event to the log.
    pub fn log(&mut self, node: Option<NodeId>, kind: EventKind, msg: impl Into<Msg>) {
        self.log_etcd(node, kind, msg, None);
    }

    /// Appends an event that carries the error an etcd client would print.
    pub fn log_etcd(
        &mut self,
        node: Option<NodeId>,
        kind: EventKind,
        msg: impl Into<Msg>,
        etcd: Option<&str>,
    ) {
        let msg = msg.into();
        self.event_count += 1;
        self.events.push_back(Event::new(
            self.event_count,
            self.now,
            node,
            kind,
            msg,
            etcd.map(str::to_string),
        ));
        while self.events.len() > EVENT_CAP {
            self.events.pop_front();
        }
    }

    /// Runs the invariant checker on the nodes an event touched (`None`: after a user
    /// action, every node, and the checker forgets what no node can contradict any more).
    /// `cause` words the event, only when something broke.
    fn check(&mut self, cause: impl FnOnce() -> Msg, touched: Option<&[NodeId]>) {
        if !self.check_invariants {
            return;
        }
        let nodes = &self.nodes;
        let lookup = |id: NodeId| observed(nodes, id);
        let found = match touched {
            Some(t) => self.checker.check_touched(t, &lookup),
            None => {
                let ids: Vec<NodeId> = nodes.keys().copied().collect();
                let found = self.checker.check_touched(&ids, &lookup);
                let all: Vec<Observed> = ids.iter().filter_map(|id| lookup(*id)).collect();
                self.checker.prune(&all);
                found
            }
        };
        if found.is_empty() {
            return;
        }
        let cause_words = cause();
        let cause = cause_words.render(crate::i18n::Lang::En);
        for v in found {
            self.log(
                None,
                EventKind::Invariant,
                crate::msg!("ev.invariant")
                    .arg("invariant", invariant_words::name(&v.invariant))
                    .arg("detail", invariant_words::detail(&v.detail))
                    .arg("cause", cause_words.clone()),
            );
            self.violations.push(ViolationRecord {
                time: self.now,
                invariant: v.invariant,
                detail: v.detail,
                cause: cause.clone(),
                cause_words: Some(cause_words.clone()),
            });
        }
    }

    // ---- actions ---------------------------------------------------------------------------

    pub(super) fn node_ref(&self, id: NodeId) -> Result<&SimNode, Msg> {
        self.nodes
            .get(&id)
            .ok_or_else(|| crate::msg!("err.no_such_node").arg("id", id))
    }

    fn require_running(&self, id: NodeId) -> Result<(), Msg> {
        let n = self.node_ref(id)?;
        if n.status != Status::Running {
            return Err(crate::msg!("err.node_is")
                .arg("id", id)
                .arg("status", labels::status(n.status)));
        }
        Ok(())
    }

    /// Performs a user action now. An action that makes no sense (an unknown node, killing a
    /// dead node) is an error and changes nothing; an action the cluster refuses (a promotion
    /// of a lagging learner, a write without a leader) is an outcome, logged as an event.
    pub fn apply(&mut self, action: &Action) -> Result<(), String> {
        self.apply_worded(action).map_err(|e| e.render(Lang::En))
    }

    /// [`Sim::apply`], with the error as a message for any language.
    pub fn apply_worded(&mut self, action: &Action) -> Result<(), Msg> {
        // An action may change any node (and one that fails is not checked after).
        self.checker.unsettle_all();
        self.commit_bound = u64::MAX;
        let r = self.apply_inner(action);
        if r.is_ok() {
            self.settle_lost();
            // Most actions (a write, a read) change nothing that links and reachability
            // depend on; then both are already up to date.
            let shape = self.shape();
            let same = shape.is_some() && shape == self.shape_seen;
            if !same {
                self.refresh_links();
            }
            self.schedule_retry();
            self.check(|| Msg::verbatim(action.to_scn()), None);
            if !same {
                self.note_reachability();
            }
            self.shape_seen = shape;
        }
        r
    }

    fn apply_inner(&mut self, action: &Action) -> Result<(), Msg> {
        match action {
            Action::Kill(id) => {
                self.require_running(*id)?;
                let n = self.nodes.get_mut(id).expect("checked");
                n.status = Status::Killed;
                n.epoch += 1;
                self.log(
                    Some(*id),
                    EventKind::Fault,
                    crate::msg!("ev.crashed").arg("id", *id),
                );
                self.fail_requests_held_by(*id);
            }
            Action::Restart(id) => {
                let n = self.node_ref(*id)?;
                if n.status != Status::Killed {
                    return Err(crate::msg!("err.not_killed")
                        .arg("id", *id)
                        .arg("status", labels::status(n.status)));
                }
                self.restart_node(*id, false);
                self.log(
                    Some(*id),
                    EventKind::Fault,
                    crate::msg!("ev.restarted").arg("id", *id),
                );
            }
            Action::Isolate(id) => {
                self.node_ref(*id)?;
                let all = self.ids();
                self.net.isolate(*id, &all);
                self.log(
                    Some(*id),
                    EventKind::Fault,
                    crate::msg!("ev.isolated").arg("id", *id),
                );
            }
            Action::Partition(groups) => {
                for g in groups {
                    for id in g {
                        self.node_ref(*id)?;
                    }
                }
                self.net
                    .partition(groups.iter().map(|g| g.iter().copied().collect()).collect());
                self.log(
                    None,
                    EventKind::Fault,
                    crate::msg!("ev.partitioned")
                        .arg("groups", action.to_scn().trim_start_matches("partition ")),
                );
            }
            Action::Cut(a, b) => {
                self.node_ref(*a)?;
                self.node_ref(*b)?;
                if a == b {
                    return Err(crate::msg!("err.cut_itself"));
                }
                self.net.cut(*a, *b);
                self.log(
                    None,
                    EventKind::Fault,
                    crate::msg!("ev.cut").arg("a", *a).arg("b", *b),
                );
            }
            Action::Loss(p) => {
                if *p > 100 {
                    return Err(crate::msg!("err.loss_over").arg("percent", *p));
                }
                self.net.loss = *p;
                self.log(
                    None,
                    EventKind::Fault,
                    crate::msg!("ev.loss").arg("percent", *p),
                );
            }
            Action::Heal => {
                self.net.heal();
                self.log(None, EventKind::Fault, crate::msg!("ev.healed"));
            }
            Action::Campaign(id) => {
                self.require_running(*id)?;
                self.nodes.get_mut(id).expect("checked").raft.campaign_now();
                self.flush(*id);
            }
            Action::Propose { key, value, via } => self.propose(key, value, *via)?,
            Action::Read {
                key,
                via,
                linearizable,
            } => self.read(key, *via, *linearizable)?,
            Action::MemberAdd {
                node,
                learner,
                misconfigured,
            } => self.member_add(*node, *learner, *misconfigured)?,
            Action::Start(id) => {
                let n = self.node_ref(*id)?;
                match n.status {
                    Status::NotStarted => {
                        self.start_node(*id);
                        self.log(
                            Some(*id),
                            EventKind::Membership,
                            crate::msg!("ev.started").arg("id", *id),
                        );
                    }
                    Status::Misconfigured => self.log(
                        Some(*id),
                        EventKind::Membership,
                        crate::msg!("ev.never_up").arg("id", *id),
                    ),
                    s => {
                        return Err(crate::msg!("err.not_new_member")
                            .arg("id", *id)
                            .arg("status", labels::status(s)))
                    }
                }
            }
            Action::Promote(id) => self.promote(*id)?,
            Action::Remove(id) => {
                self.node_ref(*id)?;
                self.conf_change(
                    ConfChange::new(vec![ConfChangeSingle::RemoveNode(*id)]),
                    format!("remove n{id}"),
                    Vec::new(),
                );
            }
            Action::MemberChange {
                add,
                learners,
                remove,
            } => {
                for id in remove {
                    self.node_ref(*id)?;
                }
                if let Some(id) = add
                    .iter()
                    .chain(learners)
                    .find(|id| self.removed.contains(id))
                {
                    return Err(crate::msg!("err.id_reused").arg("id", *id));
                }
                let mut changes = Vec::new();
                for id in add {
                    changes.push(ConfChangeSingle::AddNode(*id));
                }
                for id in learners {
                    changes.push(ConfChangeSingle::AddLearner(*id));
                }
                for id in remove {
                    changes.push(ConfChangeSingle::RemoveNode(*id));
                }
                if changes.is_empty() {
                    return Err(crate::msg!("err.empty_change"));
                }
                let fresh: Vec<NodeId> = add
                    .iter()
                    .chain(learners)
                    .copied()
                    .filter(|id| !self.nodes.contains_key(id))
                    .collect();
                for id in &fresh {
                    self.create_node(*id);
                }
                let cc = ConfChange::new(changes);
                let label = format!("member change {}", cc.describe());
                self.conf_change(cc, label, fresh);
            }
            Action::TransferLeader(id) => self.transfer_leader(*id)?,
            Action::Compact(id) => {
                self.require_running(*id)?;
                self.nodes.get_mut(id).expect("checked").raft.compact();
                self.flush(*id);
            }
            Action::ForceNewCluster(id) => {
                let n = self.node_ref(*id)?;
                if !matches!(n.status, Status::Running | Status::Killed) {
                    return Err(crate::msg!("err.node_is")
                        .arg("id", *id)
                        .arg("status", labels::status(n.status)));
                }
                if force::would_remove_all_voters(&n.raft) {
                    return Err(crate::msg!("err.force_learner").arg("id", *id));
                }
                // Said first, as etcd logs "forcing restart of member ... at commit index N"
                // (and "discarding K uncommitted WAL entries" when there are any) before the
                // configuration changes it writes are applied.
                let (commit, last) = (n.raft.log.committed, n.raft.log.last_index());
                // Its clients' requests fail as the old process stops.
                if n.status == Status::Running {
                    self.fail_requests_held_by(*id);
                }
                let said = match last.saturating_sub(commit) {
                    0 => crate::msg!("ev.force_new_cluster"),
                    1 => crate::msg!("ev.force_new_cluster_dropped_one").arg("index", last),
                    _ => crate::msg!("ev.force_new_cluster_dropped")
                        .arg("from", commit + 1)
                        .arg("to", last),
                };
                self.log(
                    Some(*id),
                    EventKind::Membership,
                    said.arg("id", *id).arg("commit", commit),
                );
                self.checker.force_new_cluster(*id);
                // A member removed by the old cluster is the one member of the new one (etcd
                // rewrites its membership store): members added later must accept it.
                self.removed.remove(id);
                self.restart_node(*id, true);
            }
            Action::Drop(mid) => {
                let Some(f) = self.net.in_flight.remove(mid) else {
                    return Err(crate::msg!("err.no_message").arg("id", *mid));
                };
                self.log(
                    Some(f.msg.from),
                    EventKind::Fault,
                    crate::msg!("ev.dropped_by_hand")
                        .arg("type", labels::etcd_msg(f.msg.msg_type))
                        .arg("from", f.msg.from)
                        .arg("to", f.msg.to),
                );
                self.dropped(&f);
            }
            Action::Set { name, value } => {
                let mut o = self.opts.clone();
                o.set(name, value)?;
                o.check()?;
                if o.seed != self.opts.seed {
                    return Err(crate::msg!("err.seed_fixed"));
                }
                self.opts = o;
                let cfg = self.opts.raft_config();
                for n in self.nodes.values_mut() {
                    n.raft.cfg = cfg.clone();
                }
                self.log(
                    None,
                    EventKind::Info,
                    crate::msg!("ev.option_set")
                        .arg("name", name.as_str())
                        .arg("value", value.as_str()),
                );
            }
        }
        Ok(())
    }

    /// A member that goes down (it crashes, is restarted, is forced into a new cluster, or
    /// stops as removed) takes its clients' requests with it: their connections close and
    /// etcd's client reports `transport is closing`. That is every read and write the member
    /// was serving: forwarded or proposed, and held because it knew no leader (etcd's raft
    /// node takes no proposal while it has none, so the server waits with the request). The
    /// client retries neither (a write may have reached the leader: it may still be
    /// committed, see [`Refusal::MemberDown`]). A request the client is still backing off
    /// with stays with the client. The restarted process knows nothing of the failed ones,
    /// so it must never answer one. Call it only for a member that was running.
    fn fail_requests_held_by(&mut self, id: NodeId) {
        let now = self.now;
        let open: Vec<u64> = self
            .requests
            .values()
            .filter(|r| {
                r.via == Some(id)
                    && r.outcome == Outcome::Pending
                    && matches!(r.kind, ReqKind::Read { .. } | ReqKind::Write { .. })
                    && self.waiting.get(&r.id).is_none_or(|w| w.not_before <= now)
            })
            .map(|r| r.id)
            .collect();
        for req in open {
            self.reject(req, Refusal::MemberDown { id, later: None });
        }
    }

    /// Starts `id` anew from its durable state. Its clients' requests are the caller's: a
    /// killed member's failed when it crashed (those sent since wait with the client), and a
    /// forced running one fails them before it says so.
    fn restart_node(&mut self, id: NodeId, force_new_cluster: bool) {
        let node_rng = self.rng.fork(id);
        let cfg = self.opts.raft_config();
        self.reset_links(id);
        let n = self.nodes.get_mut(&id).expect("caller checked");
        let mut raft = Raft::restart(id, n.raft.durable(), cfg, node_rng);
        if force_new_cluster {
            raft.force_new_cluster();
        }
        n.raft = raft;
        n.status = Status::NotStarted;
        self.start_node(id);
        self.flush(id);
    }
}

/// What a node's step writes to besides the node, borrowed apart from the node map
/// ([`Sim::split`]).
struct Outlet<'a> {
    rng: &'a mut Rng,
    net: &'a mut Network,
    queue: &'a mut EventQueue<Due>,
    seq: &'a mut u64,
    opts: &'a Options,
    now: u64,
    checker: &'a mut Checker,
    commit_bound: &'a mut u64,
    removed: &'a VecSet<NodeId>,
}

impl Outlet<'_> {
    /// Runs `update` on node `id`'s raft state. Every change of a node's raft state passes
    /// through here: the checker forgets the node's settled mark, the commit bound rises to
    /// its commit index, and what it wrote to its outbox is sent.
    fn change(&mut self, id: NodeId, raft: &mut Raft, update: impl FnOnce(&mut Raft)) {
        self.checker.unsettle(id);
        update(raft);
        *self.commit_bound = (*self.commit_bound).max(raft.log.committed);
        // What it wrote goes in flight, each message with its latency and fate drawn in
        // outbox order, and its delivery is queued.
        for m in raft.msgs.drain(..) {
            let latency = self
                .rng
                .range(self.opts.latency_min, self.opts.latency_max + 1);
            let lost = self.rng.chance(self.net.loss);
            let (mid, at) = self.net.send(m, self.now, latency, lost);
            enqueue(self.queue, self.seq, at, Due::Deliver { msg: mid });
        }
    }
}

/// Queues `due` at `at`, after everything already queued for that time (`seq` numbers them).
fn enqueue(queue: &mut EventQueue<Due>, seq: &mut u64, at: u64, due: Due) {
    *seq += 1;
    queue.push(at, *seq, due);
}

/// The checker's view of node `id`: None until its process started.
fn observed(nodes: &VecMap<NodeId, SimNode>, id: NodeId) -> Option<Observed<'_>> {
    nodes
        .get(&id)
        .filter(|n| !matches!(n.status, Status::NotStarted | Status::Misconfigured))
        .map(|n| Observed {
            raft: &n.raft,
            alive: n.status == Status::Running,
        })
}

/// What a deserialized simulator knows of its nodes' commit indexes: nothing.
fn unknown_commit_bound() -> u64 {
    u64::MAX
}

/// A read's value for the event log: the value itself, or "(none)" in the reader's language.
fn shown_value(value: Option<&str>) -> Msg {
    match value {
        Some(v) => Msg::verbatim(v),
        None => crate::msg!("word.none"),
    }
}
