//! What etcd's server knows about its peers beyond raft, and the quorum at a glance.
//!
//! etcd's transport remembers since when each peer has been connected (ActiveSince); the
//! strict reconfiguration check wants peers connected for longer than the health interval
//! (HealthInterval, 5 s), and members that have ever started (IsStarted). The simulator
//! keeps both, in simulated time, and hands them to the core as a [`ServerView`].
//!
//! [`Sim::quorum_status`] is the one place that counts voters per half of a (possibly
//! joint) configuration: the UI, the CLI and the scenario conditions all read it.

use serde::{Deserialize, Serialize};

use crate::raft::quorum::quorum_size;
use crate::raft::vec_map::{VecMap, VecSet};
use crate::raft::{Config, NodeId, Raft, ServerView};

use super::cluster::{Sim, Status};
use super::network::Network;
use super::TICK_MS;

/// etcd's HealthInterval: how long a peer must have been connected to count as healthy, ms.
pub const HEALTH_INTERVAL_MS: u64 = 5000;

/// Without a partition or a cut, everything [`Sim::refresh_links`] and the reachability
/// notes after an action read: per node, in id order, its status, its epoch (a restart
/// starts its links over) and its configuration stamp (a digest of its configuration).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape(Vec<(NodeId, Status, u64, u64)>);

/// One half of a configuration (the only one when not joint), as the leader sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HalfStatus {
    /// Its voters.
    pub voters: VecSet<NodeId>,
    /// How many make a quorum.
    pub quorum: usize,
    /// Voters whose process runs.
    pub alive: usize,
    /// Voters the leader reaches (itself included): running and connected. None without a
    /// leader.
    pub reachable: Option<usize>,
    /// Whether the leader reaches a quorum of this half.
    pub has_quorum: bool,
}

/// The quorum of the configuration in force, half by half.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuorumStatus {
    /// The leader, if any.
    pub leader: Option<NodeId>,
    /// The incoming (or only) half.
    pub incoming: HalfStatus,
    /// The outgoing half of a joint configuration.
    pub outgoing: Option<HalfStatus>,
    /// Whether the leader reaches a quorum of every half (what committing needs).
    pub has_quorum: bool,
}

/// Whether `links` holds exactly the pairs of `running` members (sorted) that `net` connects:
/// then bringing it up to date would change nothing. One pass in key order, no lookups, so
/// the check after a write costs little even at 64 members.
fn links_hold_exactly(
    links: &VecMap<NodeId, VecMap<NodeId, u64>>,
    running: &[NodeId],
    net: &Network,
) -> bool {
    let mut held = links.iter();
    let all_expected = running.iter().enumerate().all(|(i, a)| {
        let mut want = running[i + 1..]
            .iter()
            .filter(|b| net.connected(*a, **b))
            .peekable();
        if want.peek().is_none() {
            // No link expected from `a`: an entry for it (even an empty one) is a
            // difference, found when the next key does not match.
            return true;
        }
        match held.next() {
            Some((k, to)) => k == a && to.keys().eq(want),
            None => false,
        }
    });
    all_expected && held.next().is_none()
}

impl Sim {
    /// The quorum of the configuration in force ([`Sim::config`]): voters per half, how many
    /// run, how many the leader reaches, and whether each half has its quorum.
    pub fn quorum_status(&self) -> QuorumStatus {
        let cfg = self.config();
        let leader = self.leader();
        let half = |voters: &VecSet<NodeId>| {
            let quorum = quorum_size(voters);
            let alive = voters.iter().filter(|v| self.is_running(**v)).count();
            let reachable = self.reachable_voters(voters);
            HalfStatus {
                voters: voters.clone(),
                quorum,
                alive,
                reachable,
                has_quorum: reachable.is_some_and(|r| r >= quorum),
            }
        };
        let incoming = half(&cfg.voters);
        let outgoing = cfg.is_joint().then(|| half(&cfg.outgoing));
        let has_quorum = incoming.has_quorum && outgoing.as_ref().is_none_or(|o| o.has_quorum);
        QuorumStatus {
            leader,
            incoming,
            outgoing,
            has_quorum,
        }
    }

    /// What the links record and the reachability notes are computed from, if it can vouch
    /// for that: None under a partition or a cut (who reaches whom then depends on them), or
    /// while a node's configuration stamp is unknown.
    pub(super) fn shape(&self) -> Option<Shape> {
        if !(self.net.groups.is_empty() && self.net.cuts.is_empty()) {
            return None;
        }
        let mut nodes = Vec::with_capacity(self.nodes.len());
        for (&id, n) in &self.nodes {
            let stamp = n.raft.trk.config_stamp();
            if stamp == 0 {
                return None;
            }
            nodes.push((id, n.status, n.epoch, stamp));
        }
        Some(Shape(nodes))
    }

    /// [`Sim::could_reach_quorum`] of every node, in id order. It runs after every user
    /// action: without a partition or a cut every two running members are connected, so a
    /// running node reaches a quorum exactly when enough voters of each half run, counted
    /// once per distinct configuration rather than once per node and voter.
    pub(super) fn reachability(&self) -> Vec<(NodeId, bool)> {
        if !(self.net.groups.is_empty() && self.net.cuts.is_empty()) {
            return self
                .nodes
                .keys()
                .map(|&id| (id, self.could_reach_quorum(id)))
                .collect();
        }
        let running: Vec<NodeId> = self
            .nodes
            .iter()
            .filter(|(_, n)| n.status == Status::Running)
            .map(|(id, _)| *id)
            .collect();
        let half_ok = |voters: &VecSet<NodeId>| {
            voters.is_empty()
                || voters
                    .iter()
                    .filter(|v| running.binary_search(v).is_ok())
                    .count()
                    > voters.len() / 2
        };
        let mut last: Option<(&Config, u64, bool)> = None;
        self.nodes
            .iter()
            .map(|(&id, n)| {
                if n.status != Status::Running {
                    return (id, false);
                }
                let cfg = &n.raft.trk.config;
                // Equal non-zero stamps name equal configurations (the stamp is a digest of
                // it), which spares comparing the sets of every node with the previous one.
                let stamp = n.raft.trk.config_stamp();
                let reaches = match last {
                    Some((c, s, r)) if (stamp != 0 && s == stamp) || c == cfg => r,
                    _ => {
                        let r = half_ok(&cfg.voters) && half_ok(&cfg.outgoing);
                        last = Some((cfg, stamp, r));
                        r
                    }
                };
                (id, reaches)
            })
            .collect()
    }

    /// Whether the leader's progress table marks `peer` as not heard from: etcd's
    /// `RecentActive` is false, which check-quorum counts against the leader. Every election
    /// timeout the leader makes that check and then clears the flag for every peer, so for
    /// the first moments after a check it is false for healthy peers too, until their reply
    /// to the next heartbeat comes in, and a table that showed the flag as it stands flagged
    /// every follower at each whole second. So within that window (a heartbeat interval, a
    /// round trip at the slowest latency and a tick) only a peer the leader cannot reach now
    /// (stopped, or cut off from it) is marked; past it, the flag as it stands. `raft` is the
    /// leader's ([`Sim::leader`]), which the table has at hand for every row. False for the
    /// leader itself and for a non-member.
    pub fn unheard_by_leader(&self, raft: &Raft, peer: NodeId) -> bool {
        let Some(pr) = raft.trk.progress.get(&peer) else {
            return false;
        };
        if pr.recent_active || peer == raft.id {
            return false;
        }
        let o = &self.opts;
        let window = (o.heartbeat * TICK_MS + 2 * o.latency_max + TICK_MS)
            .min(o.election.saturating_sub(1) * TICK_MS);
        raft.election_elapsed * TICK_MS >= window
            || !(self.is_running(peer) && self.net.connected(raft.id, peer))
    }

    /// Since when `a` and `b` have been connected without a break (both running, link up),
    /// ms; None when they are not connected now.
    pub fn connected_since(&self, a: NodeId, b: NodeId) -> Option<u64> {
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        self.links.get(&lo).and_then(|m| m.get(&hi)).copied()
    }

    /// Brings the connection record up to date after anything that can connect or
    /// disconnect members (a fault, a start, a crash, a removal).
    pub(super) fn refresh_links(&mut self) {
        let running: Vec<NodeId> = self
            .nodes
            .values()
            .filter(|n| n.status == Status::Running)
            .map(|n| n.raft.id)
            .collect();
        // Updated in place (it runs after every user action, and most change no link):
        // links that broke go, links that stay keep their time, new links start now.
        let (net, now) = (&self.net, self.now);
        if links_hold_exactly(&self.links, &running, net) {
            return;
        }
        let up = |a: &NodeId| running.binary_search(a).is_ok();
        self.links.retain(|a, to| {
            to.retain(|b, _| up(a) && up(b) && net.connected(*a, *b));
            !to.is_empty()
        });
        for (i, a) in running.iter().enumerate() {
            for b in &running[i + 1..] {
                if net.connected(*a, *b) {
                    self.links
                        .get_or_insert_with(*a, VecMap::new)
                        .get_or_insert_with(*b, || now);
                }
            }
        }
    }

    /// A restarted member's connections start over.
    pub(super) fn reset_links(&mut self, id: NodeId) {
        self.links.remove(&id);
        for m in self.links.values_mut() {
            m.remove(&id);
        }
    }

    /// What member `local`'s server knows for the strict reconfiguration check.
    pub fn server_view(&self, local: NodeId) -> ServerView {
        let mut connected = VecSet::new();
        let mut healthy = VecSet::new();
        for id in self.nodes.keys().copied().filter(|id| *id != local) {
            if let Some(since) = self.connected_since(local, id) {
                connected.insert(id);
                // etcd: connected since a time strictly before now minus the interval.
                if since + HEALTH_INTERVAL_MS < self.now {
                    healthy.insert(id);
                }
            }
        }
        ServerView {
            strict: self.opts.strict_reconfig,
            add_rule: Some(self.opts.etcd.add_health_rule()),
            started: self.started.clone(),
            connected,
            healthy,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::Rng;
    use crate::sim::{Action, Options};
    use std::collections::BTreeMap;

    /// The links record rebuilt from nothing: what `refresh_links` must hold (times aside).
    fn rebuilt(sim: &Sim) -> BTreeMap<NodeId, VecSet<NodeId>> {
        let running: Vec<NodeId> = sim
            .ids()
            .into_iter()
            .filter(|i| sim.is_running(*i))
            .collect();
        let mut out: BTreeMap<NodeId, VecSet<NodeId>> = BTreeMap::new();
        for (i, a) in running.iter().enumerate() {
            for b in &running[i + 1..] {
                if sim.net.connected(*a, *b) {
                    out.entry(*a).or_default().insert(*b);
                }
            }
        }
        out
    }

    #[test]
    fn the_quick_paths_after_an_action_agree_with_the_full_computations() {
        let mut sim = Sim::new(5, Options::default());
        let mut rng = Rng::new(11);
        let mut next = 5;
        for step in 0..400 {
            let id = rng.range(1, next + 1);
            let action = match rng.range(0, 10) {
                0 => Action::Kill(id),
                1 => Action::Restart(id),
                2 => Action::Isolate(id),
                3 => Action::Cut(id, rng.range(1, next + 1)),
                4 => Action::Partition(vec![vec![1, 2], vec![3, id]]),
                5 | 6 => Action::Heal,
                7 => {
                    next += 1;
                    Action::MemberAdd {
                        node: next,
                        learner: false,
                        misconfigured: false,
                    }
                }
                8 => Action::Start(id),
                _ => Action::Propose {
                    key: format!("k{step}"),
                    value: "v".into(),
                    via: None,
                },
            };
            let _ = sim.apply(&action);
            sim.tick(1);
            let _ = sim.apply(&Action::Loss(0));
            let shape: BTreeMap<NodeId, VecSet<NodeId>> = sim
                .links
                .iter()
                .map(|(a, to)| (*a, to.keys().copied().collect()))
                .collect();
            assert_eq!(shape, rebuilt(&sim), "links after {action:?}");
            let full: Vec<(NodeId, bool)> = sim
                .ids()
                .into_iter()
                .map(|i| (i, sim.could_reach_quorum(i)))
                .collect();
            assert_eq!(sim.reachability(), full, "reachability after {action:?}");
        }
    }

    #[test]
    fn a_healthy_peer_is_never_marked_unheard_and_a_cut_off_one_always_is() {
        let mut sim = Sim::new(3, Options::default());
        sim.tick(40);
        let leader = sim.leader().expect("a leader after 4 s");
        let peers: Vec<NodeId> = sim.ids().into_iter().filter(|i| *i != leader).collect();
        fn lead(sim: &Sim) -> &Raft {
            &sim.nodes.get(&sim.leader().unwrap()).unwrap().raft
        }
        let flag_of = |sim: &Sim, p: NodeId| lead(sim).trk.progress.get(&p).unwrap().recent_active;
        let unheard = |sim: &Sim, p: NodeId| sim.unheard_by_leader(lead(sim), p);
        // Five election timeouts in 10 ms steps: the raw flag goes false at every check (so
        // showing it as it stands flickers), the mark never does.
        let mut raw_false = 0;
        for _ in 0..500 {
            sim.advance_to(sim.now + 10);
            assert_eq!(sim.leader(), Some(leader));
            for &p in &peers {
                raw_false += usize::from(!flag_of(&sim, p));
                assert!(!unheard(&sim, p), "n{p} marked at {} ms", sim.now);
            }
        }
        assert!(raw_false > 0, "the raw flag was cleared by the checks");
        // Cut one follower off: once a check has counted it out it stays marked, through
        // the window after each later check too. (Check-quorum keeps the leader: 2 of 3.)
        let cut = peers[0];
        sim.apply(&Action::Cut(leader, cut)).unwrap();
        sim.tick(11);
        for _ in 0..300 {
            sim.advance_to(sim.now + 10);
            assert!(unheard(&sim, cut), "n{cut} unmarked at {} ms", sim.now);
            assert!(!unheard(&sim, peers[1]));
        }
    }

    #[test]
    fn links_hold_exactly_notices_every_kind_of_difference() {
        let net = Network::default();
        let running = [1, 2, 3];
        let full: VecMap<NodeId, VecMap<NodeId, u64>> = [
            (1, [(2, 0), (3, 5)].into_iter().collect()),
            (2, [(3, 7)].into_iter().collect()),
        ]
        .into_iter()
        .collect();
        assert!(links_hold_exactly(&full, &running, &net));
        let mut missing = full.clone();
        missing.get_mut(&1).unwrap().remove(&3);
        assert!(!links_hold_exactly(&missing, &running, &net));
        let mut extra = full.clone();
        extra.insert(3, [(4, 0)].into_iter().collect());
        assert!(!links_hold_exactly(&extra, &running, &net));
        let mut empty = full.clone();
        empty.insert(3, VecMap::new());
        assert!(!links_hold_exactly(&empty, &running, &net));
        // A cut link must be gone.
        let mut cut = Network::default();
        cut.cut(1, 3);
        assert!(!links_hold_exactly(&full, &running, &cut));
        assert!(links_hold_exactly(&missing, &running, &cut));
        // A member that stopped takes its links with it.
        assert!(!links_hold_exactly(&full, &[1, 2], &net));
    }
}
