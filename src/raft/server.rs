//! What etcd's server layer adds on top of raft for client requests (etcdserver's checks):
//! learners take no writes and no linearizable reads, a learner is promoted only once caught
//! up, the number of learners is capped, leadership never moves to a learner, and the strict
//! reconfiguration check (`--strict-reconfig-check`, on by default in etcd) decides each
//! membership change by etcd's own rules (server.go: mayAddMember, mayPromoteMember,
//! mayRemoveMember; membership/cluster.go: IsReadyTo*).
//!
//! Each method either hands the request to raft or refuses it at once with a [`ServerError`]:
//! data, not prose. [`ServerError::etcd_error`] is the exact text an etcd client prints; the
//! simulator words the plain reason (src/sim/words.rs).
//!
//! The strict check needs what only a server with a clock and a transport knows (which members
//! ever started, which peers have been connected for the last health interval); the caller
//! passes it in a [`ServerView`], so the core still has no clock.

use super::vec_map::VecSet;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::message::{
    ConfChange, ConfChangeSingle, Entry, EntryData, Message, MsgType, NodeId, NONE,
};
use super::quorum::majority;
use super::raft::{Raft, Role};

/// A request etcd's server refuses, with the facts behind the refusal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ServerError {
    /// Nobody leads (etcd: `etcdserver: no leader`).
    NoLeader,
    /// A write or linearizable read sent to a learner (etcd: `etcdserver: rpc not supported
    /// for learner`).
    LearnerRpc {
        /// The learner.
        id: NodeId,
        /// True for a write, false for a linearizable read.
        write: bool,
    },
    /// The leader is handing over leadership and raft drops proposals meanwhile (etcd-io/raft:
    /// `raft proposal dropped`).
    TransferInProgress {
        /// The transferee.
        to: NodeId,
    },
    /// Promotion of a learner that has not caught up (etcd's isLearnerReady: `etcdserver: can
    /// only promote a learner member which is in sync with leader`).
    LearnerNotReady {
        /// The learner.
        id: NodeId,
        /// Its match index.
        matched: u64,
        /// The leader's own match (last index).
        leader: u64,
        /// The threshold, percent of the leader's match.
        percent: u64,
    },
    /// Promotion of a member that is not a learner (`etcdserver: can only promote a learner
    /// member`).
    NotLearner {
        /// The member.
        id: NodeId,
    },
    /// Adding a member that already is one (`etcdserver: member ID already exist`).
    MemberExists {
        /// The member.
        id: NodeId,
    },
    /// Removing or promoting a non-member (`etcdserver: member not found`).
    MemberNotFound {
        /// The id asked for.
        id: NodeId,
    },
    /// One learner too many (`etcdserver: too many learner members in cluster`).
    TooManyLearners {
        /// The limit.
        max: usize,
    },
    /// Leadership asked to move to a learner or a non-member (`etcdserver: bad leader
    /// transferee`).
    BadLeaderTransferee {
        /// The transferee.
        to: NodeId,
        /// True when it is a learner, false when it is not a member.
        learner: bool,
    },
    /// Strict check: after the change, fewer voters would have ever started than a quorum
    /// needs (`etcdserver: re-configuration failed due to not enough started members`).
    NotEnoughStarted {
        /// Voting members after the change (counting a member being added or promoted).
        members: usize,
        /// Of those, how many have started (a promoted learner counts as started).
        started: usize,
    },
    /// Strict check: the leader has not been connected to enough voters for the whole health
    /// interval (`etcdserver: unhealthy cluster`).
    Unhealthy {
        /// Voters (the leader included) connected to the leader for the whole interval.
        connected: usize,
        /// How many it needs.
        needed: usize,
        /// Voters now.
        voters: usize,
        /// The rule that decided.
        rule: HealthRule,
    },
}

impl ServerError {
    /// The error an etcd client prints for this refusal, word for word (from etcd's
    /// api/v3rpc/rpctypes, and etcd-io/raft for a dropped proposal).
    pub fn etcd_error(&self) -> &'static str {
        match self {
            ServerError::NoLeader => "etcdserver: no leader",
            ServerError::LearnerRpc { .. } => "etcdserver: rpc not supported for learner",
            ServerError::TransferInProgress { .. } => "raft proposal dropped",
            ServerError::LearnerNotReady { .. } => {
                "etcdserver: can only promote a learner member which is in sync with leader"
            }
            ServerError::NotLearner { .. } => "etcdserver: can only promote a learner member",
            ServerError::MemberExists { .. } => "etcdserver: member ID already exist",
            ServerError::MemberNotFound { .. } => "etcdserver: member not found",
            ServerError::TooManyLearners { .. } => {
                "etcdserver: too many learner members in cluster"
            }
            ServerError::BadLeaderTransferee { .. } => "etcdserver: bad leader transferee",
            ServerError::NotEnoughStarted { .. } => {
                "etcdserver: re-configuration failed due to not enough started members"
            }
            ServerError::Unhealthy { .. } => "etcdserver: unhealthy cluster",
        }
    }
}

/// How a member add judges the cluster's health (changed within etcd's 3.5 and 3.6 series).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HealthRule {
    /// isConnectedFullySince (etcd 3.4, 3.5.0–3.5.29, 3.6.0–3.6.10): every voter connected
    /// for the whole health interval.
    AllConnected,
    /// isConnectedToQuorumAfterAddingNewMemberSince (etcd 3.5.30+, 3.6.11+): a quorum of the
    /// voters plus the new member, the new member counted as down; a 1-voter cluster passes.
    QuorumAfterAdd,
    /// mayRemoveMember (every release): unless the member is unreachable, the voters
    /// connected for the interval, minus the removed one, must be a quorum of the rest.
    QuorumAfterRemove,
}

/// What etcd's server knows beyond raft, for the strict reconfiguration check.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ServerView {
    /// `--strict-reconfig-check`.
    pub strict: bool,
    /// How a member add judges health.
    pub add_rule: Option<HealthRule>,
    /// Members that have ever started (etcd: published their name; IsStarted).
    pub started: VecSet<NodeId>,
    /// Peers the local member's transport is connected to now (ActiveSince is set).
    pub connected: VecSet<NodeId>,
    /// Peers connected without a break for longer than the health interval (5 s).
    pub healthy: VecSet<NodeId>,
}

impl Raft {
    /// A client write `key=value` arriving at this node (forwarded to the leader if needed).
    pub fn client_put(&mut self, key: &str, value: &str, req: u64) -> Result<(), ServerError> {
        if self.is_learner() {
            return Err(ServerError::LearnerRpc {
                id: self.id,
                write: true,
            });
        }
        if self.role != Role::Leader && self.lead == NONE {
            return Err(ServerError::NoLeader);
        }
        if self.role == Role::Leader && self.lead_transferee != NONE {
            return Err(ServerError::TransferInProgress {
                to: self.lead_transferee,
            });
        }
        let mut m = Message::new(MsgType::Prop, self.id, self.id);
        m.entries = Box::new([Arc::new(Entry {
            term: 0,
            index: 0,
            data: EntryData::Put {
                key: key.to_string(),
                value: value.to_string(),
                req,
            },
        })]);
        self.step(m);
        Ok(())
    }

    /// A linearizable read of `key` (ReadIndex); the answer arrives later as a
    /// `Note::ReadServed` for `req`.
    pub fn client_read_index(&mut self, key: &str, req: u64) -> Result<(), ServerError> {
        if self.is_learner() {
            return Err(ServerError::LearnerRpc {
                id: self.id,
                write: false,
            });
        }
        if self.role != Role::Leader && self.lead == NONE {
            return Err(ServerError::NoLeader);
        }
        self.read_keys.insert(req, key.to_string());
        let mut m = Message::new(MsgType::ReadIndex, self.id, self.id);
        m.context = req;
        self.step(m);
        Ok(())
    }

    /// A serializable read: this node's applied state, possibly stale, served by anyone.
    pub fn client_read_local(&self, key: &str) -> Option<String> {
        self.kv.get(key).cloned()
    }

    /// A membership change submitted to this node, which must be the leader (etcd forwards
    /// member API calls to the leader), without the strict check: what a bare core can decide
    /// (membership validity, learner readiness, the learner limit).
    pub fn client_conf_change(&mut self, cc: ConfChange, req: u64) -> Result<(), ServerError> {
        self.client_member_change(cc, req, &ServerView::default())
    }

    /// A membership change with etcd's strict reconfiguration check judged on `view` when
    /// `view.strict` is set; refused changes never reach the log.
    pub fn client_member_change(
        &mut self,
        cc: ConfChange,
        req: u64,
        view: &ServerView,
    ) -> Result<(), ServerError> {
        if self.role != Role::Leader {
            return Err(ServerError::NoLeader);
        }
        self.check_conf_change(&cc, view)?;
        let mut m = Message::new(MsgType::Prop, self.id, self.id);
        m.entries = Box::new([Arc::new(Entry {
            term: 0,
            index: 0,
            data: EntryData::Conf { cc, req },
        })]);
        self.step(m);
        Ok(())
    }

    /// Asks this node (the leader) to hand leadership to `to` (etcdctl move-leader).
    pub fn client_transfer_leader(&mut self, to: NodeId) -> Result<(), ServerError> {
        if self.role != Role::Leader {
            return Err(ServerError::NoLeader);
        }
        if !self.trk.config.is_voter(to) {
            return Err(ServerError::BadLeaderTransferee {
                to,
                learner: self.trk.config.is_learner(to),
            });
        }
        // etcd's MoveLeader steps the transfer even when the target already leads (raft then
        // aborts any pending transfer, TestLeaderTransferBack) and succeeds at once.
        let m = Message::new(MsgType::TransferLeader, to, self.id);
        self.step(m);
        Ok(())
    }

    fn check_conf_change(&self, cc: &ConfChange, view: &ServerView) -> Result<(), ServerError> {
        let cfg = &self.trk.config;
        let leader_match = self.log.last_index();
        let mut learners = cfg.learners.len() + cfg.learners_next.len();
        for c in &cc.changes {
            match *c {
                ConfChangeSingle::AddNode(id) if cfg.is_learner(id) => {
                    // etcd's isLearnerReady runs whatever --strict-reconfig-check says.
                    let m = self.progress(id).map_or(0, |p| p.matched);
                    let pct = self.cfg.learner_ready_percent;
                    if m * 100 < leader_match * pct {
                        return Err(ServerError::LearnerNotReady {
                            id,
                            matched: m,
                            leader: leader_match,
                            percent: pct,
                        });
                    }
                    learners = learners.saturating_sub(1);
                }
                ConfChangeSingle::AddNode(id) | ConfChangeSingle::AddLearner(id)
                    if cfg.members().contains(&id) =>
                {
                    return Err(ServerError::MemberExists { id });
                }
                ConfChangeSingle::AddLearner(_) => {
                    learners += 1;
                    if learners > self.cfg.max_learners {
                        return Err(ServerError::TooManyLearners {
                            max: self.cfg.max_learners,
                        });
                    }
                }
                ConfChangeSingle::RemoveNode(id) => {
                    if !cfg.members().contains(&id) {
                        return Err(ServerError::MemberNotFound { id });
                    }
                }
                ConfChangeSingle::AddNode(_) => {}
            }
        }
        if view.strict {
            // etcd has no joint API; raftlab's joint `member change` checks each part as if
            // it came alone.
            for c in &cc.changes {
                self.check_strict(c, view)?;
            }
        }
        Ok(())
    }

    /// etcd's --strict-reconfig-check for one change, judged against the configuration now.
    fn check_strict(&self, c: &ConfChangeSingle, view: &ServerView) -> Result<(), ServerError> {
        let c = c.clone();
        let cfg = &self.trk.config;
        let voters = cfg.all_voters();
        let started = |id: &NodeId| *id == self.id || view.started.contains(id);
        let healthy = voters
            .iter()
            .filter(|id| **id == self.id || view.healthy.contains(id))
            .count();
        match c {
            ConfChangeSingle::AddNode(id) if cfg.is_learner(id) => {
                // IsReadyToPromoteMember: the learner counts as a started voter.
                let members = voters.len() + 1;
                let nstarted = voters.iter().filter(|v| started(v)).count() + 1;
                if nstarted < majority(members) {
                    return Err(ServerError::NotEnoughStarted {
                        members,
                        started: nstarted,
                    });
                }
            }
            ConfChangeSingle::AddNode(_) | ConfChangeSingle::AddLearner(_) => {
                if matches!(c, ConfChangeSingle::AddNode(_)) {
                    // IsReadyToAddVotingMember, with its exception for a 1-voter cluster
                    // whose member runs (restoring a cluster from one member).
                    let members = voters.len() + 1;
                    let nstarted = voters.iter().filter(|v| started(v)).count();
                    let one_node = nstarted == 1 && members == 2;
                    if !one_node && nstarted < majority(members) {
                        return Err(ServerError::NotEnoughStarted {
                            members,
                            started: nstarted,
                        });
                    }
                }
                let rule = view.add_rule.unwrap_or(HealthRule::AllConnected);
                let needed = match rule {
                    HealthRule::AllConnected => voters.len(),
                    HealthRule::QuorumAfterAdd if voters.len() == 1 => 0,
                    HealthRule::QuorumAfterAdd | HealthRule::QuorumAfterRemove => {
                        majority(voters.len() + 1)
                    }
                };
                if healthy < needed {
                    return Err(ServerError::Unhealthy {
                        connected: healthy,
                        needed,
                        voters: voters.len(),
                        rule,
                    });
                }
            }
            ConfChangeSingle::RemoveNode(id) => {
                if !cfg.is_voter(id) {
                    // Removing a learner never touches the quorum.
                    return Ok(());
                }
                // IsReadyToRemoveVotingMember.
                let rest: Vec<NodeId> = voters.iter().copied().filter(|v| *v != id).collect();
                let nstarted = rest.iter().filter(|v| started(v)).count();
                if nstarted < majority(rest.len()).max(1) {
                    return Err(ServerError::NotEnoughStarted {
                        members: rest.len(),
                        started: nstarted,
                    });
                }
                // A member the transport cannot reach is not part of the active quorum.
                if id != self.id && !view.connected.contains(&id) {
                    return Ok(());
                }
                // After the removal, the voters still connected must form a quorum of the
                // remaining voters.
                let needed = majority(voters.len() - 1).max(1) + 1;
                if healthy < needed {
                    return Err(ServerError::Unhealthy {
                        connected: healthy,
                        needed,
                        voters: voters.len(),
                        rule: HealthRule::QuorumAfterRemove,
                    });
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::{Config, RaftConfig, Rng};

    /// n1 leading a configuration of `voters` and `learners` (set directly: these tests judge
    /// the server's rules, not replication).
    fn leader(voters: &[NodeId], learners: &[NodeId]) -> Raft {
        let mut r = Raft::new(
            1,
            Config::with_voters([1]),
            RaftConfig::default(),
            Rng::new(1),
        );
        r.campaign_now();
        assert_eq!(r.role, Role::Leader);
        let mut cfg = Config::with_voters(voters.iter().copied());
        cfg.learners = learners.iter().copied().collect();
        r.trk.config = cfg;
        r
    }

    fn view(
        rule: HealthRule,
        started: &[NodeId],
        healthy: &[NodeId],
        connected: &[NodeId],
    ) -> ServerView {
        ServerView {
            strict: true,
            add_rule: Some(rule),
            started: started.iter().copied().collect(),
            connected: connected.iter().copied().collect(),
            healthy: healthy.iter().copied().collect(),
        }
    }

    fn one(c: ConfChangeSingle) -> ConfChange {
        ConfChange::new(vec![c])
    }

    use ConfChangeSingle::{AddLearner, AddNode, RemoveNode};

    #[test]
    fn member_add_needs_every_voter_in_3_4_but_a_quorum_after_add_later() {
        let r = leader(&[1, 2, 3, 4, 5], &[]);
        let all = [1, 2, 3, 4, 5];
        // n5 is down: connected (for 5 s) to 4 of 5 voters, itself included.
        let v34 = view(HealthRule::AllConnected, &all, &[2, 3, 4], &[2, 3, 4]);
        assert_eq!(
            r.check_conf_change(&one(AddNode(6)), &v34),
            Err(ServerError::Unhealthy {
                connected: 4,
                needed: 5,
                voters: 5,
                rule: HealthRule::AllConnected
            })
        );
        let v36 = view(HealthRule::QuorumAfterAdd, &all, &[2, 3, 4], &[2, 3, 4]);
        assert_eq!(r.check_conf_change(&one(AddNode(6)), &v36), Ok(()));
        // With two of five down, 3 < a quorum of 6 (4).
        let v36 = view(HealthRule::QuorumAfterAdd, &all, &[2, 3], &[2, 3]);
        assert!(matches!(
            r.check_conf_change(&one(AddNode(6)), &v36),
            Err(ServerError::Unhealthy { needed: 4, .. })
        ));
    }

    #[test]
    fn a_learner_add_is_refused_while_a_voter_is_down() {
        let r = leader(&[1, 2, 3], &[]);
        for rule in [HealthRule::AllConnected, HealthRule::QuorumAfterAdd] {
            let v = view(rule, &[1, 2, 3], &[2], &[2]);
            assert_eq!(
                r.check_conf_change(&one(AddLearner(4)), &v)
                    .map_err(|e| e.etcd_error()),
                Err("etcdserver: unhealthy cluster")
            );
        }
    }

    #[test]
    fn a_peer_connected_for_less_than_the_interval_is_not_healthy() {
        let r = leader(&[1, 2, 3], &[]);
        // Connected, but not for the whole 5 s yet.
        let v = view(HealthRule::QuorumAfterAdd, &[1, 2, 3], &[], &[2, 3]);
        assert!(matches!(
            r.check_conf_change(&one(AddLearner(4)), &v),
            Err(ServerError::Unhealthy { connected: 1, .. })
        ));
    }

    #[test]
    fn a_one_node_cluster_may_grow_to_two_but_not_past_an_unstarted_member() {
        let r = leader(&[1], &[]);
        for rule in [HealthRule::AllConnected, HealthRule::QuorumAfterAdd] {
            let v = view(rule, &[1], &[], &[]);
            assert_eq!(r.check_conf_change(&one(AddNode(2)), &v), Ok(()));
        }
        // n2 was added but never started: a third voter would leave 1 started of 3.
        let r = leader(&[1, 2], &[]);
        let v = view(HealthRule::QuorumAfterAdd, &[1], &[], &[]);
        assert_eq!(
            r.check_conf_change(&one(AddNode(3)), &v),
            Err(ServerError::NotEnoughStarted {
                members: 3,
                started: 1
            })
        );
        assert_eq!(
            ServerError::NotEnoughStarted {
                members: 3,
                started: 1
            }
            .etcd_error(),
            "etcdserver: re-configuration failed due to not enough started members"
        );
    }

    #[test]
    fn remove_rules_follow_may_remove_member() {
        let r = leader(&[1, 2, 3], &[4]);
        // n3 down: removing it is allowed (not part of the active quorum)...
        let v = view(HealthRule::QuorumAfterAdd, &[1, 2, 3], &[2], &[2]);
        assert_eq!(r.check_conf_change(&one(RemoveNode(3)), &v), Ok(()));
        // ...removing the live n2 is not...
        assert!(matches!(
            r.check_conf_change(&one(RemoveNode(2)), &v),
            Err(ServerError::Unhealthy {
                rule: HealthRule::QuorumAfterRemove,
                ..
            })
        ));
        // ...and removing a learner never is refused.
        let none = view(HealthRule::QuorumAfterAdd, &[1], &[], &[]);
        assert_eq!(r.check_conf_change(&one(RemoveNode(4)), &none), Ok(()));
        // Two never-started voters left behind: not enough started members.
        let v = view(HealthRule::QuorumAfterAdd, &[1, 2], &[2], &[2]);
        let r = leader(&[1, 2, 3, 4], &[]);
        assert!(matches!(
            r.check_conf_change(&one(RemoveNode(2)), &v),
            Err(ServerError::NotEnoughStarted {
                members: 3,
                started: 1
            })
        ));
    }

    #[test]
    fn promotion_counts_the_learner_as_started_and_checks_readiness_first() {
        let mut r = leader(&[1, 2, 3], &[4]);
        let v = view(HealthRule::QuorumAfterAdd, &[1], &[2, 3], &[2, 3]);
        // n4 holds nothing while the leader has entries: not in sync, strict or not.
        let not_ready = r.check_conf_change(&one(AddNode(4)), &ServerView::default());
        assert!(matches!(
            not_ready,
            Err(ServerError::LearnerNotReady { id: 4, .. })
        ));
        // Readiness aside (threshold 0), 1 started voter + the learner is 2 of 4: refused.
        r.cfg.learner_ready_percent = 0;
        assert_eq!(
            r.check_conf_change(&one(AddNode(4)), &v),
            Err(ServerError::NotEnoughStarted {
                members: 4,
                started: 2
            })
        );
        let v = view(HealthRule::QuorumAfterAdd, &[1, 2], &[2, 3], &[2, 3]);
        assert_eq!(r.check_conf_change(&one(AddNode(4)), &v), Ok(()));
    }

    #[test]
    fn without_the_strict_check_anything_valid_goes() {
        let r = leader(&[1, 2, 3], &[]);
        let mut v = view(HealthRule::AllConnected, &[1], &[], &[]);
        v.strict = false;
        assert_eq!(r.check_conf_change(&one(AddNode(4)), &v), Ok(()));
        assert_eq!(r.check_conf_change(&one(RemoveNode(2)), &v), Ok(()));
        assert_eq!(
            r.check_conf_change(&one(AddNode(2)), &v),
            Err(ServerError::MemberExists { id: 2 })
        );
    }
}
