//! Explore in the browser: the messages between the page and its explore worker, and the
//! search cut into slices so the worker can report progress between them.
//!
//! The page sends the worker (the `explore_worker` binary, a Web Worker) a [`ToWorker`] as
//! plain text ([`ToWorker::to_text`], [`ToWorker::from_text`]); the worker answers with
//! [`FromWorker`] messages as lists of strings ([`FromWorker::to_fields`],
//! [`FromWorker::from_fields`]), so neither wasm needs a JSON library for them, and the page
//! no decoder of schedules: a counterexample reaches it as a [`FoundSummary`] with
//! its steps already written as `.scn` lines. The search itself is [`Job`]: schedules
//! 0, 1, 2, ... in order, the same ones `raftlab explore --jobs 1` runs, so a hit found in the
//! browser is the hit the CLI finds with the same settings, however the slices fall.

use serde::{Deserialize, Serialize};

use super::explore::{ExploreSpec, Explorer, Fault, Found, Hit, HitKind, Step};
use crate::i18n::Msg;

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

impl ToWorker {
    /// The request as the page posts it: one `NAME VALUE` line per setting, then a
    /// `scenario` line and the scenario text as it is. Plain text, so neither the page nor
    /// the worker links a JSON library for it; [`ToWorker::from_text`] reads back exactly this
    /// request (lists in their order, the time limit to the bit, the condition as written).
    pub fn to_text(&self) -> String {
        let s = &self.spec;
        let faults: Vec<&str> = s.allow.iter().map(|f| f.name()).collect();
        let checks: Vec<&str> = s.check.iter().map(|k| check_name(*k)).collect();
        let mut out = String::new();
        let mut line = |name: &str, value: &str| {
            out.push_str(name);
            out.push(' ');
            out.push_str(value);
            out.push('\n');
        };
        line("allow", &faults.join(","));
        line("check", &checks.join(","));
        line("horizon", &s.horizon.to_string());
        line("schedules", &s.schedules.to_string());
        line("seed", &s.seed.to_string());
        line("actions", &s.actions.to_string());
        line("liveness", &s.liveness.to_string());
        if let Some(c) = &s.until {
            // A condition is one line as typed; a line break in it would end the setting.
            line("until", &c.text.replace('\\', "\\\\").replace('\n', "\\n"));
        }
        if let Some(t) = self.seconds {
            line("seconds", &t.to_bits().to_string());
        }
        out.push_str("scenario\n");
        out.push_str(&self.scenario);
        out
    }

    /// Reads what [`ToWorker::to_text`] wrote; a clear error for anything else.
    pub fn from_text(text: &str) -> Result<ToWorker, String> {
        let mut spec = ExploreSpec::default();
        let mut seconds = None;
        let mut rest = text;
        loop {
            let (line, after) = rest
                .split_once('\n')
                .ok_or("the request ends before its scenario")?;
            rest = after;
            if line == "scenario" {
                break;
            }
            let (name, value) = line.split_once(' ').unwrap_or((line, ""));
            let num = || {
                value
                    .parse::<u64>()
                    .map_err(|_| format!("{name}: not a number: '{value}'"))
            };
            match name {
                "allow" => {
                    spec.allow = list(value, |w| {
                        Fault::ALL.iter().find(|(_, n)| *n == w).map(|(f, _)| *f)
                    })?
                }
                "check" => {
                    spec.check = list(value, |w| {
                        HitKind::BUILT_IN
                            .iter()
                            .find(|(_, n)| *n == w)
                            .map(|(k, _)| *k)
                    })?
                }
                "horizon" => spec.horizon = num()?,
                "schedules" => spec.schedules = num()?,
                "seed" => spec.seed = num()?,
                "actions" => spec.actions = num()? as usize,
                "liveness" => spec.liveness = num()?,
                "until" => {
                    let text = unescape(value);
                    let c = super::cond::parse(&text, 1).map_err(|e| e.message.to_string())?;
                    spec.until = Some(c);
                }
                "seconds" => seconds = Some(f64::from_bits(num()?)),
                _ => return Err(format!("unknown setting '{name}'")),
            }
        }
        Ok(ToWorker {
            scenario: rest.to_string(),
            spec,
            seconds,
        })
    }
}

/// Undoes the escapes of a condition's text (`\\` for a backslash, `\n` for a line break).
fn unescape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// The name of a built-in check in `check LIST`.
fn check_name(k: HitKind) -> &'static str {
    HitKind::BUILT_IN
        .iter()
        .find(|(b, _)| *b == k)
        .map_or("condition", |(_, n)| *n)
}

/// The comma-separated names in `value`, each read by `find`, in their order.
fn list<T>(value: &str, find: impl Fn(&str) -> Option<T>) -> Result<Vec<T>, String> {
    if value.is_empty() {
        return Ok(Vec::new());
    }
    value
        .split(',')
        .map(|w| find(w).ok_or_else(|| format!("unknown name '{w}'")))
        .collect()
}

/// A counterexample as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct FoundSummary {
    /// The failing schedule's number.
    pub index: u64,
    /// What failed.
    pub kind: HitKind,
    /// The failure in words, as the checker or the condition reported it, in any language.
    pub detail: Msg,
    /// The condition the counterexample's last line negates, when one can state it.
    pub check: Option<String>,
    /// Actions in the schedule as drawn (up to the hit).
    pub original: usize,
    /// The shrunk schedule, one `at MS ACTION` line per action.
    pub steps: Vec<String>,
}

impl FoundSummary {
    /// The summary of a shrunk counterexample.
    pub fn of(found: &Found) -> FoundSummary {
        FoundSummary {
            index: found.index,
            kind: found.hit.kind,
            detail: found.hit.detail.clone(),
            check: found.hit.check.clone(),
            original: found.original.len(),
            steps: found
                .shrunk
                .iter()
                .map(|s| format!("at {} {}", s.time, s.action.to_scn()))
                .collect(),
        }
    }
}

/// Every hit kind, in the order of their number on the wire.
const KINDS: [HitKind; 5] = [
    HitKind::Invariant,
    HitKind::Liveness,
    HitKind::LostWrite,
    HitKind::WrongRead,
    HitKind::Condition,
];

/// What the worker tells the page.
#[derive(Clone, Debug, PartialEq)]
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
        /// The failure as first seen, in words, in any language.
        detail: Msg,
    },
    /// A failure, shrunk, with the scenario that replays it.
    Found {
        /// Schedules tried, the failing one included.
        tried: u64,
        /// Milliseconds of searching, before shrinking.
        ms: f64,
        /// The counterexample.
        found: FoundSummary,
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

impl FromWorker {
    /// The message as a list of strings (what the worker posts).
    pub fn to_fields(&self) -> Vec<String> {
        let n = |x: u64| x.to_string();
        let f = |x: f64| super::decimal::fixed(x, 0);
        // A message crosses in its flat text form (key and values), to be worded on the page.
        let words = |m: &Msg| m.encode();
        match self {
            FromWorker::Ready => vec!["ready".into()],
            FromWorker::Progress { tried, ms } => vec!["progress".into(), n(*tried), f(*ms)],
            FromWorker::Shrinking {
                index,
                tried,
                ms,
                detail,
            } => vec![
                "shrinking".into(),
                n(*index),
                n(*tried),
                f(*ms),
                words(detail),
            ],
            FromWorker::Found {
                tried,
                ms,
                found,
                scn,
            } => {
                let kind = KINDS.iter().position(|k| *k == found.kind).unwrap_or(0);
                let mut v = vec![
                    "found".into(),
                    n(*tried),
                    f(*ms),
                    n(found.index),
                    kind.to_string(),
                    found.original.to_string(),
                    words(&found.detail),
                    if found.check.is_some() { "1" } else { "0" }.into(),
                    found.check.clone().unwrap_or_default(),
                    scn.clone(),
                ];
                v.extend(found.steps.iter().cloned());
                v
            }
            FromWorker::Nothing {
                tried,
                ms,
                out_of_time,
            } => vec![
                "nothing".into(),
                n(*tried),
                f(*ms),
                if *out_of_time { "1" } else { "0" }.into(),
            ],
            FromWorker::Error { message } => vec!["error".into(), message.clone()],
        }
    }

    /// Reads a message back from its fields; None for anything else.
    pub fn from_fields(v: &[String]) -> Option<FromWorker> {
        let num = |i: usize| v.get(i)?.parse::<u64>().ok();
        let ms = |i: usize| super::decimal::parse(v.get(i)?);
        let text = |i: usize| v.get(i).cloned();
        let words = |i: usize| Msg::decode(v.get(i)?);
        Some(match v.first()?.as_str() {
            "ready" => FromWorker::Ready,
            "progress" => FromWorker::Progress {
                tried: num(1)?,
                ms: ms(2)?,
            },
            "shrinking" => FromWorker::Shrinking {
                index: num(1)?,
                tried: num(2)?,
                ms: ms(3)?,
                detail: words(4)?,
            },
            "found" => FromWorker::Found {
                tried: num(1)?,
                ms: ms(2)?,
                found: FoundSummary {
                    index: num(3)?,
                    kind: *KINDS.get(num(4)? as usize)?,
                    original: num(5)? as usize,
                    detail: words(6)?,
                    check: (text(7)? == "1").then(|| text(8)).flatten(),
                    steps: v.get(10..)?.to_vec(),
                },
                scn: text(9)?,
            },
            "nothing" => FromWorker::Nothing {
                tried: num(1)?,
                ms: ms(2)?,
                out_of_time: text(3)? == "1",
            },
            "error" => FromWorker::Error { message: text(1)? },
            _ => return None,
        })
    }
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
                    detail: hit.detail.clone(),
                });
                let (found, scn) = job.finish(index, &steps, &hit);
                return report(FromWorker::Found {
                    tried,
                    ms,
                    found: FoundSummary::of(&found),
                    scn,
                });
            }
        }
    }
}

#[cfg(test)]
mod text_tests {
    use super::*;

    fn round_trip(req: &ToWorker) {
        let text = req.to_text();
        assert_eq!(ToWorker::from_text(&text).as_ref(), Ok(req), "{text}");
    }

    /// Every setting, list order, condition and time limit reads back as it was sent.
    #[test]
    fn the_request_reads_back_exactly() {
        let scenario = "cluster 3 seed=7\nat 100 kill leader\n\nsay a \\ b\n".to_string();
        let mut req = ToWorker {
            scenario: scenario.clone(),
            spec: ExploreSpec::default(),
            seconds: None,
        };
        round_trip(&req);
        req.spec.allow = vec![Fault::Read, Fault::Crash, Fault::Campaign];
        req.spec.check = vec![HitKind::Liveness, HitKind::Invariant];
        (req.spec.horizon, req.spec.schedules, req.spec.seed) = (12, u64::MAX, 0);
        (req.spec.actions, req.spec.liveness) = (3, 99);
        for t in [0.1, 30.0, 1e-300, f64::MAX] {
            req.seconds = Some(t);
            round_trip(&req);
        }
        req.spec.allow.clear();
        req.spec.check.clear();
        req.scenario.clear();
        round_trip(&req);
        // Conditions as the lessons write them (each `expect` line's condition).
        let mut conds = 0;
        for p in crate::sim::presets::PRESETS {
            for line in p.text.lines() {
                let Some(c) = line.strip_prefix("expect ") else {
                    continue;
                };
                if let Ok(c) = crate::sim::cond::parse(c, 1) {
                    req.spec.until = Some(c);
                    req.scenario = p.text.to_string();
                    round_trip(&req);
                    conds += 1;
                }
            }
        }
        assert!(conds > 20, "{conds}");
    }

    #[test]
    fn anything_else_is_refused_with_a_reason() {
        for bad in [
            "",
            "{\"scenario\":\"\"}",
            "allow crash,fly\nscenario\n",
            "horizon ten\nscenario\n",
            "colour blue\nscenario\n",
            "seed 1\n",
        ] {
            let err = ToWorker::from_text(bad).unwrap_err();
            assert!(!err.is_empty(), "{bad}");
        }
    }

    #[test]
    fn a_condition_keeps_its_backslashes_and_line_breaks() {
        assert_eq!(unescape("a\\\\n\\nb\\"), "a\\n\nb\\");
    }
}
