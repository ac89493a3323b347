//! Notes from the core, worded for people: "n3 election timeout: pre-vote for term 4".

use crate::raft::{
    CampaignRefusal, ConfChangeError, HealthRule, NodeId, Note, ProposalRefusal, ReadRefusal,
    ServerError, StepDown, TransferAbort, TransferRefusal, VoteRefusal,
};

use super::client::Refusal;
use super::cluster::Undelivered;
use super::event::EventKind;

/// Simulated milliseconds as seconds for people: "7.2 s".
pub fn secs(ms: u64) -> String {
    format!("{:.1} s", ms as f64 / 1000.0)
}

/// Why a message from `from` never reached `to`.
pub fn undelivered(u: Undelivered, from: NodeId, to: NodeId) -> String {
    match u {
        Undelivered::Lost => "lost".into(),
        Undelivered::Partitioned => "partitioned".into(),
        Undelivered::WrongPeerUrl => format!("n{to} unreachable: wrong peer URL"),
        Undelivered::Down(s) => format!("n{to} is {}", s.name()),
        Undelivered::Missing => format!("n{to} does not exist"),
        Undelivered::RemovedSender => format!("n{to} rejects n{from}: a removed member"),
    }
}

/// A refusal in raftlab's plain words (the etcd error is shown beside it).
pub fn refusal(r: &Refusal) -> String {
    match r {
        Refusal::Server(e) => server_error(e),
        Refusal::Dropped { reason } => proposal_refusal(*reason),
        Refusal::MemberDown { id } => format!("n{id} went down before answering"),
    }
}

/// Why etcd's server refused, in plain words.
pub fn server_error(e: &ServerError) -> String {
    match e {
        ServerError::NoLeader => "no leader".into(),
        ServerError::LearnerRpc { id, write: true } => {
            format!("n{id} is a learner: learners reject client writes")
        }
        ServerError::LearnerRpc { id, write: false } => {
            format!("n{id} is a learner: learners reject linearizable reads")
        }
        ServerError::TransferInProgress { to } => {
            format!("leadership transfer to n{to} in progress")
        }
        ServerError::LearnerNotReady {
            id,
            matched,
            leader,
            percent,
        } => format!("n{id} is not caught up: match {matched} < {percent}% of the leader's {leader}"),
        ServerError::NotLearner { id } => format!("n{id} is not a learner"),
        ServerError::MemberExists { id } => format!("n{id} is already a member"),
        ServerError::MemberNotFound { id } => format!("n{id} is not a member"),
        ServerError::TooManyLearners { max } => {
            format!("too many learners: at most {max} allowed")
        }
        ServerError::BadLeaderTransferee { to, learner: true } => {
            format!("n{to} is a learner: leadership cannot move to a learner")
        }
        ServerError::BadLeaderTransferee { to, .. } => format!("n{to} is not a voting member"),
        ServerError::NotEnoughStarted { members, started } => format!(
            "strict reconfig check: only {started} of {members} voters after the change have ever started, a quorum needs {}",
            crate::raft::quorum::majority(*members).max(1)
        ),
        ServerError::Unhealthy {
            connected,
            needed,
            voters,
            rule,
        } => {
            let how = match rule {
                HealthRule::AllConnected => format!("needs all {voters} voters"),
                HealthRule::QuorumAfterAdd => {
                    format!("needs {needed}, a quorum of {} voters once the new one counts", voters + 1)
                }
                HealthRule::QuorumAfterRemove => format!(
                    "needs {needed}: without the removed member, the rest must still be a quorum of {} voters",
                    voters - 1
                ),
            };
            format!(
                "strict reconfig check: the leader has been connected to {connected} of {voters} voters (itself included) for the last 5 s; it {how}"
            )
        }
    }
}

/// The category and the sentence for `note`, which node `id` made.
pub fn note(id: NodeId, note: &Note) -> (EventKind, String) {
    use EventKind::*;
    match note {
        Note::Campaign {
            pre_vote: true,
            term,
            ..
        } => (Election, format!("n{id} election timeout: pre-vote for term {term}")),
        Note::Campaign {
            pre_vote: false,
            term,
            transfer: true,
        } => (
            Election,
            format!("n{id} got TimeoutNow: campaigns for term {term} (leader transfer)"),
        ),
        Note::Campaign {
            pre_vote: false,
            term,
            ..
        } => (Election, format!("n{id} campaigns for term {term}")),
        Note::CampaignRefused { reason } => (
            Election,
            format!("n{id} cannot campaign: {}", campaign_refusal(*reason)),
        ),
        Note::BecameLeader { term } => (Leader, format!("n{id} became leader for term {term}")),
        Note::CampaignLost {
            pre_vote,
            term,
            granted,
            rejected,
        } => (
            Election,
            format!(
                "n{id} lost the {} for term {term}: {granted} granted, {rejected} rejected",
                if *pre_vote { "pre-vote" } else { "election" }
            ),
        ),
        Note::SteppedDown { why } => (
            Leader,
            match why {
                StepDown::CheckQuorum { active, voters } => format!(
                    "n{id} stepped down: heard from {active} of {voters} voters (check-quorum)"
                ),
                StepDown::HigherTerm { from, term } => {
                    format!("n{id} stepped down: saw term {term} from n{from}")
                }
                StepDown::Removed => {
                    format!("n{id} stepped down: removed from the configuration")
                }
            },
        ),
        Note::Voted {
            candidate,
            term,
            pre_vote,
            granted,
            reason,
        } => {
            let what = if *pre_vote { "pre-vote" } else { "vote" };
            if *granted {
                (Vote, format!("n{id} grants {what} to n{candidate} for term {term}"))
            } else {
                (
                    Vote,
                    format!(
                        "n{id} rejects {what} for n{candidate} (term {term}): {}",
                        reason.map(vote_refusal).unwrap_or_default()
                    ),
                )
            }
        }
        Note::IgnoredVote {
            candidate,
            term,
            pre_vote,
        } => (
            Vote,
            format!(
                "n{id} ignores n{candidate}'s {} for term {term}: it heard from a leader within the election timeout",
                if *pre_vote { "pre-vote" } else { "vote request" }
            ),
        ),
        Note::ProgressChanged { peer, state } => (
            Replication,
            format!("n{id} tracks n{peer} in {}", state.name()),
        ),
        Note::SnapshotSent { peer, index } => (
            Snapshot,
            format!("n{id} sends n{peer} a snapshot at index {index} (its next entry was compacted)"),
        ),
        Note::SnapshotRestored { index } => {
            (Snapshot, format!("n{id} installed a snapshot at index {index}"))
        }
        Note::Compacted { index } => (
            Snapshot,
            format!("n{id} compacted its log up to index {index}"),
        ),
        Note::TransferStarted { to } => (
            Leader,
            format!("n{id} transfers leadership to n{to}; proposals paused"),
        ),
        Note::TransferRefused { to, reason } => (
            Leader,
            format!("move leader to n{to} refused: {}", transfer_refusal(*reason)),
        ),
        Note::TransferAborted { to, why } => (
            Leader,
            format!(
                "n{id} aborted the transfer to n{to}: {}",
                transfer_abort(*why)
            ),
        ),
        Note::Appended { req, index, term } => (
            Client,
            format!("n{id} appended request {req} at index {index} in term {term}"),
        ),
        Note::Applied { req, index } => (Client, format!("request {req} applied at {index}")),
        Note::ConfApplied { change, index, .. } => {
            (Membership, format!("n{id} applied {change} at {index}"))
        }
        Note::ProposalDropped { reason, .. } => (
            Client,
            format!("n{id} dropped a proposal: {}", proposal_refusal(*reason)),
        ),
        Note::ReadServed { req, index, .. } => (Read, format!("read {req} served at {index}")),
        Note::ReadDropped { reason, .. } => (
            Read,
            format!("n{id} dropped a read: {}", read_refusal(*reason)),
        ),
    }
}

/// Why a node could not campaign, in words.
pub fn campaign_refusal(r: CampaignRefusal) -> String {
    match r {
        CampaignRefusal::Learner => "a learner never campaigns".into(),
        CampaignRefusal::NotVoter => "not a voter of its configuration".into(),
        CampaignRefusal::UnappliedConfChange => {
            "a committed configuration change is not applied yet".into()
        }
    }
}

/// Why a vote was refused, in words.
pub fn vote_refusal(r: VoteRefusal) -> String {
    match r {
        VoteRefusal::AlreadyVoted { vote, term } => {
            format!("already voted for n{vote} in term {term}")
        }
        VoteRefusal::FollowsLeader { lead } => format!("follows leader n{lead}"),
        VoteRefusal::LogBehind {
            index,
            term,
            last_index,
            last_term,
        } => format!(
            "its log (last {index}/term {term}) is behind mine (last {last_index}/term {last_term})"
        ),
    }
}

/// Why a configuration change does not fit the configuration, in words.
pub fn conf_change_error(e: ConfChangeError) -> String {
    match e {
        ConfChangeError::AlreadyJoint => "must leave the joint configuration first".into(),
        ConfChangeError::NotJoint => "not in a joint configuration".into(),
        ConfChangeError::NoVoters => "removing all voters is not allowed".into(),
        ConfChangeError::VoterAndLearner(id) => format!("n{id} would be both voter and learner"),
        ConfChangeError::TooManyVoterChanges => {
            "more than one voter changed without entering a joint configuration".into()
        }
    }
}

/// Why a proposal was dropped, in words.
pub fn proposal_refusal(r: ProposalRefusal) -> String {
    match r {
        ProposalRefusal::NoLeader => "no leader".into(),
        ProposalRefusal::LeaderRemoved => "the leader was removed from the configuration".into(),
        ProposalRefusal::TransferInProgress { to } => {
            format!("leadership transfer to n{to} in progress")
        }
        ProposalRefusal::ConfChangePending { index, applied } => format!(
            "a configuration change is already pending (index {index}, applied {applied}); \
             it became an empty entry"
        ),
        ProposalRefusal::ConfChange(e) => conf_change_error(e),
    }
}

/// Why a read was dropped, in words.
pub fn read_refusal(r: ReadRefusal) -> String {
    match r {
        ReadRefusal::NoLeader => "no leader".into(),
        ReadRefusal::LeadershipChanged => "leadership changed before the read was confirmed".into(),
    }
}

/// Why a leader transfer was refused, in words.
pub fn transfer_refusal(r: TransferRefusal) -> String {
    match r {
        TransferRefusal::NotMember => "not a member".into(),
        TransferRefusal::Learner => "it is a learner; leadership cannot move to a learner".into(),
        TransferRefusal::AlreadyLeader => "it is already the leader".into(),
    }
}

/// Why a pending leader transfer was given up, in words.
pub fn transfer_abort(r: TransferAbort) -> String {
    match r {
        TransferAbort::Timeout => "not done within an election timeout".into(),
        TransferAbort::Superseded { by } => format!("a transfer to n{by} was requested"),
        TransferAbort::TransfereeRemoved => "the transferee is no longer a voter".into(),
    }
}
