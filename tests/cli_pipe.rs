//! The CLI as a Unix tool: piped into a reader that stops early (`raftlab run ... | head`), it
//! ends quietly instead of panicking on the closed pipe.

#![cfg(unix)]

use std::process::{Command, Stdio};

#[test]
fn a_closed_stdout_ends_the_cli_without_a_panic() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_raftlab"))
        .args(["run", "preset:01-election"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the CLI starts");
    // No reader at all: the first line the CLI prints meets a closed pipe, as after `head`
    // has read its fill.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("the CLI ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
}
