//! The Raft state machine of one node (etcd's raft.go): roles, elections, replication,
//! commitment, configuration changes, leader transfer and ReadIndex.
//!
//! Time only enters through [`Raft::tick`]; messages only through [`Raft::step`]. Outgoing
//! messages pile up in `msgs` and notes in `notes`; the caller takes them. Everything a node
//! writes to `msgs` is already durable (term, vote and log are persisted before anything is
//! sent), so a vote is never granted twice in one term, even across a crash.

use serde::{Deserialize, Serialize};
use std::sync::Arc;

use super::confchange;
use super::kv::KvState;
use super::log::RaftLog;
use super::message::{
    ConfChange, Entry, EntryData, Message, MsgType, NodeId, Snapshot, CONTEXT_TRANSFER, NONE,
};
use super::note::{
    CampaignRefusal, Note, ProposalRefusal, ReadRefusal, StepDown, TransferAbort, TransferRefusal,
    VoteRefusal,
};
use super::quorum::VoteResult;
use super::read_only::ReadOnly;
use super::rng::Rng;
use super::tracker::{Config, Progress, ProgressState, ProgressTracker};
use super::vec_map::VecMap;

/// A node's role (Raft §5.1, plus the pre-candidate of thesis §9.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    /// Follows a leader (or waits for one).
    Follower,
    /// Asks whether it could win before disrupting anyone (pre-vote).
    PreCandidate,
    /// Campaigns at a new term.
    Candidate,
    /// Leads its term.
    Leader,
}

impl Role {
    /// "follower", "precandidate", "candidate" or "leader".
    pub fn name(self) -> &'static str {
        match self {
            Role::Follower => "follower",
            Role::PreCandidate => "precandidate",
            Role::Candidate => "candidate",
            Role::Leader => "leader",
        }
    }
}

/// Protocol and server settings, defaults as in etcd 3.5+.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaftConfig {
    /// Ticks between heartbeats.
    pub heartbeat_tick: u64,
    /// The base election timeout in ticks; the real one is random in [this, 2×this).
    pub election_tick: u64,
    /// Pre-vote (thesis §9.6).
    pub pre_vote: bool,
    /// Check-quorum: leaders step down without a quorum, followers honour leases.
    pub check_quorum: bool,
    /// Max appends in flight per follower (etcd's MaxInflightMsgs).
    pub max_inflight: usize,
    /// Max entries per append (etcd limits bytes; entries are the visible unit here).
    pub max_entries: usize,
    /// Compact the log every this many applied entries (0: only on demand).
    pub snapshot_every: u64,
    /// Server policy: a learner is promoted only when its match is at least this percent of
    /// the leader's.
    pub learner_ready_percent: u64,
    /// Server policy: at most this many learners.
    pub max_learners: usize,
    /// Server policy: refuse membership changes that could lose quorum (etcd's
    /// --strict-reconfig-check).
    pub strict_reconfig: bool,
    /// Teaching only, never in etcd: commit an entry of an older term once a majority holds
    /// it, breaking the rule of the paper's Figure 8, so the invariant checker can show what
    /// goes wrong.
    pub unsafe_commit_old_terms: bool,
    /// Flow control before etcd 3.6 (etcd 3.4 and 3.5): a heartbeat response frees one slot
    /// of a follower's full inflight window, so entries keep flowing at one append per
    /// heartbeat however slow the follower acknowledges; and an acknowledgement from a
    /// follower that was paused is answered with an append carrying the commit index. False
    /// (etcd 3.6): the window only empties on append responses, a heartbeat response to a
    /// throttled follower only triggers an empty append, and the commit index is re-sent
    /// only while it can move the follower's commit (CanBumpCommit).
    pub legacy_flow_control: bool,
    /// etcd's StepDownOnRemoval: a leader that applies its own removal (or demotion) steps
    /// down at once. False, etcd's default: it stays leader of a configuration it is not in,
    /// refusing proposals, until its process stops (etcd's server stops a removed member).
    pub step_down_on_removal: bool,
}

impl Default for RaftConfig {
    fn default() -> Self {
        RaftConfig {
            heartbeat_tick: 1,
            election_tick: 10,
            pre_vote: true,
            check_quorum: true,
            max_inflight: 256,
            max_entries: 64,
            snapshot_every: 0,
            learner_ready_percent: 90,
            max_learners: 1,
            strict_reconfig: false,
            unsafe_commit_old_terms: false,
            legacy_flow_control: false,
            step_down_on_removal: false,
        }
    }
}

/// What survives a crash: term, vote, log (with its snapshot) and commit index (etcd's
/// HardState plus the WAL).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Durable {
    /// The current term.
    pub term: u64,
    /// The vote in that term.
    pub vote: NodeId,
    /// The log; `applied` is ignored on restart.
    pub log: RaftLog,
}

/// One node's Raft state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Raft {
    /// This node's id.
    pub id: NodeId,
    /// The current term (durable).
    pub term: u64,
    /// Who it voted for in `term` (durable).
    pub vote: NodeId,
    /// The log (durable but for `applied`).
    pub log: RaftLog,
    /// Configuration and, on a leader, every member's progress.
    pub trk: ProgressTracker,
    /// Its role.
    pub role: Role,
    /// The leader it knows of in `term`.
    pub lead: NodeId,
    /// The node leadership is being transferred to.
    pub lead_transferee: NodeId,
    /// On a leader: the index of the last configuration change proposed; a new one waits
    /// until this is applied.
    pub pending_conf_index: u64,
    /// Read-index requests waiting for their heartbeat round.
    pub read_only: ReadOnly,
    /// Read-index requests that arrived before the leader committed an entry of its term.
    pub pending_read_index: Vec<Message>,
    /// Reads this node was asked for, by request id: the key.
    pub read_keys: VecMap<u64, String>,
    /// Read indexes obtained and waiting to be applied: (request id, index).
    pub read_waits: Vec<(u64, u64)>,
    /// Ticks since the last election timeout reset.
    pub election_elapsed: u64,
    /// Ticks since the last heartbeat (leader).
    pub heartbeat_elapsed: u64,
    /// This term's election timeout, random in [election, 2×election).
    pub randomized_election_timeout: u64,
    /// Settings.
    pub cfg: RaftConfig,
    /// The applied key-value state (shared with snapshots and copies of this node).
    pub kv: KvState,
    /// Messages to send.
    pub msgs: Vec<Message>,
    /// What happened, for the caller to word.
    pub notes: Vec<Note>,
    rng: Rng,
}

impl Raft {
    /// A fresh node with an empty log whose configuration starts as `genesis` (every member
    /// of a cluster and every member that joins later shares the same genesis, as if it were
    /// entry 0), at term 0.
    pub fn new(id: NodeId, genesis: Config, cfg: RaftConfig, rng: Rng) -> Raft {
        let snap = Snapshot {
            conf: genesis,
            ..Snapshot::default()
        };
        Raft::restart(
            id,
            Durable {
                term: 0,
                vote: NONE,
                log: RaftLog::new(snap),
            },
            cfg,
            rng,
        )
    }

    /// A node restarted from its durable state: volatile state (role, leader, progress,
    /// applied state) is rebuilt, committed entries are applied again from the snapshot.
    pub fn restart(id: NodeId, durable: Durable, cfg: RaftConfig, rng: Rng) -> Raft {
        let mut log = durable.log;
        log.applied = log.snapshot.index;
        let trk = ProgressTracker::new(
            log.snapshot.conf.clone(),
            log.last_index() + 1,
            cfg.max_inflight,
        );
        let kv = log.snapshot.data.clone();
        let mut r = Raft {
            id,
            term: durable.term,
            vote: durable.vote,
            log,
            trk,
            role: Role::Follower,
            lead: NONE,
            lead_transferee: NONE,
            pending_conf_index: 0,
            read_only: ReadOnly::default(),
            pending_read_index: Vec::new(),
            read_keys: VecMap::new(),
            read_waits: Vec::new(),
            election_elapsed: 0,
            heartbeat_elapsed: 0,
            randomized_election_timeout: 0,
            cfg,
            kv,
            msgs: Vec::new(),
            notes: Vec::new(),
            rng,
        };
        r.reset_randomized_election_timeout();
        r.apply_committed();
        // Re-applying what was applied before the crash is not news.
        r.notes.clear();
        r
    }

    /// The state that survives a crash.
    pub fn durable(&self) -> Durable {
        Durable {
            term: self.term,
            vote: self.vote,
            log: self.log.clone(),
        }
    }

    /// Whether this node may campaign: it is a voter of its own configuration.
    pub fn promotable(&self) -> bool {
        self.trk.config.is_voter(self.id)
    }

    /// Whether this node is a learner in its own configuration.
    pub fn is_learner(&self) -> bool {
        self.trk.config.is_learner(self.id) && !self.trk.config.is_voter(self.id)
    }

    /// The progress of `id` as this node (a leader) tracks it.
    pub fn progress(&self, id: NodeId) -> Option<&Progress> {
        self.trk.progress.get(&id)
    }

    // ---- time ----------------------------------------------------------------------------

    /// Advances the node's logical clock by one tick.
    pub fn tick(&mut self) {
        if self.role == Role::Leader {
            self.tick_heartbeat();
        } else {
            self.tick_election();
        }
        self.apply_committed();
    }

    fn tick_election(&mut self) {
        self.election_elapsed += 1;
        if self.promotable() && self.election_elapsed >= self.randomized_election_timeout {
            self.election_elapsed = 0;
            self.step_local(MsgType::Hup);
        }
    }

    fn tick_heartbeat(&mut self) {
        self.heartbeat_elapsed += 1;
        self.election_elapsed += 1;
        if self.election_elapsed >= self.cfg.election_tick {
            self.election_elapsed = 0;
            if self.cfg.check_quorum {
                self.step_local(MsgType::CheckQuorum);
            }
            // A transfer that has not finished within an election timeout is abandoned.
            if self.role == Role::Leader && self.lead_transferee != NONE {
                self.notes.push(Note::TransferAborted {
                    to: self.lead_transferee,
                    why: TransferAbort::Timeout,
                });
                self.abort_leader_transfer();
            }
        }
        if self.role != Role::Leader {
            return;
        }
        if self.heartbeat_elapsed >= self.cfg.heartbeat_tick {
            self.heartbeat_elapsed = 0;
            self.step_local(MsgType::Beat);
        }
    }

    /// Makes the election timer fire now (the scenario language's `campaign`).
    pub fn campaign_now(&mut self) {
        self.election_elapsed = 0;
        self.step_local(MsgType::Hup);
        self.apply_committed();
    }

    fn reset_randomized_election_timeout(&mut self) {
        let e = self.cfg.election_tick;
        self.randomized_election_timeout = self.rng.range(e, 2 * e);
    }

    fn step_local(&mut self, t: MsgType) {
        let m = Message::new(t, self.id, self.id);
        self.step(m);
    }

    // ---- role changes --------------------------------------------------------------------

    fn reset(&mut self, term: u64) {
        if self.term != term {
            self.term = term;
            self.vote = NONE;
        }
        self.lead = NONE;
        self.election_elapsed = 0;
        self.heartbeat_elapsed = 0;
        self.reset_randomized_election_timeout();
        self.abort_leader_transfer();
        self.trk.votes.clear();
        let last = self.log.last_index();
        let max_inflight = self.cfg.max_inflight;
        for (id, pr) in self.trk.progress.iter_mut() {
            let mut fresh = Progress::new(last + 1, max_inflight, pr.is_learner);
            if *id == self.id {
                fresh.matched = last;
            }
            *pr = fresh;
        }
        self.pending_conf_index = 0;
        let ro = std::mem::take(&mut self.read_only);
        for rs in ro.pending.values() {
            self.notes.push(Note::ReadDropped {
                req: rs.ctx,
                reason: ReadRefusal::LeadershipChanged,
            });
        }
        for m in std::mem::take(&mut self.pending_read_index) {
            self.notes.push(Note::ReadDropped {
                req: m.context,
                reason: ReadRefusal::LeadershipChanged,
            });
        }
    }

    fn become_follower(&mut self, term: u64, lead: NodeId) {
        self.reset(term);
        self.lead = lead;
        self.role = Role::Follower;
    }

    fn become_pre_candidate(&mut self) {
        // A pre-candidate changes neither its term nor its vote: that is the whole point.
        self.trk.votes.clear();
        self.lead = NONE;
        self.role = Role::PreCandidate;
    }

    fn become_candidate(&mut self) {
        let t = self.term + 1;
        self.reset(t);
        self.vote = self.id;
        self.role = Role::Candidate;
    }

    fn become_leader(&mut self) {
        let t = self.term;
        self.reset(t);
        self.lead = self.id;
        self.role = Role::Leader;
        let last = self.log.last_index();
        if let Some(pr) = self.trk.progress.get_mut(&self.id) {
            pr.matched = last;
            pr.become_replicate();
            // A leader counts as active itself (check-quorum never clears it).
            pr.recent_active = true;
        }
        // Conservatively treat any unapplied configuration entry as pending.
        self.pending_conf_index = last;
        self.notes.push(Note::BecameLeader { term: t });
        // §5.4.2: an entry of its own term lets it commit everything before it.
        self.append_entries(vec![EntryData::Empty]);
    }

    // ---- elections -----------------------------------------------------------------------

    fn hup(&mut self, transfer: bool) {
        if self.role == Role::Leader {
            return;
        }
        if !self.promotable() {
            let reason = if self.is_learner() {
                CampaignRefusal::Learner
            } else {
                CampaignRefusal::NotVoter
            };
            self.notes.push(Note::CampaignRefused { reason });
            return;
        }
        if self.log.has_unapplied_conf() {
            self.notes.push(Note::CampaignRefused {
                reason: CampaignRefusal::UnappliedConfChange,
            });
            return;
        }
        if self.cfg.pre_vote && !transfer {
            self.campaign(true, false);
        } else {
            self.campaign(false, transfer);
        }
    }

    fn campaign(&mut self, pre_vote: bool, transfer: bool) {
        let (msg_type, term) = if pre_vote {
            self.become_pre_candidate();
            (MsgType::PreVote, self.term + 1)
        } else {
            self.become_candidate();
            (MsgType::Vote, self.term)
        };
        self.notes.push(Note::Campaign {
            pre_vote,
            term,
            transfer,
        });
        if self.trk.record_vote(self.id, true) == VoteResult::Won {
            // A single voter wins at once.
            if pre_vote {
                self.campaign(false, transfer);
            } else {
                self.become_leader();
            }
            return;
        }
        let (last_index, last_term) = (self.log.last_index(), self.log.last_term());
        for id in self.trk.config.all_voters() {
            if id == self.id {
                continue;
            }
            let mut m = Message::new(msg_type, self.id, id);
            m.term = term;
            m.index = last_index;
            m.log_term = last_term;
            m.context = if transfer { CONTEXT_TRANSFER } else { 0 };
            self.msgs.push(m);
        }
    }

    fn handle_vote_request(&mut self, m: &Message) {
        let pre_vote = m.msg_type == MsgType::PreVote;
        let resp_type = if pre_vote {
            MsgType::PreVoteResp
        } else {
            MsgType::VoteResp
        };
        // We can vote for whoever we already voted for, for anyone if we have neither voted
        // nor know a leader, and in a pre-vote for anyone asking about a future term.
        let can_vote = self.vote == m.from
            || (self.vote == NONE && self.lead == NONE)
            || (pre_vote && m.term > self.term);
        let up_to_date = self.log.is_up_to_date(m.index, m.log_term);
        let mut resp = Message::new(resp_type, self.id, m.from);
        if can_vote && up_to_date {
            resp.term = m.term;
            if !pre_vote {
                self.election_elapsed = 0;
                self.vote = m.from;
            }
            self.notes.push(Note::Voted {
                candidate: m.from,
                term: m.term,
                pre_vote,
                granted: true,
                reason: None,
            });
        } else {
            resp.term = self.term;
            resp.reject = true;
            let reason = Some(if !can_vote {
                if self.vote != NONE {
                    VoteRefusal::AlreadyVoted {
                        vote: self.vote,
                        term: self.term,
                    }
                } else {
                    VoteRefusal::FollowsLeader { lead: self.lead }
                }
            } else {
                VoteRefusal::LogBehind {
                    index: m.index,
                    term: m.log_term,
                    last_index: self.log.last_index(),
                    last_term: self.log.last_term(),
                }
            });
            self.notes.push(Note::Voted {
                candidate: m.from,
                term: m.term,
                pre_vote,
                granted: false,
                reason,
            });
        }
        self.msgs.push(resp);
    }

    // ---- the message entry point ---------------------------------------------------------

    /// Feeds one message into the node: a peer's message, a client proposal (`Prop`,
    /// `ReadIndex`) or a local one (`Hup`, `Beat`, `CheckQuorum`). Never fails: a message
    /// that does not apply is ignored, as etcd does.
    pub fn step(&mut self, m: Message) {
        self.step_inner(m);
        self.apply_committed();
    }

    fn step_inner(&mut self, m: Message) {
        if m.term > self.term {
            if matches!(m.msg_type, MsgType::Vote | MsgType::PreVote) {
                let force = m.context == CONTEXT_TRANSFER;
                let in_lease = self.cfg.check_quorum
                    && self.lead != NONE
                    && self.election_elapsed < self.cfg.election_tick;
                if !force && in_lease {
                    // §6 of the thesis: a node that heard from a leader within the minimum
                    // election timeout does not help depose it.
                    self.notes.push(Note::IgnoredVote {
                        candidate: m.from,
                        term: m.term,
                        pre_vote: m.msg_type == MsgType::PreVote,
                    });
                    return;
                }
            }
            let keeps_term =
                m.msg_type == MsgType::PreVote || (m.msg_type == MsgType::PreVoteResp && !m.reject);
            if !keeps_term {
                if self.role == Role::Leader {
                    self.notes.push(Note::SteppedDown {
                        why: StepDown::HigherTerm {
                            from: m.from,
                            term: m.term,
                        },
                    });
                }
                let lead = if matches!(
                    m.msg_type,
                    MsgType::App | MsgType::Heartbeat | MsgType::Snap
                ) {
                    m.from
                } else {
                    NONE
                };
                self.become_follower(m.term, lead);
            }
        } else if m.term < self.term && m.term != 0 {
            if (self.cfg.check_quorum || self.cfg.pre_vote)
                && matches!(m.msg_type, MsgType::Heartbeat | MsgType::App)
            {
                // A stale leader (e.g. back from a partition) learns the new term from this and
                // steps down; without it, it could keep disrupting with its old term.
                let mut resp = Message::new(MsgType::AppResp, self.id, m.from);
                resp.term = self.term;
                self.msgs.push(resp);
            } else if m.msg_type == MsgType::PreVote {
                let mut resp = Message::new(MsgType::PreVoteResp, self.id, m.from);
                resp.term = self.term;
                resp.reject = true;
                self.msgs.push(resp);
            }
            return;
        }

        match m.msg_type {
            MsgType::Hup => {
                self.hup(false);
                return;
            }
            MsgType::Vote | MsgType::PreVote => {
                self.handle_vote_request(&m);
                return;
            }
            _ => {}
        }
        match self.role {
            Role::Leader => self.step_leader(m),
            Role::Candidate | Role::PreCandidate => self.step_candidate(m),
            Role::Follower => self.step_follower(m),
        }
    }

    fn send(&mut self, mut m: Message) {
        if m.term == 0 && !matches!(m.msg_type, MsgType::Prop | MsgType::ReadIndex) {
            m.term = self.term;
        }
        self.msgs.push(m);
    }

    // ---- leader --------------------------------------------------------------------------

    fn step_leader(&mut self, m: Message) {
        match m.msg_type {
            MsgType::Beat => {
                self.bcast_heartbeat(self.read_only.last_pending());
                return;
            }
            MsgType::CheckQuorum => {
                if !self.trk.quorum_active(self.id) {
                    let (active, voters) = self.trk.active_voters(self.id);
                    self.notes.push(Note::SteppedDown {
                        why: StepDown::CheckQuorum { active, voters },
                    });
                    let t = self.term;
                    self.become_follower(t, NONE);
                }
                let me = self.id;
                for (id, pr) in self.trk.progress.iter_mut() {
                    if *id != me {
                        pr.recent_active = false;
                    }
                }
                return;
            }
            MsgType::Prop => {
                self.leader_propose(m);
                return;
            }
            MsgType::ReadIndex => {
                self.leader_read_index(m);
                return;
            }
            MsgType::TransferLeader => {
                self.leader_transfer(m.from);
                return;
            }
            _ => {}
        }
        let from = m.from;
        if !self.trk.progress.contains_key(&from) {
            return;
        }
        match m.msg_type {
            MsgType::AppResp => self.handle_append_response(m),
            MsgType::HeartbeatResp => self.handle_heartbeat_response(m),
            MsgType::SnapStatus => {
                let pr = self.trk.progress.get_mut(&from).expect("checked above");
                if pr.state == ProgressState::Snapshot {
                    if m.reject {
                        pr.pending_snapshot = 0;
                    }
                    pr.become_probe();
                    // Wait for the next heartbeat response before probing again.
                    pr.msg_app_flow_paused = true;
                    self.notes.push(Note::ProgressChanged {
                        peer: from,
                        state: ProgressState::Probe,
                    });
                }
            }
            _ => {}
        }
    }

    fn leader_propose(&mut self, m: Message) {
        if !self.trk.progress.contains_key(&self.id) {
            self.drop_proposal(&m, ProposalRefusal::LeaderRemoved);
            return;
        }
        if self.lead_transferee != NONE {
            let reason = ProposalRefusal::TransferInProgress {
                to: self.lead_transferee,
            };
            self.drop_proposal(&m, reason);
            return;
        }
        let mut accepted = Vec::new();
        for e in m.entries.into_vec() {
            if let EntryData::Conf { cc, req } = &e.data {
                let already_pending = self.pending_conf_index > self.log.applied;
                let refusal = if already_pending {
                    Some(ProposalRefusal::ConfChangePending {
                        index: self.pending_conf_index,
                        applied: self.log.applied,
                    })
                } else {
                    confchange::apply(&self.trk.config, cc)
                        .err()
                        .map(ProposalRefusal::ConfChange)
                };
                if let Some(reason) = refusal {
                    // etcd keeps the proposal's place in the log with an empty entry, so
                    // the indexes that follow are the same as if it had been accepted.
                    self.notes.push(Note::ProposalDropped { req: *req, reason });
                    accepted.push(EntryData::Empty);
                    continue;
                }
                self.pending_conf_index = self.log.last_index() + accepted.len() as u64 + 1;
            }
            // The proposal's entry is usually this message's alone: its payload moves into
            // the log instead of being copied.
            accepted.push(Arc::try_unwrap(e).map_or_else(|e| e.data.clone(), |e| e.data));
        }
        if accepted.is_empty() {
            return;
        }
        self.append_entries(accepted);
        self.bcast_append();
    }

    /// Appends entries of the current term at the end of the leader's log.
    fn append_entries(&mut self, data: Vec<EntryData>) {
        let li = self.log.last_index();
        let ents: Vec<Arc<Entry>> = data
            .into_iter()
            .enumerate()
            .map(|(i, d)| {
                Arc::new(Entry {
                    term: self.term,
                    index: li + 1 + i as u64,
                    data: d,
                })
            })
            .collect();
        for e in &ents {
            let req = e.req();
            if req != 0 {
                self.notes.push(Note::Appended {
                    req,
                    index: e.index,
                    term: e.term,
                });
            }
        }
        self.log.append(&ents);
        let last = self.log.last_index();
        if let Some(pr) = self.trk.progress.get_mut(&self.id) {
            pr.maybe_update(last);
        }
        self.maybe_commit();
    }

    /// Advances the commit index to what a quorum holds, if that entry is of this term
    /// (Figure 8). Returns whether it moved.
    fn maybe_commit(&mut self) -> bool {
        let mci = self.trk.committed();
        // Figure 8: only an entry of the current term is committed by counting replicas.
        let term = if self.cfg.unsafe_commit_old_terms {
            self.log.term(mci).unwrap_or(self.term)
        } else {
            self.term
        };
        if !self.log.maybe_commit(mci, term) {
            return false;
        }
        if !self.pending_read_index.is_empty() && self.committed_entry_in_current_term() {
            for m in std::mem::take(&mut self.pending_read_index) {
                self.send_read_index_heartbeat(m);
            }
        }
        true
    }

    fn committed_entry_in_current_term(&self) -> bool {
        self.log.term(self.log.committed) == Some(self.term)
    }

    fn bcast_append(&mut self) {
        let peers: Vec<NodeId> = self.trk.progress.keys().copied().collect();
        for id in peers {
            if id != self.id {
                self.maybe_send_append(id, true);
            }
        }
    }

    /// Sends the next append (or a snapshot) to `to` unless its progress is paused.
    fn maybe_send_append(&mut self, to: NodeId, send_if_empty: bool) -> bool {
        let Some(pr) = self.trk.progress.get(&to) else {
            return false;
        };
        if pr.is_paused() {
            return false;
        }
        let prev_index = pr.next - 1;
        let prev_term = self.log.term(prev_index);
        // etcd 3.6: a throttled replicate flow (window full, unpaused by a heartbeat
        // response) gets only an empty append. Its answer, acknowledgement or rejection,
        // empties the window even when every append in it was lost.
        let throttled = pr.state == ProgressState::Replicate && pr.inflights.full();
        let max = if throttled { 0 } else { self.cfg.max_entries };
        let ents = self.log.entries_from(pr.next, max);
        let (Some(prev_term), Some(ents)) = (prev_term, ents) else {
            return self.send_snapshot(to);
        };
        if ents.is_empty() && !send_if_empty {
            return false;
        }
        let n = ents.len();
        let last = ents.last().map(|e| e.index).unwrap_or(prev_index);
        let mut m = Message::new(MsgType::App, self.id, to);
        m.index = prev_index;
        m.log_term = prev_term;
        m.entries = ents.into_boxed_slice();
        m.commit = self.log.committed;
        self.send(m);
        let committed = self.log.committed;
        if let Some(pr) = self.trk.progress.get_mut(&to) {
            pr.sent_entries(n, last);
            pr.sent_commit = committed;
        }
        true
    }

    fn send_snapshot(&mut self, to: NodeId) -> bool {
        let recent = self.trk.progress.get(&to).is_some_and(|p| p.recent_active);
        if !recent {
            return false;
        }
        // etcd's server sends its applied state, not the raft storage's older snapshot
        // (createMergedSnapshotMessage): index, term and configuration as of `applied`. So a
        // member added after the last compaction finds itself in the snapshot's
        // configuration, which `restore` requires.
        let applied = self.log.applied;
        let snap = match self.log.term(applied) {
            Some(term) if applied > self.log.snapshot.index => Snapshot {
                index: applied,
                term,
                conf: self.trk.config.clone(),
                data: self.kv.clone(),
            },
            _ => self.log.snapshot.clone(),
        };
        let index = snap.index;
        let mut m = Message::new(MsgType::Snap, self.id, to);
        m.snapshot = Some(Box::new(snap));
        self.send(m);
        if let Some(pr) = self.trk.progress.get_mut(&to) {
            pr.become_snapshot(index);
        }
        self.notes.push(Note::SnapshotSent { peer: to, index });
        self.notes.push(Note::ProgressChanged {
            peer: to,
            state: ProgressState::Snapshot,
        });
        true
    }

    fn bcast_heartbeat(&mut self, ctx: u64) {
        let committed = self.log.committed;
        let mut out = Vec::new();
        for (id, pr) in self.trk.progress.iter_mut() {
            if *id == self.id {
                continue;
            }
            let mut m = Message::new(MsgType::Heartbeat, self.id, *id);
            // Never tell a follower to commit past what it is known to hold.
            m.commit = pr.matched.min(committed);
            m.context = ctx;
            pr.sent_commit = m.commit;
            out.push(m);
        }
        for m in out {
            self.send(m);
        }
    }

    fn handle_append_response(&mut self, m: Message) {
        let from = m.from;
        let last_index = self.log.last_index();
        let first_index = self.log.first_index();
        let pr = self.trk.progress.get_mut(&from).expect("caller checked");
        pr.recent_active = true;
        if m.reject {
            let mut next_probe = m.reject_hint;
            if m.log_term > 0 {
                next_probe = self.log.find_conflict_by_term(m.reject_hint, m.log_term).0;
            }
            let pr = self.trk.progress.get_mut(&from).expect("caller checked");
            if pr.maybe_decr_to(m.index, next_probe) {
                if pr.state == ProgressState::Replicate {
                    pr.become_probe();
                    self.notes.push(Note::ProgressChanged {
                        peer: from,
                        state: ProgressState::Probe,
                    });
                }
                self.maybe_send_append(from, true);
            }
            return;
        }
        // A probe answered at the index already matched also moves to replicate (etcd:
        // heartbeat_resp_recovers_from_probing), e.g. a caught-up follower that was probed.
        let probe_recovered = pr.matched == m.index && pr.state == ProgressState::Probe;
        let old_paused = pr.is_paused();
        if !pr.maybe_update(m.index) && !probe_recovered {
            return;
        }
        match pr.state {
            ProgressState::Probe => {
                pr.become_replicate();
                self.notes.push(Note::ProgressChanged {
                    peer: from,
                    state: ProgressState::Replicate,
                });
            }
            ProgressState::Snapshot if pr.matched + 1 >= first_index => {
                // The snapshot (or an append past it) arrived: probe, then stream.
                pr.become_probe();
                pr.become_replicate();
                self.notes.push(Note::ProgressChanged {
                    peer: from,
                    state: ProgressState::Replicate,
                });
            }
            ProgressState::Replicate => pr.inflights.free_le(m.index),
            ProgressState::Snapshot => {}
        }
        let committed = self.log.committed;
        let bump = if self.cfg.legacy_flow_control {
            old_paused
        } else {
            self.trk
                .progress
                .get(&from)
                .is_some_and(|p| p.can_bump_commit(committed))
        };
        if self.maybe_commit() {
            self.bcast_append();
        } else if from != self.id && bump {
            // A lagging follower may miss the commit index; sending it now beats waiting
            // for the next heartbeat (etcd's CanBumpCommit).
            self.maybe_send_append(from, true);
        }
        // Fill the window while there is more to send.
        while from != self.id && self.maybe_send_append(from, false) {}
        let matched = self.trk.progress.get(&from).map_or(0, |p| p.matched);
        if from == self.lead_transferee && matched == last_index.max(self.log.last_index()) {
            let m = Message::new(MsgType::TimeoutNow, self.id, from);
            self.send(m);
        }
    }

    fn handle_heartbeat_response(&mut self, m: Message) {
        let from = m.from;
        let last = self.log.last_index();
        let pr = self.trk.progress.get_mut(&from).expect("caller checked");
        pr.recent_active = true;
        pr.msg_app_flow_paused = false;
        if self.cfg.legacy_flow_control
            && pr.state == ProgressState::Replicate
            && pr.inflights.full()
        {
            pr.inflights.free_first_one();
        }
        if pr.matched < last || pr.state == ProgressState::Probe {
            self.maybe_send_append(from, true);
        }
        if m.context == 0 {
            return;
        }
        let Some(acks) = self.read_only.recv_ack(from, m.context) else {
            return;
        };
        // Inserted, not collected: `collect` into a B-tree map sorts first, linking a copy of
        // std's sort into the browser build for this one pair type (the acks come sorted).
        let mut votes: VecMap<NodeId, bool> = VecMap::new();
        votes.extend(acks.iter().map(|id| (*id, true)));
        if self.trk.config.vote_result(&votes) != VoteResult::Won {
            return;
        }
        for rs in self.read_only.advance(m.context) {
            self.answer_read_index(rs.from, rs.ctx, rs.index);
        }
    }

    fn leader_read_index(&mut self, m: Message) {
        let single = self.trk.config.voters.len() == 1
            && !self.trk.config.is_joint()
            && self.trk.config.voters.contains(&self.id);
        if single {
            let idx = self.log.committed;
            self.answer_read_index(m.from, m.context, idx);
            return;
        }
        // §6.4: a new leader does not know the commit index until it commits an entry of its
        // own term, so it holds reads until then.
        if !self.committed_entry_in_current_term() {
            self.pending_read_index.push(m);
            return;
        }
        self.send_read_index_heartbeat(m);
    }

    fn send_read_index_heartbeat(&mut self, m: Message) {
        self.read_only
            .add_request(self.log.committed, m.from, m.context);
        self.read_only.recv_ack(self.id, m.context);
        self.bcast_heartbeat(m.context);
    }

    fn answer_read_index(&mut self, from: NodeId, ctx: u64, index: u64) {
        if from == self.id || from == NONE {
            self.read_waits.push((ctx, index));
        } else {
            let mut resp = Message::new(MsgType::ReadIndexResp, self.id, from);
            resp.index = index;
            resp.context = ctx;
            self.send(resp);
        }
    }

    fn leader_transfer(&mut self, transferee: NodeId) {
        let Some(pr) = self.trk.progress.get(&transferee) else {
            self.notes.push(Note::TransferRefused {
                to: transferee,
                reason: TransferRefusal::NotMember,
            });
            return;
        };
        if pr.is_learner {
            self.notes.push(Note::TransferRefused {
                to: transferee,
                reason: TransferRefusal::Learner,
            });
            return;
        }
        if self.lead_transferee != NONE {
            if self.lead_transferee == transferee {
                return;
            }
            // A new request replaces the pending one, even one back to this leader
            // (etcd's TestLeaderTransferBack).
            self.notes.push(Note::TransferAborted {
                to: self.lead_transferee,
                why: TransferAbort::Superseded { by: transferee },
            });
            self.abort_leader_transfer();
        }
        if transferee == self.id {
            self.notes.push(Note::TransferRefused {
                to: transferee,
                reason: TransferRefusal::AlreadyLeader,
            });
            return;
        }
        // The transfer must finish within one election timeout.
        self.election_elapsed = 0;
        self.lead_transferee = transferee;
        self.notes.push(Note::TransferStarted { to: transferee });
        let caught_up = self
            .trk
            .progress
            .get(&transferee)
            .is_some_and(|p| p.matched == self.log.last_index());
        if caught_up {
            let m = Message::new(MsgType::TimeoutNow, self.id, transferee);
            self.send(m);
        } else {
            self.maybe_send_append(transferee, true);
        }
    }

    fn abort_leader_transfer(&mut self) {
        self.lead_transferee = NONE;
    }

    // ---- candidate and follower ----------------------------------------------------------

    fn step_candidate(&mut self, m: Message) {
        let my_resp = if self.role == Role::PreCandidate {
            MsgType::PreVoteResp
        } else {
            MsgType::VoteResp
        };
        match m.msg_type {
            MsgType::Prop => self.drop_proposal(&m, ProposalRefusal::NoLeader),
            MsgType::ReadIndex => self.drop_read(&m, ReadRefusal::NoLeader),
            MsgType::App => {
                let t = m.term;
                self.become_follower(t, m.from);
                self.handle_append(m);
            }
            MsgType::Heartbeat => {
                let t = m.term;
                self.become_follower(t, m.from);
                self.handle_heartbeat(m);
            }
            MsgType::Snap => {
                let t = m.term;
                self.become_follower(t, m.from);
                self.handle_snapshot(m);
            }
            t if t == my_resp => {
                let pre_vote = self.role == Role::PreCandidate;
                match self.trk.record_vote(m.from, !m.reject) {
                    VoteResult::Won => {
                        if pre_vote {
                            self.campaign(false, false);
                        } else {
                            self.become_leader();
                            self.bcast_append();
                        }
                    }
                    VoteResult::Lost => {
                        let (granted, rejected) = self.trk.tally();
                        let term = if pre_vote { self.term + 1 } else { self.term };
                        self.notes.push(Note::CampaignLost {
                            pre_vote,
                            term,
                            granted,
                            rejected,
                        });
                        let t = self.term;
                        self.become_follower(t, NONE);
                    }
                    VoteResult::Pending => {}
                }
            }
            _ => {}
        }
    }

    fn step_follower(&mut self, m: Message) {
        match m.msg_type {
            MsgType::Prop => {
                if self.lead == NONE {
                    self.drop_proposal(&m, ProposalRefusal::NoLeader);
                    return;
                }
                let mut fwd = m;
                fwd.to = self.lead;
                self.msgs.push(fwd);
            }
            MsgType::App => {
                self.election_elapsed = 0;
                self.lead = m.from;
                self.handle_append(m);
            }
            MsgType::Heartbeat => {
                self.election_elapsed = 0;
                self.lead = m.from;
                self.handle_heartbeat(m);
            }
            MsgType::Snap => {
                self.election_elapsed = 0;
                self.lead = m.from;
                self.handle_snapshot(m);
            }
            MsgType::TransferLeader if self.lead != NONE => {
                let mut fwd = m;
                fwd.to = self.lead;
                self.msgs.push(fwd);
            }
            MsgType::TimeoutNow => {
                // Leadership transfer: campaign at once, skipping pre-vote and leases.
                self.hup(true);
            }
            MsgType::ReadIndex => {
                if self.lead == NONE {
                    self.drop_read(&m, ReadRefusal::NoLeader);
                    return;
                }
                let mut fwd = m;
                fwd.to = self.lead;
                self.msgs.push(fwd);
            }
            // A response for a read this process never asked for (it restarted while the
            // request was at the leader) is dropped: its client already saw an error, and
            // answering it would report a value nobody asked for.
            MsgType::ReadIndexResp if self.read_keys.contains_key(&m.context) => {
                self.read_waits.push((m.context, m.index));
            }
            _ => {}
        }
    }

    fn drop_proposal(&mut self, m: &Message, reason: ProposalRefusal) {
        for e in &m.entries {
            self.notes.push(Note::ProposalDropped {
                req: e.req(),
                reason,
            });
        }
    }

    fn drop_read(&mut self, m: &Message, reason: ReadRefusal) {
        self.notes.push(Note::ReadDropped {
            req: m.context,
            reason,
        });
    }

    fn handle_append(&mut self, m: Message) {
        let mut resp = Message::new(MsgType::AppResp, self.id, m.from);
        if m.index < self.log.committed {
            resp.index = self.log.committed;
            self.send(resp);
            return;
        }
        match self
            .log
            .maybe_append(m.index, m.log_term, m.commit, &m.entries)
        {
            Some(last_new) => resp.index = last_new,
            None => {
                // Tell the leader where to look next so it can skip whole terms (§5.3's
                // optimisation, etcd's findConflictByTerm).
                let hint = m.index.min(self.log.last_index());
                let (hint_index, hint_term) = self.log.find_conflict_by_term(hint, m.log_term);
                resp.index = m.index;
                resp.reject = true;
                resp.reject_hint = hint_index;
                resp.log_term = hint_term;
            }
        }
        self.send(resp);
    }

    fn handle_heartbeat(&mut self, m: Message) {
        let c = m.commit.min(self.log.last_index());
        self.log.commit_to(c);
        let mut resp = Message::new(MsgType::HeartbeatResp, self.id, m.from);
        resp.context = m.context;
        self.send(resp);
    }

    fn handle_snapshot(&mut self, m: Message) {
        let Some(snap) = m.snapshot else { return };
        let mut resp = Message::new(MsgType::AppResp, self.id, m.from);
        if self.restore(*snap) {
            resp.index = self.log.last_index();
        } else {
            resp.index = self.log.committed;
        }
        self.send(resp);
    }

    /// Installs a leader's snapshot unless it holds nothing new or leaves this node out of
    /// its configuration; returns whether it did.
    fn restore(&mut self, snap: Snapshot) -> bool {
        if snap.index <= self.log.committed {
            return false;
        }
        let cs = &snap.conf;
        // etcd's defence in depth: a node outside the snapshot's configuration would have no
        // progress of its own. (A member of learners_next is in the outgoing voters.)
        if !(cs.voters.contains(&self.id)
            || cs.outgoing.contains(&self.id)
            || cs.learners.contains(&self.id))
        {
            return false;
        }
        if self.log.match_term(snap.index, snap.term) {
            // We already have the entries: just fast-forward the commit index.
            self.log.commit_to(snap.index);
            return false;
        }
        let index = snap.index;
        self.kv = snap.data.clone();
        let next = snap.index + 1;
        self.trk.set_config(snap.conf.clone(), next);
        self.log.restore(snap);
        self.notes.push(Note::SnapshotRestored { index });
        true
    }

    // ---- applying ------------------------------------------------------------------------

    /// Applies every committed entry not yet applied, serves reads that became servable,
    /// leaves a joint configuration automatically and compacts when due. Called after every
    /// tick and step.
    pub fn apply_committed(&mut self) {
        while self.log.applied < self.log.committed {
            let i = self.log.applied + 1;
            let Some(e) = self.log.shared_entry(i).cloned() else {
                break;
            };
            self.log.applied = i;
            match &e.data {
                EntryData::Empty => {}
                EntryData::Put { req, .. } => {
                    self.kv.apply(&e);
                    if *req != 0 {
                        self.notes.push(Note::Applied {
                            req: *req,
                            index: i,
                        });
                    }
                }
                EntryData::Conf { cc, req } => self.apply_conf_change(cc, *req, i),
            }
        }
        self.serve_reads();
        if self.role == Role::Leader
            && self.trk.config.auto_leave
            && self.log.applied >= self.pending_conf_index
        {
            // etcd leaves a joint configuration by itself once entering it is applied.
            let mut m = Message::new(MsgType::Prop, self.id, self.id);
            m.entries = Box::new([Arc::new(Entry {
                term: 0,
                index: 0,
                data: EntryData::Conf {
                    cc: ConfChange::default(),
                    req: 0,
                },
            })]);
            self.step_leader(m);
        }
        let every = self.cfg.snapshot_every;
        if every > 0 && self.log.applied >= self.log.snapshot.index + every {
            self.compact();
        }
    }

    fn serve_reads(&mut self) {
        if self.read_waits.is_empty() {
            return;
        }
        let applied = self.log.applied;
        let (ready, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut self.read_waits)
            .into_iter()
            .partition(|(_, idx)| *idx <= applied);
        self.read_waits = waiting;
        for (req, index) in ready {
            // Without the key the read is not ours to answer; `None` would claim the key
            // is absent.
            let Some(key) = self.read_keys.remove(&req) else {
                continue;
            };
            let value = self.kv.get(&key).cloned();
            self.notes.push(Note::ReadServed { req, index, value });
        }
    }

    fn apply_conf_change(&mut self, cc: &ConfChange, req: u64, index: u64) {
        let next = match confchange::apply(&self.trk.config, cc) {
            Ok(c) => c,
            Err(e) => {
                self.notes.push(Note::ProposalDropped {
                    req,
                    reason: ProposalRefusal::ConfChange(e),
                });
                return;
            }
        };
        let last = self.log.last_index();
        let before = self.trk.config.members();
        self.trk.set_config(next, last);
        let after = self.trk.config.members();
        self.notes.push(Note::ConfApplied {
            req,
            index,
            change: cc.describe(),
            config: self.trk.config.describe(),
            removed: before.difference(&after).copied().collect(),
        });
        self.switch_to_config();
    }

    fn switch_to_config(&mut self) {
        if self.role == Role::Leader && !self.trk.config.is_voter(self.id) {
            // A removed (or demoted) leader steps down only if asked to (etcd's
            // StepDownOnRemoval); otherwise it leads on, outside the configuration.
            if self.cfg.step_down_on_removal {
                self.notes.push(Note::SteppedDown {
                    why: StepDown::Removed,
                });
                let t = self.term;
                self.become_follower(t, NONE);
            }
            return;
        }
        if self.role != Role::Leader {
            return;
        }
        if self.maybe_commit() {
            self.bcast_append();
        } else {
            let peers: Vec<NodeId> = self.trk.progress.keys().copied().collect();
            for id in peers {
                if id != self.id {
                    self.maybe_send_append(id, false);
                }
            }
        }
        if self.lead_transferee != NONE && !self.trk.config.is_voter(self.lead_transferee) {
            self.notes.push(Note::TransferAborted {
                to: self.lead_transferee,
                why: TransferAbort::TransfereeRemoved,
            });
            self.abort_leader_transfer();
        }
    }

    /// Snapshots the applied state and drops the log up to `applied`.
    pub fn compact(&mut self) {
        let index = self.log.applied;
        if index <= self.log.snapshot.index {
            return;
        }
        let term = self.log.term(index).unwrap_or(0);
        let snap = Snapshot {
            index,
            term,
            conf: self.trk.config.clone(),
            data: self.kv.clone(),
        };
        self.log.compact(snap);
        self.notes.push(Note::Compacted { index });
    }

    /// etcd's --force-new-cluster: drops uncommitted entries, commits entries that remove
    /// every other member, and leaves this node the single voter of a new cluster.
    ///
    /// Every step is a committed log entry (as etcd writes its conf changes to the WAL), so
    /// a restart replays to the same single-voter configuration: from a joint configuration
    /// the first entry leaves it, then this node is made a voter if it is not one, then each
    /// other member is removed.
    pub fn force_new_cluster(&mut self) {
        use super::message::ConfChangeSingle::{AddNode, RemoveNode};
        let committed = self.log.committed;
        let keep = (committed - self.log.snapshot.index) as usize;
        self.log.entries.truncate(keep);
        let mut data = Vec::new();
        let mut cfg = self.trk.config.clone();
        if cfg.is_joint() {
            data.push(ConfChange::default());
            cfg = confchange::apply(&cfg, &ConfChange::default()).unwrap_or(cfg);
        }
        if !cfg.voters.contains(&self.id) {
            data.push(ConfChange::new(vec![AddNode(self.id)]));
        }
        for id in cfg.members() {
            if id != self.id {
                data.push(ConfChange::new(vec![RemoveNode(id)]));
            }
        }
        let li = self.log.last_index();
        let ents: Vec<Arc<Entry>> = data
            .into_iter()
            .enumerate()
            .map(|(i, cc)| {
                Arc::new(Entry {
                    term: self.term,
                    index: li + 1 + i as u64,
                    data: EntryData::Conf { cc, req: 0 },
                })
            })
            .collect();
        self.log.append(&ents);
        let last = self.log.last_index();
        self.log.commit_to(last);
        let t = self.term;
        self.become_follower(t, NONE);
        self.apply_committed();
    }
}
