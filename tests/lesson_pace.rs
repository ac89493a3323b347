//! How long each narrated stretch of every lesson lasts on screen at the teaching pace (speed
//! 1x), computed from the simulated run, not timed: the wall time of a stretch is the sum of
//! its simulated ms divided by the pace's rate at each moment. A lecturer waits through every
//! stretch in front of a class, so none may drag on while nothing new happens.

use raftlab::sim::pace::{teaching_rate, CRUISE_RATE};
use raftlab::sim::player::{PacedStop, Player};
use raftlab::sim::presets::{find, PRESETS};
use raftlab::sim::scenario::Script;

/// Wall seconds of each stretch that ends on a narration (or the lesson's end), in order.
fn stretch_seconds(text: &str) -> Vec<f64> {
    let mut p = Player::new(Script::parse(text).expect("preset parses"));
    let mut out = Vec::new();
    let mut wall_ms = 0.0;
    loop {
        // The rate of the moment the slice starts at, as the UI reads it once a frame; 10 ms of
        // simulated time is about a frame's worth at the slow rate.
        let rate = p.timeline().map_or(CRUISE_RATE, |t| teaching_rate(t.sim()));
        let r = p.run_for(10);
        wall_ms += r.used_ms as f64 / rate;
        match r.stop {
            PacedStop::Budget => {}
            PacedStop::Narration => out.push(std::mem::take(&mut wall_ms) / 1000.0),
            PacedStop::End => {
                out.push(wall_ms / 1000.0);
                return out;
            }
        }
    }
}

/// Lesson 07's stretch after "No leader, no writes": no leader can be elected (two
/// pre-candidates of four voters) and the script waits 5.1 s of simulated time for the
/// client's request to time out. The pre-candidates' rounds of pre-votes are worth watching;
/// the waits between them are not. Counting "a pre-candidate exists" as eventful played the
/// whole wait in slow motion: 85 s (now about 20 s).
#[test]
fn a_cluster_that_cannot_elect_does_not_play_its_waits_in_slow_motion() {
    let p = find("07-partition-then-add").expect("preset 07");
    let s = stretch_seconds(p.text);
    // Stretch k ends on the lesson's k-th narration (0-based); the last one on its end.
    assert_eq!(s.len(), 6, "{s:?}");
    assert!(
        s[4] < 30.0,
        "stretch 4 of lesson 07: {:.1} s at the teaching pace",
        s[4]
    );
    // The stretch before the change is refused also waits on a pre-candidate: 54 s before.
    assert!(
        s[1] < 30.0,
        "stretch 1 of lesson 07: {:.1} s at the teaching pace",
        s[1]
    );
}

/// No stretch of any lesson takes more than half a minute at 1x: a lecturer should not stand
/// through one narration while the screen plays several steps it does not name. The figure-8
/// lessons (19, 20, 24, 25) narrate each of the paper's steps (a), (b), (c) for this reason;
/// lesson 24 once played them all under one narration for 86 s.
#[test]
fn every_lesson_stretch_ends_within_half_a_minute_at_the_teaching_pace() {
    let mut long = Vec::new();
    for p in PRESETS {
        for (k, s) in stretch_seconds(p.text).into_iter().enumerate() {
            if s > 30.0 {
                long.push(format!("{} stretch {k}: {s:.1} s", p.id));
            }
        }
    }
    assert!(long.is_empty(), "{long:#?}");
}
