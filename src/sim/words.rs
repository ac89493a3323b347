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
        "leave joint" => Msg::new("conf.leave_joint"),
        _ => Msg::verbatim(change),
    }
}

/// Why a message from `from` never reached `to`.
pub fn undelivered(u: Undelivered, from: NodeId, to: NodeId) -> Msg {
    match u {
        Undelivered::Lost => Msg::new("why.lost"),
        Undelivered::Partitioned => Msg::new("why.partitioned"),
        Undelivered::WrongPeerUrl => Msg::new("why.wrong_peer_url").arg("to", to),
        Undelivered::Down(s) => Msg::new("err.node_is")
            .arg("id", to)
            .arg("status", labels::status(s)),
        Undelivered::Missing => Msg::new("err.no_such_node").arg("id", to),
        Undelivered::RemovedSender => Msg::new("why.removed_sender")
            .arg("to", to)
            .arg("from", from),
    }
}

/// A refusal in raftlab's plain words (the etcd error is shown beside it).
pub fn refusal(r: &Refusal) -> Msg {
    match r {
        Refusal::Server(e) => server_error(e),
        Refusal::Dropped { reason } => proposal_refusal(*reason),
        Refusal::MemberDown { id } => Msg::new("why.went_down").arg("id", *id),
    }
}

/// Why etcd's server refused, in plain words.
pub fn server_error(e: &ServerError) -> Msg {
    match e {
        ServerError::NoLeader => Msg::new("why.no_leader"),
        ServerError::LearnerRpc { id, write: true } => Msg::new("why.learner_write").arg("id", *id),
        ServerError::LearnerRpc { id, write: false } => Msg::new("why.learner_read").arg("id", *id),
        ServerError::TransferInProgress { to } => {
            Msg::new("why.transfer_in_progress").arg("to", *to)
        }
        ServerError::LearnerNotReady {
            id,
            matched,
            leader,
            percent,
        } => Msg::new("why.learner_not_ready")
            .arg("id", *id)
            .arg("matched", *matched)
            .arg("percent", *percent)
            .arg("leader", *leader),
        ServerError::NotLearner { id } => Msg::new("why.not_learner").arg("id", *id),
        ServerError::MemberExists { id } => Msg::new("why.member_exists").arg("id", *id),
        ServerError::MemberNotFound { id } => Msg::new("why.member_not_found").arg("id", *id),
        ServerError::TooManyLearners { max } => Msg::new("why.too_many_learners").arg("max", *max),
        ServerError::BadLeaderTransferee { to, learner: true } => {
            Msg::new("why.transfer_to_learner").arg("to", *to)
        }
        ServerError::BadLeaderTransferee { to, .. } => {
            Msg::new("why.transfer_not_voter").arg("to", *to)
        }
        ServerError::NotEnoughStarted { members, started } => Msg::new("why.not_enough_started")
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
                HealthRule::AllConnected => Msg::new("why.health_all").arg("voters", *voters),
                HealthRule::QuorumAfterAdd => Msg::new("why.health_add")
                    .arg("needed", *needed)
                    .arg("voters", *voters + 1),
                HealthRule::QuorumAfterRemove => Msg::new("why.health_remove")
                    .arg("needed", *needed)
                    .arg("voters", voters.saturating_sub(1)),
            };
            Msg::new("why.unhealthy")
                .arg("connected", *connected)
                .arg("voters", *voters)
                .arg("how", how)
        }
    }
}

fn what(pre_vote: bool, vote_word: &'static str) -> Msg {
    Msg::new(if pre_vote { "word.pre_vote" } else { vote_word })
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
            Msg::new("ev.prevote_campaign")
                .arg("id", id)
                .arg("term", *term),
        ),
        Note::Campaign {
            pre_vote: false,
            term,
            transfer: true,
        } => (
            Election,
            Msg::new("ev.transfer_campaign")
                .arg("id", id)
                .arg("term", *term),
        ),
        Note::Campaign {
            pre_vote: false,
            term,
            ..
        } => (
            Election,
            Msg::new("ev.campaign").arg("id", id).arg("term", *term),
        ),
        Note::CampaignRefused { reason } => (
            Election,
            Msg::new("ev.campaign_refused")
                .arg("id", id)
                .arg("reason", campaign_refusal(*reason)),
        ),
        Note::BecameLeader { term } => (
            Leader,
            Msg::new("ev.became_leader")
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
            Msg::new("ev.lost")
                .arg("id", id)
                .arg("what", what(*pre_vote, "word.election"))
                .arg("term", *term)
                .arg("granted", *granted)
                .arg("rejected", *rejected),
        ),
        Note::SteppedDown { why } => (
            Leader,
            match why {
                StepDown::CheckQuorum { active, voters } => Msg::new("ev.stepdown_checkquorum")
                    .arg("id", id)
                    .arg("active", *active)
                    .arg("voters", *voters),
                StepDown::HigherTerm { from, term } => Msg::new("ev.stepdown_higher_term")
                    .arg("id", id)
                    .arg("term", *term)
                    .arg("from", *from),
                StepDown::Removed => Msg::new("ev.stepdown_removed").arg("id", id),
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
                Msg::new("ev.vote_granted")
            } else {
                Msg::new("ev.vote_rejected")
                    .arg("reason", reason.map_or(Msg::verbatim(""), vote_refusal))
            };
            (
                Vote,
                m.arg("id", id)
                    .arg("what", what(*pre_vote, "word.vote"))
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
            Msg::new("ev.vote_ignored")
                .arg("id", id)
                .arg("candidate", *candidate)
                .arg("what", what(*pre_vote, "word.vote_request"))
                .arg("term", *term),
        ),
        Note::ProgressChanged { peer, state } => (
            Replication,
            Msg::new("ev.progress")
                .arg("id", id)
                .arg("peer", *peer)
                .arg("state", super::labels::progress(*state)),
        ),
        Note::SnapshotSent { peer, index } => (
            Snapshot,
            Msg::new("ev.snapshot_sent")
                .arg("id", id)
                .arg("peer", *peer)
                .arg("index", *index),
        ),
        Note::SnapshotRestored { index } => (
            Snapshot,
            Msg::new("ev.snapshot_restored")
                .arg("id", id)
                .arg("index", *index),
        ),
        Note::Compacted { index } => (
            Snapshot,
            Msg::new("ev.compacted").arg("id", id).arg("index", *index),
        ),
        Note::TransferStarted { to } => (
            Leader,
            Msg::new("ev.transfer_started").arg("id", id).arg("to", *to),
        ),
        Note::TransferRefused { to, reason } => (
            Leader,
            Msg::new("ev.transfer_refused")
                .arg("to", *to)
                .arg("reason", transfer_refusal(*reason)),
        ),
        Note::TransferAborted { to, why } => (
            Leader,
            Msg::new("ev.transfer_aborted")
                .arg("id", id)
                .arg("to", *to)
                .arg("why", transfer_abort(*why)),
        ),
        Note::Applied { req, index } => (
            Client,
            Msg::new("ev.applied").arg("req", *req).arg("index", *index),
        ),
        Note::ConfApplied { change, index, .. } => (
            Membership,
            Msg::new("ev.conf_applied_at")
                .arg("id", id)
                .arg("change", conf_change(change))
                .arg("index", *index),
        ),
        Note::Appended { req, index, term } => (
            Client,
            Msg::new("ev.appended")
                .arg("id", id)
                .arg("req", *req)
                .arg("index", *index)
                .arg("term", *term),
        ),
        Note::ProposalDropped { reason, .. } => (
            Client,
            Msg::new("ev.proposal_dropped")
                .arg("id", id)
                .arg("reason", proposal_refusal(*reason)),
        ),
        Note::ReadServed { req, index, .. } => (
            Read,
            Msg::new("ev.read_served")
                .arg("req", *req)
                .arg("index", *index),
        ),
        Note::ReadDropped { reason, .. } => (
            Read,
            Msg::new("ev.read_dropped")
                .arg("id", id)
                .arg("reason", read_refusal(*reason)),
        ),
    }
}

/// Why a node could not campaign.
pub fn campaign_refusal(r: CampaignRefusal) -> Msg {
    Msg::new(match r {
        CampaignRefusal::Learner => "why.campaign_learner",
        CampaignRefusal::NotVoter => "why.campaign_not_voter",
        CampaignRefusal::UnappliedConfChange => "why.campaign_unapplied_conf",
    })
}

/// Why a vote was refused.
pub fn vote_refusal(r: VoteRefusal) -> Msg {
    match r {
        VoteRefusal::AlreadyVoted { vote, term } => Msg::new("why.vote_already_voted")
            .arg("vote", vote)
            .arg("term", term),
        VoteRefusal::FollowsLeader { lead } => {
            Msg::new("why.vote_follows_leader").arg("lead", lead)
        }
        VoteRefusal::LogBehind {
            index,
            term,
            last_index,
            last_term,
        } => Msg::new("why.vote_log_behind")
            .arg("index", index)
            .arg("term", term)
            .arg("last_index", last_index)
            .arg("last_term", last_term),
    }
}

/// Why a configuration change does not fit the configuration.
pub fn conf_change_error(e: ConfChangeError) -> Msg {
    match e {
        ConfChangeError::AlreadyJoint => Msg::new("why.conf_already_joint"),
        ConfChangeError::NotJoint => Msg::new("why.conf_not_joint"),
        ConfChangeError::NoVoters => Msg::new("why.conf_no_voters"),
        ConfChangeError::VoterAndLearner(id) => {
            Msg::new("why.conf_voter_and_learner").arg("id", id)
        }
        ConfChangeError::TooManyVoterChanges => Msg::new("why.conf_too_many_voter_changes"),
    }
}

/// Why a proposal was dropped.
pub fn proposal_refusal(r: ProposalRefusal) -> Msg {
    match r {
        ProposalRefusal::NoLeader => Msg::new("why.no_leader"),
        ProposalRefusal::LeaderRemoved => Msg::new("why.leader_removed"),
        ProposalRefusal::TransferInProgress { to } => {
            Msg::new("why.transfer_in_progress").arg("to", to)
        }
        ProposalRefusal::ConfChangePending { index, applied } => {
            Msg::new("why.conf_change_pending")
                .arg("index", index)
                .arg("applied", applied)
        }
        ProposalRefusal::ConfChange(e) => conf_change_error(e),
    }
}

/// Why a read was dropped.
pub fn read_refusal(r: ReadRefusal) -> Msg {
    Msg::new(match r {
        ReadRefusal::NoLeader => "why.no_leader",
        ReadRefusal::LeadershipChanged => "why.read_leadership_changed",
    })
}

/// Why a leader transfer was refused.
pub fn transfer_refusal(r: TransferRefusal) -> Msg {
    Msg::new(match r {
        TransferRefusal::NotMember => "why.transfer_not_member",
        TransferRefusal::Learner => "why.transfer_learner",
        TransferRefusal::AlreadyLeader => "why.transfer_already_leader",
    })
}

/// Why a pending leader transfer was given up.
pub fn transfer_abort(r: TransferAbort) -> Msg {
    match r {
        TransferAbort::Timeout => Msg::new("why.abort_timeout"),
        TransferAbort::Superseded { by } => Msg::new("why.abort_superseded").arg("by", by),
        TransferAbort::TransfereeRemoved => Msg::new("why.abort_transferee_removed"),
    }
}
