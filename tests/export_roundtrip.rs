//! Round trip: a run exported as `.scn` and played back gives the identical state at every
//! tick, and seeking the original run's history reproduces the same states too.

use raftlab::raft::Rng;
use raftlab::sim::history::Timeline;
use raftlab::sim::player::Player;
use raftlab::sim::scenario::{Script, Stmt};
use raftlab::sim::{Action, Options, TICK_MS};

fn build_run(seed: u64) -> Timeline {
    let mut tl = Timeline::new(
        5,
        Options {
            seed,
            snapshot_every: 7,
            ..Options::default()
        },
    );
    let mut rng = Rng::new(seed);
    for i in 0..40 {
        // Sometimes act between events, not on a tick boundary.
        for _ in 0..rng.range(0, 20) {
            tl.step_event();
        }
        let ids = tl.sim().ids();
        let n = ids[rng.range(0, ids.len() as u64) as usize];
        let a = match rng.range(0, 8) {
            0 => Action::Kill(n),
            1 => Action::Restart(n),
            2 => Action::Isolate(n),
            3 => Action::Heal,
            4 => Action::Loss(rng.range(0, 30) as u32),
            5 => Action::Read {
                key: "k".into(),
                via: Some(n),
                linearizable: rng.chance(50),
            },
            _ => Action::Propose {
                key: format!("k{}", i % 4),
                value: i.to_string(),
                via: None,
            },
        };
        let _ = tl.act(a);
        tl.tick(rng.range(1, 15));
    }
    tl
}

#[test]
fn exported_run_replays_identically_at_every_tick() {
    for seed in [1, 7, 42] {
        let mut original = build_run(seed);
        let text = original.export_scn();
        let script = Script::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert!(script
            .lines
            .iter()
            .any(|l| matches!(l.stmt, Stmt::At { then: Some(_), .. })));
        let mut player = Player::new(script);
        player.run_all();
        assert!(player.failures().is_empty(), "{:?}", player.failures());
        let replayed = player.into_timeline().expect("ran");
        let end = original.sim().now;
        assert_eq!(replayed.sim().now, end);
        assert_eq!(replayed.sim().fingerprint(), original.sim().fingerprint());

        // Every tick: the replayed run, stepped forward, against the original rebuilt from its
        // history in random order (backward and forward seeks).
        let mut replay = replayed;
        let ticks: Vec<u64> = (0..=end / TICK_MS).map(|k| k * TICK_MS).collect();
        let forward: Vec<u64> = ticks
            .iter()
            .map(|t| {
                replay.seek(*t);
                replay.sim().fingerprint()
            })
            .collect();
        let mut distinct = forward.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert!(
            distinct.len() > ticks.len() / 2,
            "the state changes over time"
        );
        let mut order: Vec<usize> = (0..ticks.len()).collect();
        let mut rng = Rng::new(seed);
        for i in (1..order.len()).rev() {
            order.swap(i, rng.range(0, i as u64 + 1) as usize);
        }
        for i in order {
            original.seek(ticks[i]);
            assert_eq!(
                original.sim().fingerprint(),
                forward[i],
                "seed {seed}: runs differ at {} ms",
                ticks[i]
            );
        }
    }
}
