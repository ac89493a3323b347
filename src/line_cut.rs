//! Texts cut at compile time: a few lines of a file the binary includes, so the browser build
//! carries those bytes and not the whole file (the catalog without its comments, the preset
//! index without the scripts).

/// Defines two `const fn`s over a text, for a `const fn $keep(b: &[u8], at: usize) -> (bool,
/// usize)` that says whether the line starting at `at` is kept and where it ends (past its
/// newline): `$len(text)`, how many bytes the kept lines hold, and `$bytes::<N>(text)`, those
/// lines in order (`N` must be `$len(text)`).
///
/// A macro and not a function taking `$keep`: a `const fn` cannot call a function pointer.
macro_rules! line_cut {
    ($len:ident, $bytes:ident, $keep:path) => {
        const fn $len(text: &str) -> usize {
            let b = text.as_bytes();
            let (mut at, mut n) = (0, 0);
            while at < b.len() {
                let (keep, end) = $keep(b, at);
                if keep {
                    n += end - at;
                }
                at = end;
            }
            n
        }

        const fn $bytes<const N: usize>(text: &str) -> [u8; N] {
            let b = text.as_bytes();
            let mut out = [0u8; N];
            let (mut at, mut n) = (0, 0);
            while at < b.len() {
                let (keep, end) = $keep(b, at);
                if keep {
                    while at < end {
                        out[n] = b[at];
                        n += 1;
                        at += 1;
                    }
                }
                at = end;
            }
            out
        }
    };
}
pub(crate) use line_cut;
