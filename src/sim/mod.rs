//! simulator (in progress)
pub mod cli;
