//! Client requests and their visible outcomes.

use serde::{Deserialize, Serialize};

use crate::i18n::Msg;
use crate::raft::{NodeId, ProposalRefusal, ServerError};

/// gRPC's error for a request whose member went away mid-request.
pub const TRANSPORT_CLOSING: &str = "rpc error: code = Unavailable desc = transport is closing";

/// The error etcdctl prints when its command timeout (`--command-timeout`, 5 s) passes first.
pub const DEADLINE_EXCEEDED: &str = "context deadline exceeded";

/// etcd's ErrTimeout: the server's own request timeout passed with the proposal in raft.
pub const REQUEST_TIMED_OUT: &str = "etcdserver: request timed out";

/// etcd's ErrTimeoutDueToLeaderFail: as [`REQUEST_TIMED_OUT`], on a member that itself became
/// leader within two election timeouts after the request came in.
pub const TIMED_OUT_LEADER_FAIL: &str =
    "etcdserver: request timed out, possibly due to previous leader failure";

/// etcd's ErrTimeoutDueToConnectionLost: as [`REQUEST_TIMED_OUT`], on a leader not connected
/// to a quorum of members, or a follower not connected to its leader, since the request
/// came in.
pub const TIMED_OUT_CONNECTION_LOST: &str =
    "etcdserver: request timed out, possibly due to connection lost";

/// The server's request timeout passing while the request waited for a leader, never
/// proposed: the context's own error, which gRPC passes on as Unknown.
pub const DEADLINE_EXCEEDED_UNKNOWN: &str =
    "rpc error: code = Unknown desc = context deadline exceeded";

/// Who gave up on a request first, and so the error its client prints. etcd's server gives
/// up after its request timeout, 5 s + 2 election timeouts (7 s by default); a client whose
/// `--command-timeout` is shorter (the default 5 s) gives up first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GaveUp {
    /// The client's command timeout: [`DEADLINE_EXCEEDED`].
    #[default]
    Client,
    /// The server's, with the proposal in raft: [`REQUEST_TIMED_OUT`].
    Server,
    /// The server's, on a member elected leader soon after the request came in:
    /// [`TIMED_OUT_LEADER_FAIL`].
    ServerLeaderFail,
    /// The server's, with the member's link to its leader (or a leader's to a quorum) not up
    /// all along: [`TIMED_OUT_CONNECTION_LOST`].
    ServerConnectionLost,
    /// The server's, the request still waiting for a leader: [`DEADLINE_EXCEEDED_UNKNOWN`].
    ServerNoLeader,
}

impl GaveUp {
    /// The error the client prints, word for word.
    pub fn etcd_error(self) -> &'static str {
        match self {
            GaveUp::Client => DEADLINE_EXCEEDED,
            GaveUp::Server => REQUEST_TIMED_OUT,
            GaveUp::ServerLeaderFail => TIMED_OUT_LEADER_FAIL,
            GaveUp::ServerConnectionLost => TIMED_OUT_CONNECTION_LOST,
            GaveUp::ServerNoLeader => DEADLINE_EXCEEDED_UNKNOWN,
        }
    }
}

/// Why a request was refused: data, worded by `words::refusal`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Refusal {
    /// etcd's server refused it before raft saw it.
    Server(ServerError),
    /// The member the request went to went down before answering; the client's connection
    /// closed (etcd's restarted process knows nothing of the request). A write may have
    /// reached the leader before that and be committed all the same: the client's error does
    /// not say it was not.
    MemberDown {
        /// The member.
        id: NodeId,
        /// The index a failed write was committed at after all, once some member applied it.
        #[serde(default)]
        later: Option<u64>,
    },
    /// Raft took the proposal in and then dropped it.
    Dropped {
        /// The core's reason.
        reason: ProposalRefusal,
    },
}

impl Refusal {
    /// The error an etcd client prints, word for word.
    pub fn etcd_error(&self) -> &'static str {
        match self {
            Refusal::Server(e) => e.etcd_error(),
            // etcd-io/raft's ErrProposalDropped.
            Refusal::Dropped { .. } => "raft proposal dropped",
            // What etcd's gRPC client reports when the member's connection closes.
            Refusal::MemberDown { .. } => TRANSPORT_CLOSING,
        }
    }
}

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
        refusal: Refusal,
    },
    /// No answer within the request timeout (the client's or the server's, whichever is
    /// shorter): the client has its error. The request may still take effect later (an
    /// ambiguous outcome).
    TimedOut {
        /// When the client gave up, ms.
        at: u64,
        /// True when it never reached a leader (it waited for one), false when it was in
        /// raft's hands and not done yet.
        no_leader: bool,
        /// The index it was committed (or, for a read, answered) at after the client gave up.
        later: Option<u64>,
        /// Who gave up first, and so the error.
        #[serde(default)]
        by: GaveUp,
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
    /// The error an etcd client prints for this outcome, if it is an error.
    pub fn etcd_error(&self) -> Option<&'static str> {
        match self {
            Outcome::Rejected { refusal } => Some(refusal.etcd_error()),
            Outcome::TimedOut { by, .. } => Some(by.etcd_error()),
            _ => None,
        }
    }

    /// The etcd error as one scenario word ("unhealthy-cluster", "deadline-exceeded"), or
    /// "none": what `expect error = ...` compares.
    pub fn error_word(&self) -> String {
        self.etcd_error().map_or("none".into(), error_word)
    }

    /// A one-line description for the UI.
    pub fn describe(&self) -> String {
        match self {
            Outcome::Pending => "pending".into(),
            Outcome::Accepted => "accepted".into(),
            Outcome::Committed { index } => format!("committed at index {index}"),
            Outcome::Lost { index, term, by } => {
                format!("lost: overwritten by term {term} at index {index} ({by})")
            }
            Outcome::Rejected { refusal } => {
                let mut s = format!(
                    "rejected: {} ({})",
                    super::words::refusal(refusal),
                    refusal.etcd_error()
                );
                if let Refusal::MemberDown { later: Some(i), .. } = refusal {
                    s.push_str(&format!(", committed later at index {i}"));
                }
                s
            }
            Outcome::TimedOut { at, later, by, .. } => {
                let mut s = format!(
                    "timed out at {} ({})",
                    super::words::secs(*at),
                    by.etcd_error()
                );
                if let Some(i) = later {
                    s.push_str(&format!(", committed later at index {i}"));
                }
                s
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
    /// Why it was rejected, as a message for any language (the outcome has it in English).
    #[serde(default)]
    pub why: Option<Msg>,
}

/// An etcd error text as one word: the part after "etcdserver: " with dashes for spaces
/// ("etcdserver: unhealthy cluster" is `unhealthy-cluster`).
pub fn error_word(etcd: &str) -> String {
    etcd.trim_start_matches("etcdserver: ")
        .trim_start_matches("rpc error: code = Unavailable desc = ")
        .trim_start_matches("rpc error: code = Unknown desc = ")
        .trim_start_matches("context ")
        .replace(',', "")
        .replace(' ', "-")
}
