//! The simulator: raft nodes over a simulated network, faults, clients, the invariant
//! checker, history (time travel), the `.scn` scenario language and the `raftlab` CLI.
//!
//! Data flows one way: an [`action::Action`] (from the UI or a scenario) changes the
//! [`cluster::Sim`], which steps the raft core; the UI only reads the `Sim` back.

pub mod action;
pub mod announce;
pub mod change;
pub mod client;
pub mod cluster;
pub mod compare;
pub mod cond;
pub mod decimal;
pub mod event;
pub mod explore;
pub mod explore_job;
pub mod health;
pub mod history;
pub mod id_map;
pub mod in_flight;
pub mod invariant_words;
pub mod labels;
pub mod launch;
pub mod link_tails;
pub mod network;
pub mod options;
pub mod oracle;
pub mod pace;
pub mod player;
pub mod preset_heads;
pub mod presets;
pub mod requests;
pub mod scenario;
pub mod share;
pub mod small_sort;
pub mod words;

#[cfg(not(target_arch = "wasm32"))]
pub mod bench;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
#[cfg(not(target_arch = "wasm32"))]
mod compare_cli;
#[cfg(not(target_arch = "wasm32"))]
mod explore_cli;

pub use action::Action;
pub use cluster::{Sim, SimNode, Status, TICK_MS};
pub use options::Options;
