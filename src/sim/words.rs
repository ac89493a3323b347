//! Notes from the core, worded for people: "n3 election timeout: pre-vote for term 4".

use crate::raft::{NodeId, Note, StepDown};

use super::event::EventKind;

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
        Note::CampaignRefused { reason } => (Election, format!("n{id} cannot campaign: {reason}")),
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
                    format!("n{id} rejects {what} for n{candidate} (term {term}): {reason}"),
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
            format!("move leader to n{to} refused: {reason}"),
        ),
        Note::TransferAborted { to } => (
            Leader,
            format!("n{id} aborted the transfer to n{to}: not done within an election timeout"),
        ),
        Note::Appended { req, index, term } => (
            Client,
            format!("n{id} appended request {req} at index {index} in term {term}"),
        ),
        Note::Applied { req, index } => (Client, format!("request {req} applied at {index}")),
        Note::ConfApplied { change, index, .. } => {
            (Membership, format!("n{id} applied {change} at {index}"))
        }
        Note::ProposalDropped { reason, .. } => (Client, format!("n{id} dropped a proposal: {reason}")),
        Note::ReadServed { req, index, .. } => (Read, format!("read {req} served at {index}")),
        Note::ReadDropped { reason, .. } => (Read, format!("n{id} dropped a read: {reason}")),
    }
}
