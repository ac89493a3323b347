//! The speed of free play: the teaching pace ([`crate::sim::pace`]) or a fixed multiple of real
//! time. Only a choice of speed: what happens in the run never depends on it.

use crate::sim::pace::teaching_rate;
use crate::sim::Sim;

/// The speed of free play.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pace {
    /// Slow motion whenever the protocol acts, faster in between.
    Teach,
    /// A fixed multiple of real time.
    Fixed(f64),
}

impl Pace {
    /// Parses a select box value (or `?speed=`): "teach" or a positive number.
    pub fn parse(s: &str) -> Option<Pace> {
        if s == "teach" {
            return Some(Pace::Teach);
        }
        let x = crate::sim::decimal::parse(s)?;
        (x.is_finite() && x > 0.0).then(|| Pace::Fixed(x.clamp(0.01, 50.0)))
    }

    /// Simulated ms per wall ms now.
    pub fn rate(self, sim: &Sim) -> f64 {
        match self {
            Pace::Teach => teaching_rate(sim),
            Pace::Fixed(s) => s,
        }
    }
}

/// The speeds offered in the select box, after the teaching pace.
pub const FIXED: [f64; 9] = [0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0];
