//! FNV-1a over text written with `fmt::Write`: the hash of [`super::Sim::fingerprint`].
//! Tiny, portable, stable across releases (unlike std's hasher).

use std::fmt;

/// The running FNV-1a (64-bit) state of the bytes written so far.
pub(super) struct Fnv1a(pub(super) u64);

const PRIME: u64 = 0x0000_0100_0000_01B3;

fn step(h: u64, b: u8) -> u64 {
    (h ^ u64::from(b)).wrapping_mul(PRIME)
}

impl fmt::Write for Fnv1a {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        // Four bytes a round: the hash is a chain through every byte either way, but the
        // loop's own counting and bounds checks are paid a quarter as often (the digest
        // reads megabytes of text for a long run).
        let mut h = self.0;
        let mut quads = s.as_bytes().chunks_exact(4);
        for q in &mut quads {
            h = step(step(step(step(h, q[0]), q[1]), q[2]), q[3]);
        }
        for &b in quads.remainder() {
            h = step(h, b);
        }
        self.0 = h;
        Ok(())
    }

    /// The char's UTF-8 bytes, as `write_str` would see them, without the default's detour
    /// through a `str` (the `Debug` text writes its quotes and separators a char at a time).
    fn write_char(&mut self, c: char) -> fmt::Result {
        let mut buf = [0u8; 4];
        for &b in c.encode_utf8(&mut buf).as_bytes() {
            self.0 = step(self.0, b);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write;

    /// The textbook byte-at-a-time FNV-1a, to compare the four-a-round loop with.
    fn reference(text: &str) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for b in text.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(PRIME);
        }
        h
    }

    /// Every length around the four-byte rounds, multi-byte chars, and text written in
    /// pieces (strs and chars) hash as the whole text does in one piece.
    #[test]
    fn pieces_hash_as_the_whole_text() {
        assert_eq!(reference(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(
            reference("a"),
            0xaf63_dc4c_8601_ec8c,
            "FNV-1a's published value"
        );
        let text = "Entry { term: 1, index: 22, data: Put { key: \"ключ\", value: \"値\" } }";
        for end in text.char_indices().map(|(i, _)| i).chain([text.len()]) {
            let part = &text[..end];
            let mut whole = Fnv1a(0xcbf2_9ce4_8422_2325);
            whole.write_str(part).unwrap();
            assert_eq!(whole.0, reference(part), "{part:?}");
            let mut by_char = Fnv1a(0xcbf2_9ce4_8422_2325);
            for c in part.chars() {
                by_char.write_char(c).unwrap();
            }
            assert_eq!(by_char.0, reference(part), "{part:?} a char at a time");
        }
    }
}
