//! The native `raftlab` command: `run` a scenario, `bench` the core, `presets` list.
//!
//! Exit codes: 0 when every expect and await held, 1 when any failed, 2 for a malformed file
//! or bad usage. Never a panic on any input.

use std::time::Instant;

use serde_json::json;

use crate::raft::{Config, Message, Raft, RaftConfig, Rng, Role};

use super::cluster::{Sim, Status};
use super::options::Options;
use super::player::{LineStatus, Player};
use super::presets::PRESETS;
use super::scenario::Script;

static HEAP_PROBE: std::sync::OnceLock<fn() -> usize> = std::sync::OnceLock::new();

/// Lets the binary report live heap bytes to `raftlab bench` (the library has no allocator
/// of its own).
pub fn set_heap_probe(probe: fn() -> usize) {
    let _ = HEAP_PROBE.set(probe);
}

fn heap() -> Option<usize> {
    HEAP_PROBE.get().map(|f| f())
}

pub(crate) const USAGE: &str = "usage:
  raftlab run [--json] [--quiet] FILE.scn   run a scenario (FILE may be preset:NAME)
  raftlab bench [--ticks N] [--history-ticks N]
                                            throughput of the core and the simulator;
                                            memory and seek time of a long history
  raftlab presets                           list the narrated presets
  raftlab compare FILE.scn [--with OPTION=VALUE ...] [--from LINE] [--instead LINE:COMMAND] [--json]
                                            run two variants in lockstep, report the first divergence
  raftlab explore FILE.scn [--until COND] [--jobs N] [--budget S] [--schedules N] [--seed N]
                 [--allow crash,partition,...] [--check invariant,...] [--horizon T] [--actions N] [--liveness K] [--out FILE] [--json]
                                            search schedules of faults for a failure, shrink it to a scenario";

/// Runs the CLI with `args` (without the program name); returns the exit code.
pub fn main(args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        Some("run") => run(&args[1..]),
        Some("bench") => bench(&args[1..]),
        Some("compare") => super::compare_cli::main(&args[1..]),
        Some("explore") => super::explore_cli::main(&args[1..]),
        Some("presets") => {
            for p in PRESETS {
                println!("{:<28} {}", p.id, p.title());
                println!("{:<28} {}", "", p.description());
            }
            0
        }
        Some("help") | Some("--help") | Some("-h") => {
            println!("{USAGE}");
            0
        }
        _ => {
            eprintln!("{USAGE}");
            2
        }
    }
}

pub(crate) fn load(path: &str) -> Result<String, String> {
    if let Some(id) = path.strip_prefix("preset:") {
        return super::presets::find(id)
            .map(|p| p.text.to_string())
            .ok_or_else(|| format!("no preset named '{id}' (see: raftlab presets)"));
    }
    std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))
}

fn run(args: &[String]) -> i32 {
    let mut json_out = false;
    let mut quiet = false;
    let mut file = None;
    for a in args {
        match a.as_str() {
            "--json" => json_out = true,
            "--quiet" => quiet = true,
            f if !f.starts_with("--") && file.is_none() => file = Some(f.to_string()),
            other => {
                eprintln!("unexpected argument '{other}'\n{USAGE}");
                return 2;
            }
        }
    }
    let Some(file) = file else {
        eprintln!("{USAGE}");
        return 2;
    };
    let text = match load(&file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let script = match Script::parse(&text) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{file}:{e}");
            return 2;
        }
    };
    let mut player = Player::new(script);
    player.keep_trace = !json_out && !quiet;
    let mut printed = 0;
    while let Some(r) = player.step() {
        if player.keep_trace {
            for e in &player.trace[printed..] {
                println!("[{:>8.1}] {}", e.time as f64 / 100.0, e.text);
            }
            printed = player.trace.len();
        }
        match &r.status {
            LineStatus::Failed(m) if !json_out => println!("{file}:{}: FAILED: {m}", r.lineno),
            LineStatus::Narration(t) if !json_out && !quiet => println!("  >> {t}"),
            _ => {}
        }
    }
    let failures: Vec<String> = player
        .failures()
        .iter()
        .map(|r| match &r.status {
            LineStatus::Failed(m) => format!("{file}:{}: {m}", r.lineno),
            _ => String::new(),
        })
        .collect();
    let Some(tl) = player.timeline() else {
        eprintln!("{file}: nothing ran");
        return 2;
    };
    let sim = tl.sim();
    if json_out {
        println!("{}", summary_json(sim, &failures));
    } else {
        print_table(sim);
        let n = player.results().len();
        println!(
            "{file}: {} of {n} lines ok, {} failed, {} invariant violations",
            n - failures.len(),
            failures.len(),
            sim.violations.len()
        );
    }
    i32::from(!failures.is_empty())
}

fn word(id: u64) -> serde_json::Value {
    if id == 0 {
        serde_json::Value::Null
    } else {
        json!(format!("n{id}"))
    }
}

pub(crate) fn summary_json(sim: &Sim, failures: &[String]) -> serde_json::Value {
    let cfg = sim.config();
    let q = sim.quorum_status();
    // Each request with raftlab's words and, for a refusal or time-out, etcd's exact error.
    let requests: Vec<serde_json::Value> = sim
        .requests
        .values()
        .map(|r| {
            json!({
                "id": r.id,
                "request": r.kind.label(),
                "via": r.via.map_or(serde_json::Value::Null, word),
                "time_ms": r.time,
                "outcome": r.outcome.describe(),
                "etcd_error": r.outcome.etcd_error(),
            })
        })
        .collect();
    let nodes: Vec<serde_json::Value> = sim
        .nodes
        .values()
        .map(|n| {
            let r = &n.raft;
            let member = if cfg.is_voter(r.id) {
                "voter"
            } else if cfg.is_learner(r.id) {
                "learner"
            } else {
                "none"
            };
            json!({
                "id": format!("n{}", r.id),
                "alive": n.status == Status::Running,
                "status": n.status.name(),
                "role": r.role.name(),
                "term": r.term,
                "vote": word(r.vote),
                "lead": word(r.lead),
                "commit": r.log.committed,
                "applied": r.log.applied,
                "last": r.log.last_index(),
                "member": member,
            })
        })
        .collect();
    let names = |ids: Vec<u64>| ids.into_iter().map(|i| format!("n{i}")).collect::<Vec<_>>();
    let violations: Vec<serde_json::Value> = sim
        .violations
        .iter()
        .map(|v| json!({"time": v.time, "invariant": v.invariant, "detail": v.detail, "cause": v.cause}))
        .collect();
    json!({
        "tick": sim.now / super::cluster::TICK_MS,
        "time_ms": sim.now,
        "fingerprint": format!("{:016x}", sim.fingerprint()),
        "leader": word(sim.leader().unwrap_or(0)),
        "nodes": nodes,
        "voters": names(cfg.all_voters().into_iter().collect()),
        "learners": names(cfg.learners.iter().chain(cfg.learners_next.iter()).copied().collect()),
        "quorum": q.incoming.quorum,
        "quorum_status": q,
        "requests": requests,
        "violations": violations,
        "failures": failures,
    })
}

pub(crate) fn print_table(sim: &Sim) {
    let cfg = sim.config();
    println!(
        "\n{:<5} {:<14} {:<13} {:>5} {:>5} {:>5} {:>7} {:>7} {:>5}  member",
        "node", "status", "role", "term", "vote", "lead", "commit", "applied", "last"
    );
    for n in sim.nodes.values() {
        let r = &n.raft;
        let nm = |id: u64| {
            if id == 0 {
                "-".to_string()
            } else {
                format!("n{id}")
            }
        };
        let member = if cfg.is_voter(r.id) {
            "voter"
        } else if cfg.is_learner(r.id) {
            "learner"
        } else {
            "-"
        };
        println!(
            "{:<5} {:<14} {:<13} {:>5} {:>5} {:>5} {:>7} {:>7} {:>5}  {member}",
            format!("n{}", r.id),
            n.status.name(),
            r.role.name(),
            r.term,
            nm(r.vote),
            nm(r.lead),
            r.log.committed,
            r.log.applied,
            r.log.last_index()
        );
    }
    let q = sim.quorum_status();
    let half = |h: &super::health::HalfStatus| {
        let reach = h
            .reachable
            .map_or("no leader".to_string(), |r| format!("{r} reachable"));
        format!(
            "quorum {} of {} voters ({} alive, {reach}){}",
            h.quorum,
            h.voters.len(),
            h.alive,
            if h.has_quorum { "" } else { " LOST" }
        )
    };
    let mut line = half(&q.incoming);
    if let Some(o) = &q.outgoing {
        line = format!("new: {line}; old: {}", half(o));
    }
    println!(
        "tick {}  {}  {line}",
        sim.now / super::cluster::TICK_MS,
        cfg.describe(),
    );
}

/// The raft core alone: 5 nodes, messages delivered at once, one proposal per tick.
/// Returns (ticks, messages, seconds).
pub fn bench_core(ticks: u64) -> (u64, u64, f64) {
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
    let start = Instant::now();
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
    (ticks, messages, start.elapsed().as_secs_f64())
}

fn bench(args: &[String]) -> i32 {
    let mut ticks = 200_000u64;
    let mut history_ticks = 1_000_000u64;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match (a.as_str(), it.next().map(|v| v.parse::<u64>())) {
            ("--ticks", Some(Ok(n))) if n > 0 => ticks = n,
            ("--history-ticks", Some(Ok(n))) => history_ticks = n,
            _ => {
                eprintln!("{USAGE}");
                return 2;
            }
        }
    }
    let (t, m, s) = bench_core(ticks);
    println!(
        "core:      5 nodes, 1 proposal/tick, {t} ticks in {s:.3} s: {:.0} ticks/s, {:.0} messages/s (goal: 200000 ticks/s)",
        t as f64 / s,
        m as f64 / s
    );
    // The whole simulator: network latency, event queue and the invariant checker.
    let sim_ticks = (ticks / 10).max(1);
    for check in [true, false] {
        let mut sim = Sim::new(
            5,
            Options {
                snapshot_every: 1000,
                ..Options::default()
            },
        );
        sim.check_invariants = check;
        let start = Instant::now();
        for i in 0..sim_ticks {
            if let Some(l) = sim.leader() {
                let _ = sim.apply(&super::action::Action::Propose {
                    key: "k".into(),
                    value: i.to_string(),
                    via: Some(l),
                });
            }
            sim.tick(1);
        }
        let s = start.elapsed().as_secs_f64();
        let msgs = sim.net.next_id;
        println!(
            "simulator: 5 nodes, 1 proposal/tick, invariants {}, {sim_ticks} ticks in {s:.3} s: {:.0} ticks/s, {:.0} messages/s",
            if check { "on " } else { "off" },
            sim_ticks as f64 / s,
            msgs as f64 / s
        );
    }
    bench_checker();
    bench_parser();
    if history_ticks > 0 {
        bench_history(history_ticks);
    }
    0
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
                let _ = sim.apply(&super::action::Action::Propose {
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

/// Parsing long lines: the time should grow linearly with the length.
fn bench_parser() {
    use super::scenario::Script;
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

/// Time travel over a long run: memory held by the history and the cost of seeks.
fn bench_history(ticks: u64) {
    use super::history::Timeline;
    let before = heap();
    let start = Instant::now();
    let mut tl = Timeline::new(
        5,
        Options {
            snapshot_every: 1000,
            ..Options::default()
        },
    );
    // A write every 100 ticks to 50 keys, compaction every 1000 entries, and a leader crash
    // every 100000 ticks, so the history has content.
    let mut t = 0;
    while t < ticks {
        let step = 100.min(ticks - t);
        tl.tick(step);
        t += step;
        let _ = tl.act(super::action::Action::Propose {
            key: format!("k{}", t % 50),
            value: t.to_string(),
            via: None,
        });
        if t % 100_000 == 0 {
            if let Some(l) = tl.sim().leader() {
                let _ = tl.act(super::action::Action::Kill(l));
                tl.tick(50);
                t += 50;
                let _ = tl.act(super::action::Action::Restart(l));
            }
        }
    }
    let built = start.elapsed().as_secs_f64();
    let mem = match (before, heap()) {
        (Some(b), Some(a)) => format!("{:.1} MB", a.saturating_sub(b) as f64 / 1e6),
        _ => "unknown".into(),
    };
    println!(
        "history:   5 nodes, {ticks} ticks recorded in {built:.1} s; {} checkpoints; heap held: {mem} (goal: < 64 MB)",
        tl.checkpoint_count()
    );
    let head = tl.head_time();
    let mut rng = Rng::new(99);
    let mut worst = 0f64;
    let mut total = 0f64;
    let seeks = 50;
    for _ in 0..seeks {
        let target = rng.range(0, head + 1);
        let s = Instant::now();
        tl.seek(target);
        let d = s.elapsed().as_secs_f64() * 1000.0;
        worst = worst.max(d);
        total += d;
    }
    println!(
        "history:   {seeks} random seeks: mean {:.1} ms, worst {worst:.1} ms (goal: < 50 ms)",
        total / seeks as f64
    );
}
