//! Share links: a scenario packed into a URL hash, `#run=v1.<base64url>.<checksum>`.
//!
//! The checksum tells a damaged link (a character lost when copying) from a link made by
//! something else, so the app can say which it is instead of loading garbage.

use crate::i18n::Msg;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The largest scenario a link may carry.
pub const MAX_LEN: usize = 256 * 1024;

fn checksum(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(*b)).wrapping_mul(0x0100_0193)
    })
}

fn b64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, b)| acc | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

fn unb64(s: &str) -> Option<Vec<u8>> {
    let mut vals = Vec::with_capacity(s.len());
    for c in s.bytes() {
        vals.push(ALPHABET.iter().position(|a| *a == c)? as u32);
    }
    if vals.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(vals.len() * 3 / 4);
    for chunk in vals.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, v)| acc | (v << (18 - 6 * i)));
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

/// Packs scenario text into a link-safe string.
pub fn encode(scn: &str) -> String {
    format!(
        "v1.{}.{:08x}",
        b64(scn.as_bytes()),
        checksum(scn.as_bytes())
    )
}

/// Unpacks a string made by [`encode`]; the error says what is wrong with the link.
pub fn decode(s: &str) -> Result<String, Msg> {
    let s = s.trim();
    let Some(rest) = s.strip_prefix("v1.") else {
        return Err(crate::msg!("share.foreign"));
    };
    if rest.len() > MAX_LEN * 2 {
        return Err(crate::msg!("share.too_long"));
    }
    let Some((body, sum)) = rest.rsplit_once('.') else {
        return Err(crate::msg!("share.no_checksum"));
    };
    let bytes = unb64(body).ok_or(crate::msg!("share.bad_chars"))?;
    let expected =
        u32::from_str_radix(sum, 16).map_err(|_| crate::msg!("share.unreadable_checksum"))?;
    if checksum(&bytes) != expected {
        return Err(crate::msg!("share.checksum_mismatch"));
    }
    String::from_utf8(bytes).map_err(|_| crate::msg!("share.not_text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_any_text() {
        for t in [
            "",
            "a",
            "ab",
            "abc",
            "cluster 3\ntick 10\n",
            "say ünïcødé ✓\n",
        ] {
            assert_eq!(decode(&encode(t)).unwrap(), t);
        }
    }

    #[test]
    fn damaged_and_foreign_links_are_told_apart() {
        let good = encode("cluster 3\ntick 10\n");
        let cut = &good[..good.len() - 12];
        assert!(decode(cut).unwrap_err().to_string().contains("damaged"));
        let mut flipped = good.clone().into_bytes();
        flipped[5] = if flipped[5] == b'A' { b'B' } else { b'A' };
        assert!(decode(&String::from_utf8(flipped).unwrap())
            .unwrap_err()
            .to_string()
            .contains("damaged"));
        assert!(decode("hello")
            .unwrap_err()
            .to_string()
            .contains("not made by raftlab"));
        assert!(decode("v1.!!!.00000000")
            .unwrap_err()
            .to_string()
            .contains("characters"));
    }
}
