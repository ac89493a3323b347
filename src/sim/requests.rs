//! Client requests as an etcd client lives them: sent to a member, refused at once with
//! etcd's error, or waiting (for a leader, for a commit) until the request timeout, after
//! which the client gives up with `context deadline exceeded`. A request the client gave up
//! on may still take effect: that is shown when it does ("committed later at index 5").

use super::id_map::IdMap;
use super::labels;
use crate::i18n::Msg;
use serde::{Deserialize, Serialize};

use crate::raft::quorum::majority;
use crate::raft::{ConfChange, ConfChangeSingle, NodeId, ServerError, NONE};

use super::client::{GaveUp, Outcome, Refusal, ReqKind, Request};
use super::cluster::{Sim, Status, REQUEST_CAP};
use super::event::EventKind;
use super::words;

/// etcdserver's ErrLeaderChanged, which etcd's client retries.
const LEADER_CHANGED: &str = "etcdserver: leader changed";

/// A request that has not reached a leader yet: the client retries it until the deadline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Retry {
    /// A write.
    Put {
        /// Key.
        key: String,
        /// Value.
        value: String,
    },
    /// A linearizable read.
    Read {
        /// Key.
        key: String,
    },
    /// A serializable read (any running member answers from its applied state).
    LocalRead {
        /// Key.
        key: String,
    },
    /// A membership change, with the members it creates (forgotten if it never gets in).
    Member {
        /// The change.
        cc: ConfChange,
        /// Nodes created for it that are not members yet.
        fresh: Vec<NodeId>,
    },
}

/// A request waiting for a member to take it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waiting {
    /// The member the client talks to (None: whoever leads).
    pub via: Option<NodeId>,
    /// What to send.
    pub retry: Retry,
    /// Not before this time, ms (a client backs off before retrying a failed request).
    pub not_before: u64,
}

/// How long etcd's client waits before retrying a request that failed (its retry
/// interceptor backs off 25 ms, with jitter).
pub const RETRY_BACKOFF_MS: u64 = 25;

/// What became of a submission attempt.
enum Submitted {
    /// Raft has it (or it was answered at once).
    Done,
    /// Nobody to take it now: keep waiting.
    Wait,
}

impl Sim {
    pub(super) fn new_request(&mut self, kind: ReqKind, via: Option<NodeId>) -> u64 {
        let id = self.next_req;
        self.next_req += 1;
        self.requests.insert(
            id,
            Request {
                id,
                kind,
                via,
                time: self.now,
                outcome: Outcome::Pending,
                why: None,
            },
        );
        self.prune_requests(REQUEST_CAP);
        id
    }

    /// Forgets the oldest answered requests beyond `cap` (pending ones are kept: their
    /// answers may still come, and replaying from a checkpoint must see the same ones).
    pub fn prune_requests(&mut self, cap: usize) {
        let keep_from = self.requests.len().saturating_sub(cap);
        let old: Vec<u64> = self
            .requests
            .iter()
            .take(keep_from)
            .filter(|(id, r)| self.prunable(**id, r))
            .map(|(id, _)| *id)
            .collect();
        for id in old {
            self.requests.remove(&id);
        }
    }

    /// The requests [`Sim::prune_requests`] with `cap` would keep, copied (what a history
    /// checkpoint holds, without copying the rest).
    pub(super) fn kept_requests(&self, cap: usize) -> IdMap<Request> {
        let keep_from = self.requests.len().saturating_sub(cap);
        self.requests
            .iter()
            .enumerate()
            .filter(|(i, (id, r))| *i >= keep_from || !self.prunable(**id, r))
            .map(|(_, (id, r))| (*id, r.clone()))
            .collect()
    }

    /// Whether `prune_requests` may forget request `id`: it is answered, and not the last
    /// read.
    fn prunable(&self, id: u64, r: &Request) -> bool {
        !matches!(
            r.outcome,
            Outcome::Pending | Outcome::TimedOut { later: None, .. }
        ) && Some(id) != self.last_read
    }

    /// Refuses request `req`: the event log shows raftlab's plain reason and etcd's error.
    pub(super) fn reject(&mut self, req: u64, refusal: Refusal) {
        self.waiting.remove(&req);
        if let Some(r) = self.requests.get_mut(&req) {
            let text = crate::msg!("ev.rejected_etcd")
                .arg("label", labels::request(&r.kind))
                .arg("reason", words::refusal(&refusal))
                .arg("etcd", refusal.etcd_error());
            let etcd = refusal.etcd_error();
            r.outcome = Outcome::Rejected { refusal };
            let via = r.via;
            self.log_etcd(via, EventKind::Client, text, Some(etcd));
        }
    }

    fn reject_server(&mut self, req: u64, e: ServerError) {
        self.reject(req, Refusal::Server(e));
    }

    /// A linearizable read lost to a leader change: etcd answers `etcdserver: leader
    /// changed`, an error etcd's client retries, so the read waits again until its deadline.
    pub(super) fn read_dropped(&mut self, req: u64, reason: String) {
        let Some(r) = self.requests.get(&req) else {
            return;
        };
        let ReqKind::Read { key, .. } = &r.kind else {
            return;
        };
        let (via, key) = (r.via, key.clone());
        let text = crate::msg!("ev.read_retry")
            .arg("label", labels::request(&r.kind))
            .arg("reason", reason)
            .arg("etcd", LEADER_CHANGED);
        self.log_etcd(via, EventKind::Read, text, Some(LEADER_CHANGED));
        self.waiting.insert(
            req,
            Waiting {
                via,
                retry: Retry::Read { key },
                not_before: self.now + RETRY_BACKOFF_MS,
            },
        );
        self.schedule_retry_at(self.now + RETRY_BACKOFF_MS);
    }

    /// Starts the client's clock on `req` if it is still unanswered.
    fn arm_deadline(&mut self, req: u64) {
        if self
            .requests
            .get(&req)
            .is_some_and(|r| r.outcome == Outcome::Pending)
        {
            let at = self.now + self.opts.request_timeout.min(self.opts.server_timeout());
            self.schedule_deadline(at, req);
        }
    }

    /// The request timeout of `req` passed: if unanswered, the client gives up.
    pub(super) fn request_deadline(&mut self, req: u64) -> bool {
        if self.requests.get(&req).map(|r| &r.outcome) != Some(&Outcome::Pending) {
            return false;
        }
        let waited = self.waiting.remove(&req);
        let no_leader = waited.is_some();
        let stuck = waited.as_ref().map(|w| self.why_waiting(w));
        let waited = waited.map(|w| w.retry);
        let by = self.gave_up(req, no_leader);
        let Some(r) = self.requests.get_mut(&req) else {
            return false;
        };
        r.outcome = Outcome::TimedOut {
            at: self.now,
            no_leader,
            later: None,
            by,
        };
        let label = labels::request(&r.kind);
        let via = r.via;
        let waited_s = words::secs(self.now.saturating_sub(r.time));
        let why = match stuck {
            Some(s) => s,
            None => crate::msg!("why.in_raft"),
        };
        self.log_etcd(
            via,
            EventKind::Client,
            crate::msg!("ev.timed_out")
                .arg("label", label)
                .arg("waited", waited_s)
                .arg("why", why)
                .arg("etcd", by.etcd_error()),
            Some(by.etcd_error()),
        );
        if let Some(Retry::Member { fresh, .. }) = waited {
            self.forget_fresh(&fresh);
        }
        true
    }

    /// Who gives up on `req` at its deadline, now: the client when its timeout is the shorter
    /// (etcdctl's default 5 s against the server's 7 s), else the server, with the error
    /// etcd's `parseProposeCtxErr` picks. A request still waiting for a leader was never
    /// proposed: the server passes its context's error on as it is.
    fn gave_up(&self, req: u64, no_leader: bool) -> GaveUp {
        if self.opts.request_timeout <= self.opts.server_timeout() {
            return GaveUp::Client;
        }
        if no_leader {
            return GaveUp::ServerNoLeader;
        }
        let Some((start, via)) = self.requests.get(&req).and_then(|r| Some((r.time, r.via?)))
        else {
            return GaveUp::Server;
        };
        // etcd asks these of the member the client reached: whether it was itself elected
        // leader within two election timeouts after the request came in, then whether its
        // connections held since then (connected strictly before the request came in, as its
        // transport's ActiveSince is compared).
        let two_elections = 2 * self.opts.election * super::cluster::TICK_MS;
        if let Some(&elected) = self.led_since.get(&via) {
            if start > elected.saturating_sub(two_elections) && start < elected {
                return GaveUp::ServerLeaderFail;
            }
        }
        let up_since = |peer: NodeId| {
            peer == via || self.connected_since(via, peer).is_some_and(|t| t < start)
        };
        let lead = self.nodes.get(&via).map_or(NONE, |n| n.raft.lead);
        let lost = if lead == NONE {
            false
        } else if lead == via {
            let members = self.config().members();
            members.iter().filter(|m| up_since(**m)).count() < majority(members.len())
        } else {
            !up_since(lead)
        };
        if lost {
            GaveUp::ServerConnectionLost
        } else {
            GaveUp::Server
        }
    }

    /// Nodes created for a membership change that never got in are forgotten again.
    fn forget_fresh(&mut self, fresh: &[NodeId]) {
        let cfg = self.config();
        for id in fresh {
            let unused = self
                .nodes
                .get(id)
                .is_some_and(|n| matches!(n.status, Status::NotStarted | Status::Misconfigured));
            if unused && !cfg.members().contains(id) {
                self.checker.unsettle(*id);
                self.nodes.remove(id);
            }
        }
    }

    /// A request answered after its client had its answer, said once (not once per member
    /// that applies it): "put x=1 timed out at 7.2 s, committed later at index 5", or "put
    /// x=1 failed when n1 went down, but was committed later at index 5". Returns false when
    /// `req` had neither timed out nor failed with its member.
    pub(super) fn answered_late(&mut self, node: NodeId, req: u64, index: u64) -> bool {
        let Some(r) = self.requests.get_mut(&req) else {
            return false;
        };
        let read = matches!(r.kind, ReqKind::Read { .. });
        let text = match &mut r.outcome {
            Outcome::TimedOut {
                at,
                later: later @ None,
                ..
            } => {
                *later = Some(index);
                let key = if read {
                    crate::key_of!("ev.timed_out_answered_later")
                } else {
                    crate::key_of!("ev.timed_out_committed_later")
                };
                Msg::at(key).arg("time", words::secs(*at))
            }
            // A failed read is never answered (the restarted process knows nothing of it).
            Outcome::Rejected {
                refusal:
                    Refusal::MemberDown {
                        id,
                        later: later @ None,
                    },
            } if !read => {
                *later = Some(index);
                crate::msg!("ev.failed_committed_later").arg("id", *id)
            }
            Outcome::TimedOut { .. } => return true,
            Outcome::Rejected {
                refusal: Refusal::MemberDown { .. },
            } if !read => return true,
            _ => return false,
        };
        let text = text
            .arg("label", labels::request(&r.kind))
            .arg("index", index);
        self.log(Some(node), EventKind::Client, text);
        true
    }

    /// Retries the waiting requests whose member can now take them (after every event);
    /// returns the members it sent requests to.
    pub(super) fn retry_waiting(&mut self) -> Vec<NodeId> {
        let mut sent_to = Vec::new();
        if self.waiting.is_empty() {
            return sent_to;
        }
        let ready: Vec<u64> = self
            .waiting
            .iter()
            .filter(|(_, w)| w.not_before <= self.now && self.can_take(w.via, &w.retry))
            .map(|(req, _)| *req)
            .collect();
        for req in ready {
            let Some(w) = self.waiting.remove(&req) else {
                continue;
            };
            match self.submit(req, w.via, &w.retry) {
                Submitted::Wait => {
                    self.waiting.insert(req, w);
                }
                Submitted::Done => sent_to.extend(self.requests.get(&req).and_then(|r| r.via)),
            }
        }
        sent_to
    }

    /// Whether some waiting request can be taken now.
    pub(super) fn any_waiting_takeable(&self) -> bool {
        self.waiting
            .values()
            .any(|w| w.not_before <= self.now && self.can_take(w.via, &w.retry))
    }

    /// Whether a member can take a request now: `via` runs and knows a leader, or (without
    /// `via`) there is a leader. Membership changes go to the leader.
    fn can_take(&self, via: Option<NodeId>, w: &Retry) -> bool {
        let node = |v: NodeId| self.nodes.get(&v).filter(|n| n.status == Status::Running);
        match (via, w) {
            (_, Retry::Member { .. }) | (None, _) => self.leader().is_some(),
            (Some(v), Retry::LocalRead { .. }) => node(v).is_some(),
            (Some(v), _) => node(v).is_some_and(|n| n.raft.lead != NONE),
        }
    }

    /// Why nobody takes `w` now, in plain words.
    fn why_waiting(&self, w: &Waiting) -> Msg {
        match w.via {
            Some(v) if !matches!(w.retry, Retry::Member { .. }) && !self.is_running(v) => {
                crate::msg!("why.node_down").arg("id", v)
            }
            Some(v) if !matches!(w.retry, Retry::Member { .. } | Retry::LocalRead { .. }) => {
                crate::msg!("why.knows_no_leader").arg("id", v)
            }
            _ => crate::msg!("why.no_leader"),
        }
    }

    /// Sends `w` for request `req` to its member; answers or leaves it waiting.
    fn submit(&mut self, req: u64, via: Option<NodeId>, w: &Retry) -> Submitted {
        let member = matches!(w, Retry::Member { .. });
        let target = if member { None } else { via }.or_else(|| self.leader());
        let Some(target) = target.filter(|t| self.is_running(*t)) else {
            return Submitted::Wait;
        };
        if let Some(r) = self.requests.get_mut(&req) {
            r.via = Some(target);
        }
        if let Retry::LocalRead { key } = w {
            self.serve_local_read(req, target, key);
            return Submitted::Done;
        }
        // Only a membership change consults the server's view of its peers (built for it
        // alone: for every write it would cost more than the write's own step).
        let view = member.then(|| self.server_view(target));
        let raft = &mut self.nodes.get_mut(&target).expect("running").raft;
        let res = match (w, view) {
            (Retry::Put { key, value }, _) => raft.client_put(key, value, req),
            (Retry::Read { key }, _) => raft.client_read_index(key, req),
            (Retry::Member { cc, .. }, view) => {
                raft.client_member_change(cc.clone(), req, &view.unwrap_or_default())
            }
            (Retry::LocalRead { .. }, _) => unreachable!("answered above"),
        };
        self.flush(target);
        match res {
            Err(ServerError::NoLeader) => Submitted::Wait,
            Err(e) => {
                if let Retry::Member { fresh, .. } = w {
                    self.forget_fresh(fresh);
                }
                self.reject_server(req, e);
                Submitted::Done
            }
            Ok(()) => Submitted::Done,
        }
    }

    /// A new request: sent now if a member can take it, else waiting; its deadline armed.
    fn send(&mut self, kind: ReqKind, via: Option<NodeId>, w: Retry) -> u64 {
        let req = self.new_request(kind, via);
        if matches!(w, Retry::Read { .. } | Retry::LocalRead { .. }) {
            self.last_read = Some(req);
        }
        let sent = self.can_take(via, &w) && matches!(self.submit(req, via, &w), Submitted::Done);
        if !sent {
            let w = Waiting {
                via,
                retry: w,
                not_before: 0,
            };
            let text = crate::msg!("ev.waits")
                .arg("label", labels::request(&self.requests[&req].kind))
                .arg("why", self.why_waiting(&w))
                .arg("timeout", words::secs(self.opts.request_timeout));
            self.log(via, EventKind::Client, text);
            self.waiting.insert(req, w);
        }
        self.arm_deadline(req);
        req
    }

    pub(super) fn propose(
        &mut self,
        key: &str,
        value: &str,
        via: Option<NodeId>,
    ) -> Result<(), Msg> {
        if let Some(v) = via {
            self.node_ref(v)?;
        }
        check_word(key, "key")?;
        check_word(value, "value")?;
        let kind = ReqKind::Write {
            key: key.into(),
            value: value.into(),
        };
        let w = Retry::Put {
            key: key.into(),
            value: value.into(),
        };
        self.send(kind, via, w);
        Ok(())
    }

    pub(super) fn read(
        &mut self,
        key: &str,
        via: Option<NodeId>,
        linearizable: bool,
    ) -> Result<(), Msg> {
        if let Some(v) = via {
            self.node_ref(v)?;
        }
        check_word(key, "key")?;
        let kind = ReqKind::Read {
            key: key.into(),
            linearizable,
        };
        let retry = if linearizable {
            Retry::Read { key: key.into() }
        } else {
            Retry::LocalRead { key: key.into() }
        };
        self.send(kind, via, retry);
        Ok(())
    }

    fn serve_local_read(&mut self, req: u64, target: NodeId, key: &str) {
        let node = &self.nodes[&target].raft;
        let value = node.client_read_local(key);
        let applied = node.log.applied;
        let freshest = self
            .nodes
            .values()
            .filter(|n| n.status == Status::Running)
            .max_by_key(|n| (n.raft.log.applied, std::cmp::Reverse(n.raft.id)))
            .expect("target runs");
        let fresh_value = freshest.raft.client_read_local(key);
        // Stale if the latest applied state anywhere says otherwise.
        let stale = (fresh_value != value).then(|| {
            format!(
                "n{target} has applied up to {applied}; n{} has applied up to {} where {key} = {}",
                freshest.raft.id,
                freshest.raft.log.applied,
                fresh_value.as_deref().unwrap_or("(none)")
            )
        });
        let text = Msg::at(match &stale {
            Some(_) => crate::key_of!("ev.serializable_read_stale"),
            None => crate::key_of!("ev.serializable_read"),
        })
        .arg("key", key)
        .arg("id", target)
        .arg(
            "value",
            match &value {
                Some(v) => Msg::verbatim(v.as_str()),
                None => crate::msg!("word.none"),
            },
        );
        if let Some(r) = self.requests.get_mut(&req) {
            r.outcome = Outcome::Value {
                value,
                index: None,
                stale,
            };
        }
        self.log(Some(target), EventKind::Read, text);
    }

    pub(super) fn member_add(
        &mut self,
        id: NodeId,
        learner: bool,
        misconfigured: bool,
    ) -> Result<(), Msg> {
        if id == 0 {
            return Err(crate::msg!("err.id_zero"));
        }
        if self.removed.contains(&id) {
            return Err(crate::msg!("err.id_reused").arg("id", id));
        }
        if let Some(n) = self.nodes.get(&id) {
            return Err(crate::msg!("err.exists")
                .arg("id", id)
                .arg("status", labels::status(n.status)));
        }
        self.create_node(id);
        if misconfigured {
            self.nodes.get_mut(&id).expect("created").status = Status::Misconfigured;
            self.checker.unsettle(id);
        }
        let change = if learner {
            ConfChangeSingle::AddLearner(id)
        } else {
            ConfChangeSingle::AddNode(id)
        };
        let label = format!(
            "member add n{id}{}{}",
            if learner { " learner" } else { "" },
            if misconfigured {
                " (misconfigured)"
            } else {
                ""
            }
        );
        self.conf_change(ConfChange::new(vec![change]), label, vec![id]);
        Ok(())
    }

    /// Submits a configuration change to the leader (waiting for one if needed).
    pub(super) fn conf_change(&mut self, cc: ConfChange, label: String, fresh: Vec<NodeId>) {
        self.send(
            ReqKind::Member { desc: label },
            None,
            Retry::Member { cc, fresh },
        );
    }

    /// `member promote`: refused at once when the member is not a learner.
    pub(super) fn promote(&mut self, id: NodeId) -> Result<(), Msg> {
        self.node_ref(id)?;
        if !self.config().is_learner(id) {
            let req = self.new_request(
                ReqKind::Member {
                    desc: format!("promote n{id}"),
                },
                None,
            );
            self.reject_server(req, ServerError::NotLearner { id });
            return Ok(());
        }
        self.conf_change(
            ConfChange::new(vec![ConfChangeSingle::AddNode(id)]),
            format!("promote n{id}"),
            Vec::new(),
        );
        Ok(())
    }

    /// `move-leader`: the leader is asked at once (etcdctl finds it through endpoint status).
    pub(super) fn transfer_leader(&mut self, to: NodeId) -> Result<(), Msg> {
        self.node_ref(to)?;
        let req = self.new_request(ReqKind::Transfer { to }, None);
        let Some(l) = self.leader() else {
            self.reject_server(req, ServerError::NoLeader);
            return Ok(());
        };
        let r = self
            .nodes
            .get_mut(&l)
            .expect("leader exists")
            .raft
            .client_transfer_leader(to);
        self.flush(l);
        match r {
            Ok(()) => {
                if let Some(rq) = self.requests.get_mut(&req) {
                    rq.outcome = Outcome::Accepted;
                }
            }
            Err(e) => self.reject_server(req, e),
        }
        Ok(())
    }
}

/// Keys and values are single words: they must survive a round trip through a scenario line.
fn check_word(s: &str, what: &'static str) -> Result<(), Msg> {
    let what = || {
        Msg::at(match what {
            "key" => crate::key_of!("word.key"),
            _ => crate::key_of!("word.value"),
        })
    };
    if s.is_empty() {
        return Err(crate::msg!("err.empty_word").arg("what", what()));
    }
    if s.chars().any(|c| c.is_whitespace() || c == '=' || c == '#') {
        return Err(crate::msg!("err.bad_word")
            .arg("what", what())
            .arg("word", s));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::action::Action;
    use super::super::options::Options;
    use super::*;
    use crate::raft::Rng;

    /// What a history checkpoint copies is what pruning a whole copy keeps, with answered,
    /// pending, timed-out and read requests around and the cap cutting through all of them.
    #[test]
    fn kept_requests_are_what_pruning_keeps() {
        let mut sim = Sim::new(5, Options::default());
        let mut rng = Rng::new(5);
        let mut compared = 0;
        for step in 0..600u64 {
            let id = rng.range(1, 6);
            let action = match rng.range(0, 12) {
                0 => Action::Kill(id),
                1 => Action::Restart(id),
                2 => Action::Isolate(id),
                3 => Action::Heal,
                4 | 5 => Action::Read {
                    key: format!("k{}", rng.range(0, 5)),
                    via: Some(id),
                    linearizable: rng.range(0, 2) == 0,
                },
                _ => Action::Propose {
                    key: format!("k{}", rng.range(0, 5)),
                    value: format!("v{step}"),
                    via: (rng.range(0, 3) == 0).then_some(id),
                },
            };
            let _ = sim.apply(&action);
            sim.tick(rng.range(0, 3));
            for cap in [0, 1, 16, 150] {
                let mut pruned = sim.clone();
                pruned.prune_requests(cap);
                assert_eq!(
                    sim.kept_requests(cap),
                    pruned.requests,
                    "step {step} cap {cap}"
                );
                compared += 1;
            }
        }
        let open = sim
            .requests
            .values()
            .filter(|r| !matches!(r.outcome, Outcome::Committed { .. }))
            .count();
        assert!(compared > 0 && open > 0, "{open}");
    }
}
