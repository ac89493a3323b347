//! A message-level test network over bare raft cores (after raft-rs's test harness): messages
//! are delivered at once, in order, unless a link is cut, a node isolated, or a message type
//! dropped. Time only moves when a test ticks a node.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};

use raftlab::raft::log::RaftLog;
use raftlab::raft::{
    ConfChange, ConfChangeSingle, Config, Durable, Message, MsgType, NodeId, Raft, RaftConfig, Rng,
    Snapshot,
};

/// Raft settings used by the harness: pre-vote and check-quorum as given.
pub fn config(pre_vote: bool, check_quorum: bool) -> RaftConfig {
    RaftConfig {
        pre_vote,
        check_quorum,
        ..RaftConfig::default()
    }
}

/// A log whose entry `i+1` has term `terms[i]`.
pub fn log_of(terms: &[u64], conf: &Config) -> RaftLog {
    RaftLog::with_terms(
        Snapshot {
            conf: conf.clone(),
            ..Snapshot::default()
        },
        terms,
    )
}

/// A node restarted with the given term and log.
pub fn node_with_log(
    id: NodeId,
    term: u64,
    terms: &[u64],
    voters: &[NodeId],
    cfg: RaftConfig,
) -> Raft {
    let conf = Config::with_voters(voters.iter().copied());
    Raft::restart(
        id,
        Durable {
            term,
            vote: 0,
            log: log_of(terms, &conf),
        },
        cfg,
        Rng::new(id * 7919),
    )
}

/// The network.
pub struct Net {
    /// Nodes by id.
    pub nodes: BTreeMap<NodeId, Raft>,
    /// Cut links (both directions stored).
    pub cut: BTreeSet<(NodeId, NodeId)>,
    /// Message types dropped everywhere.
    pub ignored: BTreeSet<MsgType>,
    /// Every message delivered, in order.
    pub delivered: Vec<Message>,
}

impl Net {
    /// `n` fresh voters 1..=n.
    pub fn new(n: u64, cfg: RaftConfig) -> Net {
        let conf = Config::with_voters(1..=n);
        let nodes = (1..=n)
            .map(|id| {
                (
                    id,
                    Raft::new(id, conf.clone(), cfg.clone(), Rng::new(id * 31)),
                )
            })
            .collect();
        Net::from_nodes(nodes)
    }

    /// A network of prepared nodes.
    pub fn from_nodes(nodes: BTreeMap<NodeId, Raft>) -> Net {
        Net {
            nodes,
            cut: BTreeSet::new(),
            ignored: BTreeSet::new(),
            delivered: Vec::new(),
        }
    }

    /// The node `id`.
    pub fn node(&self, id: NodeId) -> &Raft {
        &self.nodes[&id]
    }

    /// The node `id`, mutably.
    pub fn node_mut(&mut self, id: NodeId) -> &mut Raft {
        self.nodes.get_mut(&id).expect("node exists")
    }

    /// Cuts the link between `a` and `b`.
    pub fn cut(&mut self, a: NodeId, b: NodeId) {
        self.cut.insert((a, b));
        self.cut.insert((b, a));
    }

    /// Cuts `id` off from everyone.
    pub fn isolate(&mut self, id: NodeId) {
        let ids: Vec<NodeId> = self.nodes.keys().copied().collect();
        for o in ids {
            if o != id {
                self.cut(id, o);
            }
        }
    }

    /// Heals every cut and stops ignoring message types.
    pub fn recover(&mut self) {
        self.cut.clear();
        self.ignored.clear();
    }

    fn outbox(&mut self) -> Vec<Message> {
        let mut out = Vec::new();
        for n in self.nodes.values_mut() {
            out.append(&mut n.msgs);
            n.notes.clear();
        }
        out
    }

    /// Delivers every pending message, and what they cause, until the network is quiet.
    pub fn settle(&mut self) {
        let mut queue = self.outbox();
        let mut rounds = 0;
        while !queue.is_empty() {
            rounds += 1;
            assert!(rounds < 10_000, "network never settles");
            for m in std::mem::take(&mut queue) {
                if self.ignored.contains(&m.msg_type) || self.cut.contains(&(m.from, m.to)) {
                    continue;
                }
                if let Some(n) = self.nodes.get_mut(&m.to) {
                    self.delivered.push(m.clone());
                    n.step(m);
                }
            }
            queue = self.outbox();
        }
    }

    /// Fires `id`'s election timer and settles.
    pub fn campaign(&mut self, id: NodeId) {
        self.node_mut(id).campaign_now();
        self.settle();
    }

    /// Ticks every node once and settles, `n` times.
    pub fn tick_all(&mut self, n: u64) {
        for _ in 0..n {
            let ids: Vec<NodeId> = self.nodes.keys().copied().collect();
            for id in ids {
                self.node_mut(id).tick();
            }
            self.settle();
        }
    }

    /// A client write at `id` (the leader) and settle.
    pub fn propose(&mut self, id: NodeId, key: &str, value: &str) {
        self.node_mut(id)
            .client_put(key, value, 0)
            .expect("proposal accepted");
        self.settle();
    }

    /// `etcdctl member add`: the leader proposes adding `id` (as a learner or a voter) and, with
    /// `start`, the new member's process starts from the genesis configuration `voters`.
    pub fn add_member(
        &mut self,
        leader: NodeId,
        id: NodeId,
        learner: bool,
        start: bool,
        voters: &[NodeId],
    ) {
        let change = if learner {
            ConfChangeSingle::AddLearner(id)
        } else {
            ConfChangeSingle::AddNode(id)
        };
        self.node_mut(leader)
            .client_conf_change(ConfChange::new(vec![change]), id)
            .expect("membership change accepted");
        if start {
            let cfg = self.node(leader).cfg.clone();
            let genesis = Config::with_voters(voters.iter().copied());
            self.nodes
                .insert(id, Raft::new(id, genesis, cfg, Rng::new(id)));
        }
        self.settle();
    }

    /// The terms of `id`'s log entries from its first index.
    pub fn terms(&self, id: NodeId) -> Vec<u64> {
        self.node(id).log.entries.iter().map(|e| e.term).collect()
    }
}
