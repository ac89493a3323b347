//! The `raftlab` binary: the browser app when built for wasm32, the CLI natively.

/// Small blocks from size-class pools, the rest from Rust's wasm allocator (dlmalloc), whose
/// small-block path cost the simulation ~7% of its time in the browser (see pool_alloc).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOC: raftlab::pool_alloc::PageAlloc = raftlab::pool_alloc::PageAlloc::new();

#[cfg(target_arch = "wasm32")]
fn main() {
    raftlab::ui::start();
}

/// The benchmark entry of the page (tests/e2e/bench.mjs calls it as
/// `wasmBindings.raftlab_run_text`): parses and runs a scenario to its end with nothing
/// drawn, the same work as native `raftlab bench --scenario`, so wasm and native are compared
/// on the simulation alone. Returns `{"time_ms", "fingerprint", "failures"}` as JSON, or
/// `{"error"}` for a scenario that does not parse. It touches none of the app's state.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn raftlab_run_text(text: &str) -> String {
    // Written by hand, strings by the engine's JSON writer: the page links no JSON library.
    match raftlab::sim::player::run_text(text) {
        Ok(r) => format!(
            "{{\"time_ms\":{},\"fingerprint\":\"{:016x}\",\"failures\":{}}}",
            r.time_ms, r.fingerprint, r.failures
        ),
        Err(e) => format!(
            "{{\"error\":{}}}",
            raftlab::json::pretty(&raftlab::json::Val::Str(e.to_string()))
        ),
    }
}

/// The fingerprint of the run the page shows (16 hex digits), as `raftlab run --json` prints
/// it for the same run: tests call `wasmBindings.raftlab_fingerprint()` to compare the page's
/// state with a native run's. A promise (`ui::probe` says why).
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn raftlab_fingerprint() -> js_sys::Promise {
    raftlab::ui::probe::fingerprint()
}

/// The keys of the catalog texts the page has read so far, one a line: tests/e2e/
/// split-profile.mjs calls it as `wasmBindings.raftlab_catalog_used` after each first visit it
/// plays, and lists them in scripts/catalog-first.txt (`i18n::parts`).
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn raftlab_catalog_used() -> String {
    raftlab::i18n::used_keys().join("\n")
}

/// Counts live and peak heap bytes so `raftlab bench` can report the memory a history really
/// takes. Counting is switched on only for `bench`: two shared counters written on every
/// allocation and free make every thread of `raftlab explore --jobs N` fight over one cache
/// line, which cost more than a second thread gained (3000 schedules: 2.9 s on one thread,
/// 4.7 s on two). Switched off, the allocator only reads a flag that never changes again.
#[cfg(not(target_arch = "wasm32"))]
mod counting {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};

    pub struct Counting;

    static ON: AtomicBool = AtomicBool::new(false);
    // Signed: a block allocated before counting started may be freed after.
    static LIVE: AtomicIsize = AtomicIsize::new(0);
    static PEAK: AtomicIsize = AtomicIsize::new(0);

    /// Starts counting; called once, before the command runs.
    pub fn switch_on() {
        ON.store(true, Ordering::Relaxed);
    }

    fn grew(by: usize) {
        let by = by as isize;
        let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
        PEAK.fetch_max(now, Ordering::Relaxed);
    }

    fn shrank(by: usize) {
        LIVE.fetch_sub(by as isize, Ordering::Relaxed);
    }

    pub fn live() -> usize {
        LIVE.load(Ordering::Relaxed).max(0) as usize
    }

    pub fn peak() -> usize {
        PEAK.load(Ordering::Relaxed).max(0) as usize
    }

    pub fn reset_peak() {
        PEAK.store(LIVE.load(Ordering::Relaxed), Ordering::Relaxed);
    }

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            if ON.load(Ordering::Relaxed) {
                grew(layout.size());
            }
            // SAFETY: forwarded unchanged to the system allocator.
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            if ON.load(Ordering::Relaxed) {
                shrank(layout.size());
            }
            // SAFETY: forwarded unchanged to the system allocator.
            unsafe { System.dealloc(ptr, layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            if ON.load(Ordering::Relaxed) {
                if new_size >= layout.size() {
                    grew(new_size - layout.size());
                } else {
                    shrank(layout.size() - new_size);
                }
            }
            // SAFETY: forwarded unchanged to the system allocator.
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOC: counting::Counting = counting::Counting;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    // Rust ignores SIGPIPE, so a closed stdout (`raftlab run ... | head`) made every println!
    // panic. Restoring the default ends the process quietly, as Unix tools do.
    #[cfg(unix)]
    // SAFETY: called first, before any thread exists; SIG_DFL is a valid disposition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `bench --scenario` is compared with the browser's wasm, so it runs on the plain
    // allocator, as `raftlab run` does: the counters would slow every allocation.
    let scenario = args.iter().any(|a| a == "--scenario");
    if args.first().is_some_and(|a| a == "bench") && !scenario {
        counting::switch_on();
        raftlab::sim::bench::set_heap_probe(raftlab::sim::bench::HeapProbe {
            live: counting::live,
            peak: counting::peak,
            reset_peak: counting::reset_peak,
        });
    }
    std::process::exit(raftlab::sim::cli::main(&args));
}
