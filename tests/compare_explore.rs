//! `raftlab compare` and `raftlab explore`: lockstep, the first-divergence report, the
//! compare presets in both runs, explore's determinism across threads, its shrinking, and the
//! counterexamples it reports for the unsafe settings (replayed with the scenario player).

use raftlab::i18n::Lang;
use raftlab::sim::compare::{compare, may_compare, CompareRun, Variant};
use raftlab::sim::explore::{Explorer, HitKind};
use raftlab::sim::player::Player;
use raftlab::sim::presets::{find, PRESETS};
use raftlab::sim::scenario::Script;
use raftlab::sim::TICK_MS;

#[test]
fn a_text_that_may_not_compare_is_no_comparison() {
    // The browser skips `CompareRun::new` for a lesson `may_compare` rules out: that must be
    // exactly the lessons it would refuse, and every compare preset must pass the check.
    let mut files = Vec::new();
    for dir in ["scenarios", "scenarios/presets"] {
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_some_and(|x| x == "scn") {
                files.push((
                    path.display().to_string(),
                    std::fs::read_to_string(&path).unwrap(),
                ));
            }
        }
    }
    assert!(files.len() > PRESETS.len(), "read {} files", files.len());
    let mut compares = 0;
    for (name, text) in &files {
        let run = CompareRun::new(text, &Variant::default());
        if run.is_ok() {
            compares += 1;
            assert!(may_compare(text), "{name} compares but may_compare says no");
        }
        if !may_compare(text) {
            assert!(run.is_err(), "{name}");
        }
    }
    assert!(compares >= 4, "only {compares} comparisons found");
    assert!(!may_compare(
        "cluster 3\nsay compare the two\npropose x=1\n"
    ));
    assert!(may_compare("cluster 3\n  B: kill n1\n"));
}

#[test]
fn stepping_line_by_line_keeps_both_clocks_together_and_matches_compare() {
    // The browser's panes step a comparison one line at a time: after every line the two
    // runs stand at the same time, and the end is exactly what `compare` reports.
    for p in PRESETS.iter().filter(|p| p.id.contains("-compare-")) {
        let whole = compare(p.text, &Variant::default()).unwrap();
        let mut run = CompareRun::new(p.text, &Variant::default()).unwrap();
        let mut lines = 0;
        while run.step().unwrap() {
            lines += 1;
            if let Some(b) = run.b() {
                assert_eq!(run.a().now, b.now, "{}: lockstep after {lines} lines", p.id);
            }
        }
        assert!(run.done(), "{}", p.id);
        assert!(run.b().is_some(), "{}: B forked", p.id);
        assert_eq!(run.first().cloned(), whole.first, "{}", p.id);
        let end = run.finish();
        assert_eq!(end.a.fingerprint(), whole.a.fingerprint(), "{}: A", p.id);
        assert_eq!(end.b.fingerprint(), whole.b.fingerprint(), "{}: B", p.id);

        // Following a paced player part way through `tick` lines passes the same states.
        let mut run = CompareRun::new(p.text, &Variant::default()).unwrap();
        let mut partial_ticks = 0;
        loop {
            for _ in 0..3 {
                let before = run.a().now;
                run.tick_within(before + 2 * TICK_MS + 37).unwrap();
                partial_ticks += (run.a().now - before) / TICK_MS;
                if let Some(b) = run.b() {
                    assert_eq!(run.a().now, b.now, "{}: lockstep inside a line", p.id);
                }
            }
            if !run.step().unwrap() {
                break;
            }
        }
        assert!(partial_ticks > 0, "{}: some ticks ran part way", p.id);
        assert_eq!(run.first().cloned(), whole.first, "{}: paced", p.id);
        let end = run.finish();
        assert_eq!(
            end.a.fingerprint(),
            whole.a.fingerprint(),
            "{}: paced A",
            p.id
        );
        assert_eq!(
            end.b.fingerprint(),
            whole.b.fingerprint(),
            "{}: paced B",
            p.id
        );
        assert_eq!(end.failures_a, whole.failures_a, "{}", p.id);

        // A shared comparison played a slice at a time (the browser, one slice per frame)
        // ends exactly where the whole comparison does, with time passing between slices.
        let mut run = CompareRun::new(p.text, &Variant::default()).unwrap();
        let mut slices = 0;
        while !run.run_for(10 * TICK_MS).unwrap() {
            slices += 1;
            assert!(slices < 1_000_000, "{}: run_for makes progress", p.id);
        }
        assert!(slices > 1, "{}: more than one slice", p.id);
        assert!(run.done(), "{}", p.id);
        let end = run.finish();
        assert_eq!(
            end.a.fingerprint(),
            whole.a.fingerprint(),
            "{}: sliced A",
            p.id
        );
        assert_eq!(
            end.b.fingerprint(),
            whole.b.fingerprint(),
            "{}: sliced B",
            p.id
        );
        assert_eq!(end.failures_b, whole.failures_b, "{}", p.id);
    }
}

#[test]
fn await_and_at_lines_can_be_followed_part_way() {
    // The panes follow the lesson's clock inside `await` and `at` lines too, and a moment
    // scrubbed back to: `tick_within` moves both runs no further than asked and says whether
    // the line's waiting is over.
    let text = "cluster 3 seed=1\ncompare prevote=off\nawait leader != none within 40\nat 9000\nexpect leader != none\n";
    let whole = compare(text, &Variant::default()).unwrap();
    let mut run = CompareRun::new(text, &Variant::default()).unwrap();
    assert!(run.step().unwrap(), "compare line");
    let t0 = run.a().now;
    assert!(
        !run.tick_within(t0 + 3 * TICK_MS + 37).unwrap(),
        "no leader after 3 ticks"
    );
    assert_eq!(run.a().now, t0 + 3 * TICK_MS, "await: three whole ticks");
    assert_eq!(run.b().unwrap().now, run.a().now, "lockstep");
    // Far enough: the leader is elected inside the limit and the line is over.
    assert!(run.tick_within(t0 + 40 * TICK_MS).unwrap());
    let elected = run.a().now;
    assert!(elected < t0 + 40 * TICK_MS);
    assert!(run.step().unwrap());
    assert_eq!(
        run.a().now,
        elected,
        "the rest of the await line moved nothing"
    );
    // `at 9000`: followed to 5000, then to its time.
    assert!(!run.tick_within(5000).unwrap());
    assert_eq!((run.a().now, run.b().unwrap().now), (5000, 5000));
    assert!(run.tick_within(20_000).unwrap());
    assert_eq!(run.a().now, 9000, "never past the line's own time");
    while run.step().unwrap() {}
    let end = run.finish();
    assert_eq!(end.a.fingerprint(), whole.a.fingerprint());
    assert_eq!(end.b.fingerprint(), whole.b.fingerprint());
    assert_eq!(end.first, whole.first);
}

#[test]
fn side_labels_name_what_each_run_has() {
    let run = CompareRun::new(preset("21-compare-prevote-rejoin"), &Variant::default()).unwrap();
    assert_eq!(
        run.side_labels(),
        ("prevote=on".to_string(), "prevote=off".to_string())
    );
    let run = CompareRun::new(preset("22-compare-learner-vs-voter"), &Variant::default()).unwrap();
    assert_eq!(
        run.side_labels(),
        (
            "member add n4 learner".to_string(),
            "member add n4".to_string()
        )
    );
    // A link's options replace the declared ones; `set`'s spelling is normalised.
    let run = CompareRun::new(
        preset("04-leader-isolated"),
        &with(&[("checkquorum", "false")]),
    )
    .unwrap();
    assert_eq!(
        run.side_labels(),
        ("checkquorum=on".to_string(), "checkquorum=off".to_string())
    );
}

fn preset(id: &str) -> &'static str {
    find(id).unwrap_or_else(|| panic!("no preset {id}")).text
}

/// The number of the first line of `text` that starts with `prefix`.
fn line_of(text: &str, prefix: &str) -> usize {
    text.lines()
        .position(|l| l.starts_with(prefix))
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("no line starting with '{prefix}'"))
}

fn with(opts: &[(&str, &str)]) -> Variant {
    Variant {
        options: opts
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..Variant::default()
    }
}

#[test]
fn no_difference_means_identical_runs_in_lockstep() {
    // B with an option set to the value it already has: the same run, event for event.
    for id in [
        "04-leader-isolated",
        "16-prevote-checkquorum",
        "11-add-learner",
    ] {
        let r = compare(preset(id), &with(&[("max-learners", "1")])).unwrap();
        assert!(r.first.is_none(), "{id}: {:?}", r.first);
        assert_eq!(r.a.fingerprint(), r.b.fingerprint(), "{id}");
        assert_eq!(r.a.now, r.b.now, "{id}: same clock");
        // And run A is exactly what the player makes of the scenario.
        let mut p = Player::new(Script::parse(preset(id)).unwrap());
        p.run_all();
        let played = p.timeline().unwrap().sim().fingerprint();
        assert_eq!(
            r.a.fingerprint(),
            played,
            "{id}: run A is the scenario as written"
        );
    }
}

#[test]
fn first_divergence_is_reported_in_words() {
    let text = preset("04-leader-isolated");
    let r = compare(text, &with(&[("checkquorum", "off")])).unwrap();
    let d = r.first.expect("check-quorum off must diverge");
    // The isolated leader n2 steps down by itself only with check-quorum.
    let line = line_of(text, "await n2.role = follower");
    assert_eq!(d.lineno, line);
    assert!(d
        .diffs
        .iter()
        .any(|x| x.what == "role" && x.node == Some(2) && x.a == "follower" && x.b == "leader"));
    assert!(d.text.contains("with checkquorum=off"), "{}", d.text);
    assert!(d.text.contains("n2 is leader (A: follower)"), "{}", d.text);
    assert!(
        d.events_a.iter().any(|e| e.contains("check-quorum")),
        "{:?}",
        d.events_a
    );
    // B's own line fails where A's passes.
    assert!(r.failures_a.is_empty());
    assert_eq!(r.failures_b.len(), 1);
    assert_eq!(r.failures_b[0].0, line);
}

#[test]
fn prevote_off_rejoin_diverges_first_on_the_isolated_nodes_term() {
    let r = compare(preset("21-compare-prevote-rejoin"), &Variant::default()).unwrap();
    let d = r.first.unwrap();
    assert!(d
        .diffs
        .iter()
        .any(|x| x.what == "term" && x.node == Some(1) && x.a == "1" && x.b == "2"));
    assert!(d.text.contains("with prevote=off"), "{}", d.text);
    let leader = r
        .firsts
        .iter()
        .find(|f| f.diffs[0].what == "leader")
        .unwrap();
    assert!(
        leader.time > d.time,
        "the leader is deposed only after the rejoin"
    );
}

#[test]
fn an_action_variant_forks_at_its_line() {
    let text = preset("07-partition-then-add");
    // B adds n4 as a learner instead of a voter, at the add made once the strict
    // reconfiguration check is off (the stock etcd refuses both before it).
    let off = line_of(text, "set strict-reconfig=off");
    let line = off + 1;
    assert!(text
        .lines()
        .nth(line - 1)
        .unwrap()
        .starts_with("member add n4"));
    let v = Variant {
        instead: Some(Variant::parse_instead(&format!("{line}:member add n4 learner")).unwrap()),
        ..Variant::default()
    };
    let r = compare(text, &v).unwrap();
    let d = r.first.unwrap();
    assert!(
        d.diffs
            .iter()
            .any(|x| x.what == "member" && x.a == "voter" && x.b == "learner"),
        "{:?}",
        d.diffs
    );
    assert!(
        r.label
            .contains("'member add n4 learner' instead of 'member add n4'"),
        "{}",
        r.label
    );
    // As a learner n4 does not raise the quorum: B keeps its leader, so A's expectations fail there.
    assert!(r.failures_a.is_empty());
    assert!(!r.failures_b.is_empty());
    assert!(compare(text, &Variant::default())
        .unwrap_err()
        .contains("nothing to compare"));
    assert!(Variant::parse_instead("x:kill n1").is_err());
    assert!(Variant::parse_instead("3:frobnicate").is_err());
}

#[test]
fn every_compare_preset_holds_in_both_runs_and_diverges() {
    let mut n = 0;
    for p in PRESETS.iter().filter(|p| {
        p.text
            .lines()
            .any(|l| l.trim() == "compare" || l.starts_with("compare "))
    }) {
        n += 1;
        let r = compare(p.text, &Variant::default()).unwrap();
        assert!(r.failures_a.is_empty(), "{}: A {:?}", p.id, r.failures_a);
        assert!(r.failures_b.is_empty(), "{}: B {:?}", p.id, r.failures_b);
        assert!(r.first.is_some(), "{}: never diverges", p.id);
    }
    assert!(n >= 4, "at least four compare lessons, found {n}");
}

fn explorer(id: &str, schedules: u64) -> Explorer {
    let mut ex = Explorer::from_scenario(preset(id), None).unwrap();
    ex.spec.schedules = schedules;
    ex
}

#[test]
fn explore_is_deterministic_across_threads() {
    let ex = explorer("26-explore-disruptive-rejoin", 1000);
    let one = ex.search_unshrunk(1, &|| false);
    let two = ex.search_unshrunk(2, &|| false);
    let three = ex.search_unshrunk(3, &|| false);
    assert!(
        one.1.is_some(),
        "pre-vote and check-quorum off: a disruption is found"
    );
    assert_eq!(one, two);
    assert_eq!(one, three);
    // Shrinking is deterministic too: the whole report is the same on 1 and 2 threads.
    assert_eq!(ex.search(1, &|| false), ex.search(2, &|| false));
    // The same schedule number always draws the same schedule.
    let i = one.1.as_ref().unwrap().0;
    assert_eq!(ex.run_index(i), ex.run_index(i));
    // A different seed draws different schedules.
    let mut other = ex.clone();
    other.spec.seed = 2;
    assert_ne!(other.run_index(0).0, ex.run_index(0).0);
}

#[test]
fn disruptive_rejoin_is_shrunk_and_replays_as_a_failing_scenario() {
    let ex = explorer("26-explore-disruptive-rejoin", 1000);
    let r = ex.search(2, &|| false);
    let f = r.found.expect("found");
    assert_eq!(f.hit.kind, HitKind::Condition);
    assert!(f.shrunk.len() <= f.original.len());
    // Shrinking keeps the failure: replaying the shrunk schedule hits the same kind.
    let (hit, accepted) = ex.replay(&f.shrunk);
    assert_eq!(hit.as_ref().map(|h| h.kind), Some(HitKind::Condition));
    assert!(accepted.iter().all(|ok| *ok), "refused steps are dropped");
    // Every action is needed: without any one of them the condition is not reached
    // (or shrinking would have dropped it).
    for i in 0..f.shrunk.len() {
        let mut fewer = f.shrunk.clone();
        fewer.remove(i);
        assert_ne!(
            ex.replay(&fewer).0.map(|h| h.kind),
            Some(HitKind::Condition),
            "action {i} is not needed"
        );
    }
    // The scenario it writes fails on its last line, the negated condition, when played.
    let scn = ex.to_scn(&f);
    assert!(scn.trim_end().ends_with("expect disruptions < 1"), "{scn}");
    let mut p = Player::new(Script::parse(&scn).unwrap());
    p.run_all();
    let fails = p.failures();
    assert_eq!(fails.len(), 1, "{scn}\n{:?}", fails);
    assert_eq!(fails[0].line, p.script.lines.len() - 1);
}

#[test]
fn defaults_hold_where_the_unsafe_settings_fail() {
    // Preset 27 is preset 26's search with etcd's defaults. Its whole budget is checked by
    // `raftlab explore preset:27-explore-defaults-hold`; here the schedules that break the
    // unsafe settings first are run against the defaults.
    let unsafe_ex = explorer("26-explore-disruptive-rejoin", 1000);
    let (tried, hit) = unsafe_ex.search_unshrunk(2, &|| false);
    assert!(hit.is_some());
    let safe = explorer("27-explore-defaults-hold", tried.max(100));
    let (safe_tried, safe_hit) = safe.search_unshrunk(2, &|| false);
    assert_eq!(safe_hit, None);
    assert_eq!(safe_tried, tried.max(100));
}

#[test]
fn figure_8_counterexample_with_unsafe_commit_replays() {
    // The lowest failing schedule of preset 25's search (the CLI finds it with
    // `raftlab explore preset:25-explore-figure-8-unsafe`): a committed entry is overwritten.
    let ex = explorer("25-explore-figure-8-unsafe", 3000);
    let (steps, hit) = ex.run_index(560);
    let hit = hit.expect("schedule 560 breaks Figure 8's rule");
    assert_eq!(hit.kind, HitKind::Invariant);
    assert!(
        hit.detail.to_string().contains("leader completeness"),
        "{}",
        hit.detail
    );
    let (shrunk, hit2, _) = ex.shrink(&steps, &hit);
    assert_eq!(hit2.kind, HitKind::Invariant);
    let f = raftlab::sim::explore::Found {
        index: 560,
        original: steps,
        shrunk,
        hit: hit2,
        replays: 0,
    };
    let scn = ex.to_scn(&f);
    // Narrated in each language, as a lesson is: the Chinese line words the finding (the
    // invariant's name included) in Chinese, from the same values.
    let script = Script::parse(&scn).unwrap();
    let said = script
        .lines
        .iter()
        .rev()
        .find_map(|l| l.narration(Lang::Zh))
        .expect("the counterexample's narration");
    assert!(said.contains("领导者完整性"), "{said}");
    assert!(scn.contains("# title.zh: 反例："), "{scn}");
    let mut p = Player::new(script);
    p.run_all();
    let sim = p.timeline().unwrap().sim();
    assert!(!sim.violations.is_empty(), "{scn}");
    assert_eq!(p.failures().len(), 1, "the final expect fails: {scn}");
    // Without the unsafe switch the same schedule breaks nothing.
    let safe_text = preset("25-explore-figure-8-unsafe").replace(" unsafe-commit=on", "");
    let safe = Explorer::from_scenario(&safe_text, None).unwrap();
    assert_eq!(safe.replay(&f.shrunk).0, None);
}

fn disruptions_after(text: &str) -> u64 {
    let mut p = Player::new(Script::parse(text).unwrap());
    p.run_all();
    assert!(p.failures().is_empty(), "{text}: {:?}", p.failures());
    p.timeline().unwrap().sim().disruptions
}

#[test]
fn disruptions_count_stable_leaders_deposed_by_a_higher_term() {
    let rejoin = "await leader = n2 within 40\nisolate n1\ntick 50\nheal\ntick 10\n";
    // Without pre-vote, the rejoining n1's inflated term deposes the stable leader n2.
    assert_eq!(
        disruptions_after(&format!("cluster 3 seed=1 prevote=off\n{rejoin}")),
        1
    );
    // With pre-vote (etcd's default) n1 never raised its term.
    assert_eq!(disruptions_after(&format!("cluster 3 seed=1\n{rejoin}")), 0);
    // A leader transfer deposes the leader on purpose: not a disruption.
    assert_eq!(
        disruptions_after("cluster 3 seed=1\nawait leader = n2 within 40\ntick 20\ntransfer-leader n1\nawait leader = n1 within 20\n"),
        0
    );
    // A leader cut off from its quorum and replaced is not a stable leader.
    assert_eq!(
        disruptions_after("cluster 3 seed=1 checkquorum=off\nawait leader = n2 within 40\nisolate n2\ntick 40\nheal\ntick 10\nexpect n2.role = follower\n"),
        0
    );
}

#[test]
fn shrinking_removes_actions_that_do_not_matter() {
    use raftlab::sim::explore::Step;
    use raftlab::sim::Action;
    let ex = explorer("26-explore-disruptive-rejoin", 1000);
    let (_, first) = ex.search_unshrunk(2, &|| false);
    let (_, steps, hit) = first.unwrap();
    // Pad the failing schedule with client writes that change nothing essential.
    let t0 = ex.start().now;
    let mut padded = steps.clone();
    for k in 0..6u64 {
        padded.push(Step {
            time: t0 + 1 + k * (hit.time - t0) / 7,
            action: Action::Propose {
                key: format!("pad{k}"),
                value: "1".into(),
                via: None,
            },
        });
    }
    padded.sort_by_key(|s| s.time);
    let padded_hit = ex.replay(&padded).0.expect("still fails with the padding");
    let (shrunk, h, replays) = ex.shrink(&padded, &padded_hit);
    assert_eq!(h.kind, HitKind::Condition);
    assert!(replays > 0);
    assert!(
        shrunk.len() <= steps.len(),
        "{} padded actions shrunk to {}, more than the {} the search needed",
        padded.len(),
        shrunk.len(),
        steps.len()
    );
    assert!(shrunk
        .iter()
        .all(|s| !matches!(&s.action, Action::Propose { key, .. } if key.starts_with("pad"))));
    assert_eq!(
        ex.replay(&shrunk).0.map(|h| h.kind),
        Some(HitKind::Condition)
    );
}
