//! Decimal text for floats without the standard library's float formatting and parsing.
//!
//! `format!("{:.1}", x)`, `x.to_string()` and `s.parse::<f64>()` link the core's Grisu/Dragon
//! formatting and its decimal parser (about 20 KB of wasm). The browser bundle needs only
//! fixed decimals of modest values and short decimal input, which exact integer arithmetic
//! covers: [`fixed`] prints exactly what `format!("{:.N}", x)` prints, and [`parse`] returns
//! exactly what `str::parse::<f64>` returns, for the inputs it accepts.

/// `x` with `decimals` digits after the point (0 to 9), rounded half to even on the exact
/// binary value: the same text as `format!("{:.decimals$}", x)` for every finite `x` below
/// 2^64 in magnitude (larger magnitudes print as 2^64 - 1); "NaN", "inf" and "-inf" otherwise.
pub fn fixed(x: f64, decimals: u32) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    let neg = x.is_sign_negative();
    if x.is_infinite() {
        return if neg { "-inf" } else { "inf" }.into();
    }
    let decimals = decimals.min(9);
    let scaled = scaled_round(x.abs(), decimals);
    let pow = 10u64.pow(decimals);
    let (int, frac) = (scaled / pow as u128, scaled % pow as u128);
    let int = u64::try_from(int).unwrap_or(u64::MAX);
    let mut s = String::with_capacity(24);
    if neg {
        s.push('-');
    }
    s.push_str(&int.to_string());
    if decimals > 0 {
        s.push('.');
        let digits = frac.to_string();
        for _ in digits.len()..decimals as usize {
            s.push('0');
        }
        s.push_str(&digits);
    }
    s
}

/// round_half_even(x * 10^decimals) for finite x >= 0, computed exactly.
fn scaled_round(x: f64, decimals: u32) -> u128 {
    if x == 0.0 {
        return 0;
    }
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    // x = m * 2^e exactly.
    let (m, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp - 1075)
    };
    // m < 2^53 and 10^9 < 2^30: the product fits in 83 bits.
    let n = m as u128 * 10u128.pow(decimals);
    if e >= 0 {
        // Only for x >= 2^52, which the callers never show; saturates past u128.
        return n.checked_shl(e as u32).unwrap_or(u128::MAX);
    }
    let shift = (-e) as u32;
    if shift >= 100 {
        // n < 2^83 and shift >= 100: the value is below 2^-17, so it rounds to 0.
        return 0;
    }
    let q = n >> shift;
    let rem = n - (q << shift);
    let half = 1u128 << (shift - 1);
    if rem > half || (rem == half && q & 1 == 1) {
        q + 1
    } else {
        q
    }
}

/// The shortest decimal text that reads back as `x`, as `x.to_string()` prints it, for values
/// with at most 15 significant digits (speeds, percentages); others get 15 decimals.
pub fn shortest(x: f64) -> String {
    if !x.is_finite() {
        return fixed(x, 0);
    }
    for d in 0..15 {
        let q = scaled_round(x.abs(), d);
        // Exact when q < 2^53: q and 10^d are doubles, and one division rounds correctly.
        if q < (1u128 << 53) && (q as f64) / 10f64.powi(d as i32) == x.abs() {
            return fixed(x, d);
        }
    }
    fixed(x, 15)
}

/// A decimal number such as "12", "-0.25", "+3.5" or "1e3": the same value as
/// `s.parse::<f64>()` when it has at most 15 significant digits and its value is a whole
/// number of at most 15 digits times a power of ten between 10^-22 and 10^22 (every speed,
/// time or percentage a person types); `None` for anything else ("inf", "NaN", more digits,
/// an empty string).
pub fn parse(s: &str) -> Option<f64> {
    let (neg, body) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let (mantissa, exp) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], parse_exponent(&body[i + 1..])?),
        None => (body, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let mut q: u64 = 0;
    let mut digits = 0;
    for c in int.bytes().chain(frac.bytes()) {
        if !c.is_ascii_digit() {
            return None;
        }
        if q > 0 || c != b'0' {
            digits += 1;
        }
        q = q * 10 + u64::from(c - b'0');
        if digits > 15 {
            return None;
        }
    }
    let pow = exp.checked_sub(i32::try_from(frac.len()).ok()?)?;
    // q < 10^15 < 2^53 and 10^|pow| <= 10^22 are exact doubles, so one multiplication or
    // division gives the correctly rounded value, which is what the standard parser returns
    // (Clinger's fast path).
    let x = match pow {
        0..=22 => q as f64 * 10f64.powi(pow),
        -22..=-1 => q as f64 / 10f64.powi(-pow),
        _ if q == 0 => 0.0,
        _ => return None,
    };
    Some(if neg { -x } else { x })
}

/// The exponent after 'e': an optional sign and at most 4 digits.
fn parse_exponent(s: &str) -> Option<i32> {
    let (neg, digits) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || digits.len() > 4 || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let n = digits
        .bytes()
        .fold(0i32, |n, c| n * 10 + i32::from(c - b'0'));
    Some(if neg { -n } else { n })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_prints_what_format_prints() {
        let mut xs = vec![
            0.0,
            -0.0,
            0.25,
            0.35,
            0.5,
            1.5,
            2.5,
            0.125,
            -0.04,
            1e-10,
            123.45,
            0.05,
            0.15,
            99.95,
            -99.95,
            1e15,
            4503599627370497.0,
            0.9999999,
            5e-324,
            1.0 / 3.0,
            2.0 / 3.0,
        ];
        // Every millisecond count as seconds (the clock), and a spread of other values.
        xs.extend((0..20_000u64).map(|ms| ms as f64 / 1000.0));
        xs.extend((0..20_000u64).map(|i| (i as f64 * 0.37).sin() * 1000.0));
        for x in xs {
            for d in 0..=4 {
                assert_eq!(
                    fixed(x, d),
                    format!("{x:.*}", d as usize),
                    "{x} to {d} places"
                );
            }
        }
        assert_eq!(fixed(f64::NAN, 1), format!("{:.1}", f64::NAN));
        assert_eq!(fixed(f64::INFINITY, 1), format!("{:.1}", f64::INFINITY));
        assert_eq!(
            fixed(f64::NEG_INFINITY, 2),
            format!("{:.2}", f64::NEG_INFINITY)
        );
    }

    #[test]
    fn shortest_prints_what_to_string_prints() {
        let mut xs = vec![
            0.0, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 0.1, 0.3,
        ];
        xs.extend((0..5_000u64).map(|i| i as f64 / 100.0));
        xs.extend((0..5_000u64).map(|i| -(i as f64) / 8.0));
        for x in xs {
            assert_eq!(shortest(x), x.to_string(), "{x}");
        }
    }

    #[test]
    fn parse_reads_what_the_standard_parser_reads() {
        let mut inputs: Vec<String> = [
            "0",
            "-0",
            "1",
            "+2.5",
            "0.1",
            "0.3",
            ".5",
            "5.",
            "12.345",
            "999999999999999",
            "0.000000000000001",
            "123456789.012345",
            "20",
            "0.25",
            "1e3",
            "2.5E-3",
            "1e+2",
            "0e400",
            "12e-5",
            "-7e22",
            "3e-22",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        inputs.extend((0..3_000u64).map(|i| format!("{}.{:03}", i / 7, i * 13 % 1000)));
        for s in &inputs {
            assert_eq!(parse(s), s.parse::<f64>().ok(), "{s}");
        }
        for bad in [
            "",
            "-",
            ".",
            "e3",
            "1e",
            "1e+",
            "inf",
            "NaN",
            "1.2.3",
            " 1",
            "1 ",
            "0x10",
            "1234567890123456",
            "1e23",
            "1e-23",
        ] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
    }
}
