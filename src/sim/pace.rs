//! The teaching pace: how fast simulated time should run against the wall clock for a viewer
//! to follow it. It slows down while the protocol acts (votes or entries on the wire) and runs
//! faster while only heartbeats fly and timers run down, so a message visibly crosses the
//! screen and an election takes a few seconds, yet waiting for a timeout does not take all
//! day. Lessons play at this pace (times the lesson's speed), so it decides how long a
//! narrated stretch lasts on a projector. Only a choice of speed: what happens in the run
//! never depends on it.

use crate::raft::MsgType;

use super::Sim;

/// Simulated ms per wall ms while something worth watching happens.
pub const FOCUS_RATE: f64 = 0.06;
/// Simulated ms per wall ms while only heartbeats fly and timers run.
pub const CRUISE_RATE: f64 = 0.4;

impl Sim {
    /// True while a message other than a heartbeat (or its response) is on the wire: votes,
    /// pre-votes, appends, snapshots, their answers. A campaign counts while its requests and
    /// answers fly, not while a pre-candidate waits out its election timeout after a lost
    /// round: a cluster that cannot elect anyone would otherwise play every such wait in slow
    /// motion, a stretch of more than a minute in which nothing new happens.
    pub fn eventful(&self) -> bool {
        self.net.in_flight.values().any(|f| {
            !f.msg.msg_type.is_local()
                && !matches!(f.msg.msg_type, MsgType::Heartbeat | MsgType::HeartbeatResp)
        })
    }
}

/// The teaching pace's rate (simulated ms per wall ms) for the moment `sim` is at.
pub fn teaching_rate(sim: &Sim) -> f64 {
    if sim.eventful() {
        FOCUS_RATE
    } else {
        CRUISE_RATE
    }
}
