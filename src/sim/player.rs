//! Runs a scenario line by line: the CLI runs it to the end, the UI steps through it and
//! pauses on narration. Each line's result is kept, with the failure's line, condition and
//! actual value.

use serde::{Deserialize, Serialize};

use crate::i18n::{Lang, Msg};

use super::cluster::TICK_MS;
use super::cond::Cond;
use super::event::Event;
use super::history::Timeline;
use super::scenario::{Script, Stmt};

/// What became of one line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LineStatus {
    /// Done (an action taken, time advanced, a condition held).
    Ok,
    /// A condition did not hold, an action made no sense, or an invariant broke; worded
    /// when shown.
    Failed(Msg),
    /// Narration to show (the UI pauses here).
    Narration(String),
}

/// The result of one executed line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepResult {
    /// Index into `script.lines`.
    pub line: usize,
    /// Line number in the file.
    pub lineno: usize,
    /// Outcome.
    pub status: LineStatus,
}

/// A scenario being played.
#[derive(Clone, Debug)]
pub struct Player {
    /// The scenario.
    pub script: Script,
    tl: Option<Timeline>,
    pc: usize,
    results: Vec<StepResult>,
    /// Every event logged so far, in order (kept only when `keep_trace`).
    pub trace: Vec<Event>,
    /// Whether to collect `trace` (the CLI does; the UI reads the simulator's own log).
    pub keep_trace: bool,
    /// The language narration is reported in (a line without a translation stays English).
    pub lang: Lang,
    seen_seq: u64,
    seen_violations: usize,
    active: Option<Active>,
}

impl Player {
    /// A player at the first line.
    pub fn new(script: Script) -> Player {
        Player {
            script,
            tl: None,
            pc: 0,
            results: Vec::new(),
            trace: Vec::new(),
            keep_trace: false,
            lang: Lang::En,
            seen_seq: 0,
            seen_violations: 0,
            active: None,
        }
    }

    /// The run, once the `cluster` line has executed.
    pub fn timeline(&self) -> Option<&Timeline> {
        self.tl.as_ref()
    }

    /// The run, mutably (the UI lets a person act between lines).
    pub fn timeline_mut(&mut self) -> Option<&mut Timeline> {
        self.tl.as_mut()
    }

    /// Takes the run out of the player (to keep playing freely after the scenario).
    pub fn into_timeline(self) -> Option<Timeline> {
        self.tl
    }

    /// The index of the next line to run (or of the line part way through).
    pub fn next_line(&self) -> Option<usize> {
        if let Some(a) = &self.active {
            return Some(a.line);
        }
        (self.pc < self.script.lines.len()).then_some(self.pc)
    }

    /// Whether every line has run.
    pub fn done(&self) -> bool {
        self.active.is_none() && self.pc >= self.script.lines.len()
    }

    /// Results of the lines run so far.
    pub fn results(&self) -> &[StepResult] {
        &self.results
    }

    /// The failed lines.
    pub fn failures(&self) -> Vec<&StepResult> {
        self.results
            .iter()
            .filter(|r| matches!(r.status, LineStatus::Failed(_)))
            .collect()
    }

    /// Runs every remaining line.
    pub fn run_all(&mut self) {
        while self.step().is_some() {}
    }

    /// Runs lines until the line at index `line` is next (or the end).
    pub fn run_to(&mut self, line: usize) {
        while self.next_line().is_some_and(|n| n < line) && self.step().is_some() {}
    }

    fn collect(&mut self) {
        let Some(tl) = &self.tl else { return };
        let sim = tl.sim();
        if self.keep_trace {
            for e in sim.events.iter().filter(|e| e.seq > self.seen_seq) {
                self.trace.push(e.clone());
            }
        }
        self.seen_seq = sim.event_count;
    }

    /// Runs the next line to its end at once; None when there is none. A line that
    /// [`Player::run_for`] left half done is finished first (and its result returned).
    pub fn step(&mut self) -> Option<StepResult> {
        let mut unlimited = u64::MAX;
        self.run_line(&mut unlimited)
    }

    /// Whether a timed line (`tick`, `at`, `await`) is part way through: `run_for` ran out
    /// of budget inside it.
    pub fn line_in_progress(&self) -> bool {
        self.active.is_some()
    }

    /// Runs lines until `budget_ms` of simulated time has been used, a narration line has
    /// run, or the script ends; the UI calls it once per animation frame so that a segment
    /// between two narrations plays over many frames. Lines that take no time (actions,
    /// `expect`) cost nothing. A timed line may stop part way and continue on the next call;
    /// it visits exactly the states [`Player::step`] visits (an `await` still checks its
    /// condition at the same tick boundaries), so a paced run ends in the same state as an
    /// instant one.
    pub fn run_for(&mut self, budget_ms: u64) -> Paced {
        let mut budget = budget_ms;
        let mut finished = Vec::new();
        loop {
            if self.done() && self.active.is_none() {
                return Paced {
                    used_ms: budget_ms - budget,
                    finished,
                    stop: PacedStop::End,
                };
            }
            match self.run_line(&mut budget) {
                Some(r) => {
                    let narration = matches!(r.status, LineStatus::Narration(_));
                    finished.push(r);
                    if narration {
                        return Paced {
                            used_ms: budget_ms - budget,
                            finished,
                            stop: PacedStop::Narration,
                        };
                    }
                }
                None if self.active.is_some() => {
                    return Paced {
                        used_ms: budget_ms - budget,
                        finished,
                        stop: PacedStop::Budget,
                    };
                }
                None => {
                    return Paced {
                        used_ms: budget_ms - budget,
                        finished,
                        stop: PacedStop::End,
                    };
                }
            }
        }
    }

    /// Runs (or continues) one line within `budget` ms; returns its result when it ended,
    /// None when the budget ran out inside it or there was no line.
    fn run_line(&mut self, budget: &mut u64) -> Option<StepResult> {
        let (idx, mut timed) = match self.active.take() {
            Some(a) => (a.line, a.timed),
            None => {
                let idx = self.next_line()?;
                let line = self.script.lines[idx].clone();
                self.pc += 1;
                match self.begin(&line.stmt) {
                    Begun::Done(status) => return Some(self.finish(idx, status)),
                    Begun::Timed(t) => (idx, t),
                }
            }
        };
        match self.drive(&mut timed, budget) {
            Some(status) => Some(self.finish(idx, status)),
            None => {
                self.active = Some(Active { line: idx, timed });
                None
            }
        }
    }

    /// Records a line's result, turning an unexpected invariant violation into a failure.
    fn finish(&mut self, idx: usize, mut status: LineStatus) -> StepResult {
        self.collect();
        if let LineStatus::Narration(text) = &mut status {
            if let Some(t) = self.script.lines[idx].narration(self.lang) {
                *text = t.to_string();
            }
        }
        if let Some(tl) = &self.tl {
            let v = &tl.sim().violations;
            if v.len() > self.seen_violations {
                let first = &v[self.seen_violations];
                self.seen_violations = v.len();
                // With the teaching-only unsafe switch on, a violation is the lesson, and the
                // scenario asserts it with `expect violations ...`.
                let expected = tl.sim().opts.unsafe_commit;
                if !expected && !matches!(status, LineStatus::Failed(_)) {
                    status = LineStatus::Failed(
                        crate::msg!("fail.invariant")
                            .arg("invariant", first.invariant.as_str())
                            .arg("detail", first.detail.as_str())
                            .arg("cause", first.cause.as_str()),
                    );
                }
            }
        }
        let r = StepResult {
            line: idx,
            lineno: self.script.lines[idx].lineno,
            status,
        };
        self.results.push(r.clone());
        r
    }

    fn now(&self) -> u64 {
        self.tl.as_ref().map_or(0, |t| t.sim().now)
    }

    /// Moves the clock toward `target` by at most `budget` ms (taken from the budget).
    fn advance_toward(&mut self, target: u64, budget: &mut u64) {
        let now = self.now();
        if target <= now {
            return;
        }
        let step = (target - now).min(*budget);
        if step == 0 {
            return;
        }
        if let Some(tl) = self.tl.as_mut() {
            tl.advance_to(now + step);
        }
        *budget -= step;
        self.collect();
    }

    /// Starts a line: lines that take no time run to the end here.
    fn begin(&mut self, stmt: &Stmt) -> Begun {
        if let Stmt::Cluster { n, opts } = stmt {
            self.tl = Some(Timeline::new(*n, opts.clone()));
            self.collect();
            return Begun::Done(LineStatus::Ok);
        }
        if self.tl.is_none() {
            return Begun::Done(LineStatus::Failed(crate::msg!("fail.no_cluster")));
        }
        let now = self.now();
        match stmt {
            Stmt::Cluster { .. } => Begun::Done(LineStatus::Ok),
            Stmt::Tick(n) => Begun::Timed(Timed::Until {
                target: now.saturating_add(n.saturating_mul(TICK_MS)),
                then: None,
            }),
            Stmt::At { time, then } => Begun::Timed(Timed::Until {
                target: *time,
                then: then.clone(),
            }),
            Stmt::Await { cond, within } => Begun::Timed(Timed::Await {
                cond: cond.clone(),
                within: *within,
                checked: 0,
                boundary: now,
            }),
            Stmt::Expect(cond) => {
                let (ok, actual) = self
                    .tl
                    .as_ref()
                    .map_or((false, String::new()), |t| cond.eval(t.sim()));
                Begun::Done(if ok {
                    LineStatus::Ok
                } else {
                    LineStatus::Failed(
                        crate::msg!("fail.expect")
                            .arg("cond", cond.text.as_str())
                            .arg("actual", actual),
                    )
                })
            }
            Stmt::Say(text) => Begun::Done(LineStatus::Narration(text.clone())),
            // A comparison and an exploration are run by `raftlab compare` / `explore`;
            // played alone, a scenario is its run A.
            Stmt::Compare(_) | Stmt::Explore(_) => Begun::Done(LineStatus::Ok),
            Stmt::Only { side, stmt } => match side {
                super::scenario::Side::A => self.begin(stmt),
                super::scenario::Side::B => Begun::Done(LineStatus::Ok),
            },
            Stmt::Act(a) => Begun::Done(match self.tl.as_mut().map(|t| t.act_worded(a.clone())) {
                Some(Ok(())) => LineStatus::Ok,
                Some(Err(e)) => LineStatus::Failed(e),
                None => LineStatus::Failed(crate::msg!("fail.no_cluster")),
            }),
        }
    }

    /// Continues a timed line within `budget`; its status once it ended.
    fn drive(&mut self, timed: &mut Timed, budget: &mut u64) -> Option<LineStatus> {
        loop {
            match timed {
                Timed::Until { target, then } => {
                    self.advance_toward(*target, budget);
                    if self.now() < *target {
                        return None;
                    }
                    let Some(next) = then.take() else {
                        return Some(LineStatus::Ok);
                    };
                    match self.begin(&next) {
                        Begun::Done(status) => return Some(status),
                        Begun::Timed(t) => *timed = t,
                    }
                }
                Timed::Await {
                    cond,
                    within,
                    checked,
                    boundary,
                } => {
                    // The condition is checked when the line starts and after each of at most
                    // `within` ticks: at the same moments however the time is sliced.
                    if self.now() >= *boundary {
                        let holds = self.tl.as_ref().is_some_and(|t| cond.eval(t.sim()).0);
                        if holds {
                            return Some(LineStatus::Ok);
                        }
                        if *checked >= *within {
                            let actual = self
                                .tl
                                .as_ref()
                                .map_or(String::new(), |t| cond.actual(t.sim()));
                            return Some(LineStatus::Failed(
                                crate::msg!("fail.await")
                                    .arg("cond", cond.text.as_str())
                                    .arg("within", *within)
                                    .arg("actual", actual),
                            ));
                        }
                        *checked += 1;
                        *boundary += TICK_MS;
                    }
                    let target = *boundary;
                    self.advance_toward(target, budget);
                    if self.now() < target {
                        return None;
                    }
                }
            }
        }
    }
}

/// What [`run_text`] did: the simulated time at the end, the state's fingerprint and the
/// number of failed lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextRun {
    /// Simulated time at the end, ms.
    pub time_ms: u64,
    /// [`crate::sim::Sim::fingerprint`] of the final state (0 if no `cluster` line ran).
    pub fingerprint: u64,
    /// How many lines failed.
    pub failures: usize,
}

/// Parses a scenario and runs it to its end, with nothing shown and no trace kept: the
/// simulation work alone, the same on every platform, so the browser's wasm and the native
/// binary can be timed on exactly the same work (`raftlab bench --scenario`, and the page's
/// benchmark entry used by tests/e2e/bench.mjs).
pub fn run_text(text: &str) -> Result<TextRun, super::scenario::ParseError> {
    let mut player = Player::new(Script::parse(text)?);
    player.run_all();
    let (time_ms, fingerprint) = player
        .timeline()
        .map_or((0, 0), |t| (t.sim().now, t.sim().fingerprint()));
    Ok(TextRun {
        time_ms,
        fingerprint,
        failures: player.failures().len(),
    })
}

/// Why [`Player::run_for`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacedStop {
    /// The time budget is used up (a line may be part way through).
    Budget,
    /// A narration line ran: the UI shows it and waits.
    Narration,
    /// Every line has run.
    End,
}

/// What one [`Player::run_for`] call did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paced {
    /// Simulated time used, ms (at most the budget).
    pub used_ms: u64,
    /// The lines that ended during the call, in order.
    pub finished: Vec<StepResult>,
    /// Why it returned.
    pub stop: PacedStop,
}

/// A line that takes time, part way through.
#[derive(Clone, Debug)]
enum Timed {
    /// `tick` or `at`: the clock moves to `target`, then `then` runs.
    Until {
        target: u64,
        then: Option<Box<Stmt>>,
    },
    /// `await`: `checked` ticks done; the condition is next checked at `boundary`.
    Await {
        cond: Cond,
        within: u64,
        checked: u64,
        boundary: u64,
    },
}

#[derive(Clone, Debug)]
struct Active {
    line: usize,
    timed: Timed,
}

enum Begun {
    Done(LineStatus),
    Timed(Timed),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_and_reports_failures_with_line_numbers() {
        let s = Script::parse(
            "cluster 3\nawait leader != none within 50\n# c\nexpect quorum = 5\nsay hi\nkill n9\n",
        )
        .unwrap();
        let mut p = Player::new(s);
        p.run_all();
        let f = p.failures();
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].lineno, 4);
        assert!(
            matches!(&f[0].status, LineStatus::Failed(m) if m.to_string() == "expect quorum = 5: actual 2"),
            "{:?}",
            f[0].status
        );
        assert_eq!(f[1].lineno, 6);
        assert!(matches!(p.results()[3].status, LineStatus::Narration(ref t) if t == "hi"));
    }

    #[test]
    fn run_text_reports_the_end_state_failures_and_parse_errors() {
        let text = "cluster 3 seed=2\nawait leader != none within 50\nexpect quorum = 5\ntick 7\n";
        let r = run_text(text).unwrap();
        let p = instant(text);
        let sim = p.timeline().unwrap().sim();
        assert_eq!(r.time_ms, sim.now);
        assert_ne!(r.time_ms, 0);
        assert_eq!(r.fingerprint, sim.fingerprint());
        assert_eq!(r.failures, 1);
        assert_eq!(run_text("tick 1\n").unwrap_err().line, 1);
    }

    fn instant(text: &str) -> Player {
        let mut p = Player::new(Script::parse(text).unwrap());
        p.run_all();
        p
    }

    /// Plays with `budget` ms per call, continuing after each narration, as the UI does.
    fn paced(text: &str, budget: u64) -> (Player, usize) {
        let mut p = Player::new(Script::parse(text).unwrap());
        let mut calls = 0;
        loop {
            calls += 1;
            let r = p.run_for(budget);
            assert!(r.used_ms <= budget, "used {} of {budget}", r.used_ms);
            if r.stop == PacedStop::End {
                break;
            }
        }
        (p, calls)
    }

    #[test]
    fn paced_play_of_every_preset_matches_the_instant_run() {
        for preset in crate::sim::presets::PRESETS {
            let fast = instant(preset.text);
            let want = fast.timeline().unwrap().sim().fingerprint();
            for budget in [1, 16, 37, 250] {
                let (slow, _) = paced(preset.text, budget);
                assert_eq!(
                    slow.results(),
                    fast.results(),
                    "{} at {budget} ms",
                    preset.id
                );
                assert_eq!(
                    slow.timeline().unwrap().sim().fingerprint(),
                    want,
                    "{} at {budget} ms",
                    preset.id
                );
                assert!(slow.done());
            }
        }
    }

    #[test]
    fn a_segment_plays_over_many_budgets_and_pauses_on_the_next_narration() {
        let text =
            "cluster 3 seed=1\nsay wait\nawait leader != none within 40\nsay elected\ntick 2\n";
        let mut p = Player::new(Script::parse(text).unwrap());
        let first = p.run_for(16);
        assert_eq!(first.stop, PacedStop::Narration);
        assert_eq!(first.used_ms, 0, "cluster and say take no time");
        let mut calls = 0;
        let mut last_now = p.timeline().unwrap().sim().now;
        loop {
            let r = p.run_for(16);
            calls += 1;
            let now = p.timeline().unwrap().sim().now;
            assert!(now >= last_now && now - last_now <= 16);
            last_now = now;
            if r.stop == PacedStop::Narration {
                assert!(
                    matches!(r.finished.last().unwrap().status, LineStatus::Narration(ref t) if t == "elected")
                );
                break;
            }
            assert_eq!(r.stop, PacedStop::Budget);
            assert!(p.line_in_progress());
            assert_eq!(p.next_line(), Some(2), "the await is the current line");
        }
        // The first election takes over a second of simulated time: many frames, not one.
        assert!(calls > 50, "only {calls} calls");
        assert!(p.timeline().unwrap().sim().leader().is_some());
    }

    #[test]
    fn step_finishes_a_line_left_part_way() {
        let mut p =
            Player::new(Script::parse("cluster 3\ntick 10\nexpect violations = 0\n").unwrap());
        p.step();
        assert_eq!(p.run_for(250).stop, PacedStop::Budget);
        assert_eq!(p.timeline().unwrap().sim().now, 250);
        assert!(!p.done());
        let r = p.step().unwrap();
        assert_eq!((r.line, r.status), (1, LineStatus::Ok));
        assert_eq!(p.timeline().unwrap().sim().now, 1000);
        p.run_all();
        assert!(p.done() && p.failures().is_empty());
    }

    #[test]
    fn narration_comes_in_the_players_language() {
        let text = "cluster 1\nsay One node.\nsay.zh 一个节点。\nsay Two.\n";
        for (lang, want) in [
            (Lang::En, ["One node.", "Two."]),
            (Lang::Zh, ["一个节点。", "Two."]),
        ] {
            let mut p = Player::new(Script::parse(text).unwrap());
            p.lang = lang;
            p.run_all();
            let said: Vec<String> = p
                .results()
                .iter()
                .filter_map(|r| match &r.status {
                    LineStatus::Narration(t) => Some(t.clone()),
                    _ => None,
                })
                .collect();
            assert_eq!(said, want);
        }
    }
}
