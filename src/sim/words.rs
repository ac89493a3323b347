//! Notes from the core, worded for people: "n3 election timeout: pre-vote for term 4".
//! The wording lives in the catalogs (`src/i18n/*.txt`); this file picks the sentence and
//! its values, so every language says the same thing.

use crate::i18n::Msg;
use crate::raft::{NodeId, Note, StepDown};

use super::event::EventKind;

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
                .arg("reason", reason.as_str()),
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
                Msg::new("ev.vote_rejected").arg("reason", reason.as_str())
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
                .arg("reason", reason.as_str()),
        ),
        Note::TransferAborted { to } => (
            Leader,
            Msg::new("ev.transfer_aborted").arg("id", id).arg("to", *to),
        ),
        Note::Applied { req, index } => (
            Client,
            Msg::new("ev.applied").arg("req", *req).arg("index", *index),
        ),
        Note::ConfApplied { change, index, .. } => (
            Membership,
            Msg::new("ev.conf_applied_at")
                .arg("id", id)
                .arg("change", change.as_str())
                .arg("index", *index),
        ),
        Note::ProposalDropped { reason, .. } => (
            Client,
            Msg::new("ev.proposal_dropped")
                .arg("id", id)
                .arg("reason", reason.as_str()),
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
                .arg("reason", reason.as_str()),
        ),
    }
}
