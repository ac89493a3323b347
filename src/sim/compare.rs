//! Compare: fork one scenario into two runs that differ in options or in actions, advance
//! them in lockstep on the same clock, and report where they first diverge, in words.
//!
//! Run A is the scenario as written. Run B forks from it at the fork point (the `compare`
//! line, or a line chosen on the command line): from there B has its own options, runs `B:`
//! lines instead of `A:` lines, and may replace one command. Both runs share the seed and
//! every other line, and both clocks move together: a `tick`, `at` or `await` moves both,
//! and the two states are compared at every moment either run processes an event. With no
//! difference at all the two runs are identical event for event (tested).

use crate::raft::vec_map::VecSet;
use serde::{Deserialize, Serialize};

use crate::i18n::{Lang, Msg};
use crate::raft::NodeId;

use super::action::Action;
use super::client::Outcome;
use super::cluster::{Sim, TICK_MS};
use super::cond::Cond;
use super::scenario::{Line, Script, Side, Stmt};

/// How run B differs from run A.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Variant {
    /// Options B has from the fork on (`prevote=off`).
    pub options: Vec<(String, String)>,
    /// Fork before the first line numbered at least this (None: the `compare` line, or
    /// right after the `cluster` line).
    pub from_line: Option<usize>,
    /// B runs this command instead of the line with this number.
    pub instead: Option<(usize, Stmt, String)>,
}

impl Variant {
    /// Parses `--instead LINE:COMMAND`.
    pub fn parse_instead(text: &str) -> Result<(usize, Stmt, String), String> {
        let (n, cmd) = text
            .split_once(':')
            .ok_or_else(|| format!("expected LINE:COMMAND, got '{text}'"))?;
        let n: usize = n
            .trim()
            .parse()
            .map_err(|_| format!("expected a line number before ':', got '{n}'"))?;
        let s = Script::parse(&format!("cluster 1\n{}", cmd.trim()))
            .map_err(|e| format!("in '{}': {}", cmd.trim(), e.message))?;
        let stmt = s
            .lines
            .get(1)
            .map(|l| l.stmt.clone())
            .ok_or("missing command after ':'")?;
        if matches!(
            stmt,
            Stmt::Compare(_) | Stmt::Explore(_) | Stmt::Only { .. }
        ) {
            return Err("--instead takes an action, tick, at, await, expect or say".into());
        }
        Ok((n, stmt, cmd.trim().to_string()))
    }
}

/// What differs between the runs at one moment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diff {
    /// What: `term`, `role`, `leader`, `lead`, `commit`, `status`, `member`, `outcome`,
    /// `refusal`, `violations`.
    pub what: String,
    /// The node it is about, if any.
    pub node: Option<NodeId>,
    /// The value in run A.
    pub a: String,
    /// The value in run B.
    pub b: String,
}

/// The first moment the runs differ.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Divergence {
    /// Simulated time, ms.
    pub time: u64,
    /// The scenario line being run then.
    pub lineno: usize,
    /// Its text.
    pub line: String,
    /// Every difference at that moment.
    pub diffs: Vec<Diff>,
    /// What run A logged at that moment.
    pub events_a: Vec<String>,
    /// What run B logged at that moment.
    pub events_b: Vec<String>,
    /// The divergence in one sentence.
    pub text: String,
}

/// A comparison's result.
#[derive(Clone, Debug)]
pub struct Report {
    /// How B differs, in words ("with prevote=off").
    pub label: String,
    /// The first divergence, if the runs ever differ.
    pub first: Option<Divergence>,
    /// The first divergence of each kind (`term`, `leader`, ...), in order of time.
    pub firsts: Vec<Divergence>,
    /// Run A at the end.
    pub a: Sim,
    /// Run B at the end (equal to A's start when the fork was never reached).
    pub b: Sim,
    /// Failed lines of A: (line number, message).
    pub failures_a: Vec<(usize, String)>,
    /// Failed lines of B.
    pub failures_b: Vec<(usize, String)>,
    /// Narration, in order.
    pub narration: Vec<String>,
}

/// One run's observable state, compared between the runs.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Obs {
    nodes: Vec<(
        NodeId,
        &'static str,
        &'static str,
        u64,
        NodeId,
        u64,
        &'static str,
    )>,
    leader: Option<NodeId>,
    outcomes: Vec<(u64, &'static str)>,
    violations: usize,
}

fn observe(sim: &Sim) -> Obs {
    let cfg = sim.config();
    Obs {
        nodes: sim
            .nodes
            .values()
            .map(|n| {
                let r = &n.raft;
                (
                    r.id,
                    n.status.name(),
                    r.role.name(),
                    r.term,
                    r.lead,
                    r.log.committed,
                    if cfg.is_voter(r.id) {
                        "voter"
                    } else if cfg.is_learner(r.id) {
                        "learner"
                    } else {
                        "not a member"
                    },
                )
            })
            .collect(),
        leader: sim.leader(),
        outcomes: sim
            .requests
            .values()
            .map(|r| {
                let w = match r.outcome {
                    Outcome::Pending => "pending",
                    Outcome::Accepted => "accepted",
                    Outcome::Committed { .. } => "committed",
                    Outcome::Rejected { .. } => "rejected",
                    Outcome::Lost { .. } => "lost",
                    Outcome::TimedOut { later: None, .. } => "timed out",
                    Outcome::TimedOut { .. } => "timed out, committed later",
                    Outcome::Value { .. } => "answered",
                };
                (r.id, w)
            })
            .collect(),
        violations: sim.violations.len(),
    }
}

fn nw(id: NodeId) -> String {
    if id == 0 {
        "none".into()
    } else {
        format!("n{id}")
    }
}

fn diffs(a: &Obs, b: &Obs) -> Vec<Diff> {
    let mut out = Vec::new();
    let d = |what: &str, node: Option<NodeId>, x: String, y: String| Diff {
        what: what.into(),
        node,
        a: x,
        b: y,
    };
    if a.leader != b.leader {
        out.push(d(
            "leader",
            None,
            nw(a.leader.unwrap_or(0)),
            nw(b.leader.unwrap_or(0)),
        ));
    }
    let ids: VecSet<NodeId> = a.nodes.iter().chain(&b.nodes).map(|n| n.0).collect();
    for id in ids {
        let x = a.nodes.iter().find(|n| n.0 == id);
        let y = b.nodes.iter().find(|n| n.0 == id);
        match (x, y) {
            (Some(x), Some(y)) => {
                if x.1 != y.1 {
                    out.push(d("status", Some(id), x.1.into(), y.1.into()));
                }
                if x.2 != y.2 {
                    out.push(d("role", Some(id), x.2.into(), y.2.into()));
                }
                if x.3 != y.3 {
                    out.push(d("term", Some(id), x.3.to_string(), y.3.to_string()));
                }
                if x.4 != y.4 {
                    out.push(d("lead", Some(id), nw(x.4), nw(y.4)));
                }
                if x.5 != y.5 {
                    out.push(d("commit", Some(id), x.5.to_string(), y.5.to_string()));
                }
                if x.6 != y.6 {
                    out.push(d("member", Some(id), x.6.into(), y.6.into()));
                }
            }
            (x, y) => out.push(d(
                "status",
                Some(id),
                x.map_or("absent", |n| n.1).into(),
                y.map_or("absent", |n| n.1).into(),
            )),
        }
    }
    for (id, x) in &a.outcomes {
        if let Some((_, y)) = b.outcomes.iter().find(|(j, _)| j == id) {
            if x != y {
                out.push(d(
                    "outcome",
                    None,
                    format!("request {id} {x}"),
                    format!("request {id} {y}"),
                ));
            }
        }
    }
    if a.violations != b.violations {
        out.push(d(
            "violations",
            None,
            a.violations.to_string(),
            b.violations.to_string(),
        ));
    }
    out
}

/// One diff in English words, from B's side: "n3 is candidate (A: precandidate)".
fn word(d: &Diff) -> String {
    diff_words(d).render(Lang::En)
}

/// One diff as a message, from B's side: "n3 is candidate (A: precandidate)".
pub fn diff_words(d: &Diff) -> Msg {
    let key = match d.what.as_str() {
        "leader" => "cmp.leader",
        "status" | "role" => "cmp.is",
        "member" => "cmp.member",
        "term" => "cmp.term",
        "lead" => "cmp.lead",
        "commit" => "cmp.commit",
        "outcome" => "cmp.outcome",
        "refusal" => "cmp.refusal",
        "violations" => "cmp.violations",
        _ => "cmp.other",
    };
    let who = d.node.map_or(String::new(), |n| format!("n{n}"));
    Msg::new(key)
        .arg("what", d.what.as_str())
        .arg("who", who)
        .arg("a", value_words(&d.a))
        .arg("b", value_words(&d.b))
}

/// A value [`observe`] and [`diffs`] put in English words, as a message.
fn value_words(v: &str) -> Msg {
    if let Some(rest) = v.strip_prefix("request ") {
        if let Some((id, what)) = rest.split_once(' ') {
            return crate::msg!("cmp.request")
                .arg("id", id)
                .arg("outcome", value_words(what));
        }
    }
    if let Some(e) = v.strip_prefix("failed: ") {
        return crate::msg!("cmp.v.failed").arg("error", e);
    }
    let key = match v {
        "running" => "status.running",
        "killed" => "status.killed",
        "not started" => "status.not_started",
        "misconfigured" => "status.misconfigured",
        "removed" => "status.removed",
        "absent" => "cmp.v.absent",
        "follower" => "role.follower",
        "precandidate" => "role.precandidate",
        "candidate" => "role.candidate",
        "leader" => "role.leader",
        "voter" => "cmp.v.voter",
        "learner" => "role.learner",
        "not a member" => "cmp.v.not_member",
        "none" => "cmp.v.none",
        "pending" => "cmp.o.pending",
        "accepted" => "cmp.o.accepted",
        "committed" => "cmp.o.committed",
        "rejected" => "cmp.o.rejected",
        "lost" => "cmp.o.lost",
        "timed out" => "cmp.o.timed_out",
        "timed out, committed later" => "cmp.o.timed_out_later",
        "answered" => "cmp.o.answered",
        "was taken" => "cmp.v.taken",
        // Numbers and node ids read the same in every language.
        _ => return Msg::verbatim(v),
    };
    Msg::new(key)
}

/// The two runs being played.
#[derive(Clone, Debug)]
struct Lockstep {
    a: Sim,
    b: Option<Sim>,
    label: String,
    lineno: usize,
    line: String,
    first: Option<Divergence>,
    firsts: Vec<Divergence>,
    failures_a: Vec<(usize, String)>,
    failures_b: Vec<(usize, String)>,
    narration: Vec<String>,
    seen_a: u64,
    seen_b: u64,
}

impl Lockstep {
    /// Records any difference at this moment.
    fn compare(&mut self) {
        let Some(b) = &self.b else { return };
        let ds = diffs(&observe(&self.a), &observe(b));
        self.note(ds);
    }

    fn note(&mut self, ds: Vec<Diff>) {
        if ds.is_empty() {
            return;
        }
        let Some(b) = &self.b else { return };
        let now = self.a.now;
        let events = |s: &Sim, seen: u64| -> Vec<String> {
            s.events
                .iter()
                .filter(|e| e.seq > seen && e.time == now)
                .map(|e| e.text().to_string())
                .collect()
        };
        let make = |ds: Vec<Diff>| {
            let words: Vec<String> = ds.iter().map(word).collect();
            Divergence {
                time: now,
                lineno: self.lineno,
                line: self.line.clone(),
                text: format!(
                    "at tick {} (line {}: {}), {}: {}",
                    super::decimal::fixed(now as f64 / TICK_MS as f64, 1),
                    self.lineno,
                    self.line,
                    self.label,
                    words.join("; ")
                ),
                events_a: events(&self.a, self.seen_a),
                events_b: events(b, self.seen_b),
                diffs: ds,
            }
        };
        let mut new_kinds = Vec::new();
        for d in &ds {
            if !self.firsts.iter().any(|f| f.diffs[0].what == d.what)
                && !new_kinds.iter().any(|k: &Diff| k.what == d.what)
            {
                new_kinds.push(d.clone());
            }
        }
        for d in new_kinds {
            let f = make(vec![d]);
            self.firsts.push(f);
        }
        if self.first.is_none() {
            self.first = Some(make(ds));
        }
    }

    fn mark_seen(&mut self) {
        self.seen_a = self.a.event_count;
        self.seen_b = self.b.as_ref().map_or(0, |b| b.event_count);
    }

    /// Moves both clocks to `t`, comparing at every moment either run has an event.
    fn advance_to(&mut self, t: u64) {
        loop {
            let next = [
                self.a.next_event_time(),
                self.b.as_ref().and_then(|b| b.next_event_time()),
            ]
            .into_iter()
            .flatten()
            .min()
            .map_or(t, |n| n.min(t))
            .max(self.a.now);
            self.a.advance_to(next);
            if let Some(b) = &mut self.b {
                b.advance_to(next);
            }
            self.compare();
            self.mark_seen();
            if next >= t {
                break;
            }
        }
    }

    fn tick(&mut self) {
        self.advance_to(self.a.now + TICK_MS);
    }

    fn fail(&mut self, side: Side, msg: String) {
        match side {
            Side::A => self.failures_a.push((self.lineno, msg)),
            Side::B => self.failures_b.push((self.lineno, msg)),
        }
    }

    fn sides(&self, only: Option<Side>) -> Vec<Side> {
        let mut v = Vec::new();
        if only != Some(Side::B) {
            v.push(Side::A);
        }
        if self.b.is_some() && only != Some(Side::A) {
            v.push(Side::B);
        }
        v
    }

    fn sim(&self, side: Side) -> &Sim {
        match (side, &self.b) {
            (Side::B, Some(b)) => b,
            _ => &self.a,
        }
    }

    fn await_cond(&mut self, cond: &Cond, within: u64, only: Option<Side>) {
        let mut p = Partial::default();
        self.await_until(cond, within, only, &mut p, u64::MAX);
    }

    /// Runs an `await` line from where `p` left it, ticking only while the clock stays at
    /// or before `limit` ms. True when the line is over (the condition held in every run,
    /// or `within` ran out and the failures are recorded). Resuming passes exactly the
    /// states one uninterrupted call passes.
    fn await_until(
        &mut self,
        cond: &Cond,
        within: u64,
        only: Option<Side>,
        p: &mut Partial,
        limit: u64,
    ) -> bool {
        let sides = self.sides(only);
        if p.held.len() != sides.len() {
            p.held = vec![false; sides.len()];
        }
        loop {
            for (k, s) in sides.iter().enumerate() {
                p.held[k] |= cond.eval(self.sim(*s)).0;
            }
            if p.held.iter().all(|h| *h) {
                return true;
            }
            if p.done >= within {
                break;
            }
            if self.a.now + TICK_MS > limit {
                return false;
            }
            self.tick();
            p.done += 1;
        }
        let held = p.held.clone();
        for (k, s) in sides.iter().enumerate() {
            if !held[k] {
                let actual = cond.actual(self.sim(*s));
                self.fail(
                    *s,
                    format!(
                        "await {} not met within {within} ticks: actual {actual}",
                        cond.text
                    ),
                );
            }
        }
        true
    }

    fn act(&mut self, action: &Action, only: Option<Side>) {
        // As the player does: everything due at this moment first.
        if only.is_none() {
            self.advance_to(self.a.now);
        } else {
            let now = self.a.now;
            self.a.advance_to(now);
            if let Some(b) = &mut self.b {
                b.advance_to(now);
            }
        }
        let mut results = Vec::new();
        for s in self.sides(only) {
            let r = match (s, &mut self.b) {
                (Side::B, Some(b)) => b.apply(action),
                _ => self.a.apply(action),
            };
            if let Err(e) = &r {
                self.fail(s, e.clone());
            }
            results.push((s, r));
        }
        if let [(_, ra), (_, rb)] = results.as_slice() {
            if ra.is_ok() != rb.is_ok() {
                let w = |r: &Result<(), String>| match r {
                    Ok(()) => "was taken".to_string(),
                    Err(e) => format!("failed: {e}"),
                };
                self.note(vec![Diff {
                    what: "refusal".into(),
                    node: None,
                    a: w(ra),
                    b: w(rb),
                }]);
            }
        }
        // One run's own action is compared once both runs have taken theirs (the next
        // shared line or clock move), so an `A:` line is not reported against the `B:`
        // line that follows it.
        if only.is_none() {
            self.compare();
            self.mark_seen();
        }
    }

    fn exec(&mut self, stmt: &Stmt, only: Option<Side>) {
        match stmt {
            Stmt::Cluster { .. } | Stmt::Compare(_) | Stmt::Explore(_) => {}
            Stmt::Tick(n) => {
                for _ in 0..*n {
                    self.tick();
                }
            }
            Stmt::At { time, then } => {
                self.advance_to(*time);
                if let Some(s) = then {
                    self.exec(s, only);
                }
            }
            Stmt::Await { cond, within } => self.await_cond(cond, *within, only),
            Stmt::Expect(cond) => {
                for s in self.sides(only) {
                    let (ok, actual) = cond.eval(self.sim(s));
                    if !ok {
                        self.fail(s, format!("expect {}: actual {actual}", cond.text));
                    }
                }
            }
            Stmt::Say(t) => self.narration.push(t.clone()),
            Stmt::Act(a) => self.act(a, only),
            Stmt::Only { side, stmt } => {
                if *side == Side::A || self.b.is_some() {
                    self.exec(stmt, Some(*side));
                }
            }
        }
    }
}

/// Plays `text` as runs A and B in lockstep. `variant` adds to (or, for options, replaces)
/// what the scenario's `compare` line declares. A file that does not parse, a scenario with
/// nothing to compare, or a fork line past the end is an error.
pub fn compare(text: &str, variant: &Variant) -> Result<Report, String> {
    let mut run = CompareRun::new(text, variant)?;
    while run.step()? {}
    Ok(run.finish())
}

/// A comparison played one scenario line at a time (the browser's compare panes): after
/// every [`CompareRun::step`] both runs stand at the same simulated time, and the state is
/// exactly what [`compare`] would have reached after the same lines.
#[derive(Clone, Debug)]
pub struct CompareRun {
    script: Script,
    variant: Variant,
    options: Vec<(String, String)>,
    fork: usize,
    next: usize,
    /// A line begun by `tick_within`.
    partial: Option<Partial>,
    ls: Lockstep,
}

/// A `tick`, `at` or `await` line part way through.
#[derive(Clone, Debug, Default)]
struct Partial {
    /// Ticks done.
    done: u64,
    /// Violation counts before the line (A, B).
    before_a: usize,
    before_b: usize,
    /// An `await`: in which runs the condition has held so far.
    held: Vec<bool>,
}

/// Whether `text` may declare a comparison: a line that starts with `compare`, `A:` or `B:`.
/// When it is false, [`CompareRun::new`] with no variant of its own fails, so a caller that
/// has only the text (the browser opening a lesson) can skip parsing it a second time.
pub fn may_compare(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with("compare") || l.starts_with("A:") || l.starts_with("B:")
    })
}

impl CompareRun {
    /// Parses `text` and runs its `cluster` line; the same errors as [`compare`].
    pub fn new(text: &str, variant: &Variant) -> Result<CompareRun, String> {
        let script = Script::parse(text).map_err(|e| e.to_string())?;
        let declared = script
            .lines
            .iter()
            .position(|l| matches!(l.stmt, Stmt::Compare(_)));
        let mut options = match declared.map(|i| &script.lines[i].stmt) {
            Some(Stmt::Compare(o)) => o.clone(),
            _ => Vec::new(),
        };
        if !variant.options.is_empty() {
            options = variant.options.clone();
        }
        let has_b_lines = script
            .lines
            .iter()
            .any(|l| matches!(l.stmt, Stmt::Only { .. }));
        // B's own actions name the variant ("B: member add n4"); its own checks do not.
        let b_actions: Vec<String> = script
            .lines
            .iter()
            .filter(|l| matches!(&l.stmt, Stmt::Only { side: Side::B, stmt } if matches!(**stmt, Stmt::Act(_))))
            .map(|l| l.text.trim_start_matches("B:").trim().to_string())
            .collect();
        if options.is_empty() && variant.instead.is_none() && !has_b_lines {
            return Err(
                "nothing to compare: give --with OPTION=VALUE or --instead LINE:COMMAND, or add a 'compare' line".into(),
            );
        }
        let fork = match variant.from_line {
            Some(n) => script
                .lines
                .iter()
                .position(|l| l.lineno >= n)
                .ok_or_else(|| format!("--from {n}: the scenario has no line {n} or later"))?
                .max(1),
            None => declared.unwrap_or(1),
        };
        if let Some((n, _, _)) = &variant.instead {
            let i = script
                .lines
                .iter()
                .position(|l| l.lineno == *n)
                .ok_or_else(|| format!("--instead {n}: line {n} has no command"))?;
            if i < fork {
                return Err(format!(
                    "--instead {n}: line {n} comes before the fork (line {})",
                    script.lines.get(fork).map_or(0, |l| l.lineno)
                ));
            }
        }
        let mut label_parts: Vec<String> =
            options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        if let Some((n, _, cmd)) = &variant.instead {
            let orig = script
                .lines
                .iter()
                .find(|l| l.lineno == *n)
                .map_or(String::new(), |l| l.text.clone());
            label_parts.push(format!("'{cmd}' instead of '{orig}'"));
        }
        label_parts.extend(b_actions.iter().map(|a| format!("'{a}'")));
        if label_parts.is_empty() {
            label_parts.push("its B: lines".into());
        }
        let label = format!("with {}", label_parts.join(", "));

        let Some(Line {
            stmt: Stmt::Cluster { n, opts },
            ..
        }) = script.lines.first()
        else {
            return Err("the first command must be 'cluster N'".into());
        };
        let ls = Lockstep {
            a: Sim::new(*n, opts.clone()),
            b: None,
            label,
            lineno: script.lines[0].lineno,
            line: script.lines[0].text.clone(),
            first: None,
            firsts: Vec::new(),
            failures_a: Vec::new(),
            failures_b: Vec::new(),
            narration: Vec::new(),
            seen_a: 0,
            seen_b: 0,
        };
        Ok(CompareRun {
            script,
            variant: variant.clone(),
            options,
            fork,
            next: 1,
            partial: None,
            ls,
        })
    }

    /// Runs the next line in both runs. Ok(false) when every line has run; an error when
    /// B's options cannot be set at the fork.
    pub fn step(&mut self) -> Result<bool, String> {
        let i = self.next;
        let Some(line) = self.script.lines.get(i).cloned() else {
            return Ok(false);
        };
        let mut p = match self.partial.take() {
            Some(p) => p,
            None => self.begin(i)?,
        };
        let (before_a, before_b) = (p.before_a, p.before_b);
        self.next += 1;
        let ls = &mut self.ls;
        match (&self.variant.instead, &line.stmt) {
            (Some((lno, alt, _)), _) if *lno == line.lineno && ls.b.is_some() => {
                ls.exec(&line.stmt, Some(Side::A));
                ls.exec(alt, Some(Side::B));
            }
            // The rest of a `tick` or `await` line that `tick_within` began (an `at`
            // line simply continues to its time).
            (_, Stmt::Tick(n)) => {
                for _ in p.done..*n {
                    ls.tick();
                }
            }
            (_, Stmt::Await { cond, within }) => {
                ls.await_until(cond, *within, None, &mut p, u64::MAX);
            }
            _ => ls.exec(&line.stmt, None),
        }
        // As the player does, an invariant violation fails the line, unless the
        // teaching-only unsafe switch is on (then violations are the lesson).
        if !ls.a.opts.unsafe_commit && ls.a.violations.len() > before_a {
            let v = &ls.a.violations[before_a];
            ls.fail(
                Side::A,
                format!("invariant violated: {}: {}", v.invariant, v.detail),
            );
        }
        if let Some(b) = &ls.b {
            if !b.opts.unsafe_commit && b.violations.len() > before_b {
                let v = b.violations[before_b].clone();
                ls.fail(
                    Side::B,
                    format!("invariant violated: {}: {}", v.invariant, v.detail),
                );
            }
        }
        Ok(true)
    }

    /// Starts line `i`: forks B there when it is the fork point. Returns (ticks done,
    /// A's and B's violation counts before the line).
    fn begin(&mut self, i: usize) -> Result<Partial, String> {
        let line = &self.script.lines[i];
        let ls = &mut self.ls;
        ls.lineno = line.lineno;
        ls.line = line.text.clone();
        if i == self.fork {
            ls.b = Some(if i == 1 {
                let Stmt::Cluster { n, opts } = &self.script.lines[0].stmt else {
                    return Err("the first command must be 'cluster N'".into());
                };
                // Forking before anything happened is the same as B's own cluster line.
                let mut o = opts.clone();
                for (k, v) in &self.options {
                    o.set(k, v)?;
                }
                Sim::new(*n, o)
            } else {
                let mut b = ls.a.clone();
                for (k, v) in &self.options {
                    b.apply(&Action::Set {
                        name: k.clone(),
                        value: v.clone(),
                    })?;
                }
                b
            });
            ls.mark_seen();
        }
        Ok(Partial {
            before_a: ls.a.violations.len(),
            before_b: ls.b.as_ref().map_or(0, |b| b.violations.len()),
            ..Partial::default()
        })
    }

    /// Runs as much of the next line's waiting as fits before `limit` ms (both runs, in
    /// lockstep), so the runs can follow a paced player, or a moment scrubbed back to, part
    /// way through a line: the ticks of `tick N`, the ticks of `await COND within N` until
    /// the condition holds, the clock of `at MS` up to its time. [`CompareRun::step`] then
    /// runs the rest; the runs pass exactly the states a whole-line step passes. Returns
    /// whether the line's waiting is over by `limit` (always, for a line that takes no
    /// time, and for `A:`/`B:` and `--instead` lines, which are only run whole).
    pub fn tick_within(&mut self, limit: u64) -> Result<bool, String> {
        let i = self.next;
        let Some(line) = self.script.lines.get(i) else {
            return Ok(true);
        };
        if !matches!(
            line.stmt,
            Stmt::Tick(_) | Stmt::Await { .. } | Stmt::At { .. }
        ) || matches!(&self.variant.instead, Some((lno, _, _)) if *lno == line.lineno)
        {
            return Ok(true);
        }
        let stmt = line.stmt.clone();
        let mut p = match self.partial.take() {
            Some(p) => p,
            None => self.begin(i)?,
        };
        let over = match &stmt {
            Stmt::Tick(n) => {
                while p.done < *n && self.ls.a.now + TICK_MS <= limit {
                    self.ls.tick();
                    p.done += 1;
                }
                p.done >= *n
            }
            Stmt::Await { cond, within } => self.ls.await_until(cond, *within, None, &mut p, limit),
            Stmt::At { time, .. } => {
                let to = (*time).min(limit).max(self.ls.a.now);
                self.ls.advance_to(to);
                *time <= limit
            }
            _ => true,
        };
        self.partial = Some(p);
        Ok(over)
    }

    /// Plays the comparison on by at most `ms` of simulated time, the lines that take no
    /// time included, so a long shared comparison can be played a slice per animation frame.
    /// Ok(true) once every line has run. The runs pass exactly the states whole-line
    /// [`CompareRun::step`]s pass (it is `tick_within` and `step`).
    pub fn run_for(&mut self, ms: u64) -> Result<bool, String> {
        let limit = self.ls.a.now.saturating_add(ms);
        while !self.done() {
            if !self.tick_within(limit)? {
                return Ok(false);
            }
            self.step()?;
        }
        Ok(true)
    }

    /// The index (in the parsed script's lines) of the next line to run; 1 after `new`.
    pub fn next_line(&self) -> usize {
        self.next
    }

    /// Whether every line has run.
    pub fn done(&self) -> bool {
        self.next >= self.script.lines.len()
    }

    /// Run A as it stands.
    pub fn a(&self) -> &Sim {
        &self.ls.a
    }

    /// Run B as it stands; None before the fork.
    pub fn b(&self) -> Option<&Sim> {
        self.ls.b.as_ref()
    }

    /// How B differs, in words ("with prevote=off").
    pub fn label(&self) -> &str {
        &self.ls.label
    }

    /// What each run is, for a pane's caption: ("prevote=on", "prevote=off"), with A's
    /// value of each compared option read from run A's options, then each run's own
    /// actions (`A:` / `B:` lines) and the replaced line.
    pub fn side_labels(&self) -> (String, String) {
        let mut a = Vec::new();
        let mut b = Vec::new();
        for (k, v) in &self.options {
            let mut probe = self.ls.a.opts.clone();
            let current = probe.get(k).unwrap_or_else(|| "?".into());
            // `set` normalises the spelling (off/false) so both sides read alike.
            let _ = probe.set(k, v);
            a.push(format!("{k}={current}"));
            b.push(format!("{k}={}", probe.get(k).unwrap_or_else(|| v.clone())));
        }
        for l in &self.script.lines {
            if let Stmt::Only { side, stmt } = &l.stmt {
                if matches!(**stmt, Stmt::Act(_)) {
                    let t = l.text.split_once(':').map_or("", |(_, t)| t).trim();
                    match side {
                        Side::A => a.push(t.to_string()),
                        Side::B => b.push(t.to_string()),
                    }
                }
            }
        }
        if let Some((n, _, cmd)) = &self.variant.instead {
            let orig = self
                .script
                .lines
                .iter()
                .find(|l| l.lineno == *n)
                .map_or(String::new(), |l| l.text.clone());
            a.push(orig);
            b.push(cmd.clone());
        }
        (a.join(", "), b.join(", "))
    }

    /// The first divergence so far.
    pub fn first(&self) -> Option<&Divergence> {
        self.ls.first.as_ref()
    }

    /// The failed lines of run A so far: (line number, message).
    pub fn failures_a(&self) -> &[(usize, String)] {
        &self.ls.failures_a
    }

    /// The failed lines of run B so far.
    pub fn failures_b(&self) -> &[(usize, String)] {
        &self.ls.failures_b
    }

    /// The report as it stands (after the last line: what [`compare`] returns).
    pub fn finish(self) -> Report {
        let ls = self.ls;
        let b = ls.b.clone().unwrap_or_else(|| ls.a.clone());
        Report {
            label: ls.label,
            first: ls.first,
            firsts: ls.firsts,
            a: ls.a,
            b,
            failures_a: ls.failures_a,
            failures_b: ls.failures_b,
            narration: ls.narration,
        }
    }
}
