//! Runs a scenario line by line: the CLI runs it to the end, the UI steps through it and
//! pauses on narration. Each line's result is kept, with the failure's line, condition and
//! actual value.

use serde::{Deserialize, Serialize};

use super::event::Event;
use super::history::Timeline;
use super::scenario::{Script, Stmt};

/// What became of one line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LineStatus {
    /// Done (an action taken, time advanced, a condition held).
    Ok,
    /// A condition did not hold, an action made no sense, or an invariant broke.
    Failed(String),
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
    seen_seq: u64,
    seen_violations: usize,
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
            seen_seq: 0,
            seen_violations: 0,
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

    /// The index of the next line to run.
    pub fn next_line(&self) -> Option<usize> {
        (self.pc < self.script.lines.len()).then_some(self.pc)
    }

    /// Whether every line has run.
    pub fn done(&self) -> bool {
        self.pc >= self.script.lines.len()
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
        while self.pc < line && self.step().is_some() {}
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

    fn tick_one(&mut self) {
        if let Some(tl) = self.tl.as_mut() {
            tl.tick(1);
        }
        self.collect();
    }

    /// Runs the next line; None when there is none.
    pub fn step(&mut self) -> Option<StepResult> {
        let idx = self.next_line()?;
        let line = self.script.lines[idx].clone();
        self.pc += 1;
        let mut status = self.exec(&line.stmt);
        self.collect();
        if let Some(tl) = &self.tl {
            let v = &tl.sim().violations;
            if v.len() > self.seen_violations {
                let first = &v[self.seen_violations];
                self.seen_violations = v.len();
                // With the teaching-only unsafe switch on, a violation is the lesson, and the
                // scenario asserts it with `expect violations ...`.
                let expected = tl.sim().opts.unsafe_commit;
                if !expected && !matches!(status, LineStatus::Failed(_)) {
                    status = LineStatus::Failed(format!(
                        "invariant violated: {}: {} (after {})",
                        first.invariant, first.detail, first.cause
                    ));
                }
            }
        }
        let r = StepResult {
            line: idx,
            lineno: line.lineno,
            status,
        };
        self.results.push(r.clone());
        Some(r)
    }

    fn exec(&mut self, stmt: &Stmt) -> LineStatus {
        if let Stmt::Cluster { n, opts } = stmt {
            self.tl = Some(Timeline::new(*n, opts.clone()));
            self.collect();
            return LineStatus::Ok;
        }
        if self.tl.is_none() {
            return LineStatus::Failed("no cluster yet".into());
        }
        match stmt {
            Stmt::Cluster { .. } => LineStatus::Ok,
            Stmt::Tick(n) => {
                for _ in 0..*n {
                    self.tick_one();
                }
                LineStatus::Ok
            }
            Stmt::At { time, then } => {
                loop {
                    let now = self.tl.as_ref().map_or(0, |t| t.sim().now);
                    if now >= *time {
                        break;
                    }
                    let step = (*time - now).min(super::cluster::TICK_MS);
                    if let Some(tl) = self.tl.as_mut() {
                        tl.advance_to(now + step);
                    }
                    self.collect();
                }
                match then {
                    Some(s) => self.exec(s),
                    None => LineStatus::Ok,
                }
            }
            Stmt::Await { cond, within } => {
                // Checked now and after each of at most `within` ticks.
                for i in 0..=*within {
                    let sim = self.tl.as_ref().map(|t| t.sim());
                    if sim.is_some_and(|s| cond.eval(s).0) {
                        return LineStatus::Ok;
                    }
                    if i < *within {
                        self.tick_one();
                    }
                }
                let actual = self
                    .tl
                    .as_ref()
                    .map_or(String::new(), |t| cond.actual(t.sim()));
                LineStatus::Failed(format!(
                    "await {} not met within {within} ticks: actual {actual}",
                    cond.text
                ))
            }
            Stmt::Expect(cond) => {
                let (ok, actual) = self
                    .tl
                    .as_ref()
                    .map_or((false, String::new()), |t| cond.eval(t.sim()));
                if ok {
                    LineStatus::Ok
                } else {
                    LineStatus::Failed(format!("expect {}: actual {actual}", cond.text))
                }
            }
            Stmt::Say(text) => LineStatus::Narration(text.clone()),
            // A comparison and an exploration are run by `raftlab compare` / `explore`;
            // played alone, a scenario is its run A.
            Stmt::Compare(_) | Stmt::Explore(_) => LineStatus::Ok,
            Stmt::Only { side, stmt } => match side {
                super::scenario::Side::A => self.exec(stmt),
                super::scenario::Side::B => LineStatus::Ok,
            },
            Stmt::Act(a) => match self.tl.as_mut().map(|t| t.act(a.clone())) {
                Some(Ok(())) => LineStatus::Ok,
                Some(Err(e)) => LineStatus::Failed(e),
                None => LineStatus::Failed("no cluster yet".into()),
            },
        }
    }
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
        assert_eq!(
            f[0].status,
            LineStatus::Failed("expect quorum = 5: actual 2".into())
        );
        assert_eq!(f[1].lineno, 6);
        assert!(matches!(p.results()[3].status, LineStatus::Narration(ref t) if t == "hi"));
    }
}
