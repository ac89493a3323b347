//! raftlab: an interactive Raft consensus lab.
//!
//! Three layers, data flowing one way (UI action → simulator command → core step → state → view):
//! - [`i18n`]: languages and message catalogs (English, Simplified Chinese), used by all layers.
//! - [`raft`]: the consensus core, pure and deterministic (etcd-io/raft semantics).
//! - [`sim`]: nodes over a simulated network, faults, clients, history, scenarios, CLI.
//! - `ui` (wasm32 only): the Yew front end, rendering simulator state.
//! - [`digest`]: a compile-time digest of the texts the browser fetches rather than carries.
//! - [`json`]: the JSON the browser build exports, written without serde_json.
//! - [`trig`]: sine and cosine for the drawing's angles, smaller in wasm than libm's.
//! - [`pool_alloc`]: the browser build's allocator for small blocks (size-class free lists).

#![warn(missing_docs)]

pub use raftlab_engine::{digest, i18n, json, pool_alloc, raft, sim, trig};
pub use raftlab_engine::{key_of, msg, tr};

#[cfg(target_arch = "wasm32")]
pub mod ui;
