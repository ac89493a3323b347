//! Explore in the browser: the messages between the page and its explore worker, and the
//! search cut into slices so the worker can report progress between them.
//!
//! The worker (the `explore_worker` binary, a Web Worker) and the page only exchange JSON
//! texts of [`ToWorker`] and [`FromWorker`]. The search itself is [`Job`]: schedules
//! 0, 1, 2, ... in order, the same ones `raftlab explore --jobs 1` runs, so a hit found in the
//! browser is the hit the CLI finds with the same settings, however the slices fall.

use serde::{Deserialize, Serialize};

use super::explore::{ExploreSpec, Explorer, Found, Hit, Step};

/// The page's request: search from this scenario text (all its lines, or those before its
/// `explore` line) with these settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToWorker {
    /// The scenario to start from: a lesson's text, or the current run exported as `.scn`.
    pub scenario: String,
    /// What to search for, and how much.
    pub spec: ExploreSpec,
    /// Stop after this many seconds of searching (schedules not yet started are not run).
    pub seconds: Option<f64>,
}

/// What the worker tells the page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FromWorker {
    /// The worker is listening (messages sent before this are lost, so the page waits).
    Ready,
    /// Still searching: schedules tried so far, in `ms` of searching.
    Progress {
        /// Schedules run to their end or their hit.
        tried: u64,
        /// Milliseconds since the search started.
        ms: f64,
    },
    /// Schedule `index` failed; it is being shrunk.
    Shrinking {
        /// The failing schedule's number.
        index: u64,
        /// Schedules tried, the failing one included.
        tried: u64,
        /// Milliseconds of searching.
        ms: f64,
        /// The failure as first seen.
        hit: Hit,
    },
    /// A failure, shrunk, with the scenario that replays it.
    Found {
        /// Schedules tried, the failing one included.
        tried: u64,
        /// Milliseconds of searching, before shrinking.
        ms: f64,
        /// The counterexample.
        found: Found,
        /// The counterexample as a scenario whose last line fails because of the failure.
        scn: String,
    },
    /// Nothing failed in the schedules tried.
    Nothing {
        /// Schedules tried.
        tried: u64,
        /// Milliseconds of searching.
        ms: f64,
        /// Whether the time limit ended the search before the budget of schedules.
        out_of_time: bool,
    },
    /// The search could not start (a scenario or setting that does not parse).
    Error {
        /// What is wrong, in words.
        message: String,
    },
}

/// What one slice of a search ended with.
#[derive(Clone, Debug, PartialEq)]
pub enum Slice {
    /// More schedules remain.
    More,
    /// Every schedule of the budget ran, none failed.
    Exhausted,
    /// Schedule `index` failed (the lowest-numbered failure: all before it ran clean).
    Hit(u64, Vec<Step>, Hit),
}

/// A search run a slice at a time.
pub struct Job {
    ex: Explorer,
    next: u64,
}

impl Job {
    /// Prepares the search: plays the scenario to its starting point. A scenario that does
    /// not parse or has no cluster is an error in words.
    pub fn new(req: &ToWorker) -> Result<Job, String> {
        let ex = Explorer::from_scenario(&req.scenario, Some(req.spec.clone()))?;
        Ok(Job { ex, next: 0 })
    }

    /// Schedules run so far.
    pub fn tried(&self) -> u64 {
        self.next
    }

    /// Runs the next schedules in order while `go()` says so (asked before each one, so a
    /// slice runs at least none and stops at the first failure or the end of the budget).
    pub fn run_slice(&mut self, go: &mut dyn FnMut() -> bool) -> Slice {
        while self.next < self.ex.spec.schedules {
            if !go() {
                return Slice::More;
            }
            let i = self.next;
            self.next += 1;
            let (steps, hit) = self.ex.run_index(i);
            if let Some(h) = hit {
                return Slice::Hit(i, steps, h);
            }
        }
        Slice::Exhausted
    }

    /// Shrinks failing schedule `index` and writes it as a scenario.
    pub fn finish(&self, index: u64, steps: &[Step], hit: &Hit) -> (Found, String) {
        let (shrunk, hit, replays) = self.ex.shrink(steps, hit);
        let found = Found {
            index,
            original: steps.to_vec(),
            shrunk,
            hit,
            replays,
        };
        let scn = self.ex.to_scn(&found);
        (found, scn)
    }
}

/// Runs a whole request the way the worker does, calling `report` with each message: a
/// `Progress` after every slice (at most `per_slice` schedules and about `slice_ms` of
/// clock), then the result. `elapsed_ms` is the clock: milliseconds since the search started
/// (the worker's `Date.now`, a fake one in tests).
pub fn run(
    req: &ToWorker,
    per_slice: u64,
    slice_ms: f64,
    elapsed_ms: &mut dyn FnMut() -> f64,
    report: &mut dyn FnMut(FromWorker),
) {
    let mut job = match Job::new(req) {
        Ok(j) => j,
        Err(message) => return report(FromWorker::Error { message }),
    };
    let limit_ms = req.seconds.map(|s| s * 1000.0);
    loop {
        let mut left = per_slice.max(1);
        let mut out_of_time = false;
        let start = elapsed_ms();
        let mut go = || {
            let now = elapsed_ms();
            if limit_ms.is_some_and(|l| now >= l) {
                out_of_time = true;
                return false;
            }
            if left == 0 || now - start >= slice_ms {
                return false;
            }
            left -= 1;
            true
        };
        let result = job.run_slice(&mut go);
        let ms = elapsed_ms();
        let tried = job.tried();
        match result {
            Slice::More if !out_of_time => report(FromWorker::Progress { tried, ms }),
            Slice::More | Slice::Exhausted => {
                return report(FromWorker::Nothing {
                    tried,
                    ms,
                    out_of_time,
                })
            }
            Slice::Hit(index, steps, hit) => {
                report(FromWorker::Shrinking {
                    index,
                    tried,
                    ms,
                    hit: hit.clone(),
                });
                let (found, scn) = job.finish(index, &steps, &hit);
                return report(FromWorker::Found {
                    tried,
                    ms,
                    found,
                    scn,
                });
            }
        }
    }
}
