//! `raftlab bench`: figures, not assertions. Throughput of the bare raft core, of the whole
//! simulator at 5, 9 and 64 nodes (idle and with a write per tick, the invariant checker on
//! and off so its share is visible), and the memory and seek time of long histories.
//!
//! Memory is counted by the binary's counting allocator (live and peak heap bytes; the
//! library has no allocator of its own) and, for the whole process, by the kernel's peak
//! resident size (VmHWM).

use std::time::Instant;

use crate::raft::{Config, Message, Raft, RaftConfig, Rng, Role};

use super::action::Action;
use super::cluster::Sim;
use super::history::Timeline;
use super::options::Options;

/// What the binary's allocator can tell: live bytes, peak live bytes since the last reset,
/// and the reset.
#[derive(Clone, Copy)]
pub struct HeapProbe {
    /// Bytes allocated and not yet freed.
    pub live: fn() -> usize,
    /// The highest `live` since the last `reset_peak`.
    pub peak: fn() -> usize,
    /// Starts a new peak measurement from the current live bytes.
    pub reset_peak: fn(),
}

static HEAP_PROBE: std::sync::OnceLock<HeapProbe> = std::sync::OnceLock::new();

/// Lets the binary report heap bytes to `raftlab bench`. Only the first call counts.
pub fn set_heap_probe(probe: HeapProbe) {
    let _ = HEAP_PROBE.set(probe);
}

fn live() -> Option<usize> {
    HEAP_PROBE.get().map(|p| (p.live)())
}

fn peak() -> Option<usize> {
    HEAP_PROBE.get().map(|p| (p.peak)())
}

fn reset_peak() {
    if let Some(p) = HEAP_PROBE.get() {
        (p.reset_peak)();
    }
}

fn mb(bytes: Option<usize>) -> String {
    bytes.map_or("unknown".into(), |b| format!("{:.1} MB", b as f64 / 1e6))
}

/// The process's peak resident memory (Linux VmHWM), if the kernel tells.
fn vm_hwm() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

struct Args {
    only: Option<String>,
    nodes: Option<usize>,
    load: Option<bool>,
    checker: Option<bool>,
    core_ticks: u64,
    writes: u64,
    history_ticks: u64,
    quick: bool,
    scenario: Option<String>,
    runs: u64,
}

/// CPU time this thread has run, seconds (Linux schedstat), so figures stay comparable on a
/// machine shared with other work; None where the kernel does not tell.
fn cpu_secs() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

/// Wall and CPU time of a piece of work.
struct Clock {
    wall: Instant,
    cpu: Option<f64>,
}

impl Clock {
    fn start() -> Clock {
        Clock {
            wall: Instant::now(),
            cpu: cpu_secs(),
        }
    }

    /// (wall seconds, CPU seconds if known).
    fn stop(&self) -> (f64, Option<f64>) {
        let wall = self.wall.elapsed().as_secs_f64();
        let cpu = self.cpu.zip(cpu_secs()).map(|(a, b)| b - a);
        (wall, cpu)
    }
}

/// "12345/s (cpu 13456/s)": a rate by wall time and by CPU time.
fn rate(count: u64, (wall, cpu): (f64, Option<f64>)) -> String {
    match cpu {
        Some(c) if c > 0.0 => format!(
            "{:.0}/s (cpu {:.0}/s)",
            count as f64 / wall,
            count as f64 / c
        ),
        _ => format!("{:.0}/s", count as f64 / wall),
    }
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
        only: None,
        nodes: None,
        load: None,
        checker: None,
        core_ticks: 200_000,
        writes: 100_000,
        history_ticks: 1_000_000,
        quick: false,
        scenario: None,
        runs: 3,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        if flag == "--quick" {
            a.quick = true;
            continue;
        }
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let num = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("{flag}: '{value}' is not a number"))
        };
        match flag.as_str() {
            "--only" => match value.as_str() {
                "core" | "sim" | "checker" | "parser" | "distinct" | "paced" | "sparse" => {
                    a.only = Some(value.clone())
                }
                other => return Err(format!("--only: unknown part '{other}'")),
            },
            "--nodes" => a.nodes = Some(num()?.clamp(1, 64) as usize),
            "--load" => match value.as_str() {
                "idle" => a.load = Some(false),
                "write" => a.load = Some(true),
                other => return Err(format!("--load: '{other}' is not idle or write")),
            },
            "--checker" => match value.as_str() {
                "on" => a.checker = Some(true),
                "off" => a.checker = Some(false),
                other => return Err(format!("--checker: '{other}' is not on or off")),
            },
            "--ticks" => a.core_ticks = num()?.max(1),
            "--writes" => a.writes = num()?,
            "--history-ticks" => a.history_ticks = num()?,
            "--scenario" => a.scenario = Some(value.clone()),
            "--runs" => a.runs = num()?.clamp(1, 100),
            other => return Err(format!("unexpected argument '{other}'")),
        }
    }
    if a.quick {
        a.core_ticks = a.core_ticks.min(20_000);
        a.writes = a.writes.min(8_000);
        a.history_ticks = a.history_ticks.min(100_000);
    }
    Ok(a)
}

/// Runs `raftlab bench ARGS`; returns the exit code.
pub fn main(args: &[String]) -> i32 {
    let a = match parse(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}\n{}", super::cli::USAGE);
            return 2;
        }
    };
    if let Some(file) = &a.scenario {
        return bench_scenario(file, a.runs);
    }
    let part = |p: &str| a.only.as_deref().is_none_or(|o| o == p);
    if part("core") {
        let (t, m, time) = bench_core(a.core_ticks);
        println!(
            "core:      5 nodes, 1 write/tick, messages delivered at once: ticks {}, messages {} ({t} ticks in {:.2} s)",
            rate(t, time),
            rate(m, time),
            time.0
        );
    }
    if part("sim") {
        let scale = if a.quick { 5 } else { 1 };
        let sizes = match a.nodes {
            Some(n) => vec![(n, 100_000 / n as u64)],
            None => vec![(5, 20_000), (9, 10_000), (64, 1_000)],
        };
        for (n, ticks) in sizes {
            for write in [false, true] {
                for check in [true, false] {
                    if a.load.is_some_and(|l| l != write) || a.checker.is_some_and(|c| c != check) {
                        continue;
                    }
                    let r = bench_sim(n, ticks / scale, write, check);
                    println!(
                        "simulator: {n:>2} nodes, {:<12} invariants {}: ticks {}, events {} ({} ticks in {:.3} s)",
                        if write { "1 write/tick" } else { "idle" },
                        if check { "on " } else { "off" },
                        rate(r.ticks, r.time),
                        rate(r.events, r.time),
                        r.ticks,
                        r.time.0
                    );
                }
            }
        }
    }
    if part("checker") {
        bench_checker();
    }
    if part("parser") {
        bench_parser();
    }
    if part("distinct") && a.writes > 0 {
        bench_distinct(a.writes, 1, "one write a tick");
    }
    if part("paced") {
        // What the browser holds after 61 model-minutes at a write per model-second.
        bench_distinct(3_660, 10, "61 model-minutes");
    }
    if part("sparse") && a.history_ticks > 0 {
        bench_sparse(a.history_ticks);
    }
    println!("process:   peak resident memory (VmHWM) {}", mb(vm_hwm()));
    0
}

/// `--scenario FILE`: the scenario parsed and run to its end in this process, `runs` times,
/// one line per run. The same work as the browser's benchmark entry (both call
/// [`super::player::run_text`]), so the two can be compared without process start-up, file
/// reading or output in the native figure.
fn bench_scenario(file: &str, runs: u64) -> i32 {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{file}: {e}");
            return 2;
        }
    };
    for run in 1..=runs {
        let clock = Clock::start();
        let r = match super::player::run_text(&text) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{file}:{e}");
                return 2;
            }
        };
        let (wall, cpu) = clock.stop();
        let cpu = cpu.map_or("unknown".into(), |c| format!("{:.1}", c * 1e3));
        println!(
            "scenario:  run {run}: {} ticks, cpu {cpu} ms, wall {:.1} ms, {} failed lines, fingerprint {:016x}",
            r.time_ms / super::TICK_MS,
            wall * 1e3,
            r.failures,
            r.fingerprint
        );
    }
    0
}

/// The raft core alone: 5 nodes, messages delivered at once, one proposal per tick.
/// Returns (ticks, messages, (wall seconds, CPU seconds)).
fn bench_core(ticks: u64) -> (u64, u64, (f64, Option<f64>)) {
    let cfg = RaftConfig {
        snapshot_every: 1000,
        ..RaftConfig::default()
    };
    let genesis = Config::with_voters(1..=5);
    let mut seed = Rng::new(7);
    let mut nodes: Vec<Raft> = (1..=5)
        .map(|id| Raft::new(id, genesis.clone(), cfg.clone(), seed.fork(id)))
        .collect();
    let mut queue: Vec<Message> = Vec::new();
    let mut messages = 0u64;
    let clock = Clock::start();
    for t in 0..ticks {
        for n in nodes.iter_mut() {
            n.tick();
            queue.append(&mut n.msgs);
            n.notes.clear();
        }
        if let Some(l) = nodes.iter_mut().find(|n| n.role == Role::Leader) {
            let _ = l.client_put("k", &t.to_string(), 0);
            queue.append(&mut l.msgs);
            l.notes.clear();
        }
        while !queue.is_empty() {
            for m in std::mem::take(&mut queue) {
                messages += 1;
                let to = (m.to - 1) as usize;
                if let Some(n) = nodes.get_mut(to) {
                    n.step(m);
                    queue.append(&mut n.msgs);
                    n.notes.clear();
                }
            }
        }
    }
    (ticks, messages, clock.stop())
}

/// What one simulator run measured.
struct SimRun {
    /// Ticks run (after the first leader was elected).
    ticks: u64,
    /// Events processed in them.
    events: u64,
    /// Wall and CPU seconds.
    time: (f64, Option<f64>),
}

/// The whole simulator (network latency, event queue, clients, event log and, if `check`,
/// the invariant checker after every event): `n` nodes for `ticks` ticks after the first
/// election, with a write to a new key every tick when `write`.
fn bench_sim(n: usize, ticks: u64, write: bool, check: bool) -> SimRun {
    let mut sim = Sim::new(n, Options::default());
    sim.check_invariants = check;
    // The election is not what is measured.
    for _ in 0..200 {
        if sim.leader().is_some() {
            break;
        }
        sim.tick(1);
    }
    let before = sim.processed;
    let clock = Clock::start();
    for i in 0..ticks {
        if write {
            let _ = sim.apply(&Action::Propose {
                key: format!("k{i}"),
                value: i.to_string(),
                via: None,
            });
        }
        sim.tick(1);
    }
    SimRun {
        ticks,
        events: sim.processed - before,
        time: clock.stop(),
    }
}

/// Seeks to `seeks` random moments of `tl` and prints mean and worst times (wall, and CPU
/// where the kernel tells).
fn print_seeks(tl: &mut Timeline, seeks: usize) {
    let head = tl.head_time();
    let mut rng = Rng::new(99);
    let (mut worst, mut total) = (0f64, 0f64);
    let (mut worst_cpu, mut total_cpu) = (0f64, 0f64);
    for _ in 0..seeks {
        let target = rng.range(0, head + 1);
        let clock = Clock::start();
        tl.seek(target);
        let (wall, cpu) = clock.stop();
        worst = worst.max(wall);
        total += wall;
        let cpu = cpu.unwrap_or(wall);
        worst_cpu = worst_cpu.max(cpu);
        total_cpu += cpu;
    }
    println!(
        "history:   {seeks} random seeks in it: mean {:.1} ms, worst {:.1} ms (cpu: mean {:.1} ms, worst {:.1} ms)",
        total * 1e3 / seeks as f64,
        worst * 1e3,
        total_cpu * 1e3 / seeks as f64,
        worst_cpu * 1e3
    );
}

/// A history of `writes` writes to distinct keys, one every `every` ticks, on 5 nodes with
/// default options (no compaction: every node keeps every entry and every key).
fn bench_distinct(writes: u64, every: u64, what: &str) {
    reset_peak();
    let before = live();
    let clock = Clock::start();
    let mut tl = Timeline::new(5, Options::default());
    for i in 0..writes {
        let _ = tl.act(Action::Propose {
            key: format!("k{i}"),
            value: format!("v{i}"),
            via: None,
        });
        tl.tick(every);
    }
    let built = clock.stop();
    let held = live().zip(before).map(|(a, b)| a.saturating_sub(b));
    let peak = peak().zip(before).map(|(a, b)| a.saturating_sub(b));
    let applied = tl
        .sim()
        .nodes
        .values()
        .map(|n| n.raft.log.applied)
        .min()
        .unwrap_or(0);
    println!(
        "history:   5 nodes, {what}: {writes} writes to distinct keys, 1 per {every} ticks: recorded in {:.1} s (ticks {}), {} checkpoints, every node applied {applied}; heap held {}, peak {}",
        built.0,
        rate(writes * every, built),
        tl.checkpoint_count(),
        mb(held),
        mb(peak)
    );
    print_seeks(&mut tl, 50);
}

/// A long, sparse history: `ticks` ticks with a write every 100 ticks to one of 50 keys,
/// compaction every 1000 entries, and a leader crash every 100000 ticks.
fn bench_sparse(ticks: u64) {
    reset_peak();
    let before = live();
    let clock = Clock::start();
    let mut tl = Timeline::new(
        5,
        Options {
            snapshot_every: 1000,
            ..Options::default()
        },
    );
    let mut t = 0;
    while t < ticks {
        let step = 100.min(ticks - t);
        tl.tick(step);
        t += step;
        let _ = tl.act(Action::Propose {
            key: format!("k{}", t % 50),
            value: t.to_string(),
            via: None,
        });
        if t % 100_000 == 0 {
            if let Some(l) = tl.sim().leader() {
                let _ = tl.act(Action::Kill(l));
                tl.tick(50);
                t += 50;
                let _ = tl.act(Action::Restart(l));
            }
        }
    }
    let built = clock.stop();
    let held = live().zip(before).map(|(a, b)| a.saturating_sub(b));
    let peak = peak().zip(before).map(|(a, b)| a.saturating_sub(b));
    println!(
        "history:   5 nodes, {ticks} ticks, 1 write per 100 ticks: recorded in {:.1} s (ticks {}), {} checkpoints; heap held {}, peak {}",
        built.0,
        rate(ticks, built),
        tl.checkpoint_count(),
        mb(held),
        mb(peak)
    );
    print_seeks(&mut tl, 50);
}

/// The invariant checker's cost per simulated tick as the cluster grows: the incremental
/// check the simulator runs (only the nodes an event touched) against the full pairwise one.
fn bench_checker() {
    use crate::raft::invariants::{Checker, Observed};
    for n in [5usize, 16, 64] {
        let ticks = 200;
        let mut per_tick = [0f64; 3];
        for (k, check) in [(0, true), (1, false)] {
            let mut sim = Sim::new(n, Options::default());
            sim.check_invariants = check;
            sim.tick(60);
            let mut full = Checker::new();
            for i in 0..ticks {
                let _ = sim.apply(&Action::Propose {
                    key: format!("k{}", i % 50),
                    value: i.to_string(),
                    via: None,
                });
                let end = sim.now + super::cluster::TICK_MS;
                while sim.next_event_time().is_some_and(|t| t <= end) {
                    let s = Instant::now();
                    sim.step_event();
                    per_tick[k] += s.elapsed().as_secs_f64();
                    if !check {
                        let s = Instant::now();
                        let obs: Vec<Observed> = sim
                            .nodes
                            .values()
                            .map(|x| Observed {
                                raft: &x.raft,
                                alive: x.status == super::cluster::Status::Running,
                            })
                            .collect();
                        let _ = full.check(&obs);
                        per_tick[2] += s.elapsed().as_secs_f64();
                    }
                }
                sim.advance_to(end);
            }
        }
        let ms = |x: f64| x * 1000.0 / ticks as f64;
        println!(
            "checker:   {n} nodes, 1 proposal/tick: events {:.3} ms/tick with the incremental check, {:.3} without; the full pairwise check would add {:.3}",
            ms(per_tick[0]),
            ms(per_tick[1]),
            ms(per_tick[2])
        );
    }
}

/// Parsing long lines, and long scenarios of ordinary lines: the time should grow linearly
/// with the length (each case is printed at two sizes, and whole scenarios at 1x and 10x).
fn bench_parser() {
    use super::scenario::Script;
    let mut first: Option<f64> = None;
    for lines in [20_000usize, 200_000] {
        let mut text = String::from("cluster 5 seed=3\nawait leader != none within 60\n");
        for i in 0..lines / 4 {
            text.push_str(&format!(
                "propose k{i}=v{i}\ntick 1\nexpect n1.commit >= {i}\nsay write {i} # note\n"
            ));
        }
        let clock = Clock::start();
        let parsed = Script::parse(&text).map(|s| s.lines.len());
        let (wall, cpu) = clock.stop();
        let secs = cpu.filter(|c| *c > 0.0).unwrap_or(wall);
        let ratio = first.map_or(String::new(), |f| {
            format!(", {:.1}x the time of the 1x scenario", secs / f)
        });
        first.get_or_insert(secs);
        println!(
            "parser:    a {:.1} MB scenario of {} lines in {:.1} ms (cpu {}){ratio}",
            text.len() as f64 / 1e6,
            parsed.unwrap_or(0),
            wall * 1000.0,
            cpu.map_or("unknown".into(), |c| format!("{:.1} ms", c * 1000.0)),
        );
    }
    for mb in [1usize, 2] {
        let words = mb * 1_000_000 / 2;
        let say = format!("cluster 3\nsay{}", " x".repeat(words));
        let nodes: Vec<String> = (0..words / 4)
            .map(|i| format!("n{}", i % 999 + 1))
            .collect();
        let change = format!("cluster 3\nmember change add={}", nodes.join(","));
        for (what, text) in [("say", say), ("member change", change)] {
            let s = Instant::now();
            let _ = Script::parse(&text);
            println!(
                "parser:    a {:.1} MB '{what}' line in {:.1} ms",
                text.len() as f64 / 1e6,
                s.elapsed().as_secs_f64() * 1000.0
            );
        }
    }
}
