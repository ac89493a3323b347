//! `raftlab run --lang zh` speaks Chinese from the first narration line to the table at the
//! end; without `--lang` (or with `--lang en`) the output stays English.

use std::process::Command;

fn run(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_raftlab"))
        .args(args)
        .output()
        .expect("the raftlab binary runs");
    assert!(out.status.success(), "raftlab {args:?} failed: {out:?}");
    String::from_utf8(out.stdout).expect("utf-8 output")
}

fn cjk(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[test]
fn run_in_chinese_words_narration_events_and_the_final_table() {
    let out = run(&["run", "--lang", "zh", "preset:13-promotion-refused"]);
    let lines: Vec<&str> = out.lines().collect();
    let narration: Vec<&&str> = lines.iter().filter(|l| l.starts_with("  >> ")).collect();
    assert!(!narration.is_empty(), "{out}");
    assert!(
        narration.iter().all(|l| cjk(l)),
        "narration in Chinese:\n{out}"
    );
    // Event sentences: Chinese, etcd's own error string verbatim.
    assert!(
        out.contains("被拒绝：n4 还没有赶上")
            && out.contains(
                "etcdserver: can only promote a learner member which is in sync with leader"
            ),
        "{out}"
    );
    let events: Vec<&&str> = lines.iter().filter(|l| l.starts_with('[')).collect();
    assert!(events.len() > 10, "{out}");
    assert!(
        events.iter().all(|l| cjk(l)),
        "every event is worded in Chinese:\n{out}"
    );
    // The table: headers, roles, statuses, membership and the quorum line.
    let head = lines
        .iter()
        .position(|l| l.starts_with("节点"))
        .unwrap_or_else(|| panic!("a Chinese table header:\n{out}"));
    assert!(
        lines[head].contains("状态") && lines[head].contains("任期"),
        "{out}"
    );
    let rows = &lines[head + 1..head + 5];
    for row in rows {
        assert!(row.contains("运行中") && row.contains("投票成员"), "{row}");
    }
    assert!(rows.iter().any(|r| r.contains("领导者")), "{out}");
    let quorum = lines[head + 5];
    assert!(
        quorum.starts_with("tick 57  voters=(n1 n2 n3 n4)  法定人数 3"),
        "{quorum}"
    );
    // The configuration keeps etcd's notation, voters=(...); nothing else is English.
    let table = lines[head..head + 6]
        .join("\n")
        .replace("voters=(n1 n2 n3 n4)", "");
    for english in [
        "status",
        "follower",
        "leader",
        "voter",
        "quorum",
        "reachable",
        "alive",
    ] {
        assert!(
            !table.contains(english),
            "'{english}' left in the table:\n{table}"
        );
    }
}

#[test]
fn run_without_lang_stays_english() {
    for args in [
        &["run", "preset:13-promotion-refused"][..],
        &["run", "--lang", "en", "preset:13-promotion-refused"][..],
    ] {
        let out = run(args);
        assert!(!cjk(&out), "{args:?}:\n{out}");
        assert!(out.contains("node  status         role"), "{out}");
        assert!(
            out.contains("quorum 3 of 4 voters (4 alive, 4 reachable)"),
            "{out}"
        );
    }
}
