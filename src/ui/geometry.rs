//! Where things go in the cluster drawing: nodes on a ring, message positions along links,
//! and the hull around a partition group. Pure arithmetic.

use crate::sim::decimal::fixed;
use crate::trig::sin_cos;

/// A point in SVG units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pt {
    pub x: f64,
    pub y: f64,
}

/// The drawing's size in SVG units: just the ring with its labels, so the picture fills the
/// space it is given.
pub const WIDTH: f64 = 520.0;
pub const HEIGHT: f64 = 492.0;
const CX: f64 = WIDTH / 2.0;
const CY: f64 = 232.0;
/// The ring's radius.
const RING: f64 = 160.0;

/// The ring's radius and each node's radius for `n` nodes.
pub fn ring(n: usize) -> (f64, f64) {
    let r = if n <= 1 {
        44.0
    } else {
        let gap = RING * sin_cos(std::f64::consts::PI / n as f64).0;
        (gap * 0.6).clamp(24.0, 42.0)
    };
    (RING, r)
}

/// Position of the `i`-th of `n` nodes (the first at the top, clockwise).
pub fn node_pos(i: usize, n: usize) -> Pt {
    if n <= 1 {
        return Pt { x: CX, y: CY };
    }
    let (big, _) = ring(n);
    // Two nodes side by side; otherwise the first at the top, clockwise.
    let start = if n == 2 {
        std::f64::consts::PI
    } else {
        -std::f64::consts::FRAC_PI_2
    };
    let a = start + std::f64::consts::TAU * i as f64 / n as f64;
    let (sin, cos) = sin_cos(a);
    Pt {
        x: CX + big * cos,
        y: CY + big * sin,
    }
}

/// The centre of the drawing.
pub fn centre() -> Pt {
    Pt { x: CX, y: CY }
}

/// A point `frac` of the way from `a` to `b`, shifted sideways by `side` units (so the two
/// directions of a link do not overlap).
pub fn along(a: Pt, b: Pt, frac: f64, side: f64) -> Pt {
    let f = frac.clamp(0.0, 1.0);
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let len = (dx * dx + dy * dy).sqrt().max(1e-6);
    let (nx, ny) = (-dy / len, dx / len);
    Pt {
        x: a.x + dx * f + nx * side,
        y: a.y + dy * f + ny * side,
    }
}

/// Moves `p` towards `q` by `by` units.
pub fn towards(p: Pt, q: Pt, by: f64) -> Pt {
    let (dx, dy) = (q.x - p.x, q.y - p.y);
    let len = (dx * dx + dy * dy).sqrt().max(1e-6);
    Pt {
        x: p.x + dx / len * by,
        y: p.y + dy / len * by,
    }
}

/// The unit vector from `a` to `b`.
pub fn direction(a: Pt, b: Pt) -> (f64, f64) {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let len = (dx * dx + dy * dy).sqrt().max(1e-6);
    (dx / len, dy / len)
}

fn cross(o: Pt, a: Pt, b: Pt) -> f64 {
    (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
}

/// The convex hull of `pts` (Andrew's monotone chain), counter-clockwise.
pub fn hull(pts: &[Pt]) -> Vec<Pt> {
    let mut p: Vec<Pt> = pts.to_vec();
    // One point per node of a group: a few dozen at most.
    crate::sim::small_sort::sort_small_by(&mut p, |a, b| {
        a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y))
    });
    p.dedup_by(|a, b| (a.x - b.x).abs() < 1e-9 && (a.y - b.y).abs() < 1e-9);
    if p.len() < 3 {
        return p;
    }
    let mut lower: Vec<Pt> = Vec::new();
    for &q in &p {
        while lower.len() >= 2 && cross(lower[lower.len() - 2], lower[lower.len() - 1], q) <= 0.0 {
            lower.pop();
        }
        lower.push(q);
    }
    let mut upper: Vec<Pt> = Vec::new();
    for &q in p.iter().rev() {
        while upper.len() >= 2 && cross(upper[upper.len() - 2], upper[upper.len() - 1], q) <= 0.0 {
            upper.pop();
        }
        upper.push(q);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}

/// The SVG `points` attribute for a polygon.
pub fn points_attr(pts: &[Pt]) -> String {
    pts.iter()
        .map(|p| format!("{},{}", fixed(p.x, 1), fixed(p.y, 1)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// An SVG arc path around `c` of radius `r`, from the top, covering `frac` of the circle.
pub fn arc_path(c: Pt, r: f64, frac: f64) -> String {
    let f = frac.clamp(0.0, 0.9999);
    let a0 = -std::f64::consts::FRAC_PI_2;
    let a1 = a0 + std::f64::consts::TAU * f;
    let ((s0, c0), (s1, c1)) = (sin_cos(a0), sin_cos(a1));
    let (x0, y0) = (c.x + r * c0, c.y + r * s0);
    let (x1, y1) = (c.x + r * c1, c.y + r * s1);
    let large = if f > 0.5 { 1 } else { 0 };
    let (x0, y0, r, x1, y1) = (
        fixed(x0, 2),
        fixed(y0, 2),
        fixed(r, 2),
        fixed(x1, 2),
        fixed(y1, 2),
    );
    format!("M {x0} {y0} A {r} {r} 0 {large} 1 {x1} {y1}")
}
