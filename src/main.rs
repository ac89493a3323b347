//! The `raftlab` binary: the browser app when built for wasm32, the CLI natively.

#[cfg(target_arch = "wasm32")]
fn main() {
    raftlab::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(raftlab::sim::cli::main(&args));
}
