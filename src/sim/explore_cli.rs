//! `raftlab explore FILE.scn ...`: search schedules of faults for a failure on every core,
//! print the shrunk counterexample as a scenario.
//!
//! Exit codes: 0 when nothing was found in the budget, 1 when a failure was found (the
//! counterexample is printed or written with `--out`), 2 for a malformed file or bad usage.

use std::time::Instant;

use serde_json::json;

use super::cli::{load_arg, USAGE};
use super::explore::Explorer;
use super::scenario::{Script, Stmt};

/// Runs `raftlab explore` with `args` (after the subcommand); returns the exit code.
pub fn main(args: &[String]) -> i32 {
    let mut file = None;
    let mut jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut budget: Option<f64> = None;
    let mut out: Option<String> = None;
    let mut json_out = false;
    let mut settings: Vec<(String, String)> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| -> Result<String, i32> {
            it.next().cloned().ok_or_else(|| {
                eprintln!("{name} needs a value\n{USAGE}");
                2
            })
        };
        let r = match a.as_str() {
            "--json" => {
                json_out = true;
                Ok(())
            }
            "--jobs" => value("--jobs").and_then(|v| match v.parse::<usize>() {
                Ok(n) if (1..=1024).contains(&n) => {
                    jobs = n;
                    Ok(())
                }
                _ => {
                    eprintln!("--jobs: expected 1 to 1024, got '{v}'");
                    Err(2)
                }
            }),
            "--budget" => value("--budget").and_then(|v| match v.parse::<f64>() {
                Ok(s) if s > 0.0 && s.is_finite() => {
                    budget = Some(s);
                    Ok(())
                }
                _ => {
                    eprintln!("--budget: expected seconds, got '{v}'");
                    Err(2)
                }
            }),
            "--out" => value("--out").map(|v| out = Some(v)),
            "--until" | "--allow" | "--check" | "--schedules" | "--seed" | "--horizon"
            | "--actions" | "--liveness" => {
                value(a).map(|v| settings.push((a[2..].to_string(), v)))
            }
            f if !f.starts_with("--") && file.is_none() => {
                file = Some(f.to_string());
                Ok(())
            }
            other => {
                eprintln!("unexpected argument '{other}'\n{USAGE}");
                Err(2)
            }
        };
        if let Err(code) = r {
            return code;
        }
    }
    let (file, text) = match load_arg(file) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let script = match Script::parse(&text) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{file}:{e}");
            return 2;
        }
    };
    // Settings: the file's `explore` line, then the flags on top.
    let mut spec = script
        .lines
        .iter()
        .find_map(|l| match &l.stmt {
            Stmt::Explore(s) => Some(s.clone()),
            _ => None,
        })
        .unwrap_or_default();
    // A wall-clock budget without a count: as many schedules as fit.
    if budget.is_some() && !settings.iter().any(|(k, _)| k == "schedules") {
        spec.schedules = u64::MAX;
    }
    for (k, v) in &settings {
        if let Err(e) = spec.set(k, v) {
            eprintln!("--{k} {v}: {e}");
            return 2;
        }
    }
    let ex = match Explorer::from_scenario(&text, Some(spec)) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{file}:{e}");
            return 2;
        }
    };
    let started = Instant::now();
    let stop = move || budget.is_some_and(|b| started.elapsed().as_secs_f64() >= b);
    let (tried, first) = ex.search_unshrunk(jobs, &stop);
    let searched = started.elapsed().as_secs_f64();
    let rate = tried as f64 / searched.max(1e-9);
    let allow: Vec<&str> = ex.spec.allow.iter().map(|f| f.name()).collect();
    let found = first.map(|(index, original, hit)| {
        let (shrunk, hit, replays) = ex.shrink(&original, &hit);
        super::explore::Found {
            index,
            original,
            shrunk,
            hit,
            replays,
        }
    });
    let scn = found.as_ref().map(|f| ex.to_scn(f));
    if let (Some(path), Some(s)) = (&out, &scn) {
        if let Err(e) = std::fs::write(path, s) {
            eprintln!("{path}: {e}");
            return 2;
        }
    }
    if json_out {
        let v = json!({
            "tried": tried,
            "seconds": searched,
            "schedules_per_second": rate,
            "jobs": jobs,
            "seed": ex.spec.seed,
            "horizon": ex.spec.horizon,
            "allow": allow,
            "found": found.as_ref().map(|f| json!({
                "schedule": f.index,
                "kind": f.hit.kind.name(),
                "time_ms": f.hit.time,
                "detail": f.hit.detail,
                "original_actions": f.original.len(),
                "shrunk_actions": f.shrunk.len(),
                "replays": f.replays,
                "scenario": scn,
            })),
        });
        println!("{v}");
    } else {
        println!(
            "explored {tried} schedules of {} ticks ({}) in {searched:.2} s on {jobs} threads: {rate:.0} schedules/s",
            ex.spec.horizon,
            allow.join(",")
        );
        match &found {
            None => {
                let mut looked: Vec<String> =
                    ex.spec.check.iter().map(|k| k.name().to_string()).collect();
                if let Some(c) = &ex.spec.until {
                    looked.push(format!("'{}'", c.text));
                }
                println!(
                    "nothing found in {tried} schedules (seed {}): no {}",
                    ex.spec.seed,
                    looked.join(", no ")
                )
            }
            Some(f) => {
                println!(
                    "found: {} in schedule {} at tick {:.1}: {}",
                    f.hit.kind.name(),
                    f.index,
                    f.hit.time as f64 / super::cluster::TICK_MS as f64,
                    f.hit.detail
                );
                println!(
                    "shrunk from {} to {} actions in {} replays",
                    f.original.len(),
                    f.shrunk.len(),
                    f.replays
                );
                match &out {
                    Some(p) => println!("counterexample written to {p} (replay: raftlab run {p})"),
                    None => {
                        println!("--- counterexample (save it and replay with raftlab run) ---");
                        print!("{}", scn.as_deref().unwrap_or(""));
                    }
                }
            }
        }
    }
    i32::from(found.is_some())
}
