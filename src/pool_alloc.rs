//! A cache of small freed blocks by size class, in front of the browser build's allocator.
//!
//! The wasm build's allocator (Rust's dlmalloc port) spends 50 to 100 instructions on each
//! small malloc and free (bins, chunk headers, coalescing); the simulator allocates and frees
//! a few dozen small blocks a tick (requests, strings, entries, event-log arguments), and in the
//! browser that was ~7% of a simulation's time (natively, glibc's per-thread caches make the
//! same calls cheap). Here a freed small block goes onto a list of its size class, up to
//! [`KEEP`] blocks a class, and the next allocation of that class takes it back: a handful of
//! instructions each way. Beyond `KEEP` a freed block goes back to the backing allocator, so
//! when a whole simulation is dropped its memory is coalesced there as before (a cache without
//! a bound kept every class's peak for good, and handed later runs blocks scattered in
//! drop order, which measured slower than dlmalloc's fresh, contiguous memory).

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::ptr;

/// Size classes step by this many bytes.
const GRAIN: usize = 16;
/// Blocks up to `CLASSES * GRAIN` bytes (1 KB) are cached.
const CLASSES: usize = 64;
/// The alignment a cached class serves: what Rust's wasm allocator gives without its slower
/// aligned path (stricter layouts go straight to the backing allocator).
const ALIGN: usize = 8;
/// The most freed blocks a class keeps.
pub const KEEP: usize = 64;

/// Small blocks by size class over a backing allocator `B`.
///
/// Guarantees: every block is aligned as its layout asks and holds at least its layout's size;
/// a block is handed out again only after it was freed; `realloc` keeps the contents up to the
/// smaller of the two sizes; at most [`KEEP`] freed blocks a class are held back from the
/// backing allocator. Not `Sync` (its lists are plain cells): the browser build, which has a
/// single thread, is the one place it is declared shareable.
pub struct Pools<B> {
    backing: B,
    /// The first free block of each class; a free block's first word holds the next one.
    free: [Cell<*mut u8>; CLASSES],
    /// How many blocks each class's list holds.
    held: [Cell<usize>; CLASSES],
}

// SAFETY: wasm32 without the atomics feature has exactly one thread, so the cells are never
// reached from two threads.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
unsafe impl<B: Sync> Sync for Pools<B> {}

impl<B> Pools<B> {
    /// An empty cache over `backing`.
    pub const fn new(backing: B) -> Self {
        Pools {
            backing,
            free: [const { Cell::new(ptr::null_mut()) }; CLASSES],
            held: [const { Cell::new(0) }; CLASSES],
        }
    }
}

#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
pub use page::PageAlloc;

#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
mod page {
    use super::Pools;
    use std::alloc::{GlobalAlloc, Layout};

    /// The browser build's global allocator: [`Pools`] over the system allocator (dlmalloc).
    /// A concrete type, so that its methods are compiled in this crate, which the browser
    /// bundle builds for speed (Cargo.toml), and not in the size-built crate that declares the
    /// static.
    pub struct PageAlloc(Pools<std::alloc::System>);

    impl PageAlloc {
        /// An empty cache over the system allocator.
        pub const fn new() -> Self {
            PageAlloc(Pools::new(std::alloc::System))
        }
    }

    impl Default for PageAlloc {
        fn default() -> Self {
            Self::new()
        }
    }

    // SAFETY: every call is forwarded unchanged to `Pools`, whose own guarantees hold.
    unsafe impl GlobalAlloc for PageAlloc {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            // SAFETY: the caller's contract, forwarded.
            unsafe { self.0.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: the caller's contract, forwarded.
            unsafe { self.0.dealloc(ptr, layout) }
        }
        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            // SAFETY: the caller's contract, forwarded.
            unsafe { self.0.alloc_zeroed(layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            // SAFETY: the caller's contract, forwarded.
            unsafe { self.0.realloc(ptr, layout, new_size) }
        }
    }
}

/// The class of `layout`, or None for a block the backing allocator serves as asked.
fn class(layout: &Layout) -> Option<usize> {
    let c = layout.size().saturating_sub(1) / GRAIN;
    (c < CLASSES && layout.align() <= ALIGN).then_some(c)
}

/// The layout a block is given by the backing allocator: a class's whole size, so that any
/// request of the class fits it, or the caller's own.
fn backing_layout(layout: Layout) -> Layout {
    match class(&layout) {
        // SAFETY: a non-zero multiple of GRAIN, and ALIGN is a power of two.
        Some(c) => unsafe { Layout::from_size_align_unchecked((c + 1) * GRAIN, ALIGN) },
        None => layout,
    }
}

// SAFETY: a block of a class comes from the backing allocator with its class's layout (so it
// is big and aligned enough for any request of the class) and goes back to it with that same
// layout; it is on a list only between its dealloc and its next alloc, so no block is handed
// out twice. Every other block is the backing allocator's, with the caller's layout.
unsafe impl<B: GlobalAlloc> GlobalAlloc for Pools<B> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if let Some(c) = class(&layout) {
            let head = self.free[c].get();
            if !head.is_null() {
                // SAFETY: a free block's first word was written by dealloc with the next one.
                self.free[c].set(unsafe { head.cast::<*mut u8>().read() });
                self.held[c].set(self.held[c].get() - 1);
                return head;
            }
        }
        // SAFETY: a valid layout (the caller's, or its class's).
        unsafe { self.backing.alloc(backing_layout(layout)) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if let Some(c) = class(&layout) {
            let held = self.held[c].get();
            if held < KEEP {
                // SAFETY: the block is at least GRAIN bytes, ALIGN-aligned and no longer in
                // use: its first word can hold the list's link.
                unsafe { ptr.cast::<*mut u8>().write(self.free[c].get()) };
                self.free[c].set(ptr);
                self.held[c].set(held + 1);
                return;
            }
        }
        // SAFETY: allocated by the backing allocator with this layout.
        unsafe { self.backing.dealloc(ptr, backing_layout(layout)) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if class(&layout).is_none() {
            // SAFETY: the caller's layout, forwarded (the backing allocator may know its fresh
            // memory is already zero).
            return unsafe { self.backing.alloc_zeroed(layout) };
        }
        // SAFETY: the caller's layout.
        let p = unsafe { self.alloc(layout) };
        if !p.is_null() {
            // SAFETY: p holds at least layout.size() bytes.
            unsafe { ptr::write_bytes(p, 0, layout.size()) };
        }
        p
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees new_size, rounded up to the alignment, fits an isize.
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        let old_class = class(&layout);
        if old_class.is_some() && old_class == class(&new) {
            // The block already holds the whole class's size.
            return ptr;
        }
        // SAFETY: the block was allocated by the backing allocator with the old layout's
        // backing layout, and is resized to the new one's (same alignment): the backing
        // allocator may grow it in place.
        unsafe {
            self.backing
                .realloc(ptr, backing_layout(layout), backing_layout(new).size())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::alloc::System;

    /// A tiny deterministic generator (xorshift), for the test's sizes and orders.
    fn next(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    /// Live blocks keep their contents, alignment and distinctness through any mix of
    /// allocations, frees and resizes across classes and into the backing allocator.
    #[test]
    fn blocks_keep_their_bytes_through_reuse_and_resizes() {
        let pools = Pools::new(System);
        let mut live: Vec<(*mut u8, Layout, u8)> = Vec::new();
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let fill = |p: *mut u8, n: usize, tag: u8| unsafe { ptr::write_bytes(p, tag, n) };
        let holds = |p: *mut u8, n: usize, tag: u8| unsafe {
            std::slice::from_raw_parts(p, n).iter().all(|&b| b == tag)
        };
        for step in 0..20_000u32 {
            let r = next(&mut seed);
            let tag = (step % 251) as u8 + 1;
            match r % 4 {
                0 | 1 => {
                    let size = match r >> 8 & 7 {
                        0 => 1 + (r >> 16) as usize % 2000,
                        _ => 1 + (r >> 16) as usize % 600,
                    };
                    let align = [1, 2, 4, 8, 16, 32][(r >> 40) as usize % 6];
                    let layout = Layout::from_size_align(size, align).unwrap();
                    let p = if r >> 50 & 1 == 0 {
                        unsafe { pools.alloc(layout) }
                    } else {
                        let p = unsafe { pools.alloc_zeroed(layout) };
                        assert!(holds(p, size, 0), "zeroed block not zero");
                        p
                    };
                    assert!(!p.is_null());
                    assert_eq!(p as usize % align, 0, "misaligned for {layout:?}");
                    fill(p, size, tag);
                    live.push((p, layout, tag));
                }
                2 if !live.is_empty() => {
                    let (p, layout, t) = live.swap_remove((r >> 8) as usize % live.len());
                    assert!(holds(p, layout.size(), t), "a live block was overwritten");
                    unsafe { pools.dealloc(p, layout) };
                }
                3 if !live.is_empty() => {
                    let i = (r >> 8) as usize % live.len();
                    let (p, layout, t) = live[i];
                    assert!(holds(p, layout.size(), t), "a live block was overwritten");
                    let new_size = 1 + (r >> 20) as usize % 1200;
                    let q = unsafe { pools.realloc(p, layout, new_size) };
                    assert!(!q.is_null());
                    assert_eq!(q as usize % layout.align(), 0);
                    let kept = layout.size().min(new_size);
                    assert!(holds(q, kept, t), "realloc lost contents");
                    fill(q, new_size, t);
                    live[i] = (
                        q,
                        Layout::from_size_align(new_size, layout.align()).unwrap(),
                        t,
                    );
                }
                _ => {}
            }
        }
        // No two live blocks overlap.
        let mut spans: Vec<(usize, usize)> = live
            .iter()
            .map(|&(p, l, _)| (p as usize, p as usize + l.size()))
            .collect();
        spans.sort_unstable();
        assert!(spans.windows(2).all(|w| w[0].1 <= w[1].0), "blocks overlap");
        for (p, layout, t) in live {
            assert!(holds(p, layout.size(), t));
            unsafe { pools.dealloc(p, layout) };
        }
    }

    /// The backing allocator, counting the blocks it has out.
    struct Counted(Cell<usize>);

    unsafe impl GlobalAlloc for Counted {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            self.0.set(self.0.get() + 1);
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            self.0.set(self.0.get() - 1);
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    /// Dropping many blocks of one class gives all but KEEP of them back to the backing
    /// allocator, and allocating again takes the kept ones first.
    #[test]
    fn a_class_keeps_at_most_keep_freed_blocks() {
        let pools = Pools::new(Counted(Cell::new(0)));
        let l = Layout::from_size_align(24, 8).unwrap();
        let blocks: Vec<*mut u8> = (0..1000).map(|_| unsafe { pools.alloc(l) }).collect();
        assert_eq!(pools.backing.0.get(), 1000);
        for &p in &blocks {
            unsafe { pools.dealloc(p, l) };
        }
        assert_eq!(
            pools.backing.0.get(),
            KEEP,
            "freed blocks held back beyond KEEP"
        );
        let again: Vec<*mut u8> = (0..KEEP).map(|_| unsafe { pools.alloc(l) }).collect();
        assert_eq!(pools.backing.0.get(), KEEP, "a kept block was not reused");
        for p in again {
            unsafe { pools.dealloc(p, l) };
        }
    }

    /// A freed small block is what the next allocation of its class gets (the point of the
    /// pools), and a block of another class never is.
    #[test]
    fn a_freed_block_is_reused_by_its_class_only() {
        let pools = Pools::new(System);
        let a = Layout::from_size_align(40, 8).unwrap();
        let b = Layout::from_size_align(100, 8).unwrap();
        unsafe {
            let p = pools.alloc(a);
            pools.dealloc(p, a);
            let q = pools.alloc(b);
            assert_ne!(p, q, "a block went to another class");
            assert_eq!(pools.alloc(Layout::from_size_align(33, 4).unwrap()), p);
            assert_eq!(
                pools.realloc(p, Layout::from_size_align(33, 4).unwrap(), 48),
                p
            );
        }
    }
}
