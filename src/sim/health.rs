//! What etcd's server knows about its peers beyond raft, and the quorum at a glance.
//!
//! etcd's transport remembers since when each peer has been connected (ActiveSince); the
//! strict reconfiguration check wants peers connected for longer than the health interval
//! (HealthInterval, 5 s), and members that have ever started (IsStarted). The simulator
//! keeps both, in simulated time, and hands them to the core as a [`ServerView`].
//!
//! [`Sim::quorum_status`] is the one place that counts voters per half of a (possibly
//! joint) configuration: the UI, the CLI and the scenario conditions all read it.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::raft::quorum::quorum_size;
use crate::raft::{NodeId, ServerView};

use super::cluster::{Sim, Status};

/// etcd's HealthInterval: how long a peer must have been connected to count as healthy, ms.
pub const HEALTH_INTERVAL_MS: u64 = 5000;

/// One half of a configuration (the only one when not joint), as the leader sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HalfStatus {
    /// Its voters.
    pub voters: BTreeSet<NodeId>,
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

impl Sim {
    /// The quorum of the configuration in force ([`Sim::config`]): voters per half, how many
    /// run, how many the leader reaches, and whether each half has its quorum.
    pub fn quorum_status(&self) -> QuorumStatus {
        let cfg = self.config();
        let leader = self.leader();
        let half = |voters: &BTreeSet<NodeId>| {
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
        let up = |a: &NodeId| running.binary_search(a).is_ok();
        self.links.retain(|a, to| {
            to.retain(|b, _| up(a) && up(b) && net.connected(*a, *b));
            !to.is_empty()
        });
        for (i, a) in running.iter().enumerate() {
            for b in &running[i + 1..] {
                if net.connected(*a, *b) {
                    self.links.entry(*a).or_default().entry(*b).or_insert(now);
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
        let mut connected = BTreeSet::new();
        let mut healthy = BTreeSet::new();
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
