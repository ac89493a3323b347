//! The native `raftlab` command: `run` a scenario, `bench` the core, `presets` list.
//!
//! Exit codes: 0 when every expect and await held, 1 when any failed, 2 for a malformed file
//! or bad usage. Never a panic on any input.

use serde_json::json;

use super::cluster::{Sim, Status};
use super::player::{LineStatus, Player};
use super::presets::PRESETS;
use super::scenario::Script;
use crate::i18n::{Lang, Msg};

pub(crate) const USAGE: &str = "usage:
  raftlab run [--json] [--quiet] [--lang en|zh] FILE.scn
                                            run a scenario (FILE may be preset:NAME);
                                            --lang zh: narration and events in Chinese
  raftlab bench [--only core|sim|checker|parser|distinct|paced|sparse] [--quick]
                [--ticks N] [--nodes N] [--load idle|write] [--checker on|off]
                [--writes N] [--history-ticks N]
                                            figures: throughput of the core and of the
                                            simulator (5, 9, 64 nodes, or --nodes N), cost of
                                            the invariant checker, parser on long lines,
                                            memory and seek time of long histories (--writes
                                            distinct keys one a tick, default 100000;
                                            --history-ticks with a write every 100 ticks,
                                            default 1000000)
  raftlab bench --scenario FILE.scn [--runs N]
                                            CPU time of parsing and running FILE to its end
                                            in-process, N times (default 3): the work the
                                            browser's benchmark entry times
  raftlab presets [--lang en|zh]            list the narrated presets
  raftlab compare FILE.scn [--with OPTION=VALUE ...] [--from LINE] [--instead LINE:COMMAND] [--json]
                                            run two variants in lockstep, report the first divergence
  raftlab explore FILE.scn [--until COND] [--jobs N] [--budget S] [--schedules N] [--seed N]
                 [--allow crash,partition,...] [--check invariant,...] [--horizon T] [--actions N] [--liveness K] [--out FILE] [--json]
                                            search schedules of faults for a failure, shrink it to a scenario";

/// Runs the CLI with `args` (without the program name); returns the exit code.
pub fn main(args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        Some("run") => run(&args[1..]),
        Some("bench") => super::bench::main(&args[1..]),
        Some("compare") => super::compare_cli::main(&args[1..]),
        Some("explore") => super::explore_cli::main(&args[1..]),
        Some("presets") => {
            let lang = match &args[1..] {
                [] => Lang::En,
                [flag, code] if flag == "--lang" => match parse_lang(code) {
                    Ok(l) => l,
                    Err(code) => return code,
                },
                _ => {
                    eprintln!("{USAGE}");
                    return 2;
                }
            };
            for p in PRESETS {
                println!("{:<28} {}", p.id, p.title_in(lang));
                println!("{:<28} {}", "", p.description_in(lang));
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

/// The file argument and its text (a path or `preset:ID`), or exit code 2 once the reason is
/// on stderr: no file prints the usage, an unreadable one its error.
pub(crate) fn load_arg(file: Option<String>) -> Result<(String, String), i32> {
    let Some(file) = file else {
        eprintln!("{USAGE}");
        return Err(2);
    };
    match load(&file) {
        Ok(text) => Ok((file, text)),
        Err(e) => {
            eprintln!("error: {e}");
            Err(2)
        }
    }
}

/// [`load_arg`], then the scenario parsed; a malformed one exits 2 with `file:line:col: ...`.
pub(crate) fn load_script(file: Option<String>) -> Result<(String, Script), i32> {
    let (file, text) = load_arg(file)?;
    match Script::parse(&text) {
        Ok(script) => Ok((file, script)),
        Err(e) => {
            eprintln!("{file}:{e}");
            Err(2)
        }
    }
}

fn run(args: &[String]) -> i32 {
    let mut json_out = false;
    let mut quiet = false;
    let mut file = None;
    let mut lang = Lang::En;
    let mut args = args.iter();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--json" => json_out = true,
            "--quiet" => quiet = true,
            "--lang" => {
                let Some(code) = args.next() else {
                    eprintln!("--lang needs en or zh\n{USAGE}");
                    return 2;
                };
                match parse_lang(code) {
                    Ok(l) => lang = l,
                    Err(code) => return code,
                }
            }
            f if !f.starts_with("--") && file.is_none() => file = Some(f.to_string()),
            other => {
                eprintln!("unexpected argument '{other}'\n{USAGE}");
                return 2;
            }
        }
    }
    let (file, script) = match load_script(file) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let mut player = Player::new(script);
    player.keep_trace = !json_out && !quiet;
    player.lang = lang;
    let mut printed = 0;
    while let Some(r) = player.step() {
        if player.keep_trace {
            for e in &player.trace[printed..] {
                println!("[{:>8.1}] {}", e.time as f64 / 100.0, e.text_in(lang));
            }
            printed = player.trace.len();
        }
        match &r.status {
            LineStatus::Failed(m) if !json_out => {
                println!(
                    "{file}:{}: {}: {}",
                    r.lineno,
                    crate::tr!(lang, "cli.failed"),
                    m.render(lang)
                )
            }
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
        print_table(sim, lang);
        let n = player.results().len();
        println!(
            "{}",
            crate::tr!(
                lang,
                "cli.summary",
                file = file,
                ok = n - failures.len(),
                n = n,
                failed = failures.len(),
                violations = sim.violations.len()
            )
        );
    }
    i32::from(!failures.is_empty())
}

/// `--lang CODE`: the language, or exit code 2 after saying what is known.
fn parse_lang(code: &str) -> Result<Lang, i32> {
    match Lang::parse(code) {
        Some(l) if l.code() == code => Ok(l),
        _ => {
            eprintln!("unknown language '{code}' (known: en, zh)");
            Err(2)
        }
    }
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

/// Prints the node table and the quorum line after a run, worded in `lang` (ids, numbers
/// and the configuration's notation stay as they are).
pub(crate) fn print_table(sim: &Sim, lang: Lang) {
    let cfg = sim.config();
    let t = |key: &str| crate::i18n::text(lang, key).to_string();
    println!(
        "\n{} {} {} {} {} {} {} {} {}  {}",
        pad(&t("cli.t.node"), 5),
        pad(&t("cli.t.status"), 14),
        pad(&t("cli.t.role"), 13),
        pad_left(&t("cli.t.term"), 5),
        pad_left(&t("cli.t.vote"), 5),
        pad_left(&t("cli.t.lead"), 5),
        pad_left(&t("cli.t.commit"), 7),
        pad_left(&t("cli.t.applied"), 7),
        pad_left(&t("cli.t.last"), 5),
        t("cli.t.member"),
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
            t("cli.t.voter")
        } else if cfg.is_learner(r.id) {
            t("role.learner")
        } else {
            "-".to_string()
        };
        println!(
            "{:<5} {} {} {:>5} {:>5} {:>5} {:>7} {:>7} {:>5}  {member}",
            format!("n{}", r.id),
            pad(&super::labels::status(n.status).render(lang), 14),
            pad(&super::labels::role(r.role).render(lang), 13),
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
        let reach = match h.reachable {
            None => crate::msg!("cli.q.no_leader"),
            Some(r) => crate::msg!("cli.q.reachable").arg("n", r),
        };
        crate::msg!("cli.q.half")
            .arg("quorum", h.quorum)
            .arg("voters", h.voters.len())
            .arg("alive", h.alive)
            .arg("reach", reach)
            .arg(
                "lost",
                if h.has_quorum {
                    Msg::verbatim("")
                } else {
                    crate::msg!("cli.q.lost")
                },
            )
    };
    let mut line = half(&q.incoming);
    if let Some(o) = &q.outgoing {
        line = crate::msg!("cli.q.joint")
            .arg("new", line)
            .arg("old", half(o));
    }
    println!(
        "tick {}  {}  {}",
        sim.now / super::cluster::TICK_MS,
        cfg.describe(),
        line.render(lang)
    );
}

/// Columns a terminal gives `s`: CJK characters take two.
fn width(s: &str) -> usize {
    s.chars()
        .map(|c| {
            if (c as u32) >= 0x1100 && !('\u{2190}'..='\u{21ff}').contains(&c) {
                2
            } else {
                1
            }
        })
        .sum()
}

/// `s` padded on the right to `w` terminal columns.
fn pad(s: &str, w: usize) -> String {
    format!("{s}{}", " ".repeat(w.saturating_sub(width(s))))
}

/// `s` padded on the left to `w` terminal columns.
fn pad_left(s: &str, w: usize) -> String {
    format!("{}{s}", " ".repeat(w.saturating_sub(width(s))))
}
