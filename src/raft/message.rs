//! What nodes say to each other, and what the log is made of.
//!
//! Messages are plain values: the core never sends anything itself, it leaves messages in its
//! outbox and the caller (the simulator) delivers them, late, twice or never.

use serde::{Deserialize, Serialize};
use std::sync::Arc;

use super::kv::KvState;

use super::tracker::Config;

/// A node id. Real nodes are numbered from 1; 0 means "nobody" (no vote, no leader), as in etcd.
pub type NodeId = u64;

/// The id that means "none".
pub const NONE: NodeId = 0;

/// Every kind of message the protocol uses, named as in etcd's raftpb.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum MsgType {
    /// Local: the election timer fired (or a campaign was forced).
    Hup,
    /// Local: the heartbeat timer fired on a leader.
    Beat,
    /// A client proposal; followers forward it to the leader.
    Prop,
    /// AppendEntries.
    App,
    /// AppendEntries response (also acknowledges a snapshot).
    AppResp,
    /// RequestVote.
    Vote,
    /// RequestVote response.
    VoteResp,
    /// Pre-vote request (thesis §9.6): would you vote for me at this term?
    PreVote,
    /// Pre-vote response.
    PreVoteResp,
    /// InstallSnapshot.
    Snap,
    /// Heartbeat (carries the commit index and read-index contexts).
    Heartbeat,
    /// Heartbeat response.
    HeartbeatResp,
    /// Local: a leader checks it still hears from a quorum.
    CheckQuorum,
    /// Ask the leader to hand leadership to `from`.
    TransferLeader,
    /// Leader transfer: campaign now, ignoring the election timer and leases.
    TimeoutNow,
    /// Linearizable read: ask the leader for a read index.
    ReadIndex,
    /// The leader's read index answer.
    ReadIndexResp,
    /// The transport reports a snapshot failed to arrive (etcd's ReportSnapshot).
    SnapStatus,
}

impl MsgType {
    /// Whether this type only ever exists inside one node.
    pub fn is_local(self) -> bool {
        matches!(self, MsgType::Hup | MsgType::Beat | MsgType::CheckQuorum)
    }

    /// Whether this is a response (used to draw outcomes).
    pub fn is_response(self) -> bool {
        matches!(
            self,
            MsgType::AppResp
                | MsgType::VoteResp
                | MsgType::PreVoteResp
                | MsgType::HeartbeatResp
                | MsgType::ReadIndexResp
        )
    }

    /// A short lowercase name, used in the event log and the UI.
    pub fn name(self) -> &'static str {
        match self {
            MsgType::Hup => "hup",
            MsgType::Beat => "beat",
            MsgType::Prop => "propose",
            MsgType::App => "append",
            MsgType::AppResp => "append-resp",
            MsgType::Vote => "vote",
            MsgType::VoteResp => "vote-resp",
            MsgType::PreVote => "pre-vote",
            MsgType::PreVoteResp => "pre-vote-resp",
            MsgType::Snap => "snapshot",
            MsgType::Heartbeat => "heartbeat",
            MsgType::HeartbeatResp => "heartbeat-resp",
            MsgType::CheckQuorum => "check-quorum",
            MsgType::TransferLeader => "transfer-leader",
            MsgType::TimeoutNow => "timeout-now",
            MsgType::ReadIndex => "read-index",
            MsgType::ReadIndexResp => "read-index-resp",
            MsgType::SnapStatus => "snap-status",
        }
    }
}

/// One membership change inside a configuration change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConfChangeSingle {
    /// Make the node a voter (also promotes a learner).
    AddNode(NodeId),
    /// Make the node a learner (a non-voting member).
    AddLearner(NodeId),
    /// Remove the node from the configuration.
    RemoveNode(NodeId),
}

impl ConfChangeSingle {
    /// The node this change is about.
    pub fn node(&self) -> NodeId {
        match self {
            ConfChangeSingle::AddNode(n)
            | ConfChangeSingle::AddLearner(n)
            | ConfChangeSingle::RemoveNode(n) => *n,
        }
    }
}

/// How a change enters and leaves joint consensus (etcd's ConfChangeTransition).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConfChangeTransition {
    /// One change is applied directly; several go through a joint configuration that the
    /// leader leaves by itself.
    #[default]
    Auto,
    /// Always through a joint configuration, left automatically.
    JointImplicit,
    /// Always through a joint configuration, left only by an explicit empty change.
    JointExplicit,
}

/// A configuration change (etcd's ConfChangeV2). No changes at all means "leave the joint
/// configuration". More than one voter change at once is done by joint consensus.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfChange {
    /// The changes, applied together.
    pub changes: Vec<ConfChangeSingle>,
    /// How the change enters and leaves joint consensus. It travels in the entry, as in
    /// etcd, so every node applies the change the same way whatever its own settings.
    /// Ignored by the empty change that leaves a joint configuration.
    #[serde(default)]
    pub transition: ConfChangeTransition,
}

impl ConfChange {
    /// `changes` with etcd's default transition (Auto), what etcd's server proposes for
    /// member add, promote and remove.
    pub fn new(changes: Vec<ConfChangeSingle>) -> ConfChange {
        ConfChange {
            changes,
            transition: ConfChangeTransition::Auto,
        }
    }

    /// Whether this is the empty change that leaves a joint configuration.
    pub fn is_leave_joint(&self) -> bool {
        self.changes.is_empty()
    }

    /// A short description such as "+n4 learner" or "+n4 -n1".
    pub fn describe(&self) -> String {
        if self.changes.is_empty() {
            return "leave joint".to_string();
        }
        let parts: Vec<String> = self
            .changes
            .iter()
            .map(|c| match c {
                ConfChangeSingle::AddNode(n) => format!("+n{n}"),
                ConfChangeSingle::AddLearner(n) => format!("+n{n} learner"),
                ConfChangeSingle::RemoveNode(n) => format!("-n{n}"),
            })
            .collect();
        parts.join(" ")
    }
}

/// What a log entry carries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EntryData {
    /// The empty entry a new leader appends to commit entries of older terms (§5.4.2).
    Empty,
    /// A client write to the key-value state machine. `req` identifies the client request.
    Put {
        /// The key written.
        key: String,
        /// The value written.
        value: String,
        /// The client request id (0: none).
        req: u64,
    },
    /// A membership change, effective when applied.
    Conf {
        /// The change.
        cc: ConfChange,
        /// The client request id (0: none, e.g. an automatic leave-joint).
        req: u64,
    },
}

/// One log entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The term of the leader that created it.
    pub term: u64,
    /// Its position in the log, from 1.
    pub index: u64,
    /// Its payload.
    pub data: EntryData,
}

impl Entry {
    /// A short label: "x=1", "+n4 learner", "" for the leader's empty entry.
    pub fn label(&self) -> String {
        match &self.data {
            EntryData::Empty => String::new(),
            EntryData::Put { key, value, .. } => format!("{key}={value}"),
            EntryData::Conf { cc, .. } => cc.describe(),
        }
    }

    /// The client request id it carries (0: none).
    pub fn req(&self) -> u64 {
        match &self.data {
            EntryData::Put { req, .. } | EntryData::Conf { req, .. } => *req,
            EntryData::Empty => 0,
        }
    }

    /// Whether this entry changes the configuration.
    pub fn is_conf(&self) -> bool {
        matches!(self.data, EntryData::Conf { .. })
    }
}

/// A snapshot: the state machine and configuration as of `index`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The last index the snapshot covers.
    pub index: u64,
    /// The term of that entry.
    pub term: u64,
    /// The configuration in force at `index`.
    pub conf: Config,
    /// The key-value state at `index` (shared: copies of a snapshot cost nothing).
    pub data: KvState,
}

/// A message between nodes. Unused fields stay at their defaults.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// What kind of message this is.
    pub msg_type: MsgType,
    /// Sender.
    pub from: NodeId,
    /// Receiver.
    pub to: NodeId,
    /// The sender's term (for pre-votes, the term it would campaign at).
    pub term: u64,
    /// App: the term of the entry before `entries`; votes: the candidate's last log term;
    /// rejections: the term hint for fast backtracking.
    pub log_term: u64,
    /// App: the index before `entries`; votes: the candidate's last index; responses: the index
    /// acknowledged or rejected; ReadIndexResp: the read index.
    pub index: u64,
    /// The entries carried (App, Prop). Shared with the sender's log, never copied. A boxed
    /// slice, two words where a `Vec` takes three: that keeps a message in flight
    /// (`sim::network::InFlight`) at 128 bytes, the most that compilers move inline rather
    /// than by a call to memcpy, and every message is moved several times on its way.
    pub entries: Box<[Arc<Entry>]>,
    /// The sender's commit index.
    pub commit: u64,
    /// Whether this response refuses.
    pub reject: bool,
    /// On a rejected App: the follower's index hint for fast backtracking.
    pub reject_hint: u64,
    /// The snapshot (Snap only). Boxed: every message is moved several times on its way,
    /// and an inline snapshot would more than double the size of all of them.
    pub snapshot: Option<Box<Snapshot>>,
    /// Read-index request id, or 1 on a vote that belongs to a leader transfer.
    pub context: u64,
}

impl Message {
    /// A message of `msg_type` with every other field empty.
    pub fn new(msg_type: MsgType, from: NodeId, to: NodeId) -> Message {
        Message {
            msg_type,
            from,
            to,
            term: 0,
            log_term: 0,
            index: 0,
            entries: Box::default(),
            commit: 0,
            reject: false,
            reject_hint: 0,
            snapshot: None,
            context: 0,
        }
    }
}

/// The context that marks a vote request as part of a leader transfer (etcd's campaignTransfer).
pub const CONTEXT_TRANSFER: u64 = 1;
