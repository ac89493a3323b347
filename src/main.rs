//! The `raftlab` binary: the browser app when built for wasm32, the CLI natively.

#[cfg(target_arch = "wasm32")]
fn main() {
    raftlab::ui::start();
}

/// Counts live and peak heap bytes so `raftlab bench` can report the memory a history really
/// takes.
#[cfg(not(target_arch = "wasm32"))]
mod counting {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::sync::atomic::{AtomicUsize, Ordering};

    pub struct Counting;

    pub static LIVE: AtomicUsize = AtomicUsize::new(0);
    pub static PEAK: AtomicUsize = AtomicUsize::new(0);

    fn grew(by: usize) {
        let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
        PEAK.fetch_max(now, Ordering::Relaxed);
    }

    pub fn live() -> usize {
        LIVE.load(Ordering::Relaxed)
    }

    pub fn peak() -> usize {
        PEAK.load(Ordering::Relaxed)
    }

    pub fn reset_peak() {
        PEAK.store(LIVE.load(Ordering::Relaxed), Ordering::Relaxed);
    }

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            grew(layout.size());
            // SAFETY: forwarded unchanged to the system allocator.
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            // SAFETY: forwarded unchanged to the system allocator.
            unsafe { System.dealloc(ptr, layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
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
    raftlab::sim::bench::set_heap_probe(raftlab::sim::bench::HeapProbe {
        live: counting::live,
        peak: counting::peak,
        reset_peak: counting::reset_peak,
    });
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(raftlab::sim::cli::main(&args));
}
