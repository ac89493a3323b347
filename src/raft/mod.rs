//! The Raft consensus core, after etcd-io/raft: pure, deterministic, no I/O and no clock.
//!
//! One file per concept: [`raft`] (roles, elections, replication), [`log`], [`tracker`]
//! (configuration and per-follower progress), [`quorum`], [`confchange`], [`read_only`]
//! (ReadIndex), [`server`] (etcd's server-side checks), [`invariants`], [`rng`], [`vec_map`]
//! (the small ordered map for maps keyed by node id).

pub mod confchange;
mod debug_text;
pub mod invariants;
pub mod kv;
pub mod log;
pub mod message;
pub mod note;
pub mod quorum;
#[allow(clippy::module_inception)]
pub mod raft;
pub mod read_only;
pub mod rng;
pub mod server;
pub mod shared_vec;
pub mod tracker;
pub mod vec_map;

pub use confchange::ConfChangeTransition;
pub use kv::KvState;
pub use message::{
    ConfChange, ConfChangeSingle, Entry, EntryData, Message, MsgType, NodeId, Snapshot, NONE,
};
pub use note::{
    CampaignRefusal, ConfChangeError, Note, ProposalRefusal, ReadRefusal, StepDown, TransferAbort,
    TransferRefusal, VoteRefusal,
};
pub use raft::{Durable, Raft, RaftConfig, Role};
pub use rng::Rng;
pub use server::{HealthRule, ServerError, ServerView};
pub use tracker::{Config, Progress, ProgressState};
