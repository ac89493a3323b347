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

/// Where the ring of `n` nodes is drawn and how big the drawing is, in SVG units.
///
/// Up to six nodes the ring is the same (a 520 x 492 drawing around a ring of radius 160),
/// so every lesson's picture keeps its size. Beyond that the ring grows so that neighbours stay
/// [`MIN_CHORD`] apart, and the drawing grows with it: the picture is scaled down to fit the
/// space it is given (the expand button gives it the whole window), but no node or label lies
/// on another.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// How many nodes are on the ring.
    pub n: usize,
    /// The ring's radius.
    pub ring: f64,
    /// Each node's radius.
    pub r: f64,
    /// The ring's centre.
    pub centre: Pt,
    /// The viewBox's width.
    pub width: f64,
    /// The viewBox's height.
    pub height: f64,
}

/// The ring's radius for up to six nodes.
const RING: f64 = 160.0;
/// Room around the ring: each side (for labels beside a node), above (the leader's crown and
/// the timer ring) and below (a node's two label lines).
const SIDE: f64 = 100.0;
const ABOVE: f64 = 72.0;
const BELOW: f64 = 100.0;
/// The distance between neighbouring nodes' centres that keeps a node's labels ("n12
/// candidate" over "voted n3": 17 and 14 px type, about 115 units wide, 30 tall, below the
/// node) off its neighbours' labels and bodies wherever on the ring the two sit. The tightest
/// place is where the ring runs at about 50 degrees: there the neighbour is down and to the
/// side, by too little to clear the labels' half width and too little to clear their depth
/// unless the two are this far apart. Six nodes on the 160 ring are this far apart.
pub const MIN_CHORD: f64 = 160.0;

/// The frame for `n` nodes.
pub fn frame(n: usize) -> Frame {
    let (ring, r) = if n <= 1 {
        (RING, 44.0)
    } else {
        // Half the angle between neighbours: the chord between them is 2 * ring * sin.
        let sin = sin_cos(std::f64::consts::PI / n as f64).0;
        // Whole units, so the viewBox reads plainly.
        let ring = RING.max(MIN_CHORD / (2.0 * sin)).ceil();
        (ring, (ring * sin * 0.6).clamp(24.0, 42.0))
    };
    Frame {
        n,
        ring,
        r,
        centre: Pt {
            x: SIDE + ring,
            y: ABOVE + ring,
        },
        width: 2.0 * (SIDE + ring),
        height: ABOVE + 2.0 * ring + BELOW,
    }
}

impl Frame {
    /// Position of the `i`-th node (the first at the top, clockwise; two nodes side by side).
    pub fn node_pos(&self, i: usize) -> Pt {
        let n = self.n;
        if n <= 1 {
            return self.centre;
        }
        let start = if n == 2 {
            std::f64::consts::PI
        } else {
            -std::f64::consts::FRAC_PI_2
        };
        let a = start + std::f64::consts::TAU * i as f64 / n as f64;
        let (sin, cos) = sin_cos(a);
        Pt {
            x: self.centre.x + self.ring * cos,
            y: self.centre.y + self.ring * sin,
        }
    }
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
