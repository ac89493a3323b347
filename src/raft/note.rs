//! What a node reports about itself, for the event log and client outcomes.
//!
//! Notes are the core's only way of saying "this happened and here is why"; they carry data,
//! not prose, so the simulator and the UI can word them and filter them.

use serde::{Deserialize, Serialize};

use super::message::NodeId;
use super::tracker::ProgressState;

/// Why a leader stopped leading.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StepDown {
    /// Check-quorum: it heard from only `active` of `voters` voters within an election timeout.
    CheckQuorum {
        /// Voters heard from (itself included).
        active: usize,
        /// Voters in the configuration.
        voters: usize,
    },
    /// It saw a message from `from` with the higher `term`.
    HigherTerm {
        /// The sender.
        from: NodeId,
        /// The higher term.
        term: u64,
    },
    /// It applied a configuration that removes or demotes it.
    Removed,
}

/// Why a node could not campaign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CampaignRefusal {
    /// It is a learner; learners never campaign.
    Learner,
    /// It is not a voter of its own configuration.
    NotVoter,
    /// A committed configuration change is not applied yet (etcd's hasUnappliedConfChanges).
    UnappliedConfChange,
}

/// Why a (pre-)vote was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum VoteRefusal {
    /// It already voted for `vote` in `term`.
    AlreadyVoted {
        /// Who it voted for.
        vote: NodeId,
        /// Its term.
        term: u64,
    },
    /// It follows leader `lead` in its term.
    FollowsLeader {
        /// The leader.
        lead: NodeId,
    },
    /// The candidate's log is behind (§5.4.1 election restriction).
    LogBehind {
        /// The candidate's last index.
        index: u64,
        /// The candidate's last term.
        term: u64,
        /// The voter's last index.
        last_index: u64,
        /// The voter's last term.
        last_term: u64,
    },
}

/// Why a configuration change cannot be applied to a configuration (etcd's confchange
/// errors).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConfChangeError {
    /// A change other than leaving was asked of a joint configuration.
    AlreadyJoint,
    /// Leaving was asked of a configuration that is not joint.
    NotJoint,
    /// The change would leave no voter.
    NoVoters,
    /// The change would make `0` both a voter and a learner.
    VoterAndLearner(NodeId),
    /// More than one voter would change without joint consensus.
    TooManyVoterChanges,
}

/// Why a leader would not take a proposal (etcd's ErrProposalDropped, or a configuration
/// change it turned into an empty entry).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ProposalRefusal {
    /// No leader is known.
    NoLeader,
    /// The leader was removed from the configuration (and did not step down).
    LeaderRemoved,
    /// A leadership transfer to `to` is in progress.
    TransferInProgress {
        /// The transferee.
        to: NodeId,
    },
    /// A configuration change is proposed at `index` and applied only up to `applied`; the
    /// new one became an empty entry.
    ConfChangePending {
        /// The pending change's index.
        index: u64,
        /// The applied index.
        applied: u64,
    },
    /// The change does not fit the configuration (it became an empty entry, or was not
    /// applied).
    ConfChange(ConfChangeError),
}

/// Why a linearizable read could not be served.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReadRefusal {
    /// No leader is known.
    NoLeader,
    /// Leadership changed before the read index was confirmed.
    LeadershipChanged,
}

/// Why a leader transfer was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TransferRefusal {
    /// The transferee is not a member.
    NotMember,
    /// The transferee is a learner.
    Learner,
    /// The transferee is the leader itself.
    AlreadyLeader,
}

/// Why a pending leader transfer ended without a new leader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TransferAbort {
    /// It did not finish within an election timeout.
    Timeout,
    /// A transfer to another node (or back to the leader itself) was requested.
    Superseded {
        /// The node of the new request.
        by: NodeId,
    },
    /// The transferee stopped being a voter.
    TransfereeRemoved,
}

/// One thing a node did or refused, with its reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Note {
    /// The election timer fired (or a campaign was forced) and it campaigns.
    Campaign {
        /// True for a pre-vote round.
        pre_vote: bool,
        /// The term campaigned for.
        term: u64,
        /// True when started by a leader transfer (TimeoutNow).
        transfer: bool,
    },
    /// It could not campaign.
    CampaignRefused {
        /// Why.
        reason: CampaignRefusal,
    },
    /// It won the election.
    BecameLeader {
        /// Its term.
        term: u64,
    },
    /// A campaign failed: a majority refused.
    CampaignLost {
        /// True for a pre-vote round.
        pre_vote: bool,
        /// The term campaigned for.
        term: u64,
        /// Votes granted.
        granted: usize,
        /// Votes refused.
        rejected: usize,
    },
    /// It stopped leading.
    SteppedDown {
        /// Why.
        why: StepDown,
    },
    /// It granted or refused a (pre-)vote.
    Voted {
        /// The candidate.
        candidate: NodeId,
        /// The term of the request.
        term: u64,
        /// True for a pre-vote.
        pre_vote: bool,
        /// Whether it granted.
        granted: bool,
        /// Why it refused, if it did.
        reason: Option<VoteRefusal>,
    },
    /// It ignored a vote request because it heard from a leader within the election timeout.
    IgnoredVote {
        /// The candidate.
        candidate: NodeId,
        /// The term of the request.
        term: u64,
        /// True for a pre-vote.
        pre_vote: bool,
    },
    /// A client write was committed and applied at `index` (reported by every node applying it).
    Applied {
        /// The client request id.
        req: u64,
        /// Where it was committed.
        index: u64,
    },
    /// The leader appended a client request's entry at `index` in its `term`. The request is
    /// answered later (`Applied`, `ConfApplied`), or lost if that index commits with another
    /// entry; this note lets the caller tell the two apart.
    Appended {
        /// The client request id (never 0).
        req: u64,
        /// Where it was appended.
        index: u64,
        /// The leader's term, which the entry carries.
        term: u64,
    },
    /// A configuration change took effect (was applied) here.
    ConfApplied {
        /// The client request id (0 for automatic ones).
        req: u64,
        /// Where it was committed.
        index: u64,
        /// The change.
        change: String,
        /// The configuration now in force.
        config: String,
        /// Members the change removed.
        removed: Vec<NodeId>,
    },
    /// A proposal was dropped.
    ProposalDropped {
        /// The client request id.
        req: u64,
        /// Why.
        reason: ProposalRefusal,
    },
    /// A linearizable read was served at `index`.
    ReadServed {
        /// The client request id.
        req: u64,
        /// The read index.
        index: u64,
        /// The value found (None: no such key).
        value: Option<String>,
    },
    /// A read could not be served.
    ReadDropped {
        /// The client request id.
        req: u64,
        /// Why.
        reason: ReadRefusal,
    },
    /// The leader's view of a follower moved between probe, replicate and snapshot.
    ProgressChanged {
        /// The follower.
        peer: NodeId,
        /// The new state.
        state: ProgressState,
    },
    /// It sent a snapshot to a follower whose next entry was compacted.
    SnapshotSent {
        /// The follower.
        peer: NodeId,
        /// The snapshot index.
        index: u64,
    },
    /// It installed a snapshot from the leader.
    SnapshotRestored {
        /// The snapshot index.
        index: u64,
    },
    /// It compacted its own log.
    Compacted {
        /// The new snapshot index.
        index: u64,
    },
    /// A leader transfer started.
    TransferStarted {
        /// The transferee.
        to: NodeId,
    },
    /// A leader transfer was refused.
    TransferRefused {
        /// The would-be transferee.
        to: NodeId,
        /// Why.
        reason: TransferRefusal,
    },
    /// A pending leader transfer was given up.
    TransferAborted {
        /// The transferee.
        to: NodeId,
        /// Why.
        why: TransferAbort,
    },
}
