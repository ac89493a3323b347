//! Sine and cosine for the cluster drawing's angles (a few turns at most).
//!
//! std's `sin`/`cos` in wasm are libm's, whose range reduction handles any argument up to
//! 1e308 with a table of 2/π's bits: about 7 KB of wasm for angles that never leave
//! [-2π, 2π]. Here the argument is reduced by π/2 in two parts (a 33-bit head, so `k · head`
//! is exact, and the rest) and the remainder, within ±π/4, goes through the Taylor series
//! far enough that the error is below 1e-16. The results agree with std's to a few units in
//! the last place, which the drawing's coordinates (printed to 1 or 2 decimals) never show;
//! the tests compare both on every angle the drawing uses.

/// π/2 to 33 significant bits: `k · PIO2_HI` is exact for |k| < 2^20.
const PIO2_HI: f64 = 1.570_796_326_734_125_6;
/// π/2 − `PIO2_HI`.
const PIO2_LO: f64 = 6.077_100_506_506_192e-11;

/// 1 − z/(top·(top−1))·(1 − z/((top−2)·(top−3))·(…)), by Horner from the highest term down
/// to the factors 3·2 (odd `top`) or 2·1 (even `top`): the Taylor series of sin(r)/r or
/// cos(r) in z = r², up to r^(top−1) or r^top.
fn series(z: f64, top: f64) -> f64 {
    let mut p = 1.0;
    let mut n = top;
    while n > 1.0 {
        p = 1.0 - z / (n * (n - 1.0)) * p;
        n -= 2.0;
    }
    p
}

/// sin(r) for |r| ≤ π/4: r − r³/3! + … + r¹⁷/17! (the next term is below 5e-17).
fn sin_kernel(r: f64) -> f64 {
    r * series(r * r, 17.0)
}

/// cos(r) for |r| ≤ π/4: 1 − r²/2! + … + r¹⁸/18!.
fn cos_kernel(r: f64) -> f64 {
    series(r * r, 18.0)
}

/// (sin x, cos x). Accurate to about 1e-16 for |x| up to a few thousand turns; NaN for NaN
/// or an infinite `x`.
pub fn sin_cos(x: f64) -> (f64, f64) {
    if !x.is_finite() {
        return (f64::NAN, f64::NAN);
    }
    // The nearest multiple of π/2, and what is left (within ±π/4, slightly more from
    // rounding).
    let k = (x * std::f64::consts::FRAC_2_PI + 0.5).floor();
    let r = (x - k * PIO2_HI) - k * PIO2_LO;
    let (s, c) = (sin_kernel(r), cos_kernel(r));
    match (k as i64).rem_euclid(4) {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 4e-16
    }

    #[test]
    fn agrees_with_std_over_the_drawings_range() {
        let mut worst = 0f64;
        for i in 0..=400_000 {
            let x =
                -4.0 * std::f64::consts::PI + i as f64 * (8.0 * std::f64::consts::PI / 400_000.0);
            let (s, c) = sin_cos(x);
            worst = worst.max((s - x.sin()).abs()).max((c - x.cos()).abs());
            assert!(close(s, x.sin()) && close(c, x.cos()), "{x}: {s} {c}");
        }
        assert!(worst < 4e-16, "{worst}");
    }

    #[test]
    fn quarter_turns_and_bad_input() {
        assert_eq!(sin_cos(0.0), (0.0, 1.0));
        for (x, s, c) in [
            (std::f64::consts::FRAC_PI_2, 1.0, 0.0),
            (std::f64::consts::PI, 0.0, -1.0),
            (-std::f64::consts::FRAC_PI_2, -1.0, 0.0),
        ] {
            let (gs, gc) = sin_cos(x);
            assert!(close(gs, s) && close(gc, c), "{x}: {gs} {gc}");
        }
        assert!(sin_cos(f64::NAN).0.is_nan());
        assert!(sin_cos(f64::INFINITY).1.is_nan());
    }

    /// The drawing prints coordinates with `decimal::fixed` to 1 or 2 places: on every angle it
    /// uses (ring positions for up to 64 nodes, arcs in steps of 0.1 %), the printed text is
    /// the same as with std's functions.
    #[test]
    fn the_drawings_text_is_unchanged() {
        use crate::sim::decimal::fixed;
        let mut angles = Vec::new();
        for n in 2..=64usize {
            for start in [std::f64::consts::PI, -std::f64::consts::FRAC_PI_2] {
                for i in 0..n {
                    angles.push(start + std::f64::consts::TAU * i as f64 / n as f64);
                }
            }
            angles.push(std::f64::consts::PI / n as f64);
        }
        for i in 0..=10_000 {
            let f = (i as f64 / 10_000.0).clamp(0.0, 0.9999);
            angles.push(-std::f64::consts::FRAC_PI_2 + std::f64::consts::TAU * f);
        }
        for a in angles {
            let (s, c) = sin_cos(a);
            for (radius, centre) in [(160.0, 260.0), (160.0, 232.0), (44.0, 100.0), (30.5, 77.25)] {
                for places in [1, 2] {
                    assert_eq!(
                        fixed(centre + radius * s, places),
                        fixed(centre + radius * a.sin(), places),
                        "sin {a}"
                    );
                    assert_eq!(
                        fixed(centre + radius * c, places),
                        fixed(centre + radius * a.cos(), places),
                        "cos {a}"
                    );
                }
            }
        }
    }
}
