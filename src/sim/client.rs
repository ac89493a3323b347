//! Client requests and their visible outcomes.

use serde::{Deserialize, Serialize};

use crate::raft::NodeId;

/// What a client asked for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReqKind {
    /// A write.
    Write {
        /// Key.
        key: String,
        /// Value.
        value: String,
    },
    /// A read.
    Read {
        /// Key.
        key: String,
        /// ReadIndex or local.
        linearizable: bool,
    },
    /// A membership change.
    Member {
        /// What it changes, e.g. "member add n4 learner".
        desc: String,
    },
    /// A leader transfer.
    Transfer {
        /// The transferee.
        to: NodeId,
    },
}

impl ReqKind {
    /// A short label for the event log: "put x=1", "read x", "member add n4".
    pub fn label(&self) -> String {
        match self {
            ReqKind::Write { key, value } => format!("put {key}={value}"),
            ReqKind::Read { key, linearizable } => {
                if *linearizable {
                    format!("linearizable read {key}")
                } else {
                    format!("serializable read {key}")
                }
            }
            ReqKind::Member { desc } => desc.clone(),
            ReqKind::Transfer { to } => format!("move leader to n{to}"),
        }
    }
}

/// What became of a request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// No answer yet (it may never come: a lost forward, a lost leader).
    Pending,
    /// Taken in; its effect shows later (a leader transfer).
    Accepted,
    /// Committed (and applied) at `index`.
    Committed {
        /// The log index.
        index: u64,
    },
    /// Refused, with the reason.
    Rejected {
        /// Why.
        reason: String,
    },
    /// Never to be committed: its entry's index was committed with another entry (a new
    /// leader's log won over the one that appended it).
    Lost {
        /// The index the entry held.
        index: u64,
        /// The term of the entry that took that index.
        term: u64,
        /// That entry, worded ("put y=2", "the term-3 leader's empty entry").
        by: String,
    },
    /// A read's answer.
    Value {
        /// The value (None: no such key).
        value: Option<String>,
        /// The read index, for a linearizable read.
        index: Option<u64>,
        /// For a serializable read that returned an out-of-date value: why it is stale.
        stale: Option<String>,
    },
}

impl Outcome {
    /// A one-line description for the UI.
    pub fn describe(&self) -> String {
        match self {
            Outcome::Pending => "pending".into(),
            Outcome::Accepted => "accepted".into(),
            Outcome::Committed { index } => format!("committed at index {index}"),
            Outcome::Rejected { reason } => format!("rejected: {reason}"),
            Outcome::Lost { index, term, by } => {
                format!("lost: overwritten by term {term} at index {index} ({by})")
            }
            Outcome::Value {
                value,
                index,
                stale,
            } => {
                let v = value.as_deref().unwrap_or("(none)");
                let mut s = format!("value {v}");
                if let Some(i) = index {
                    s.push_str(&format!(" at read index {i}"));
                }
                if let Some(st) = stale {
                    s.push_str(&format!(" — STALE: {st}"));
                }
                s
            }
        }
    }
}

/// One client request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    /// Its id (unique in a run; also the read-index context).
    pub id: u64,
    /// What it asks.
    pub kind: ReqKind,
    /// The node it went to.
    pub via: Option<NodeId>,
    /// When it was made, ms.
    pub time: u64,
    /// What became of it.
    pub outcome: Outcome,
}
