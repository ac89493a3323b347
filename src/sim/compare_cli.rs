//! `raftlab compare FILE.scn --with OPTION=VALUE ...`: play a scenario as two runs in
//! lockstep and print where they first diverge, then both final tables.
//!
//! Exit codes: 0 when every line held in both runs, 1 when a line failed in either run,
//! 2 for a malformed file, nothing to compare, or bad usage.

use serde_json::json;

use super::cli::{load_arg, print_table, summary_json, USAGE};
use super::compare::{compare, Divergence, Variant};
use crate::i18n::Lang;

fn div_json(d: &Divergence) -> serde_json::Value {
    json!({
        "time_ms": d.time,
        "tick": d.time as f64 / super::cluster::TICK_MS as f64,
        "line": d.lineno,
        "command": d.line,
        "text": d.text,
        "diffs": d.diffs.iter().map(|x| json!({"what": x.what, "node": x.node.map(|n| format!("n{n}")), "a": x.a, "b": x.b})).collect::<Vec<_>>(),
        "events_a": d.events_a,
        "events_b": d.events_b,
    })
}

/// Runs `raftlab compare` with `args` (after the subcommand); returns the exit code.
pub fn main(args: &[String]) -> i32 {
    let mut file = None;
    let mut variant = Variant::default();
    let mut json_out = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => json_out = true,
            "--with" => {
                let Some(v) = it.next() else {
                    eprintln!("--with needs OPTION=VALUE\n{USAGE}");
                    return 2;
                };
                for w in v.split_whitespace() {
                    let Some((k, val)) = w.split_once('=') else {
                        eprintln!("--with: expected OPTION=VALUE, got '{w}'");
                        return 2;
                    };
                    if let Err(e) = super::options::Options::default().set(k, val) {
                        eprintln!("--with {w}: {e}");
                        return 2;
                    }
                    if k == "seed" {
                        eprintln!("--with: both runs share the seed; compare other options");
                        return 2;
                    }
                    variant.options.push((k.to_string(), val.to_string()));
                }
            }
            "--from" => match it.next().map(|v| v.parse::<usize>()) {
                Some(Ok(n)) if n > 0 => variant.from_line = Some(n),
                _ => {
                    eprintln!("--from needs a line number\n{USAGE}");
                    return 2;
                }
            },
            "--instead" => {
                let Some(v) = it.next() else {
                    eprintln!("--instead needs LINE:COMMAND\n{USAGE}");
                    return 2;
                };
                match Variant::parse_instead(v) {
                    Ok(x) => variant.instead = Some(x),
                    Err(e) => {
                        eprintln!("--instead: {e}");
                        return 2;
                    }
                }
            }
            f if !f.starts_with("--") && file.is_none() => file = Some(f.to_string()),
            other => {
                eprintln!("unexpected argument '{other}'\n{USAGE}");
                return 2;
            }
        }
    }
    let (file, text) = match load_arg(file) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let r = match compare(&text, &variant) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{file}: {e}");
            return 2;
        }
    };
    let fails = |v: &[(usize, String)]| -> Vec<String> {
        v.iter().map(|(l, m)| format!("{file}:{l}: {m}")).collect()
    };
    let (fa, fb) = (fails(&r.failures_a), fails(&r.failures_b));
    if json_out {
        let v = json!({
            "b": r.label,
            "first_divergence": r.first.as_ref().map(div_json),
            "first_of_each_kind": r.firsts.iter().map(div_json).collect::<Vec<_>>(),
            "run_a": summary_json(&r.a, &fa),
            "run_b": summary_json(&r.b, &fb),
        });
        println!("{v}");
    } else {
        println!("run A: {file} as written; run B: {}", r.label);
        match &r.first {
            None => println!("the runs never diverge"),
            Some(d) => {
                println!("first divergence {}", d.text);
                for e in &d.events_b {
                    println!("  B: {e}");
                }
                for e in &d.events_a {
                    println!("  A: {e}");
                }
                if r.firsts.len() > 1 {
                    println!("first divergence of each kind:");
                    for f in &r.firsts {
                        println!("  {:<10} {}", f.diffs[0].what, f.text);
                    }
                }
            }
        }
        for f in fa
            .iter()
            .map(|f| format!("A: {f}"))
            .chain(fb.iter().map(|f| format!("B: {f}")))
        {
            println!("FAILED {f}");
        }
        println!("\nrun A:");
        print_table(&r.a, Lang::En);
        println!("\nrun B ({}):", r.label);
        print_table(&r.b, Lang::En);
    }
    i32::from(!fa.is_empty() || !fb.is_empty())
}
