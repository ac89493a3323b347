//! What a leader knows about every other member: the configuration and each member's progress.
//!
//! Progress follows etcd's three states (seed 000): `Probe` sends one append per heartbeat
//! until the follower's log position is found; `Replicate` streams appends optimistically,
//! bounded by an inflight window; `Snapshot` sends nothing until a snapshot is acknowledged.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, VecDeque};
use std::fmt;
use std::hash::{DefaultHasher, Hash, Hasher};

use super::message::NodeId;
use super::quorum::{self, MajorityConfig, VoteResult};
use super::vec_map::VecMap;

/// A membership configuration. While `outgoing` is non-empty the cluster is in a joint
/// configuration and every decision needs a majority of both `voters` and `outgoing`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Config {
    /// The (incoming) voters.
    pub voters: MajorityConfig,
    /// The outgoing voters of a joint configuration; empty otherwise.
    pub outgoing: MajorityConfig,
    /// Non-voting members: they receive the log but never count and never campaign.
    pub learners: BTreeSet<NodeId>,
    /// Voters of the outgoing half that become learners when the joint state is left.
    pub learners_next: BTreeSet<NodeId>,
    /// Whether the leader leaves the joint configuration by itself once it is applied.
    pub auto_leave: bool,
}

impl Config {
    /// A configuration of the given voters and nothing else.
    pub fn with_voters(ids: impl IntoIterator<Item = NodeId>) -> Config {
        Config {
            voters: ids.into_iter().collect(),
            ..Config::default()
        }
    }

    /// Whether this is a joint configuration.
    pub fn is_joint(&self) -> bool {
        !self.outgoing.is_empty()
    }

    /// Every voter of either half.
    pub fn all_voters(&self) -> BTreeSet<NodeId> {
        self.voters.union(&self.outgoing).copied().collect()
    }

    /// Every member: voters of either half and learners.
    pub fn members(&self) -> BTreeSet<NodeId> {
        let mut m = self.all_voters();
        m.extend(self.learners.iter().copied());
        m.extend(self.learners_next.iter().copied());
        m
    }

    /// Whether `id` votes in this configuration.
    pub fn is_voter(&self, id: NodeId) -> bool {
        self.voters.contains(&id) || self.outgoing.contains(&id)
    }

    /// Whether `id` is a learner (now or once the joint state is left).
    pub fn is_learner(&self, id: NodeId) -> bool {
        self.learners.contains(&id) || self.learners_next.contains(&id)
    }

    /// Counts votes under this configuration (both majorities when joint).
    pub fn vote_result(&self, votes: &VecMap<NodeId, bool>) -> VoteResult {
        quorum::joint_vote_result(&self.voters, &self.outgoing, votes)
    }

    /// The index committed under this configuration given each voter's acknowledged index.
    pub fn committed_index(&self, acked: &dyn Fn(NodeId) -> Option<u64>) -> u64 {
        quorum::joint_committed_index(&self.voters, &self.outgoing, acked)
    }

    /// "voters=(1 2 3)&&(1 2 4) learners=(5)", as etcd prints configurations.
    pub fn describe(&self) -> String {
        let fmt = |s: &BTreeSet<NodeId>| {
            s.iter()
                .map(|n| format!("n{n}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut out = format!("voters=({})", fmt(&self.voters));
        if self.is_joint() {
            out.push_str(&format!("&&({})", fmt(&self.outgoing)));
        }
        if !self.learners.is_empty() {
            out.push_str(&format!(" learners=({})", fmt(&self.learners)));
        }
        if !self.learners_next.is_empty() {
            out.push_str(&format!(" learners_next=({})", fmt(&self.learners_next)));
        }
        out
    }
}

/// The replication state of one follower, as the leader sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ProgressState {
    /// Finding the follower's log position: one append per heartbeat interval.
    Probe,
    /// Streaming appends, up to the inflight window.
    Replicate,
    /// A snapshot is on its way; nothing else is sent.
    Snapshot,
}

impl ProgressState {
    /// "probe", "replicate" or "snapshot".
    pub fn name(self) -> &'static str {
        match self {
            ProgressState::Probe => "probe",
            ProgressState::Replicate => "replicate",
            ProgressState::Snapshot => "snapshot",
        }
    }
}

/// The sliding window of appends sent but not yet acknowledged (flow control, seed 000).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inflights {
    /// The last index of each append in flight, in sending order.
    pub last_indexes: VecDeque<u64>,
    /// The window size (etcd's MaxInflightMsgs).
    pub cap: usize,
}

impl Inflights {
    /// An empty window of `cap` messages.
    pub fn new(cap: usize) -> Inflights {
        Inflights {
            last_indexes: VecDeque::new(),
            cap: cap.max(1),
        }
    }

    /// Records an append whose last entry is `last`.
    pub fn add(&mut self, last: u64) {
        self.last_indexes.push_back(last);
    }

    /// Frees every append up to and including index `to`.
    pub fn free_le(&mut self, to: u64) {
        while matches!(self.last_indexes.front(), Some(&i) if i <= to) {
            self.last_indexes.pop_front();
        }
    }

    /// Frees the oldest append. Only the pre-3.6 flow control does this (on a heartbeat
    /// response); etcd 3.6 frees slots on append responses alone.
    pub fn free_first_one(&mut self) {
        self.last_indexes.pop_front();
    }

    /// Whether the window is full.
    pub fn full(&self) -> bool {
        self.last_indexes.len() >= self.cap
    }

    /// How many appends are in flight.
    pub fn count(&self) -> usize {
        self.last_indexes.len()
    }
}

/// One member's replication progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// The highest index known to be in the follower's log.
    pub matched: u64,
    /// The next index to send.
    pub next: u64,
    /// Probe, replicate or snapshot.
    pub state: ProgressState,
    /// In Snapshot state: the index of the snapshot being sent.
    pub pending_snapshot: u64,
    /// Whether the follower was heard from since the last check-quorum.
    pub recent_active: bool,
    /// The append flow is throttled (etcd's MsgAppFlowPaused): in Probe after an append with
    /// entries, in Replicate once the inflight window is full. A heartbeat response or an
    /// acknowledgement clears it, which lets exactly one more append out.
    pub msg_app_flow_paused: bool,
    /// The highest commit index sent to the follower (etcd's sentCommit), so that a lagging
    /// follower is sent the commit index again only when that can move its commit.
    pub sent_commit: u64,
    /// Appends in flight.
    pub inflights: Inflights,
    /// Whether the member is a learner.
    pub is_learner: bool,
}

impl Progress {
    /// Fresh progress in Probe state, expecting to send `next` first.
    pub fn new(next: u64, max_inflight: usize, is_learner: bool) -> Progress {
        Progress {
            matched: 0,
            next: next.max(1),
            state: ProgressState::Probe,
            pending_snapshot: 0,
            recent_active: false,
            msg_app_flow_paused: false,
            sent_commit: 0,
            inflights: Inflights::new(max_inflight),
            is_learner,
        }
    }

    fn reset_state(&mut self, state: ProgressState) {
        self.msg_app_flow_paused = false;
        self.pending_snapshot = 0;
        self.state = state;
        self.inflights.last_indexes.clear();
    }

    /// Back to probing: after a snapshot, from `max(match+1, pending_snapshot+1)`.
    pub fn become_probe(&mut self) {
        if self.state == ProgressState::Snapshot {
            let pending = self.pending_snapshot;
            self.reset_state(ProgressState::Probe);
            self.next = (self.matched + 1).max(pending + 1);
        } else {
            self.reset_state(ProgressState::Probe);
            self.next = self.matched + 1;
        }
        self.sent_commit = self.sent_commit.min(self.next - 1);
    }

    /// Start streaming right after the acknowledged index.
    pub fn become_replicate(&mut self) {
        self.reset_state(ProgressState::Replicate);
        self.next = self.matched + 1;
    }

    /// Stop appending while the snapshot at `index` is sent: the follower will hold
    /// everything up to `index` (and its commit) once it arrives.
    pub fn become_snapshot(&mut self, index: u64) {
        self.reset_state(ProgressState::Snapshot);
        self.pending_snapshot = index;
        self.next = index + 1;
        self.sent_commit = index;
    }

    /// Whether the leader must hold appends to this member for now.
    pub fn is_paused(&self) -> bool {
        match self.state {
            ProgressState::Probe | ProgressState::Replicate => self.msg_app_flow_paused,
            ProgressState::Snapshot => true,
        }
    }

    /// Records that an append ending at `last` (with `n` entries) was sent. Only an append
    /// with entries pauses a probe; in Replicate the flow pauses once the window is full.
    pub fn sent_entries(&mut self, n: usize, last: u64) {
        match self.state {
            ProgressState::Replicate => {
                if n > 0 {
                    self.next = last + 1;
                    self.inflights.add(last);
                }
                self.msg_app_flow_paused = self.inflights.full();
            }
            ProgressState::Probe => {
                if n > 0 {
                    self.msg_app_flow_paused = true;
                }
            }
            ProgressState::Snapshot => {}
        }
    }

    /// Whether sending commit index `index` could move the follower's commit: it is newer
    /// than what was sent and what was sent does not already cover everything in flight.
    pub fn can_bump_commit(&self, index: u64) -> bool {
        index > self.sent_commit && self.sent_commit < self.next - 1
    }

    /// An acknowledgement of index `n`; returns whether `matched` moved (stale acks do not).
    pub fn maybe_update(&mut self, n: u64) -> bool {
        let updated = self.matched < n;
        if updated {
            self.matched = n;
            self.msg_app_flow_paused = false;
        }
        self.next = self.next.max(n + 1);
        updated
    }

    /// A rejection of the append at `rejected`, with the follower's hint; returns false when
    /// the rejection is stale (answers an append sent before the last decrement).
    pub fn maybe_decr_to(&mut self, rejected: u64, match_hint: u64) -> bool {
        if self.state == ProgressState::Replicate {
            if rejected <= self.matched {
                return false;
            }
            self.next = self.matched + 1;
            // What was sent past the rejection point was most likely not applied.
            self.sent_commit = self.sent_commit.min(self.next - 1);
            return true;
        }
        if self.next == 0 || self.next - 1 != rejected {
            return false;
        }
        self.next = rejected.min(match_hint + 1).max(self.matched + 1);
        self.sent_commit = self.sent_commit.min(self.next - 1);
        self.msg_app_flow_paused = false;
        true
    }
}

/// The leader's bookkeeping: configuration, per-member progress, and the votes of a campaign.
///
/// `Debug`, `PartialEq` and serde see only the four public fields (the configuration stamp is
/// bookkeeping for observers, not state), so the fingerprints built from `Debug` text do not
/// depend on it.
#[derive(Clone, Default, Serialize, Deserialize)]
pub struct ProgressTracker {
    /// The configuration in force (the last one applied). Change it with
    /// [`ProgressTracker::set_config`], which also renews [`ProgressTracker::config_stamp`].
    pub config: Config,
    /// Progress of every member of `config` (the node itself included).
    pub progress: VecMap<NodeId, Progress>,
    /// Votes received in the current campaign.
    pub votes: VecMap<NodeId, bool>,
    /// The inflight window for new progress entries.
    pub max_inflight: usize,
    /// See [`ProgressTracker::config_stamp`].
    #[serde(skip)]
    config_stamp: u64,
}

/// A digest of `config`, never 0: equal configurations give equal digests, whatever the
/// process did before (SipHash with the standard library's fixed keys, no global state), and
/// different ones differ but for a 64-bit collision.
fn config_digest(config: &Config) -> u64 {
    let mut h = DefaultHasher::new();
    config.hash(&mut h);
    h.finish().max(1)
}

impl fmt::Debug for ProgressTracker {
    /// As `#[derive(Debug)]` would print it without the stamp (fingerprints are built from
    /// this text).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProgressTracker")
            .field("config", &self.config)
            .field("progress", &self.progress)
            .field("votes", &self.votes)
            .field("max_inflight", &self.max_inflight)
            .finish()
    }
}

impl PartialEq for ProgressTracker {
    /// Equal state; the stamps may differ.
    fn eq(&self, other: &Self) -> bool {
        self.config == other.config
            && self.progress == other.progress
            && self.votes == other.votes
            && self.max_inflight == other.max_inflight
    }
}

impl Eq for ProgressTracker {}

impl ProgressTracker {
    /// A tracker for `config`, every member's progress starting at `next`.
    pub fn new(config: Config, next: u64, max_inflight: usize) -> ProgressTracker {
        let mut t = ProgressTracker {
            config: Config::default(),
            progress: VecMap::new(),
            votes: VecMap::new(),
            max_inflight,
            config_stamp: 0,
        };
        t.set_config(config, next);
        t
    }

    /// Names the configuration set by the last [`ProgressTracker::set_config`]: a digest of
    /// it, so two trackers with the same non-zero stamp hold equal configurations (barring a
    /// 64-bit collision), and the stamp depends on nothing but the configuration. 0 means
    /// unknown (a default or deserialized tracker). It lets an observer that looks after every
    /// event (the invariant checker) tell "unchanged" in O(1); it is only true as long as
    /// `config` is not assigned directly.
    pub fn config_stamp(&self) -> u64 {
        self.config_stamp
    }

    /// Switches to `config`: keeps the progress of members that stay, creates it for new ones
    /// (marked recently active so check-quorum gives them a chance), drops the rest.
    pub fn set_config(&mut self, config: Config, next: u64) {
        let members = config.members();
        self.progress.retain(|id, _| members.contains(id));
        for id in &members {
            let learner = config.is_learner(*id) && !config.is_voter(*id);
            let pr = self.progress.get_or_insert_with(*id, || {
                let mut p = Progress::new(next, self.max_inflight, learner);
                p.recent_active = true;
                p
            });
            pr.is_learner = learner;
        }
        self.config_stamp = config_digest(&config);
        self.config = config;
    }

    /// The highest index a quorum has acknowledged (learners do not count).
    pub fn committed(&self) -> u64 {
        let half = |voters: &BTreeSet<NodeId>| {
            let acked = self.progress.iter().map(|(id, p)| (*id, p.matched));
            quorum::committed_index_merged(voters, acked)
        };
        half(&self.config.voters).min(half(&self.config.outgoing))
    }

    /// Records a vote and returns the campaign's outcome so far.
    pub fn record_vote(&mut self, id: NodeId, granted: bool) -> VoteResult {
        self.votes.get_or_insert_with(id, || granted);
        self.config.vote_result(&self.votes)
    }

    /// (granted, rejected) among voters.
    pub fn tally(&self) -> (usize, usize) {
        let voters = self.config.all_voters();
        let granted = self
            .votes
            .iter()
            .filter(|(id, v)| **v && voters.contains(id))
            .count();
        let rejected = self
            .votes
            .iter()
            .filter(|(id, v)| !**v && voters.contains(id))
            .count();
        (granted, rejected)
    }

    /// Whether a quorum was recently active (check-quorum). `me` always counts as active.
    pub fn quorum_active(&self, me: NodeId) -> bool {
        let mut votes: VecMap<NodeId, bool> = VecMap::new();
        votes.extend(
            self.progress
                .iter()
                .filter(|(_, p)| !p.is_learner)
                .map(|(id, p)| (*id, *id == me || p.recent_active)),
        );
        self.config.vote_result(&votes) == VoteResult::Won
    }

    /// How many voters were recently active, out of how many (for the event log).
    pub fn active_voters(&self, me: NodeId) -> (usize, usize) {
        let voters = self.config.all_voters();
        let active = voters
            .iter()
            .filter(|id| **id == me || self.progress.get(id).is_some_and(|p| p.recent_active))
            .count();
        (active, voters.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_stamp_names_a_configuration_but_is_not_state() {
        let a = ProgressTracker::new(Config::with_voters([1, 2, 3]), 1, 8);
        let b = ProgressTracker::new(Config::with_voters([1, 2, 3]), 1, 8);
        assert_ne!(a.config_stamp(), 0);
        // The same configuration, built apart: the same stamp (it depends on nothing else,
        // no counter shared by the process).
        assert_eq!(a.config_stamp(), b.config_stamp());
        assert_eq!(a.clone().config_stamp(), a.config_stamp());
        let mut c = a.clone();
        c.set_config(Config::with_voters([1, 2, 4]), 1);
        assert_ne!(c.config_stamp(), a.config_stamp());
        let mut joint = Config::with_voters([1, 2, 3]);
        joint.outgoing = [1, 2, 4].into_iter().collect();
        c.set_config(joint, 1);
        assert_ne!(c.config_stamp(), a.config_stamp());
        c.set_config(Config::with_voters([1, 2, 3]), 1);
        assert_eq!(c.config_stamp(), a.config_stamp());
        // Not state: a deserialized tracker (stamp unknown, 0) equals the original, and the
        // Debug text (fingerprints) never shows the stamp.
        let d: ProgressTracker = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
        assert_eq!(d.config_stamp(), 0);
        assert_eq!(a, d);
        assert_eq!(format!("{a:?}"), format!("{d:?}"));
        assert!(!format!("{a:?}").contains("stamp"));
    }

    #[test]
    fn inflight_window_fills_and_frees() {
        let mut w = Inflights::new(2);
        w.add(3);
        assert!(!w.full());
        w.add(5);
        assert!(w.full());
        w.free_le(3);
        assert_eq!(w.count(), 1);
        w.free_first_one();
        assert_eq!(w.count(), 0);
    }

    #[test]
    fn probe_pauses_after_one_append_replicate_after_window() {
        let mut p = Progress::new(5, 2, false);
        assert!(!p.is_paused());
        p.sent_entries(1, 5);
        assert!(p.is_paused(), "probe sends one append per heartbeat");
        p.maybe_update(5);
        p.become_replicate();
        p.sent_entries(1, 6);
        p.sent_entries(1, 7);
        assert!(p.is_paused(), "replicate stops at the inflight window");
        assert_eq!(p.next, 8);
    }

    #[test]
    fn stale_rejections_are_ignored() {
        let mut p = Progress::new(10, 4, false);
        // Probing at next=10 sent index 9; a rejection of index 7 is stale.
        assert!(!p.maybe_decr_to(7, 3));
        assert!(p.maybe_decr_to(9, 3));
        assert_eq!(p.next, 4, "jumps to the follower's hint + 1");
    }

    #[test]
    fn snapshot_back_to_probe_after_the_snapshot() {
        let mut p = Progress::new(1, 4, false);
        p.become_snapshot(20);
        assert!(p.is_paused());
        p.become_probe();
        assert_eq!(p.next, 21);
    }

    #[test]
    fn become_snapshot_sets_next_after_the_snapshot() {
        let mut p = Progress::new(3, 4, false);
        p.become_snapshot(20);
        assert_eq!((p.next, p.sent_commit), (21, 20));
        assert!(!p.can_bump_commit(20), "the snapshot carries commit 20");
    }

    #[test]
    fn probe_is_paused_only_by_an_append_with_entries() {
        let mut p = Progress::new(5, 4, false);
        p.sent_entries(0, 4);
        assert!(!p.is_paused(), "an empty probe does not pause the flow");
        p.sent_entries(1, 5);
        assert!(p.is_paused());
    }

    #[test]
    fn replicate_pauses_when_the_window_fills_even_on_empty_appends() {
        let mut p = Progress::new(5, 1, false);
        p.maybe_update(4);
        p.become_replicate();
        p.sent_entries(1, 5);
        assert!(p.is_paused());
        // A heartbeat response unpauses; the empty append it triggers pauses again.
        p.msg_app_flow_paused = false;
        p.sent_entries(0, 5);
        assert!(p.is_paused());
        assert_eq!(p.inflights.count(), 1, "no slot was freed");
    }

    #[test]
    fn commit_is_bumped_only_while_it_can_move() {
        let mut p = Progress::new(5, 4, false);
        p.maybe_update(4);
        p.become_replicate();
        p.sent_entries(2, 6);
        p.sent_commit = 3;
        assert!(p.can_bump_commit(5));
        assert!(!p.can_bump_commit(3));
        p.sent_commit = 6;
        assert!(
            !p.can_bump_commit(7),
            "commit 6 already covers all that was sent"
        );
    }

    #[test]
    fn learners_are_not_counted_for_commit() {
        let mut cfg = Config::with_voters([1, 2, 3]);
        cfg.learners.insert(4);
        let mut t = ProgressTracker::new(cfg, 1, 8);
        for (id, m) in [(1, 10), (2, 2), (3, 2), (4, 10)] {
            t.progress.get_mut(&id).unwrap().matched = m;
        }
        assert_eq!(
            t.committed(),
            2,
            "the learner's 10 must not make a majority"
        );
    }
}
