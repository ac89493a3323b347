//! Every `.scn` file under `scenarios/` (presets included) runs to the end with no failed
//! line; every preset is registered, titled, described, narrated and asserts something; and
//! running a preset twice gives the same run.

use std::path::{Path, PathBuf};

use raftlab::sim::player::{LineStatus, Player};
use raftlab::sim::presets::PRESETS;
use raftlab::sim::scenario::{Script, Stmt};

fn scenarios_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios")
}

/// Every `.scn` file under `dir`, recursively, sorted.
fn scn_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "scn") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn relative(path: &Path) -> String {
    path.strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Runs a scenario to its end; returns "file:line: message" for every failed line.
fn failures_of(name: &str, text: &str) -> Vec<String> {
    let script = match Script::parse(text) {
        Ok(s) => s,
        Err(e) => {
            return vec![format!(
                "{name}:{}:{}: parse error: {}",
                e.line, e.col, e.message
            )]
        }
    };
    let mut p = Player::new(script);
    p.run_all();
    p.failures()
        .iter()
        .map(|r| match &r.status {
            LineStatus::Failed(m) => format!("{name}:{}: {m}", r.lineno),
            other => format!("{name}:{}: {other:?}", r.lineno),
        })
        .collect()
}

#[test]
fn every_scenario_passes() {
    let files = scn_files(&scenarios_dir());
    assert!(
        files.len() >= 12 + PRESETS.len(),
        "expected at least a dozen example scenarios besides the presets, found {} files",
        files.len()
    );
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        failures.extend(failures_of(&relative(f), &text));
    }
    for line in &failures {
        eprintln!("{line}");
    }
    assert!(
        failures.is_empty(),
        "{} failed line(s) in {} scenario files:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

#[test]
fn every_example_scenario_asserts_something() {
    for f in scn_files(&scenarios_dir()) {
        let text = std::fs::read_to_string(&f).expect("readable");
        let script = Script::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", relative(&f)));
        let checks = script.lines.iter().filter(|l| is_check(&l.stmt)).count();
        assert!(checks > 0, "{} has no expect or await", relative(&f));
    }
}

fn is_check(stmt: &Stmt) -> bool {
    match stmt {
        Stmt::Expect(_) | Stmt::Await { .. } => true,
        Stmt::At { then: Some(s), .. } => is_check(s),
        _ => false,
    }
}

#[test]
fn presets_are_complete_and_registered() {
    assert!(
        PRESETS.len() >= 19,
        "issue 6 lists 19 presets, found {}",
        PRESETS.len()
    );
    let mut ids: Vec<&str> = PRESETS.iter().map(|p| p.id).collect();
    let sorted = {
        let mut s = ids.clone();
        s.sort();
        s
    };
    assert_eq!(
        ids, sorted,
        "presets are listed in teaching (file name) order"
    );
    ids.dedup();
    assert_eq!(ids.len(), PRESETS.len(), "a preset is registered twice");
    for p in PRESETS {
        assert!(!p.title().is_empty(), "{}: no '# title:' line", p.id);
        assert!(
            !p.description().is_empty(),
            "{}: no '# description:' line",
            p.id
        );
        let script = Script::parse(p.text).unwrap_or_else(|e| panic!("{}: {e}", p.id));
        let says = script
            .lines
            .iter()
            .filter(|l| matches!(l.stmt, Stmt::Say(_)))
            .count();
        let checks = script.lines.iter().filter(|l| is_check(&l.stmt)).count();
        assert!(says > 0, "{}: no 'say' narration", p.id);
        assert!(checks > 0, "{}: no expect or await", p.id);
        // The shipped text is the file on disk.
        let path = scenarios_dir()
            .join("presets")
            .join(format!("{}.scn", p.id));
        let on_disk =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            on_disk, p.text,
            "{}: registered text differs from the file",
            p.id
        );
    }
    // Every file in scenarios/presets/ is registered.
    let dir = scenarios_dir().join("presets");
    for f in scn_files(&dir) {
        let id = f
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("utf-8 file name");
        assert!(
            PRESETS.iter().any(|p| p.id == id),
            "scenarios/presets/{id}.scn is not registered in PRESETS (src/sim/presets.rs)"
        );
    }
}

/// One full run of a preset: the final fingerprint and every event's time and text.
fn run_preset(text: &str) -> (u64, Vec<(u64, String)>) {
    let mut p = Player::new(Script::parse(text).expect("presets parse"));
    p.keep_trace = true;
    p.run_all();
    let fp = p
        .timeline()
        .expect("a cluster line ran")
        .sim()
        .fingerprint();
    let events = p
        .trace
        .iter()
        .map(|e| (e.time, e.text().to_string()))
        .collect();
    (fp, events)
}

#[test]
fn presets_are_deterministic() {
    for p in PRESETS {
        let (fp1, ev1) = run_preset(p.text);
        let (fp2, ev2) = run_preset(p.text);
        assert!(!ev1.is_empty(), "{}: no events", p.id);
        assert_eq!(
            ev1, ev2,
            "{}: the event trace differs between two runs",
            p.id
        );
        assert_eq!(
            fp1, fp2,
            "{}: the final state differs between two runs",
            p.id
        );
    }
}
