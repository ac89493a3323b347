//! A digest of a text file the browser build fetches instead of compiling in (the preset
//! texts, the Chinese catalog): computed at compile time from the same file, it tells the
//! page whether what arrived is the text this build was made with.

/// FNV-1a (32 bits) of `text`: a check that fetched text is the one this build was made
/// with, not a guard against tampering.
pub const fn digest(text: &str) -> u32 {
    let b = text.as_bytes();
    let mut h: u32 = 0x811c_9dc5;
    let mut i = 0;
    while i < b.len() {
        h ^= b[i] as u32;
        h = h.wrapping_mul(0x0100_0193);
        i += 1;
    }
    h
}

#[cfg(test)]
mod tests {
    #[test]
    fn fnv1a_published_values() {
        assert_eq!(super::digest(""), 0x811c_9dc5);
        assert_eq!(super::digest("a"), 0xe40c_292c);
        assert_eq!(super::digest("foobar"), 0xbf9c_f968);
    }
}
