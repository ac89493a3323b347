//! How fast simulated time runs against the wall clock. The teaching pace slows down while
//! the protocol does something worth watching (an election, entries or votes on the wire) and
//! runs faster while only heartbeats fly, so a message visibly crosses the screen and an
//! election takes a few seconds, yet waiting for a timeout does not take all day.
//! Only a choice of speed: what happens in the run never depends on it.

use crate::raft::{MsgType, Role};
use crate::sim::{Sim, Status};

/// Simulated ms per wall ms while something worth watching happens.
pub const FOCUS_RATE: f64 = 0.06;
/// Simulated ms per wall ms while only heartbeats fly and timers run.
pub const CRUISE_RATE: f64 = 0.4;

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

/// Whether the run is at a moment worth slowing down for: a campaign under way, or a
/// message other than a heartbeat in flight.
pub fn eventful(sim: &Sim) -> bool {
    let campaigning = sim.nodes.values().any(|n| {
        n.status == Status::Running && matches!(n.raft.role, Role::Candidate | Role::PreCandidate)
    });
    campaigning
        || sim.net.in_flight.values().any(|f| {
            !f.msg.msg_type.is_local()
                && !matches!(f.msg.msg_type, MsgType::Heartbeat | MsgType::HeartbeatResp)
        })
}

/// The teaching pace's rate for the moment `sim` is at.
pub fn teaching_rate(sim: &Sim) -> f64 {
    if eventful(sim) {
        FOCUS_RATE
    } else {
        CRUISE_RATE
    }
}

/// The speeds offered in the select box, after the teaching pace.
pub const FIXED: [f64; 9] = [0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0];
