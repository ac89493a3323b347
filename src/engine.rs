//! raftlab's engine: everything below the UI, built as a crate of its own so that the browser
//! bundle can compile it for speed while the UI is compiled for size (Cargo.toml, profile
//! `web`). The `raftlab` crate re-exports each module under its own name.

#![warn(missing_docs)]

pub mod digest;
pub mod i18n;
pub mod json;
mod line_cut;
pub mod pool_alloc;
pub mod raft;
pub mod sim;
pub mod trig;
