//! Explore: search random schedules of faults and client actions for one that breaks
//! something, then shrink it to a short scenario that replays the failure.
//!
//! A search starts from the state a scenario reaches (its lines up to its `explore` line, or
//! all of them). Schedule number `i` is drawn from its own generator, seeded from the
//! search's seed and `i`, so it is the same schedule however many threads run and in whatever
//! order: the search reports the failing schedule with the lowest number among those in the
//! budget, and the same seed and budget always give the same hit.
//!
//! A schedule is a list of timed actions chosen among the kinds the user allows. While it
//! runs, the simulator is checked every tick and after every action for:
//! - an invariant violation (the simulator's checker),
//! - a liveness failure: no leader that can reach a quorum for `liveness` election timeouts
//!   while a connected quorum of running voters exists, without message loss or slow links,
//! - a lost acknowledged write: a running node that applied past a committed write's index
//!   does not hold its value (each schedule writes keys of its own, once each),
//! - a wrong read: a linearizable read issued after a write was acknowledged that does not
//!   return it, or that returns a value no client wrote,
//!
//! (the last two are the shared client oracles of `oracle.rs`, as in the campaign)
//! - the user's condition (the `.scn` condition syntax), when given.
//!
//! A hit is shrunk by delta debugging over the schedule's actions, then by moving each action
//! earlier, keeping only changes that still produce the same kind of failure; the result is
//! written as a `.scn` file whose last line fails exactly when the failure is reproduced.

use crate::raft::vec_map::VecSet;
use serde::{Deserialize, Serialize};

use crate::i18n::{Lang, Msg};
use crate::raft::{NodeId, Rng, Role};

use super::action::Action;
use super::cluster::{Sim, Status, TICK_MS};
use super::cond::{self, Cond};
use super::decimal;
use super::invariant_words;
use super::oracle::Oracle;
use super::player::Player;
use super::scenario::{err, ParseError, Script, Stmt, Tok};

/// A kind of fault or action a search may schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Fault {
    /// `kill` a running node.
    Crash,
    /// `restart` a killed node.
    Restart,
    /// `partition` into two groups, `isolate` one node, or `heal`.
    Partition,
    /// `loss` of a share of messages, or `heal`.
    Loss,
    /// `set latency=...`: slower or faster links.
    Delay,
    /// `member add` (then `start`), `member remove`, `member promote`.
    Member,
    /// `transfer-leader`.
    Transfer,
    /// `compact` a node's log.
    Compact,
    /// Client writes (`propose`), each to a key of its own.
    Write,
    /// Linearizable client reads of keys written before.
    Read,
    /// `campaign`: a node's election timer fires now.
    Campaign,
}

impl Fault {
    /// Every kind, with its name on the command line and in `.scn`.
    pub const ALL: [(Fault, &'static str); 11] = [
        (Fault::Crash, "crash"),
        (Fault::Restart, "restart"),
        (Fault::Partition, "partition"),
        (Fault::Loss, "loss"),
        (Fault::Delay, "delay"),
        (Fault::Member, "member"),
        (Fault::Transfer, "transfer"),
        (Fault::Compact, "compact"),
        (Fault::Write, "write"),
        (Fault::Read, "read"),
        (Fault::Campaign, "campaign"),
    ];

    /// Its name.
    pub fn name(self) -> &'static str {
        Fault::ALL
            .iter()
            .find(|(f, _)| *f == self)
            .map_or("?", |(_, n)| n)
    }

    /// Parses a comma-separated list (`crash,restart,partition`).
    pub fn parse_list(text: &str) -> Result<Vec<Fault>, String> {
        let mut out = Vec::new();
        for w in text.split(',') {
            let f = Fault::ALL
                .iter()
                .find(|(_, n)| *n == w)
                .map(|(f, _)| *f)
                .ok_or_else(|| {
                    let names: Vec<&str> = Fault::ALL.iter().map(|(_, n)| *n).collect();
                    format!("unknown fault '{w}' (known: {})", names.join(", "))
                })?;
            if !out.contains(&f) {
                out.push(f);
            }
        }
        // A handful of faults: the small sort, not another copy of std's sort for this type.
        crate::sim::small_sort::sort_small_by(&mut out, |a, b| a.cmp(b));
        Ok(out)
    }
}

/// What to search: the `explore` line of a scenario, or the CLI's flags.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExploreSpec {
    /// Stop at the first moment this condition holds (besides the built-in checks).
    pub until: Option<Cond>,
    /// The kinds of action a schedule may contain.
    pub allow: Vec<Fault>,
    /// How long each schedule runs, in ticks.
    pub horizon: u64,
    /// How many schedules to try at most.
    pub schedules: u64,
    /// The seed schedules are drawn from.
    pub seed: u64,
    /// At most this many actions per schedule.
    pub actions: usize,
    /// A liveness failure: no leader for this many election timeouts with a quorum up.
    pub liveness: u64,
    /// The built-in checks to run (the user's condition is always checked).
    pub check: Vec<HitKind>,
}

impl Default for ExploreSpec {
    fn default() -> Self {
        ExploreSpec {
            until: None,
            allow: vec![
                Fault::Crash,
                Fault::Restart,
                Fault::Partition,
                Fault::Write,
                Fault::Read,
            ],
            horizon: 300,
            schedules: 1000,
            seed: 1,
            actions: 8,
            liveness: 10,
            check: HitKind::BUILT_IN.iter().map(|(k, _)| *k).collect(),
        }
    }
}

/// Largest values the settings accept (a search must stay bounded).
const MAX_HORIZON: u64 = 100_000;
const MAX_ACTIONS: u64 = 1000;

impl ExploreSpec {
    /// Sets one setting by its name (`allow`, `horizon`, `schedules`, `seed`, `actions`,
    /// `liveness`, `until`), as the `explore` line and the CLI spell them.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let num = |lo: u64, hi: u64| -> Result<u64, String> {
            let n: u64 = value
                .parse()
                .map_err(|_| format!("{key}: expected a whole number, got '{value}'"))?;
            if n < lo || n > hi {
                return Err(format!("{key}: {n} is out of range {lo}..={hi}"));
            }
            Ok(n)
        };
        match key {
            "allow" => self.allow = Fault::parse_list(value)?,
            "horizon" => self.horizon = num(1, MAX_HORIZON)?,
            "schedules" => self.schedules = num(1, u64::MAX)?,
            "seed" => self.seed = num(0, u64::MAX)?,
            "actions" => self.actions = num(1, MAX_ACTIONS)? as usize,
            "liveness" => self.liveness = num(1, 1000)?,
            "check" => self.check = HitKind::parse_list(value)?,
            "until" => {
                self.until = Some(cond::parse(value, 1).map_err(|e| e.message.to_string())?);
            }
            _ => {
                return Err(format!(
                    "unknown explore setting '{key}' (allow, check, horizon, schedules, seed, actions, liveness, until)"
                ))
            }
        }
        Ok(())
    }

    /// Parses `explore [allow LIST] [check LIST] [horizon N] [schedules N] [seed N] [actions N]
    /// [liveness K] [until COND]` (the condition last: it runs to the end of the line).
    pub(crate) fn parse(line: &str, toks: &[Tok]) -> Result<ExploreSpec, ParseError> {
        let mut spec = ExploreSpec::default();
        let mut i = 1;
        while i < toks.len() {
            let k = toks[i];
            if k.s == "until" {
                let t = toks.get(i + 1).ok_or_else(|| {
                    err(
                        line.chars().count() + 1,
                        crate::msg!("parse.missing").arg("what", crate::msg!("parse.w.condition")),
                    )
                })?;
                let text = &line[super::scenario::line_byte(line, t.col)..];
                spec.until = Some(cond::parse(text, t.col)?);
                return Ok(spec);
            }
            let v = toks.get(i + 1).ok_or_else(|| {
                err(
                    line.chars().count() + 1,
                    crate::msg!("parse.missing_value_after").arg("k", k.s),
                )
            })?;
            spec.set(k.s, v.s).map_err(|m| err(k.col, m))?;
            i += 2;
        }
        Ok(spec)
    }
}

/// One action of a schedule, at an absolute simulated time (ms).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// When, in ms.
    pub time: u64,
    /// What.
    pub action: Action,
}

/// What a search found wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HitKind {
    /// The invariant checker reported a violation.
    Invariant,
    /// No leader for too long although a quorum was up and connected.
    Liveness,
    /// An acknowledged write is missing on a node that applied past it.
    LostWrite,
    /// A linearizable read missed a write acknowledged before it was issued.
    WrongRead,
    /// The user's condition held.
    Condition,
}

impl HitKind {
    /// The built-in checks, with their names in `check LIST`.
    pub const BUILT_IN: [(HitKind, &'static str); 4] = [
        (HitKind::Invariant, "invariant"),
        (HitKind::Liveness, "liveness"),
        (HitKind::LostWrite, "write"),
        (HitKind::WrongRead, "read"),
    ];

    /// Parses a comma-separated list of built-in checks (`invariant,liveness`), or `none`.
    pub fn parse_list(text: &str) -> Result<Vec<HitKind>, String> {
        if text == "none" {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        for w in text.split(',') {
            let k = HitKind::BUILT_IN
                .iter()
                .find(|(_, n)| *n == w)
                .map(|(k, _)| *k)
                .ok_or_else(|| {
                    format!(
                        "unknown check '{w}' (known: invariant, liveness, write, read, or none)"
                    )
                })?;
            if !out.contains(&k) {
                out.push(k);
            }
        }
        Ok(out)
    }

    /// The catalog key of its short name.
    pub fn key(self) -> &'static str {
        match self {
            HitKind::Invariant => "ex.kind.invariant",
            HitKind::Liveness => "ex.kind.liveness",
            HitKind::LostWrite => "ex.kind.write",
            HitKind::WrongRead => "ex.kind.read",
            HitKind::Condition => "ex.kind.condition",
        }
    }

    /// Its name in `check LIST` (`condition` for the user's own): a word in no language's
    /// catalog, for the page's `data-*` attributes, which a Chinese page can write without
    /// fetching English texts (`i18n::parts`).
    pub fn id(self) -> &'static str {
        HitKind::BUILT_IN
            .iter()
            .find(|(k, _)| *k == self)
            .map_or("condition", |(_, n)| n)
    }

    /// A short name, in English (the CLI's and the JSON report's).
    pub fn name(self) -> &'static str {
        crate::i18n::text(Lang::En, self.key())
    }
}

/// A failure, when it was seen and how a scenario asserts its absence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hit {
    /// What kind.
    pub kind: HitKind,
    /// When it was seen (ms).
    pub time: u64,
    /// In words, in any language (`to_string()` gives the English).
    pub detail: Msg,
    /// A condition that fails at `time` exactly because of the hit (for the replay's
    /// final `expect`); None when no condition can say it.
    pub check: Option<String>,
}

/// A found and shrunk counterexample.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Found {
    /// The schedule's number in the search.
    pub index: u64,
    /// The schedule as drawn (up to the hit).
    pub original: Vec<Step>,
    /// The shrunk schedule.
    pub shrunk: Vec<Step>,
    /// The failure the shrunk schedule produces.
    pub hit: Hit,
    /// Replays the shrinking took.
    pub replays: u64,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// Schedules run to the end or to a hit.
    pub tried: u64,
    /// The lowest-numbered failing schedule, shrunk.
    pub found: Option<Found>,
}

/// A prepared search: the starting state and the settings.
#[derive(Clone, Debug)]
pub struct Explorer {
    start: Sim,
    /// The scenario lines that lead to the starting state (replayed by a counterexample).
    prefix: Vec<String>,
    /// The settings.
    pub spec: ExploreSpec,
    base_violations: usize,
}

/// Upper bound on the replays spent shrinking one hit.
const SHRINK_REPLAYS: u64 = 2000;

impl Explorer {
    /// Prepares a search from a scenario: plays its lines up to its `explore` line (all of
    /// them when it has none) and takes the settings from that line, or `spec` when given.
    /// A file that does not parse is an error with its line and column.
    pub fn from_scenario(text: &str, spec: Option<ExploreSpec>) -> Result<Explorer, String> {
        let script = Script::parse(text).map_err(|e| e.to_string())?;
        let stop = script
            .lines
            .iter()
            .position(|l| matches!(l.stmt, Stmt::Explore(_)))
            .unwrap_or(script.lines.len());
        let declared = script.lines.get(stop).and_then(|l| match &l.stmt {
            Stmt::Explore(s) => Some(s.clone()),
            _ => None,
        });
        let stop_lineno = script.lines.get(stop).map_or(usize::MAX, |l| l.lineno);
        let mut player = Player::new(script);
        player.run_to(stop);
        let start = player
            .timeline()
            .map(|t| t.sim().clone())
            .ok_or("the scenario has no cluster line")?;
        // Header comments are replaced by the counterexample's own.
        let prefix = text
            .lines()
            .enumerate()
            .take_while(|(i, _)| i + 1 < stop_lineno)
            .map(|(_, l)| l.to_string())
            .filter(|l| {
                let t = l.trim_start();
                !["# title", "# description", "# group", "# recap"]
                    .iter()
                    .any(|h| t.starts_with(h))
            })
            .collect();
        let spec = spec.or(declared).unwrap_or_default();
        Ok(Explorer {
            base_violations: start.violations.len(),
            start,
            prefix,
            spec,
        })
    }

    /// The state every schedule starts from.
    pub fn start(&self) -> &Sim {
        &self.start
    }

    /// Draws schedule number `index` and runs it; returns the schedule (up to the hit) and
    /// the hit, if any. The same index always gives the same schedule and result.
    pub fn run_index(&self, index: u64) -> (Vec<Step>, Option<Hit>) {
        let mut seeder = Rng::new(self.spec.seed ^ 0x9e37_79b9_7f4a_7c15);
        let rng = seeder.fork(index.wrapping_add(1));
        let mut run = Run::new(self, Source::Draw(Box::new(Drawer::new(self, rng))));
        let hit = run.go();
        (run.taken, hit)
    }

    /// Replays a fixed schedule; returns the hit, if any, and for each step whether the
    /// simulator accepted it (a step that makes no sense in the state it meets is skipped).
    pub fn replay(&self, steps: &[Step]) -> (Option<Hit>, Vec<bool>) {
        let mut run = Run::new(self, Source::Fixed(steps.to_vec(), 0));
        let hit = run.go();
        (hit, run.accepted)
    }

    /// Runs schedules 0, 1, 2, ... up to the budget on `jobs` threads and shrinks the
    /// lowest-numbered hit. `stop` is polled between schedules (a wall-clock budget); when
    /// it says stop, schedules not yet started are not run. Without `stop`, the result
    /// depends only on the settings, never on `jobs` or timing.
    pub fn search(&self, jobs: usize, stop: &(dyn Fn() -> bool + Sync)) -> Report {
        let (tried, first) = self.search_unshrunk(jobs, stop);
        let found = first.map(|(index, original, hit)| {
            let (shrunk, hit, replays) = self.shrink(&original, &hit);
            Found {
                index,
                original,
                shrunk,
                hit,
                replays,
            }
        });
        Report { tried, found }
    }

    /// The search without shrinking: schedules tried, and the lowest-numbered hit.
    pub fn search_unshrunk(
        &self,
        jobs: usize,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> (u64, Option<(u64, Vec<Step>, Hit)>) {
        let jobs = jobs.max(1);
        if jobs == 1 || cfg!(target_arch = "wasm32") {
            let mut tried = 0;
            for i in 0..self.spec.schedules {
                if stop() {
                    break;
                }
                tried += 1;
                let (steps, hit) = self.run_index(i);
                if let Some(h) = hit {
                    return (tried, Some((i, steps, h)));
                }
            }
            return (tried, None);
        }
        self.search_threads(jobs, stop)
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn search_threads(
        &self,
        jobs: usize,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> (u64, Option<(u64, Vec<Step>, Hit)>) {
        use std::sync::atomic::{AtomicU64, Ordering};
        use std::sync::Mutex;
        // Numbers are handed out in increasing order and a worker only stops taking them
        // once they pass the best hit, so every number below the best hit is run: the
        // lowest hit is the same as on one thread.
        let next = AtomicU64::new(0);
        let best = AtomicU64::new(u64::MAX);
        let tried = AtomicU64::new(0);
        let hits: Mutex<Vec<(u64, Vec<Step>, Hit)>> = Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for _ in 0..jobs {
                s.spawn(|| loop {
                    if stop() {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= self.spec.schedules || i >= best.load(Ordering::SeqCst) {
                        break;
                    }
                    tried.fetch_add(1, Ordering::SeqCst);
                    let (steps, hit) = self.run_index(i);
                    if let Some(h) = hit {
                        best.fetch_min(i, Ordering::SeqCst);
                        if let Ok(mut v) = hits.lock() {
                            v.push((i, steps, h));
                        }
                    }
                });
            }
        });
        let hits = hits.into_inner().unwrap_or_default();
        let first = hits.into_iter().min_by_key(|(i, _, _)| *i);
        // Count like one thread would: schedules after the hit ran only by concurrency.
        let tried = match &first {
            Some((i, _, _)) => i + 1,
            None => tried.load(Ordering::SeqCst),
        };
        (tried, first)
    }

    #[cfg(target_arch = "wasm32")]
    fn search_threads(
        &self,
        _jobs: usize,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> (u64, Option<(u64, Vec<Step>, Hit)>) {
        self.search_unshrunk(1, stop)
    }

    /// Shrinks a failing schedule: drops actions (delta debugging), then moves each action
    /// as early as it can go, keeping every change after which a replay still fails the
    /// same way; finally drops steps the simulator refuses. Returns the schedule, its hit
    /// and how many replays it took.
    pub fn shrink(&self, steps: &[Step], hit: &Hit) -> (Vec<Step>, Hit, u64) {
        let kind = hit.kind;
        let mut replays = 0u64;
        let mut fails = |cand: &[Step]| -> Option<Hit> {
            if replays >= SHRINK_REPLAYS {
                return None;
            }
            replays += 1;
            self.replay(cand).0.filter(|h| h.kind == kind)
        };
        let mut cur: Vec<Step> = steps
            .iter()
            .filter(|s| s.time <= hit.time)
            .cloned()
            .collect();
        let mut best = fails(&cur).unwrap_or_else(|| hit.clone());
        // Delta debugging: remove chunks, halving the chunk size when nothing can go.
        let mut n = 2usize;
        while cur.len() >= 2 {
            let chunk = cur.len().div_ceil(n);
            let mut removed = false;
            let mut start = 0;
            while start < cur.len() {
                let end = (start + chunk).min(cur.len());
                let cand: Vec<Step> = cur[..start].iter().chain(&cur[end..]).cloned().collect();
                if let Some(h) = fails(&cand) {
                    cur = cand;
                    best = h;
                    removed = true;
                    n = (n - 1).max(2);
                    break;
                }
                start = end;
            }
            if !removed {
                if chunk == 1 {
                    break;
                }
                n = (n * 2).min(cur.len());
            }
        }
        if cur.len() == 1 {
            if let Some(h) = fails(&[]) {
                cur.clear();
                best = h;
            }
        }
        // Earlier times: each action as close to the one before (or the start) as it goes.
        for i in 0..cur.len() {
            let floor = if i == 0 {
                self.start.now
            } else {
                cur[i - 1].time
            };
            let mut lo = floor;
            let mut hi = cur[i].time;
            // Binary search for the earliest time that still fails (a few probes).
            for _ in 0..6 {
                if lo >= hi {
                    break;
                }
                let mid = lo + (hi - lo) / 2;
                let mut cand = cur.clone();
                cand[i].time = mid;
                match fails(&cand) {
                    Some(h) => {
                        cur = cand;
                        best = h;
                        hi = mid;
                    }
                    None => lo = mid + 1,
                }
            }
        }
        // Steps the simulator refused changed nothing: leave them out.
        let (_, accepted) = self.replay(&cur);
        let kept: Vec<Step> = cur
            .iter()
            .zip(accepted.iter().chain(std::iter::repeat(&true)))
            .filter(|(_, ok)| **ok)
            .map(|(s, _)| s.clone())
            .collect();
        if kept.len() < cur.len() {
            if let Some(h) = fails(&kept) {
                cur = kept;
                best = h;
            }
        }
        // Actions after the hit never ran.
        cur.retain(|s| s.time <= best.time);
        (cur, best, replays)
    }

    /// The counterexample as a scenario: the starting scenario's lines, the schedule as
    /// `at MS ACTION` lines, then at the moment of the hit an `expect` that fails because of
    /// it. `raftlab run` on it exits 1 on that line: the failure is reproduced.
    pub fn to_scn(&self, found: &Found) -> String {
        let mut out = String::new();
        let kind = Msg::new(found.hit.kind.key());
        // The title, description and narration in each language the lab speaks, so the
        // counterexample reads as a lesson does (`say.zh`, `# title.zh:`).
        for lang in Lang::ALL {
            let tag = lang.scn_suffix();
            let title = crate::msg!("ex.scn.title").arg("kind", kind.clone());
            let description = crate::msg!("ex.scn.description")
                .arg("seed", self.spec.seed)
                .arg("index", found.index)
                .arg("from", found.original.len())
                .arg("to", found.shrunk.len())
                .arg("detail", found.hit.detail.clone());
            out.push_str(&format!("# title{tag}: {}\n", title.render(lang)));
            out.push_str(&format!(
                "# description{tag}: {}\n",
                description.render(lang)
            ));
        }
        for l in &self.prefix {
            out.push_str(l);
            out.push('\n');
        }
        out.push_str("# the schedule found by raftlab explore\n");
        for s in &found.shrunk {
            out.push_str(&format!("at {} {}\n", s.time, s.action.to_scn()));
        }
        out.push_str(&format!("at {}\n", found.hit.time));
        for lang in Lang::ALL {
            let said = crate::msg!("ex.scn.say")
                .arg("kind", kind.clone())
                .arg("detail", found.hit.detail.clone());
            out.push_str(&format!(
                "say{} {}\n",
                lang.scn_suffix(),
                capitalized(&said.render(lang))
            ));
        }
        match &found.hit.check {
            Some(c) => out.push_str(&format!("expect {c}\n")),
            None => {
                out.push_str("# (no condition can state this failure; see the message above)\n")
            }
        }
        out
    }
}

// Full Unicode case mapping (clippy.toml disallows it for its tables' size): a said line can
// start with any letter, and this runs in the explore worker and the CLI, not in the page.
#[allow(clippy::disallowed_methods)]
fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Where a run's actions come from.
enum Source {
    /// Drawn at random as the run goes (so each action fits the state it meets).
    Draw(Box<Drawer>),
    /// A fixed list, and the position in it.
    Fixed(Vec<Step>, usize),
}

/// Draws a random schedule as it runs.
struct Drawer {
    rng: Rng,
    /// Times (ms) still to act at, earliest last.
    times: Vec<u64>,
    /// Follow-up steps (a `start` after a `member add`), earliest last.
    follow: Vec<Step>,
    writes: u64,
    allow: Vec<Fault>,
    /// Actions still allowed (the initial ones and those drawn in reaction).
    left: usize,
    /// The leader at the last check, to react to a new one.
    last_leader: Option<NodeId>,
}

impl Drawer {
    fn new(ex: &Explorer, mut rng: Rng) -> Drawer {
        let t0 = ex.start.now;
        // Actions fall in the first two thirds of the horizon, so the last third shows
        // whether the cluster recovers (liveness) and what became of the writes.
        let span = (ex.spec.horizon * TICK_MS * 2 / 3).max(1);
        // Half the actions at random times; the rest may be drawn in reaction to a new
        // leader (the moments where most protocol bugs hide, as in Figure 8).
        let total = rng.range(1, ex.spec.actions as u64 + 1) as usize;
        let count = total.div_ceil(2);
        let mut times: Vec<u64> = (0..count).map(|_| t0 + 1 + rng.range(0, span)).collect();
        times.sort_unstable_by(|a, b| b.cmp(a));
        Drawer {
            rng,
            times,
            follow: Vec::new(),
            writes: 0,
            allow: ex.spec.allow.clone(),
            left: total - count,
            last_leader: ex.start.leader(),
        }
    }

    /// Called at every check: when a new leader has appeared, maybe act soon after.
    fn react(&mut self, sim: &Sim, end: u64) {
        let leader = sim.leader();
        if leader == self.last_leader {
            return;
        }
        self.last_leader = leader;
        if leader.is_some() && self.left > 0 && self.rng.chance(50) {
            let at = sim.now + self.rng.range(0, 10 * TICK_MS);
            if at < end {
                self.left -= 1;
                self.times.push(at);
                self.times.sort_unstable_by(|a, b| b.cmp(a));
            }
        }
    }

    fn next_time(&self) -> Option<u64> {
        match (self.times.last(), self.follow.last()) {
            (Some(a), Some(b)) => Some((*a).min(b.time)),
            (a, b) => a.copied().or(b.map(|s| s.time)),
        }
    }

    fn pick<T: Copy>(&mut self, v: &[T]) -> Option<T> {
        if v.is_empty() {
            None
        } else {
            Some(v[self.rng.range(0, v.len() as u64) as usize])
        }
    }

    /// The next action, fitted to the state `sim` is in at its time.
    fn draw(&mut self, sim: &Sim) -> Option<Step> {
        let now = self.next_time()?;
        if self.follow.last().is_some_and(|s| s.time == now) {
            return self.follow.pop();
        }
        self.times.pop();
        let live: Vec<NodeId> = sim
            .nodes
            .values()
            .filter(|n| n.status == Status::Running)
            .map(|n| n.raft.id)
            .collect();
        let killed: Vec<NodeId> = sim
            .nodes
            .values()
            .filter(|n| n.status == Status::Killed)
            .map(|n| n.raft.id)
            .collect();
        let present: Vec<NodeId> = sim
            .nodes
            .values()
            .filter(|n| n.status != Status::Removed)
            .map(|n| n.raft.id)
            .collect();
        let cfg = sim.config();
        let voters: Vec<NodeId> = cfg.voters.iter().copied().collect();
        let learners: Vec<NodeId> = cfg.learners.iter().copied().collect();
        let members: Vec<NodeId> = cfg.members().into_iter().collect();
        let leader = sim.leader();
        let mut kinds: Vec<Fault> = Vec::new();
        for f in self.allow.clone() {
            let ok = match f {
                Fault::Crash => live.len() > 1,
                Fault::Restart => !killed.is_empty(),
                Fault::Transfer => leader.is_some() && voters.len() > 1,
                Fault::Read => self.writes > 0,
                Fault::Compact | Fault::Campaign => !live.is_empty(),
                _ => true,
            };
            if ok {
                kinds.push(f);
                // Client traffic is what failures are made of: draw it more often.
                if matches!(f, Fault::Write) {
                    kinds.push(f);
                }
            }
        }
        let kind = self.pick(&kinds)?;
        let action = match kind {
            // Leaders are where it hurts: aim at them half the time.
            Fault::Crash => match leader {
                Some(l) if self.rng.chance(50) => Action::Kill(l),
                _ => Action::Kill(self.pick(&live)?),
            },
            Fault::Restart => Action::Restart(self.pick(&killed)?),
            Fault::Partition => match self.rng.range(0, 4) {
                0 if sim.net.is_faulty() => Action::Heal,
                1 => match leader {
                    Some(l) if self.rng.chance(50) => Action::Isolate(l),
                    _ => Action::Isolate(self.pick(&present)?),
                },
                _ => {
                    let mut a = Vec::new();
                    let mut b = Vec::new();
                    for id in &present {
                        if self.rng.chance(50) {
                            a.push(*id);
                        } else {
                            b.push(*id);
                        }
                    }
                    if a.is_empty() || b.is_empty() {
                        Action::Isolate(self.pick(&present)?)
                    } else {
                        Action::Partition(vec![a, b])
                    }
                }
            },
            Fault::Loss => {
                if sim.net.loss > 0 && self.rng.chance(40) {
                    Action::Heal
                } else {
                    Action::Loss(self.pick(&[5, 10, 20, 40])?)
                }
            }
            Fault::Delay => Action::Set {
                name: "latency".into(),
                value: self.pick(&["10-40", "50-150", "100-400", "5-10"])?.into(),
            },
            Fault::Member => {
                let next_id = sim.nodes.keys().max().copied().unwrap_or(0) + 1;
                match self.rng.range(0, 3) {
                    0 if !learners.is_empty() => Action::Promote(self.pick(&learners)?),
                    1 if members.len() > 1 => Action::Remove(self.pick(&members)?),
                    _ => {
                        let start_at = now + self.rng.range(1, 10 * TICK_MS);
                        self.follow.push(Step {
                            time: start_at,
                            action: Action::Start(next_id),
                        });
                        self.follow.sort_by_key(|s| std::cmp::Reverse(s.time));
                        Action::MemberAdd {
                            node: next_id,
                            learner: self.rng.chance(50),
                            misconfigured: false,
                        }
                    }
                }
            }
            Fault::Transfer => {
                let l = leader?;
                let others: Vec<NodeId> = voters.iter().copied().filter(|v| *v != l).collect();
                Action::TransferLeader(self.pick(&others)?)
            }
            Fault::Compact => Action::Compact(self.pick(&live)?),
            Fault::Campaign => Action::Campaign(self.pick(&live)?),
            Fault::Write => {
                self.writes += 1;
                let n = self.writes;
                let via = if self.rng.chance(30) {
                    self.pick(&live)
                } else {
                    None
                };
                Action::Propose {
                    key: format!("e{n}"),
                    value: format!("v{n}"),
                    via,
                }
            }
            Fault::Read => {
                let keys: Vec<u64> = (1..=self.writes).collect();
                let k = self.pick(&keys)?;
                let via = if self.rng.chance(50) {
                    self.pick(&live)
                } else {
                    None
                };
                Action::Read {
                    key: format!("e{k}"),
                    via,
                    linearizable: true,
                }
            }
        };
        Some(Step { time: now, action })
    }
}

/// One schedule being run.
struct Run<'a> {
    ex: &'a Explorer,
    sim: Sim,
    source: Source,
    taken: Vec<Step>,
    accepted: Vec<bool>,
    /// The client oracles, over the requests this schedule makes.
    oracle: Oracle,
    /// Since when (ms) a quorum has been up with no leader able to reach one.
    leaderless_since: Option<u64>,
}

impl<'a> Run<'a> {
    fn new(ex: &'a Explorer, source: Source) -> Run<'a> {
        Run {
            ex,
            sim: ex.start.clone(),
            source,
            taken: Vec::new(),
            accepted: Vec::new(),
            oracle: Oracle::after(&ex.start),
            leaderless_since: None,
        }
    }

    fn next_time(&self) -> Option<u64> {
        match &self.source {
            Source::Draw(d) => d.next_time(),
            Source::Fixed(v, i) => v.get(*i).map(|s| s.time),
        }
    }

    /// Runs to the horizon or the first hit.
    fn go(&mut self) -> Option<Hit> {
        let end = self.ex.start.now + self.ex.spec.horizon * TICK_MS;
        let mut next_check = (self.sim.now / TICK_MS + 1) * TICK_MS;
        if let Some(h) = self.check() {
            return Some(h);
        }
        loop {
            let act_at = self.next_time().filter(|t| *t <= end);
            let target = act_at.map_or(next_check, |t| t.min(next_check)).min(end);
            self.sim.advance_to(target);
            if act_at == Some(target) {
                // Everything due at this moment first, as `at MS ACTION` does when replayed.
                self.sim.advance_to(self.sim.now);
                let step = match &mut self.source {
                    Source::Draw(d) => d.draw(&self.sim),
                    Source::Fixed(v, i) => {
                        *i += 1;
                        v.get(*i - 1).cloned()
                    }
                };
                if let Some(step) = step {
                    self.act(step);
                }
                if let Some(h) = self.check() {
                    return Some(h);
                }
            }
            if target == next_check {
                next_check += TICK_MS;
                if let Source::Draw(d) = &mut self.source {
                    d.react(&self.sim, end);
                }
                if let Some(h) = self.check() {
                    return Some(h);
                }
            }
            if self.sim.now >= end {
                return None;
            }
        }
    }

    fn act(&mut self, step: Step) {
        // Writes acknowledged up to now bind a read this step issues.
        self.oracle.observe(&self.sim);
        let ok = self.sim.apply(&step.action).is_ok();
        self.oracle.observe(&self.sim);
        self.accepted.push(ok);
        self.taken.push(step);
    }

    fn check(&mut self) -> Option<Hit> {
        self.oracle.observe(&self.sim);
        let sim = &self.sim;
        let now = sim.now;
        let on = |k: HitKind| self.ex.spec.check.contains(&k);
        if !on(HitKind::Invariant) {
        } else if let Some(v) = sim.violations.get(self.ex.base_violations) {
            return Some(Hit {
                kind: HitKind::Invariant,
                time: now,
                detail: crate::msg!("ex.d.invariant")
                    .arg("invariant", invariant_words::name(&v.invariant))
                    .arg("detail", invariant_words::detail(&v.detail))
                    .arg(
                        "cause",
                        v.cause_words
                            .clone()
                            .unwrap_or_else(|| Msg::verbatim(v.cause.as_str())),
                    ),
                check: Some(format!("violations = {}", self.ex.base_violations)),
            });
        }
        if let Some(c) = &self.ex.spec.until {
            let (holds, actual) = c.eval(sim);
            if holds {
                return Some(Hit {
                    kind: HitKind::Condition,
                    time: now,
                    detail: crate::msg!("ex.d.condition")
                        .arg("cond", c.text.as_str())
                        .arg("actual", actual),
                    check: Some(c.negated().text),
                });
            }
        }
        if on(HitKind::LostWrite) {
            if let Some(h) = self.check_writes() {
                return Some(h);
            }
        }
        if on(HitKind::WrongRead) {
            if let Some(h) = self.check_reads() {
                return Some(h);
            }
        }
        if on(HitKind::Liveness) {
            return self.check_liveness();
        }
        None
    }

    fn check_writes(&mut self) -> Option<Hit> {
        let lost = self.oracle.check_applied(&self.sim)?;
        Some(Hit {
            kind: HitKind::LostWrite,
            time: self.sim.now,
            check: Some(format!(
                "n{}.value {} = {}",
                lost.node, lost.key, lost.value
            )),
            detail: lost.detail,
        })
    }

    fn check_reads(&self) -> Option<Hit> {
        let wrong = self.oracle.wrong_reads.first()?;
        // Only the latest read can be asserted by a scenario line.
        let last = self.sim.last_read == Some(wrong.req);
        Some(Hit {
            kind: HitKind::WrongRead,
            time: self.sim.now,
            detail: wrong.detail.clone(),
            check: wrong
                .expected
                .as_ref()
                .filter(|_| last)
                .map(|v| format!("read = {v}")),
        })
    }

    fn check_liveness(&mut self) -> Option<Hit> {
        let sim = &self.sim;
        let slow = sim.opts.latency_max * 2 >= sim.opts.election * TICK_MS;
        let up = sim.net.loss == 0 && !slow && connected_quorum(sim);
        let led = sim
            .nodes
            .values()
            .any(|n| n.raft.role == Role::Leader && sim.could_reach_quorum(n.raft.id));
        if !up || led {
            self.leaderless_since = None;
            return None;
        }
        let since = *self.leaderless_since.get_or_insert(sim.now);
        let limit = self.ex.spec.liveness * sim.opts.election * TICK_MS;
        (sim.now - since >= limit).then(|| Hit {
            kind: HitKind::Liveness,
            time: sim.now,
            detail: crate::msg!("ex.d.liveness")
                .arg("timeouts", self.ex.spec.liveness)
                .arg(
                    "ticks",
                    decimal::fixed((sim.now - since) as f64 / TICK_MS as f64, 1),
                ),
            check: Some("leader != none".into()),
        })
    }
}

/// Whether the configuration in force has, in each half, a quorum of running voters that
/// can all talk to each other.
fn connected_quorum(sim: &Sim) -> bool {
    let cfg = sim.config();
    let half = |voters: &VecSet<NodeId>| -> bool {
        if voters.is_empty() {
            return true;
        }
        let need = voters.len() / 2 + 1;
        voters.iter().any(|v| {
            let group: Vec<NodeId> = voters
                .iter()
                .copied()
                .filter(|w| sim.is_running(*w) && (w == v || sim.net.connected(*v, *w)))
                .collect();
            group.len() >= need
                && group
                    .iter()
                    .all(|a| group.iter().all(|b| a == b || sim.net.connected(*a, *b)))
        })
    };
    half(&cfg.voters) && half(&cfg.outgoing)
}

#[cfg(test)]
mod tests {
    use super::super::client::Outcome;
    use super::*;

    #[test]
    fn a_checks_id_is_its_name_in_check_lists() {
        for (k, n) in HitKind::BUILT_IN {
            assert_eq!(k.id(), n);
            assert_eq!(HitKind::parse_list(k.id()), Ok(vec![k]));
        }
        assert_eq!(HitKind::Condition.id(), "condition");
    }

    #[test]
    fn settings_parse_and_reject() {
        let s = Script::parse(
            "cluster 3\nexplore allow crash,partition horizon 50 schedules 7 seed 3 until n1.term > 5\n",
        )
        .unwrap();
        let Stmt::Explore(spec) = &s.lines[1].stmt else {
            panic!("not an explore line")
        };
        assert_eq!(spec.allow, vec![Fault::Crash, Fault::Partition]);
        assert_eq!((spec.horizon, spec.schedules, spec.seed), (50, 7, 3));
        assert_eq!(spec.until.as_ref().unwrap().text, "n1.term > 5");
        let e = Script::parse("cluster 3\nexplore allow crash,meteor").unwrap_err();
        assert!(
            e.message.to_string().contains("unknown fault 'meteor'"),
            "{e}"
        );
        let e = Script::parse("cluster 3\nexplore horizon").unwrap_err();
        assert!(e.message.to_string().contains("missing value"), "{e}");
        let e = Script::parse("cluster 3\nexplore until n1.term >").unwrap_err();
        assert!(e.message.to_string().contains("missing value"), "{e}");
        let e = Script::parse("cluster 3\nexplore horizon 0").unwrap_err();
        assert!(e.message.to_string().contains("out of range"), "{e}");
        let e = Script::parse("cluster 3\nexplore check invariant,vibes").unwrap_err();
        assert!(
            e.message.to_string().contains("unknown check 'vibes'"),
            "{e}"
        );
    }

    fn ready() -> Explorer {
        Explorer::from_scenario("cluster 3 seed=1\nawait leader != none within 40\n", None).unwrap()
    }

    /// A run with one acknowledged write `e1=v1`, made by the schedule.
    fn run_with_write(ex: &Explorer) -> Run<'_> {
        let mut run = Run::new(ex, Source::Fixed(Vec::new(), 0));
        run.act(Step {
            time: run.sim.now,
            action: Action::Propose {
                key: "e1".into(),
                value: "v1".into(),
                via: None,
            },
        });
        let t = run.sim.now + 5 * TICK_MS;
        run.sim.advance_to(t);
        assert_eq!(run.check(), None, "a committed write breaks nothing");
        run
    }

    /// Issues a linearizable read of `e1` and returns its request id.
    fn read_e1(run: &mut Run<'_>) -> u64 {
        run.act(Step {
            time: run.sim.now,
            action: Action::Read {
                key: "e1".into(),
                via: None,
                linearizable: true,
            },
        });
        run.sim.last_read.expect("a read was issued")
    }

    #[test]
    fn a_lost_acknowledged_write_is_caught() {
        let ex = ready();
        let mut run = run_with_write(&ex);
        read_e1(&mut run);
        let t = run.sim.now + 5 * TICK_MS;
        run.sim.advance_to(t);
        assert_eq!(
            run.check(),
            None,
            "a read that sees the write breaks nothing"
        );
        // Forge the loss: a node that applied past the write no longer holds it.
        let n = run.sim.nodes.get_mut(&3).unwrap();
        n.raft.kv.remove("e1");
        let h = run.check().expect("the loss is caught");
        assert_eq!(h.kind, HitKind::LostWrite);
        assert_eq!(h.check.as_deref(), Some("n3.value e1 = v1"));
    }

    #[test]
    fn a_read_that_misses_an_acknowledged_write_is_caught() {
        let ex = ready();
        let mut run = run_with_write(&ex);
        let id = read_e1(&mut run);
        // Forge a wrong answer before the real one: nothing, although e1 was acknowledged
        // before the read was issued (the simulator answers only a pending read).
        run.sim.requests.get_mut(&id).unwrap().outcome = Outcome::Value {
            value: None,
            index: Some(1),
            stale: None,
        };
        let h = run.check().expect("the wrong read is caught");
        assert_eq!(h.kind, HitKind::WrongRead);
        assert_eq!(h.check.as_deref(), Some("read = v1"));
    }

    #[test]
    fn a_read_of_a_value_nobody_wrote_is_caught() {
        let ex = ready();
        let mut run = run_with_write(&ex);
        let id = read_e1(&mut run);
        let index = run
            .sim
            .leader()
            .map(|l| run.sim.nodes[&l].raft.log.committed);
        run.sim.requests.get_mut(&id).unwrap().outcome = Outcome::Value {
            value: Some("v9".into()),
            index,
            stale: None,
        };
        let h = run.check().expect("the invented value is caught");
        assert_eq!(h.kind, HitKind::WrongRead);
        assert!(
            h.detail.to_string().contains("no client wrote"),
            "{}",
            h.detail
        );
        assert_eq!(h.check.as_deref(), Some("read = v1"));
    }

    #[test]
    fn a_cluster_without_a_leader_for_too_long_is_a_liveness_failure() {
        // A crashed leader costs more than one election timeout: with liveness 1 that is a
        // failure; with the default 10 it is not.
        let text = "cluster 3 seed=1\nawait leader != none within 40\n";
        let mut ex = Explorer::from_scenario(text, None).unwrap();
        let leader = ex.start().leader().unwrap();
        let crash = [Step {
            time: ex.start().now + 1,
            action: Action::Kill(leader),
        }];
        ex.spec.check = vec![HitKind::Liveness];
        assert_eq!(ex.replay(&crash).0, None);
        ex.spec.liveness = 1;
        let h = ex.replay(&crash).0.expect("a leaderless election timeout");
        assert_eq!(h.kind, HitKind::Liveness);
        // Not while a majority is down: nothing can be elected then.
        let mut down = crash.to_vec();
        let other = (1..=3).find(|i| *i != leader).unwrap();
        down.push(Step {
            time: ex.start().now + 2,
            action: Action::Kill(other),
        });
        assert_eq!(ex.replay(&down).0, None);
    }
}
