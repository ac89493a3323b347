//! What etcd's server layer adds on top of raft for client requests (etcdserver's checks):
//! learners take no writes and no linearizable reads, a learner is promoted only once caught
//! up, the number of learners is capped, and the optional strict reconfiguration check.
//!
//! Each method either hands the request to raft or refuses it at once with a reason, so a
//! client always learns why.

use std::sync::Arc;

use super::message::{ConfChange, ConfChangeSingle, Entry, EntryData, Message, MsgType, NONE};
use super::raft::{Raft, Role};

impl Raft {
    /// A client write `key=value` arriving at this node (forwarded to the leader if needed).
    pub fn client_put(&mut self, key: &str, value: &str, req: u64) -> Result<(), String> {
        if self.is_learner() {
            return Err(format!(
                "n{} is a learner: learners reject client writes",
                self.id
            ));
        }
        if self.role != Role::Leader && self.lead == NONE {
            return Err("no leader".into());
        }
        if self.role == Role::Leader && self.lead_transferee != NONE {
            return Err(format!(
                "leadership transfer to n{} in progress",
                self.lead_transferee
            ));
        }
        let mut m = Message::new(MsgType::Prop, self.id, self.id);
        m.entries.push(Arc::new(Entry {
            term: 0,
            index: 0,
            data: EntryData::Put {
                key: key.to_string(),
                value: value.to_string(),
                req,
            },
        }));
        self.step(m);
        Ok(())
    }

    /// A linearizable read of `key` (ReadIndex); the answer arrives later as a
    /// `Note::ReadServed` for `req`.
    pub fn client_read_index(&mut self, key: &str, req: u64) -> Result<(), String> {
        if self.is_learner() {
            return Err(format!(
                "n{} is a learner: learners reject linearizable reads",
                self.id
            ));
        }
        if self.role != Role::Leader && self.lead == NONE {
            return Err("no leader".into());
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
    /// member API calls to the leader). Applies the server's safety checks first.
    pub fn client_conf_change(&mut self, cc: ConfChange, req: u64) -> Result<(), String> {
        if self.role != Role::Leader {
            return Err("no leader".into());
        }
        self.check_conf_change(&cc)?;
        let mut m = Message::new(MsgType::Prop, self.id, self.id);
        m.entries.push(Arc::new(Entry {
            term: 0,
            index: 0,
            data: EntryData::Conf { cc, req },
        }));
        self.step(m);
        Ok(())
    }

    /// Asks this node (the leader) to hand leadership to `to` (etcdctl move-leader).
    pub fn client_transfer_leader(&mut self, to: u64) -> Result<(), String> {
        if self.role != Role::Leader {
            return Err("no leader".into());
        }
        if self.trk.config.is_learner(to) && !self.trk.config.is_voter(to) {
            return Err(format!(
                "n{to} is a learner: leadership cannot be transferred to a learner"
            ));
        }
        if !self.trk.config.is_voter(to) {
            return Err(format!("n{to} is not a voting member"));
        }
        // etcd's MoveLeader steps the transfer even when the target already leads (raft then
        // aborts any pending transfer, TestLeaderTransferBack) and succeeds at once.
        let m = Message::new(MsgType::TransferLeader, to, self.id);
        self.step(m);
        Ok(())
    }

    fn check_conf_change(&self, cc: &ConfChange) -> Result<(), String> {
        let cfg = &self.trk.config;
        let leader_match = self.log.last_index();
        let mut learners = cfg.learners.len() + cfg.learners_next.len();
        for c in &cc.changes {
            match *c {
                ConfChangeSingle::AddNode(id) if cfg.is_learner(id) => {
                    // etcd's isLearnerReady.
                    let m = self.progress(id).map_or(0, |p| p.matched);
                    let pct = self.cfg.learner_ready_percent;
                    if m * 100 < leader_match * pct {
                        return Err(format!(
                            "promote n{id} refused: match {m} < {pct}% of leader's {leader_match}"
                        ));
                    }
                    learners = learners.saturating_sub(1);
                }
                ConfChangeSingle::AddNode(id) if cfg.is_voter(id) => {
                    return Err(format!("n{id} is already a voter"));
                }
                ConfChangeSingle::AddLearner(id) => {
                    if cfg.is_learner(id) {
                        return Err(format!("n{id} is already a learner"));
                    }
                    if cfg.is_voter(id) {
                        return Err(format!("n{id} is a voter; it cannot be added as a learner"));
                    }
                    learners += 1;
                    if learners > self.cfg.max_learners {
                        return Err(format!(
                            "too many learners: at most {} allowed",
                            self.cfg.max_learners
                        ));
                    }
                }
                ConfChangeSingle::RemoveNode(id) => {
                    if !cfg.members().contains(&id) {
                        return Err(format!("n{id} is not a member"));
                    }
                }
                ConfChangeSingle::AddNode(_) => {}
            }
        }
        if self.cfg.strict_reconfig {
            self.check_strict(cc)?;
        }
        Ok(())
    }

    /// etcd's --strict-reconfig-check: the voters that were recently active must still form a
    /// quorum of the configuration after the change.
    fn check_strict(&self, cc: &ConfChange) -> Result<(), String> {
        let next = super::confchange::apply(&self.trk.config, cc)
            .map_err(|e| format!("the change cannot be applied: {e:?}"))?;
        let voters: Vec<u64> = if next.is_joint() {
            next.all_voters().into_iter().collect()
        } else {
            next.voters.iter().copied().collect()
        };
        let active = voters
            .iter()
            .filter(|id| **id == self.id || self.progress(**id).is_some_and(|p| p.recent_active))
            .count();
        let quorum = super::quorum::quorum_size(&voters.iter().copied().collect());
        if active < quorum {
            return Err(format!(
                "strict reconfig check: only {active} of {} voters would be active, quorum is {quorum}",
                voters.len()
            ));
        }
        Ok(())
    }
}
