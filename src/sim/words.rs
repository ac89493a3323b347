//! Notes from the core, worded for people: "n3 election timeout: pre-vote for term 4".
//! The wording lives in the catalogs (`src/i18n/*.txt`); this file picks the sentence and
//! its values, so every language says the same thing.

use crate::i18n::Msg;
use crate::raft::{
    CampaignRefusal, ConfChangeError, HealthRule, NodeId, Note, ProposalRefusal, ReadRefusal,
    ServerError, StepDown, TransferAbort, TransferRefusal, VoteRefusal,
};

use super::client::Refusal;
use super::cluster::Undelivered;
use super::event::EventKind;
use super::labels;

/// Simulated milliseconds as seconds for people: "7.2 s".
pub fn secs(ms: u64) -> String {
    format!("{} s", super::decimal::fixed(ms as f64 / 1000.0, 1))
}

/// A configuration change as [`crate::raft::ConfChange::describe`] gives it: the notation
/// ("+n4 learner -n1") reads the same in every language, "leave joint" is worded.
pub fn conf_change(change: &str) -> Msg {
    match change {
        "leave joint" => crate::msg!("conf.leave_joint"),
        _ => Msg::verbatim(change),
    }
}

/// Why a message from `from` never reached `to`.
pub fn undelivered(u: Undelivered, from: NodeId, to: NodeId) -> Msg {
    match u {
        Undelivered::Lost => crate::msg!("why.lost"),
        Undelivered::Partitioned => crate::msg!("why.partitioned"),
        Undelivered::WrongPeerUrl => crate::msg!("why.wrong_peer_url").arg("to", to),
        Undelivered::Down(s) => crate::msg!("err.node_is")
            .arg("id", to)
            .arg("status", labels::status(s)),
        Undelivered::Missing => crate::msg!("err.no_such_node").arg("id", to),
        Undelivered::RemovedSender => crate::msg!("why.removed_sender")
            .arg("to", to)
            .arg("from", from),
    }
}

/// A refusal in raftlab's plain words (the etcd error is shown beside it).
pub fn refusal(r: &Refusal) -> Msg {
    match r {
        Refusal::Server(e) => server_error(e),
        Refusal::Dropped { reason } => proposal_refusal(*reason),
        Refusal::MemberDown { id, .. } => crate::msg!("why.went_down").arg("id", *id),
    }
}

/// Why etcd's server refused, in plain words.
pub fn server_error(e: &ServerError) -> Msg {
    match e {
        ServerError::NoLeader => crate::msg!("why.no_leader"),
        ServerError::LearnerRpc { id, write: true } => {
            crate::msg!("why.learner_write").arg("id", *id)
        }
        ServerError::LearnerRpc { id, write: false } => {
            crate::msg!("why.learner_read").arg("id", *id)
        }
        ServerError::TransferInProgress { to } => {
            crate::msg!("why.transfer_in_progress").arg("to", *to)
        }
        ServerError::LearnerNotReady {
            id,
            matched,
            leader,
            percent,
        } => crate::msg!("why.learner_not_ready")
            .arg("id", *id)
            .arg("matched", *matched)
            .arg("percent", *percent)
            .arg("leader", *leader),
        ServerError::NotLearner { id } => crate::msg!("why.not_learner").arg("id", *id),
        ServerError::MemberExists { id } => crate::msg!("why.member_exists").arg("id", *id),
        ServerError::MemberNotFound { id } => crate::msg!("why.member_not_found").arg("id", *id),
        ServerError::TooManyLearners { max } => {
            crate::msg!("why.too_many_learners").arg("max", *max)
        }
        ServerError::BadLeaderTransferee { to, learner: true } => {
            crate::msg!("why.transfer_to_learner").arg("to", *to)
        }
        ServerError::BadLeaderTransferee { to, .. } => {
            crate::msg!("why.transfer_not_voter").arg("to", *to)
        }
        ServerError::NotEnoughStarted { members, started } => crate::msg!("why.not_enough_started")
            .arg("started", *started)
            .arg("members", *members)
            .arg("quorum", crate::raft::quorum::majority(*members).max(1)),
        ServerError::Unhealthy {
            connected,
            needed,
            voters,
            rule,
        } => {
            let how = match rule {
                HealthRule::AllConnected => crate::msg!("why.health_all").arg("voters", *voters),
                HealthRule::QuorumAfterAdd => crate::msg!("why.health_add")
                    .arg("needed", *needed)
                    .arg("voters", *voters + 1),
                HealthRule::QuorumAfterRemove => crate::msg!("why.health_remove")
                    .arg("needed", *needed)
                    .arg("voters", voters.saturating_sub(1)),
            };
            crate::msg!("why.unhealthy")
                .arg("connected", *connected)
                .arg("voters", *voters)
                .arg("how", how)
        }
    }
}

fn what(pre_vote: bool, vote_word: u16) -> Msg {
    Msg::at(if pre_vote {
        crate::key_of!("word.pre_vote")
    } else {
        vote_word
    })
}

/// The category and the sentence for `note`, which node `id` made.
pub fn note(id: NodeId, note: &Note) -> (EventKind, Msg) {
    use EventKind::*;
    match note {
        Note::Campaign {
            pre_vote: true,
            term,
            ..
        } => (
            Election,
            crate::msg!("ev.prevote_campaign")
                .arg("id", id)
                .arg("term", *term),
        ),
        Note::Campaign {
            pre_vote: false,
            term,
            transfer: true,
        } => (
            Election,
            crate::msg!("ev.transfer_campaign")
                .arg("id", id)
                .arg("term", *term),
        ),
        Note::Campaign {
            pre_vote: false,
            term,
            ..
        } => (
            Election,
            crate::msg!("ev.campaign").arg("id", id).arg("term", *term),
        ),
        Note::CampaignRefused { reason } => (
            Election,
            crate::msg!("ev.campaign_refused")
                .arg("id", id)
                .arg("reason", campaign_refusal(*reason)),
        ),
        Note::BecameLeader { term } => (
            Leader,
            crate::msg!("ev.became_leader")
                .arg("id", id)
                .arg("term", *term),
        ),
        Note::CampaignLost {
            pre_vote,
            term,
            granted,
            rejected,
        } => (
            Election,
            crate::msg!("ev.lost")
                .arg("id", id)
                .arg("what", what(*pre_vote, crate::key_of!("word.election")))
                .arg("term", *term)
                .arg("granted", *granted)
                .arg("rejected", *rejected),
        ),
        Note::SteppedDown { why } => (
            Leader,
            match why {
                StepDown::CheckQuorum { active, voters } => crate::msg!("ev.stepdown_checkquorum")
                    .arg("id", id)
                    .arg("active", *active)
                    .arg("voters", *voters),
                StepDown::HigherTerm { from, term } => crate::msg!("ev.stepdown_higher_term")
                    .arg("id", id)
                    .arg("term", *term)
                    .arg("from", *from),
                StepDown::Removed => crate::msg!("ev.stepdown_removed").arg("id", id),
            },
        ),
        Note::Voted {
            candidate,
            term,
            pre_vote,
            granted,
            reason,
        } => {
            let m = if *granted {
                crate::msg!("ev.vote_granted")
            } else {
                crate::msg!("ev.vote_rejected")
                    .arg("reason", reason.map_or(Msg::verbatim(""), vote_refusal))
            };
            (
                Vote,
                m.arg("id", id)
                    .arg("what", what(*pre_vote, crate::key_of!("word.vote")))
                    .arg("candidate", *candidate)
                    .arg("term", *term),
            )
        }
        Note::IgnoredVote {
            candidate,
            term,
            pre_vote,
        } => (
            Vote,
            crate::msg!("ev.vote_ignored")
                .arg("id", id)
                .arg("candidate", *candidate)
                .arg("what", what(*pre_vote, crate::key_of!("word.vote_request")))
                .arg("term", *term),
        ),
        Note::ProgressChanged { peer, state } => (
            Replication,
            crate::msg!("ev.progress")
                .arg("id", id)
                .arg("peer", *peer)
                .arg("state", super::labels::progress(*state)),
        ),
        Note::SnapshotSent { peer, index } => (
            Snapshot,
            crate::msg!("ev.snapshot_sent")
                .arg("id", id)
                .arg("peer", *peer)
                .arg("index", *index),
        ),
        Note::SnapshotRestored { index } => (
            Snapshot,
            crate::msg!("ev.snapshot_restored")
                .arg("id", id)
                .arg("index", *index),
        ),
        Note::Compacted { index } => (
            Snapshot,
            crate::msg!("ev.compacted")
                .arg("id", id)
                .arg("index", *index),
        ),
        Note::TransferStarted { to } => (
            Leader,
            crate::msg!("ev.transfer_started")
                .arg("id", id)
                .arg("to", *to),
        ),
        Note::TransferRefused { to, reason } => (
            Leader,
            crate::msg!("ev.transfer_refused")
                .arg("to", *to)
                .arg("reason", transfer_refusal(*reason)),
        ),
        Note::TransferAborted { to, why } => (
            Leader,
            crate::msg!("ev.transfer_aborted")
                .arg("id", id)
                .arg("to", *to)
                .arg("why", transfer_abort(*why)),
        ),
        Note::Applied { req, index } => (
            Client,
            crate::msg!("ev.applied")
                .arg("req", *req)
                .arg("index", *index),
        ),
        Note::ConfApplied { change, index, .. } => (
            Membership,
            crate::msg!("ev.conf_applied_at")
                .arg("id", id)
                .arg("change", conf_change(change))
                .arg("index", *index),
        ),
        Note::Appended { req, index, term } => (
            Client,
            crate::msg!("ev.appended")
                .arg("id", id)
                .arg("req", *req)
                .arg("index", *index)
                .arg("term", *term),
        ),
        Note::ProposalDropped { reason, .. } => (
            Client,
            crate::msg!("ev.proposal_dropped")
                .arg("id", id)
                .arg("reason", proposal_refusal(*reason)),
        ),
        Note::ReadServed { req, index, .. } => (
            Read,
            crate::msg!("ev.read_served")
                .arg("req", *req)
                .arg("index", *index),
        ),
        Note::ReadDropped { reason, .. } => (
            Read,
            crate::msg!("ev.read_dropped")
                .arg("id", id)
                .arg("reason", read_refusal(*reason)),
        ),
    }
}

/// Why a node could not campaign.
pub fn campaign_refusal(r: CampaignRefusal) -> Msg {
    Msg::at(match r {
        CampaignRefusal::Learner => crate::key_of!("why.campaign_learner"),
        CampaignRefusal::NotVoter => crate::key_of!("why.campaign_not_voter"),
        CampaignRefusal::UnappliedConfChange => crate::key_of!("why.campaign_unapplied_conf"),
    })
}

/// Why a vote was refused.
pub fn vote_refusal(r: VoteRefusal) -> Msg {
    match r {
        VoteRefusal::AlreadyVoted { vote, term } => crate::msg!("why.vote_already_voted")
            .arg("vote", vote)
            .arg("term", term),
        VoteRefusal::FollowsLeader { lead } => {
            crate::msg!("why.vote_follows_leader").arg("lead", lead)
        }
        VoteRefusal::LogBehind {
            index,
            term,
            last_index,
            last_term,
        } => crate::msg!("why.vote_log_behind")
            .arg("index", index)
            .arg("term", term)
            .arg("last_index", last_index)
            .arg("last_term", last_term),
    }
}

/// Why a configuration change does not fit the configuration.
pub fn conf_change_error(e: ConfChangeError) -> Msg {
    match e {
        ConfChangeError::AlreadyJoint => crate::msg!("why.conf_already_joint"),
        ConfChangeError::NotJoint => crate::msg!("why.conf_not_joint"),
        ConfChangeError::NoVoters => crate::msg!("why.conf_no_voters"),
        ConfChangeError::VoterAndLearner(id) => {
            crate::msg!("why.conf_voter_and_learner").arg("id", id)
        }
        ConfChangeError::TooManyVoterChanges => crate::msg!("why.conf_too_many_voter_changes"),
    }
}

/// Why a proposal was dropped.
pub fn proposal_refusal(r: ProposalRefusal) -> Msg {
    match r {
        ProposalRefusal::NoLeader => crate::msg!("why.no_leader"),
        ProposalRefusal::LeaderRemoved => crate::msg!("why.leader_removed"),
        ProposalRefusal::TransferInProgress { to } => {
            crate::msg!("why.transfer_in_progress").arg("to", to)
        }
        ProposalRefusal::ConfChangePending { index, applied } => {
            crate::msg!("why.conf_change_pending")
                .arg("index", index)
                .arg("applied", applied)
        }
        ProposalRefusal::ConfChange(e) => conf_change_error(e),
    }
}

/// Why a read was dropped.
pub fn read_refusal(r: ReadRefusal) -> Msg {
    Msg::at(match r {
        ReadRefusal::NoLeader => crate::key_of!("why.no_leader"),
        ReadRefusal::LeadershipChanged => crate::key_of!("why.read_leadership_changed"),
    })
}

/// Why a leader transfer was refused.
pub fn transfer_refusal(r: TransferRefusal) -> Msg {
    Msg::at(match r {
        TransferRefusal::NotMember => crate::key_of!("why.transfer_not_member"),
        TransferRefusal::Learner => crate::key_of!("why.transfer_learner"),
        TransferRefusal::AlreadyLeader => crate::key_of!("why.transfer_already_leader"),
    })
}

/// Why a pending leader transfer was given up.
pub fn transfer_abort(r: TransferAbort) -> Msg {
    match r {
        TransferAbort::Timeout => crate::msg!("why.abort_timeout"),
        TransferAbort::Superseded { by } => crate::msg!("why.abort_superseded").arg("by", by),
        TransferAbort::TransfereeRemoved => crate::msg!("why.abort_transferee_removed"),
    }
}
