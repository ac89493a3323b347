//! The `raftlab` binary: the browser app when built for wasm32, the CLI natively.

#[cfg(target_arch = "wasm32")]
fn main() {
    raftlab::ui::start();
}

/// Counts live heap bytes so `raftlab bench` can report the memory a history really takes.
#[cfg(not(target_arch = "wasm32"))]
mod counting {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::sync::atomic::{AtomicUsize, Ordering};

    pub struct Counting;

    pub static LIVE: AtomicUsize = AtomicUsize::new(0);

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            LIVE.fetch_add(layout.size(), Ordering::Relaxed);
            // SAFETY: forwarded unchanged to the system allocator.
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            // SAFETY: forwarded unchanged to the system allocator.
            unsafe { System.dealloc(ptr, layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            LIVE.fetch_add(new_size, Ordering::Relaxed);
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
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
    raftlab::sim::cli::set_heap_probe(|| counting::LIVE.load(std::sync::atomic::Ordering::Relaxed));
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(raftlab::sim::cli::main(&args));
}
