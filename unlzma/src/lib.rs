//! An LZMA decoder, built as a wasm module of a few kilobytes that the page runs before its
//! own wasm: the release build ships the page's wasm compressed with LZMA
//! (`scripts/pack-wasm.mjs`), which on wasm takes about a fifth fewer bytes than gzip, and
//! browsers only offer gzip and deflate to decompress. JavaScript would do too, but a one-shot
//! decoder in JavaScript runs mostly in V8's interpreter (40-60 ms for the page's wasm in
//! Chromium), where wasm is compiled before it runs.
//!
//! It reads the "LZMA alone" format that `xz --format=lzma` writes: a 13-byte header (the
//! properties byte lc/lp/pb, the dictionary size, the unpacked size as a 64-bit little-endian
//! number), then the range-coded stream. The size must be stated (pack-wasm.mjs writes it):
//! the whole output is one buffer, which is also the dictionary. Names follow the format's
//! specification (lzma-specification.txt in the LZMA SDK): the range coder, probabilities of
//! 11 bits, states 0-11, the four last distances rep0-rep3.
//!
//! Guarantees: [`decode`] returns the unpacked bytes of a valid stream; on any other input it
//! returns an [`Error`], never reads or writes outside the slices it is given, and never
//! panics.

#![cfg_attr(target_arch = "wasm32", no_std)]

/// Why a stream could not be decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum Error {
    /// Shorter than the header and the range coder's first five bytes.
    Header = -1,
    /// A properties byte over 224 (lc < 9, lp < 5, pb < 5), or lc + lp over 4.
    Properties = -2,
    /// The unpacked size is not stated, or does not fit the output given.
    Size = -3,
    /// The range coder's first byte is not 0.
    Coder = -4,
    /// The stream ended before the stated size was reached.
    Truncated = -5,
    /// A match reaches before the start of the output, or past the stated size; or an end
    /// marker comes before it.
    Data = -6,
}

/// Probabilities, in the order the specification lists them; literals last, 0x300 per
/// literal context.
const IS_MATCH: usize = 0;
const IS_REP: usize = IS_MATCH + (12 << 4);
const IS_REP_G0: usize = IS_REP + 12;
const IS_REP_G1: usize = IS_REP_G0 + 12;
const IS_REP_G2: usize = IS_REP_G1 + 12;
const IS_REP0_LONG: usize = IS_REP_G2 + 12;
const POS_SLOT: usize = IS_REP0_LONG + (12 << 4);
/// Distances of slots 4-13: 114 probabilities, indexed from 1 as the trees are.
const SPEC_POS: usize = POS_SLOT + (4 << 6);
const ALIGN: usize = SPEC_POS + 115;
/// A length coder: choice, choice 2, then 16 position states of 8 "low" and 8 "mid"
/// probabilities, and 256 "high" ones.
const LEN_SIZE: usize = 2 + (16 << 3) * 2 + 256;
const MATCH_LEN: usize = ALIGN + 16;
const REP_LEN: usize = MATCH_LEN + LEN_SIZE;
const LITERAL: usize = REP_LEN + LEN_SIZE;
/// lc + lp at most 4, the limit xz keeps to: the probabilities then fit a fixed array.
const MAX_LITERAL_BITS: u32 = 4;
const PROBS: usize = LITERAL + (0x300 << MAX_LITERAL_BITS);

/// The unpacked size a header states, or `None` when it is not stated (all ones) or does not
/// fit a `usize`.
pub fn unpacked_size(input: &[u8]) -> Option<usize> {
    let size = u64::from_le_bytes(input.get(5..13)?.try_into().ok()?);
    if size == u64::MAX {
        return None;
    }
    usize::try_from(size).ok()
}

struct RangeDecoder<'a> {
    input: &'a [u8],
    at: usize,
    range: u32,
    code: u32,
}

impl RangeDecoder<'_> {
    /// The next byte of the stream; past its end, zeros, which [`decode`] reports as
    /// [`Error::Truncated`] once it sees `at` beyond the end.
    #[inline(always)]
    fn byte(&mut self) -> u32 {
        let b = self.input.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        u32::from(b)
    }

    #[inline(always)]
    fn normalize(&mut self) {
        if self.range < 1 << 24 {
            self.range <<= 8;
            self.code = (self.code << 8) | self.byte();
        }
    }

    /// One bit whose chance of being 0 is `p` / 2048; `p` moves towards what came.
    #[inline(always)]
    fn bit(&mut self, p: &mut u16) -> u32 {
        let prob = u32::from(*p);
        let bound = (self.range >> 11) * prob;
        let b = if self.code < bound {
            self.range = bound;
            *p = (prob + ((2048 - prob) >> 5)) as u16;
            0
        } else {
            self.range -= bound;
            self.code -= bound;
            *p = (prob - (prob >> 5)) as u16;
            1
        };
        self.normalize();
        b
    }

    /// An `n`-bit number coded by the binary tree of probabilities `p[1..1 << n]`, most
    /// significant bit first.
    #[inline(always)]
    fn tree(&mut self, p: &mut [u16], n: u32) -> u32 {
        let mut m = 1usize;
        for _ in 0..n {
            m = (m << 1) | self.bit(&mut p[m]) as usize;
        }
        m as u32 - (1 << n)
    }

    /// The same, least significant bit first.
    #[inline(always)]
    fn reverse(&mut self, p: &mut [u16], n: u32) -> u32 {
        let (mut m, mut v) = (1usize, 0);
        for i in 0..n {
            let b = self.bit(&mut p[m]);
            m = (m << 1) | b as usize;
            v |= b << i;
        }
        v
    }

    /// `n` bits of even chance, most significant first.
    fn direct(&mut self, n: u32) -> u32 {
        let mut v = 0u32;
        for _ in 0..n {
            self.range >>= 1;
            let b = u32::from(self.code >= self.range);
            if b == 1 {
                self.code -= self.range;
            }
            v = (v << 1) | b;
            self.normalize();
        }
        v
    }

    /// A match length less 2, by the length coder at `p`.
    fn length(&mut self, p: &mut [u16], pos_state: usize) -> usize {
        let (choice, rest) = p.split_at_mut(2);
        let (low, rest) = rest.split_at_mut(16 << 3);
        let (mid, high) = rest.split_at_mut(16 << 3);
        let at = pos_state << 3;
        (if self.bit(&mut choice[0]) == 0 {
            self.tree(&mut low[at..at + 8], 3)
        } else if self.bit(&mut choice[1]) == 0 {
            8 + self.tree(&mut mid[at..at + 8], 3)
        } else {
            16 + self.tree(high, 8)
        }) as usize
    }
}

/// Decodes the stream `input` into `out`, which must be exactly as long as its header's
/// stated size ([`unpacked_size`]). `probs` is the decoder's working memory.
pub fn decode(input: &[u8], out: &mut [u8], probs: &mut Probs) -> Result<(), Error> {
    if input.len() < 18 {
        return Err(Error::Header);
    }
    let props = u32::from(input[0]);
    if props >= 9 * 5 * 5 {
        return Err(Error::Properties);
    }
    let (lc, lp, pb) = (props % 9, props / 9 % 5, props / 45);
    if lc + lp > MAX_LITERAL_BITS {
        return Err(Error::Properties);
    }
    if unpacked_size(input) != Some(out.len()) {
        return Err(Error::Size);
    }
    if input[13] != 0 {
        return Err(Error::Coder);
    }
    let p = &mut probs.0[..LITERAL + (0x300 << (lc + lp))];
    p.fill(1024);
    let mut rc = RangeDecoder {
        input,
        at: 18,
        range: u32::MAX,
        code: u32::from_be_bytes([input[14], input[15], input[16], input[17]]),
    };
    let (pb_mask, lp_mask) = ((1usize << pb) - 1, (1usize << lp) - 1);
    let mut state = 0usize;
    let mut reps = [0usize; 4];
    let mut pos = 0usize;
    let end = out.len();
    while pos < end {
        let pos_state = pos & pb_mask;
        if rc.bit(&mut p[IS_MATCH + (state << 4) + pos_state]) == 0 {
            // A literal, in the context of the previous byte's top lc bits; right after a
            // match also coded against the byte at the last distance, up to the first bit
            // that differs from it.
            let prev = if pos > 0 {
                usize::from(out[pos - 1])
            } else {
                0
            };
            let base = LITERAL + 0x300 * (((pos & lp_mask) << lc) + (prev >> (8 - lc)));
            let lit = &mut p[base..base + 0x300];
            let mut s = 1usize;
            if state >= 7 {
                let mut matched = usize::from(out[pos - reps[0] - 1]);
                while s < 0x100 {
                    let mb = (matched >> 7) & 1;
                    matched <<= 1;
                    let b = rc.bit(&mut lit[((1 + mb) << 8) + s]) as usize;
                    s = (s << 1) | b;
                    if mb != b {
                        break;
                    }
                }
            }
            while s < 0x100 {
                s = (s << 1) | rc.bit(&mut lit[s]) as usize;
            }
            out[pos] = s as u8;
            pos += 1;
            state = match state {
                0..=3 => 0,
                4..=9 => state - 3,
                _ => state - 6,
            };
            continue;
        }
        let len = if rc.bit(&mut p[IS_REP + state]) == 0 {
            // A match at a new distance.
            let len = rc.length(&mut p[MATCH_LEN..MATCH_LEN + LEN_SIZE], pos_state);
            state = if state < 7 { 7 } else { 10 };
            let slot_at = POS_SLOT + (len.min(3) << 6);
            let slot = rc.tree(&mut p[slot_at..slot_at + 64], 6);
            let dist = if slot < 4 {
                slot
            } else {
                let n = (slot >> 1) - 1;
                let dist = (2 | (slot & 1)) << n;
                if slot < 14 {
                    let at = SPEC_POS + (dist - slot) as usize;
                    dist + rc.reverse(&mut p[at..at + (1 << n)], n)
                } else {
                    let high = rc.direct(n - 4) << 4;
                    dist.wrapping_add(high)
                        .wrapping_add(rc.reverse(&mut p[ALIGN..ALIGN + 16], 4))
                }
            };
            if dist == u32::MAX {
                // The end marker: allowed only where the stated size ends.
                return Err(Error::Data);
            }
            reps = [dist as usize, reps[0], reps[1], reps[2]];
            len
        } else {
            if rc.bit(&mut p[IS_REP_G0 + state]) == 0 {
                if rc.bit(&mut p[IS_REP0_LONG + (state << 4) + pos_state]) == 0 {
                    // One byte at the last distance.
                    state = if state < 7 { 9 } else { 11 };
                    if reps[0] >= pos {
                        return Err(Error::Data);
                    }
                    out[pos] = out[pos - reps[0] - 1];
                    pos += 1;
                    continue;
                }
            } else {
                let i = if rc.bit(&mut p[IS_REP_G1 + state]) == 0 {
                    1
                } else if rc.bit(&mut p[IS_REP_G2 + state]) == 0 {
                    2
                } else {
                    3
                };
                // The distance used moves to the front.
                reps[..=i].rotate_right(1);
            }
            state = if state < 7 { 8 } else { 11 };
            rc.length(&mut p[REP_LEN..REP_LEN + LEN_SIZE], pos_state)
        } + 2;
        let dist = reps[0];
        if dist >= pos || len > end - pos {
            return Err(Error::Data);
        }
        // Byte by byte: a match may overlap what it writes (a distance shorter than its length).
        let from = pos - dist - 1;
        for i in 0..len {
            out[pos + i] = out[from + i];
        }
        pos += len;
    }
    if rc.at > input.len() {
        return Err(Error::Truncated);
    }
    Ok(())
}

/// The decoder's probabilities (about 28 KB: room for any lc + lp up to 4).
pub struct Probs([u16; PROBS]);

impl Probs {
    /// Working memory for [`decode`].
    pub const fn new() -> Self {
        Probs([0; PROBS])
    }
}

impl Default for Probs {
    fn default() -> Self {
        Self::new()
    }
}

/// The wasm module's interface, for the page's loader (scripts/pack-wasm.mjs): it writes the
/// stream at [`input`], calls [`unpack`] with its length, and reads the result at [`output`].
#[cfg(target_arch = "wasm32")]
mod wasm {
    use super::{decode, unpacked_size, Probs};
    use core::ptr::addr_of_mut;

    static mut PROBS: Probs = Probs::new();

    /// Where the stream goes: the first byte past the module's own data. The loader grows the
    /// memory to hold the stream and the output after it.
    #[no_mangle]
    pub extern "C" fn input() -> usize {
        extern "C" {
            static __heap_base: u8;
        }
        // Only the symbol's address is taken (the linker places it past the stack and data).
        core::ptr::addr_of!(__heap_base) as usize
    }

    /// Decodes the `len` bytes at [`input`] to the memory right after them; returns the
    /// unpacked size, or an `Error` (negative).
    ///
    /// # Safety
    /// The loader must have grown the memory to hold `len` + the stated size bytes from
    /// [`input`] on.
    #[no_mangle]
    pub unsafe extern "C" fn unpack(len: usize) -> i32 {
        let at = input();
        // SAFETY: the loader wrote `len` bytes at `at` and made room for the output after.
        let stream = unsafe { core::slice::from_raw_parts(at as *const u8, len) };
        let Some(size) = unpacked_size(stream) else {
            return super::Error::Size as i32;
        };
        let out = unsafe { core::slice::from_raw_parts_mut((at + len) as *mut u8, size) };
        // SAFETY: one thread, one call at a time.
        let probs = unsafe { &mut *addr_of_mut!(PROBS) };
        match decode(stream, out, probs) {
            Ok(()) => size as i32,
            Err(e) => e as i32,
        }
    }

    #[panic_handler]
    fn panic(_: &core::panic::PanicInfo) -> ! {
        core::arch::wasm32::unreachable()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::process::{Command, Stdio};

    /// `data` compressed by `xz --format=lzma` with `options` (its `--lzma1` value), the
    /// unpacked size written into the header, as scripts/pack-wasm.mjs does.
    fn xz(data: &[u8], options: &str) -> Vec<u8> {
        let mut child = Command::new("xz")
            .args(["--format=lzma", &format!("--lzma1={options}"), "-c"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("xz runs (scripts/setup.sh installs xz-utils)");
        let mut stdin = child.stdin.take().unwrap();
        let data = data.to_vec();
        let writer = std::thread::spawn(move || stdin.write_all(&data));
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap().unwrap();
        assert!(out.status.success());
        out.stdout
    }

    fn with_size(mut stream: Vec<u8>, size: usize) -> Vec<u8> {
        stream[5..13].copy_from_slice(&(size as u64).to_le_bytes());
        stream
    }

    fn unpack(stream: &[u8]) -> Result<Vec<u8>, Error> {
        let mut out = vec![0; unpacked_size(stream).ok_or(Error::Size)?];
        decode(stream, &mut out, &mut Probs::new())?;
        Ok(out)
    }

    /// Inputs of the kinds the page's wasm mixes: text, repeats at many distances, noise.
    fn samples() -> Vec<(&'static str, Vec<u8>)> {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let noise: Vec<u8> = (0..70_000).map(|_| rnd() as u8).collect();
        let words = [
            "raft", "term ", "leader", "\n", "index=", "commit ", "0", "17", "voter",
        ];
        let text: Vec<u8> = (0..60_000)
            .flat_map(|_| words[(rnd() % words.len() as u64) as usize].bytes())
            .collect();
        // Long and overlapping matches (distance 1 and 3), then far ones.
        let mut repeats = vec![7u8; 5000];
        repeats.extend((0..20_000).map(|i| b"abc"[i % 3]));
        repeats.extend_from_slice(&noise[..3000]);
        repeats.extend_from_slice(&text[..40_000]);
        repeats.extend_from_slice(&noise[..3000]);
        let binary = std::fs::read(std::env::current_exe().unwrap()).unwrap();
        vec![
            ("empty", Vec::new()),
            ("one byte", vec![42]),
            ("noise", noise),
            ("text", text),
            ("repeats", repeats),
            (
                "this test's binary",
                binary[..binary.len().min(400_000)].to_vec(),
            ),
        ]
    }

    #[test]
    fn what_xz_packs_unpacks_to_the_same_bytes_with_every_setting_worth_using() {
        for options in [
            "preset=9e,lc=4,pb=0",
            "preset=6",
            "preset=0",
            "preset=9e,lc=0,lp=2,pb=4",
            "preset=6,lc=2,lp=2,pb=1",
        ] {
            for (what, data) in samples() {
                let stream = with_size(xz(&data, options), data.len());
                assert_eq!(
                    unpack(&stream).as_deref(),
                    Ok(&data[..]),
                    "{what}, {options}"
                );
            }
        }
    }

    #[test]
    fn a_stream_without_a_stated_size_or_a_wrong_one_is_refused() {
        let data = b"raft raft raft".repeat(50);
        let stream = xz(&data, "preset=6");
        assert_eq!(
            unpacked_size(&stream),
            None,
            "xz states no size in this format"
        );
        let mut out = vec![0; data.len()];
        assert_eq!(
            decode(&stream, &mut out, &mut Probs::new()),
            Err(Error::Size)
        );
        let stream = with_size(stream, data.len());
        let mut short = vec![0; data.len() - 1];
        assert_eq!(
            decode(&stream, &mut short, &mut Probs::new()),
            Err(Error::Size)
        );
    }

    #[test]
    fn bad_headers_are_named() {
        let data = b"abcdefgh".repeat(100);
        let good = with_size(xz(&data, "preset=6"), data.len());
        assert_eq!(unpack(&good[..17]), Err(Error::Header));
        let mut props = good.clone();
        props[0] = 225;
        assert_eq!(unpack(&props), Err(Error::Properties));
        props[0] = 4 + 9; // lc 4, lp 1
        assert_eq!(unpack(&props), Err(Error::Properties));
        let mut coder = good.clone();
        coder[13] = 1;
        assert_eq!(unpack(&coder), Err(Error::Coder));
    }

    /// Whatever the bytes, an answer and no panic. Cut short anywhere, a stream decodes to an
    /// error, or to its data when the cut took only bytes past what the data needed (the end
    /// marker xz writes); with bytes changed, to an error or to some bytes of the stated size.
    #[test]
    fn a_damaged_stream_is_an_error_or_wrong_bytes_never_a_panic() {
        let data = samples().remove(4).1;
        let good = with_size(xz(&data, "preset=9e,lc=4,pb=0"), data.len());
        let mut refused = 0;
        for cut in (0..good.len()).step_by(97) {
            match unpack(&good[..cut]) {
                Ok(out) => assert_eq!(out, data, "cut at {cut} of {}", good.len()),
                Err(_) => refused += 1,
            }
        }
        assert!(
            refused > good.len() / 97 - 2,
            "cut streams are refused: {refused}"
        );
        let mut x = 12345u32;
        let mut failed = 0;
        for round in 0..300 {
            let mut bad = good.clone();
            for _ in 0..1 + round % 4 {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                let at = 18 + (x as usize >> 4) % (bad.len() - 18);
                bad[at] ^= 1 << (x % 8);
            }
            if unpack(&bad) != Ok(data.clone()) {
                failed += 1;
            }
        }
        assert!(
            failed > 250,
            "changed streams mostly decode to something else: {failed}"
        );
    }
}
