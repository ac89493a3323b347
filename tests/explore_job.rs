//! The browser's explore search (`sim::explore_job`, run by the explore worker): cut into
//! slices, it finds exactly what the CLI's search finds; its progress only rises; a time limit
//! ends it; bad input is an error message, never a panic.

use raftlab::sim::explore::{ExploreSpec, Explorer, HitKind};
use raftlab::sim::explore_job::{run, FoundSummary, FromWorker, ToWorker};
use raftlab::sim::presets::find;

fn preset(id: &str) -> &'static str {
    find(id).unwrap_or_else(|| panic!("no preset {id}")).text
}

/// The settings of a scenario's `explore` line (what the browser's form starts from).
fn declared(text: &str) -> ExploreSpec {
    Explorer::from_scenario(text, None).unwrap().spec.clone()
}

/// Runs a request on a fake clock that moves 1 ms per reading; returns every message.
fn messages(req: &ToWorker, per_slice: u64) -> Vec<FromWorker> {
    let mut clock = 0.0;
    let mut out = Vec::new();
    run(
        req,
        per_slice,
        f64::INFINITY,
        &mut || {
            clock += 1.0;
            clock
        },
        &mut |m| out.push(m),
    );
    out
}

#[test]
fn sliced_search_finds_the_same_shrunk_hit_as_the_cli() {
    let text = preset("26-explore-disruptive-rejoin");
    let spec = declared(text);
    let cli = Explorer::from_scenario(text, Some(spec.clone()))
        .unwrap()
        .search(1, &|| false);
    let cli_found = cli
        .found
        .clone()
        .expect("preset 26's search finds a disruption");
    for per_slice in [1, 7, 1000] {
        let req = ToWorker {
            scenario: text.to_string(),
            spec: spec.clone(),
            seconds: None,
        };
        let out = messages(&req, per_slice);
        let progress: Vec<u64> = out
            .iter()
            .filter_map(|m| match m {
                FromWorker::Progress { tried, .. } => Some(*tried),
                _ => None,
            })
            .collect();
        assert!(
            progress.windows(2).all(|w| w[0] < w[1]),
            "progress rises: {progress:?}"
        );
        if per_slice < cli.tried {
            assert!(
                !progress.is_empty(),
                "slices of {per_slice} report progress"
            );
        }
        let n = out.len();
        assert!(
            matches!(&out[n - 2], FromWorker::Shrinking { index, .. } if *index == cli_found.index),
            "{:?}",
            out[n - 2]
        );
        match &out[n - 1] {
            FromWorker::Found {
                tried, found, scn, ..
            } => {
                assert_eq!(*tried, cli.tried);
                assert_eq!(found, &FoundSummary::of(&cli_found));
                assert_eq!(found.steps.len(), cli_found.shrunk.len());
                assert!(scn.contains("expect disruptions < 1"), "{scn}");
            }
            other => panic!("expected Found, got {other:?}"),
        }
    }
}

#[test]
fn a_clean_search_says_how_many_schedules_it_tried() {
    let text = preset("27-explore-defaults-hold");
    let mut spec = declared(text);
    spec.schedules = 40;
    let req = ToWorker {
        scenario: text.to_string(),
        spec,
        seconds: None,
    };
    let out = messages(&req, 16);
    assert!(
        matches!(
            out.last(),
            Some(FromWorker::Nothing {
                tried: 40,
                out_of_time: false,
                ..
            })
        ),
        "{:?}",
        out.last()
    );
    assert_eq!(
        out.iter()
            .filter(|m| matches!(m, FromWorker::Progress { .. }))
            .count(),
        2,
        "slices 16 and 32 report progress, 40 ends: {out:?}"
    );
}

#[test]
fn the_time_limit_ends_the_search() {
    let text = preset("27-explore-defaults-hold");
    let req = ToWorker {
        scenario: text.to_string(),
        spec: declared(text),
        // The fake clock moves 1 ms per reading: the limit is reached long before the
        // budget of 1000 schedules.
        seconds: Some(0.05),
    };
    match messages(&req, 5).last() {
        Some(FromWorker::Nothing {
            tried, out_of_time, ..
        }) => {
            assert!(*out_of_time);
            assert!(*tried > 0 && *tried < 1000, "tried {tried}");
        }
        other => panic!("expected Nothing, got {other:?}"),
    }
}

#[test]
fn the_users_condition_is_searched_for() {
    // `n1.term > 3` on a 3-node cluster where crashes and campaigns are allowed: some
    // schedule pushes the term past 3, and the counterexample's last line states it.
    let mut spec = ExploreSpec::default();
    spec.set("allow", "crash,restart,campaign").unwrap();
    spec.set("check", "none").unwrap();
    spec.set("until", "n1.term > 3").unwrap();
    let req = ToWorker {
        scenario: "cluster 3\ntick 20\n".into(),
        spec,
        seconds: None,
    };
    match messages(&req, 50).last() {
        Some(FromWorker::Found { found, scn, .. }) => {
            assert_eq!(found.kind, HitKind::Condition);
            assert!(scn.lines().last().unwrap().starts_with("expect "), "{scn}");
        }
        other => panic!("expected Found, got {other:?}"),
    }
}

#[test]
fn bad_input_is_an_error_message() {
    let req = ToWorker {
        scenario: "cluster 3\nfrobnicate n1\n".into(),
        spec: ExploreSpec::default(),
        seconds: None,
    };
    match messages(&req, 10).as_slice() {
        [FromWorker::Error { message }] => assert!(message.contains("frobnicate"), "{message}"),
        other => panic!("expected one Error, got {other:?}"),
    }
    let req = ToWorker {
        scenario: "# no cluster line\n".into(),
        spec: ExploreSpec::default(),
        seconds: None,
    };
    assert!(matches!(
        messages(&req, 10).as_slice(),
        [FromWorker::Error { .. }]
    ));
    // The page checks a typed condition with the scenario language's parser before sending.
    let mut spec = ExploreSpec::default();
    let e = spec.set("until", "n1.term >").unwrap_err();
    assert!(!e.is_empty());
}

#[test]
fn every_message_survives_the_trip_to_the_page() {
    // The worker posts each message as a list of strings and the page reads it back: the
    // messages of a real search (progress, shrinking, a found counterexample with its scenario
    // and steps, multi-line text included) and the others come back equal.
    let text = preset("26-explore-disruptive-rejoin");
    let req = ToWorker {
        scenario: text.to_string(),
        spec: declared(text),
        seconds: None,
    };
    let mut all = messages(&req, 7);
    all.extend([
        FromWorker::Ready,
        FromWorker::Nothing {
            tried: 1000,
            ms: 2500.0,
            out_of_time: true,
        },
        FromWorker::Error {
            message: "1:3: unknown command\n'frobnicate'".into(),
        },
    ]);
    assert!(all
        .iter()
        .any(|m| matches!(m, FromWorker::Found { found, .. } if found.check.is_some())));
    for m in &all {
        let fields = m.to_fields();
        assert_eq!(
            FromWorker::from_fields(&fields).as_ref(),
            Some(m),
            "{fields:?}"
        );
    }
    assert_eq!(FromWorker::from_fields(&["progress".into()]), None);
    assert_eq!(FromWorker::from_fields(&["hello".into()]), None);
    assert_eq!(FromWorker::from_fields(&[]), None);
}
