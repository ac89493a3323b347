//! Randomized safety test: many seeds, each a run with crashes, restarts, partitions, cut
//! links, message loss, membership changes and client writes. After every event the
//! simulator's invariant checker runs; at the end the network is healed, every node started,
//! and a leader must be elected with every acknowledged write on every live voter.

use raftlab::raft::Rng;
use raftlab::sim::client::{Outcome, ReqKind};
use raftlab::sim::{Action, Options, Sim, Status};

fn random_action(sim: &Sim, rng: &mut Rng, next_id: &mut u64, write: &mut u64) -> Option<Action> {
    let ids = sim.ids();
    let pick = |rng: &mut Rng| ids[rng.range(0, ids.len() as u64) as usize];
    Some(match rng.range(0, 100) {
        0..=34 => {
            *write += 1;
            Action::Propose {
                key: format!("k{write}"),
                value: format!("v{write}"),
                via: if rng.chance(30) {
                    Some(pick(rng))
                } else {
                    None
                },
            }
        }
        35..=44 => Action::Kill(pick(rng)),
        45..=56 => Action::Restart(pick(rng)),
        57..=61 => Action::Isolate(pick(rng)),
        62..=66 => {
            let mut a = Vec::new();
            let mut b = Vec::new();
            for id in &ids {
                if rng.chance(50) {
                    a.push(*id)
                } else {
                    b.push(*id)
                }
            }
            if a.is_empty() || b.is_empty() {
                return None;
            }
            Action::Partition(vec![a, b])
        }
        67..=69 => Action::Cut(pick(rng), pick(rng)),
        70..=72 => Action::Loss(rng.range(0, 40) as u32),
        73..=80 => Action::Heal,
        81..=83 => {
            *next_id += 1;
            Action::MemberAdd {
                node: *next_id,
                learner: rng.chance(50),
                misconfigured: false,
            }
        }
        84..=86 => Action::Start(pick(rng)),
        87..=88 => Action::Promote(pick(rng)),
        89 => Action::Remove(pick(rng)),
        90..=92 => Action::Campaign(pick(rng)),
        93..=94 => Action::Compact(pick(rng)),
        95..=96 => Action::TransferLeader(pick(rng)),
        _ => Action::Read {
            key: format!("k{}", rng.range(1, *write + 2)),
            via: Some(pick(rng)),
            linearizable: rng.chance(50),
        },
    })
}

fn dump(sim: &Sim) -> String {
    let mut out = String::new();
    for n in sim.nodes.values() {
        let r = &n.raft;
        out.push_str(&format!(
            "n{} {:?} {:?} term {} last {}/{} commit {} applied {} cfg {}\n",
            r.id,
            n.status,
            r.role,
            r.term,
            r.log.last_index(),
            r.log.last_term(),
            r.log.committed,
            r.log.applied,
            r.trk.config.describe()
        ));
    }
    if let Some(l) = sim.leader() {
        for (id, p) in &sim.nodes[&l].raft.trk.progress {
            out.push_str(&format!("  progress n{id}: {p:?}\n"));
        }
    }
    out.push_str(&format!(
        "net: {:?} {:?} loss {}\n",
        sim.net.groups, sim.net.cuts, sim.net.loss
    ));
    for e in sim.events.iter().rev().take(40) {
        out.push_str(&format!("{} {}\n", e.time, e.text()));
    }
    out
}

fn run_seed(seed: u64, steps: usize) {
    run_seed_with(seed, steps, false);
}

fn run_seed_with(seed: u64, steps: usize, unsafe_commit: bool) {
    let n = 3 + (seed % 3) as usize;
    let mut opts = Options {
        seed,
        prevote: !seed.is_multiple_of(4),
        checkquorum: !seed.is_multiple_of(5),
        snapshot_every: if seed.is_multiple_of(2) { 25 } else { 0 },
        max_entries: 1 + (seed % 7) as usize,
        inflight: 1 + (seed % 5) as usize,
        ..Options::default()
    };
    opts.max_learners = 2;
    opts.unsafe_commit = unsafe_commit;
    let mut sim = Sim::new(n, opts);
    let mut rng = Rng::new(seed ^ 0xABCD);
    let mut next_id = n as u64;
    let mut write = 0;
    for _ in 0..steps {
        if let Some(a) = random_action(&sim, &mut rng, &mut next_id, &mut write) {
            // Nonsense actions (restart a running node, ...) are refused; that is fine.
            let _ = sim.apply(&a);
        }
        sim.tick(rng.range(1, 12));
        if unsafe_commit {
            continue;
        }
        assert!(
            sim.violations.is_empty(),
            "seed {seed}: {:#?}\nlast events: {:#?}",
            sim.violations,
            sim.events.iter().rev().take(30).collect::<Vec<_>>()
        );
    }
    if unsafe_commit {
        return;
    }
    // Heal everything and bring every member back.
    sim.apply(&Action::Heal).unwrap();
    for id in sim.ids() {
        match sim.nodes[&id].status {
            Status::Killed => sim.apply(&Action::Restart(id)).unwrap(),
            Status::NotStarted => sim.apply(&Action::Start(id)).unwrap(),
            _ => {}
        }
    }
    let mut waited = 0;
    while sim.leader().is_none() {
        sim.tick(10);
        waited += 10;
        assert!(
            waited < 2000,
            "seed {seed}: no leader after healing\n{}",
            dump(&sim)
        );
    }
    // Let the leader commit an entry of its term and everyone catch up.
    sim.apply(&Action::Propose {
        key: "final".into(),
        value: "x".into(),
        via: None,
    })
    .unwrap();
    sim.tick(100);
    assert!(
        sim.violations.is_empty(),
        "seed {seed}: {:#?}",
        sim.violations
    );
    let leader = sim
        .leader()
        .unwrap_or_else(|| panic!("seed {seed}: leader lost\n{}", dump(&sim)));
    let cfg = sim.config();
    let commit = sim.nodes[&leader].raft.log.committed;
    for id in cfg.all_voters() {
        let node = &sim.nodes[&id];
        if node.status != Status::Running {
            continue;
        }
        assert_eq!(
            node.raft.log.applied,
            commit,
            "seed {seed}: n{id} caught up\n{}",
            dump(&sim)
        );
        for r in sim.requests.values() {
            if let (ReqKind::Write { key, value }, Outcome::Committed { .. }) =
                (&r.kind, &r.outcome)
            {
                assert_eq!(
                    node.raft.kv.get(key),
                    Some(value),
                    "seed {seed}: acknowledged write {key}={value} missing on n{id}"
                );
            }
        }
    }
}

#[test]
fn no_invariant_breaks_and_acknowledged_writes_survive() {
    let seeds: u64 = std::env::var("RAFTLAB_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(150);
    let first: u64 = std::env::var("RAFTLAB_FIRST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    for seed in first..first + seeds {
        run_seed(seed, 120);
    }
}

/// With the teaching-only unsafe commit switch, safety breaks (that is its point), but the
/// simulator must keep running: no panic, whatever the damage. Start from the broken state
/// of preset 20 and keep acting on it at random.
#[test]
fn unsafe_commit_breaks_safety_without_panicking() {
    use raftlab::sim::player::Player;
    use raftlab::sim::presets;
    use raftlab::sim::scenario::Script;

    let text = presets::find("20-figure-8-unsafe").expect("preset 20").text;
    for seed in 1..=20 {
        let mut p = Player::new(Script::parse(text).expect("preset parses"));
        p.run_all();
        assert!(p.failures().is_empty(), "{:?}", p.failures());
        let mut tl = p.into_timeline().expect("ran");
        assert!(!tl.sim().violations.is_empty(), "the preset breaks safety");
        let mut rng = Rng::new(seed);
        let mut next_id = 5;
        let mut write = 0;
        for _ in 0..150 {
            if let Some(a) = random_action(tl.sim(), &mut rng, &mut next_id, &mut write) {
                let _ = tl.act(a);
            }
            tl.tick(rng.range(1, 8));
        }
        // Time travel over the damaged run works too.
        let head = tl.head_time();
        tl.seek(head / 2);
        tl.seek(head);
    }
    // Also from scratch, with random faults, no pre-vote and no check-quorum.
    for seed in 1..=100 {
        run_seed_with(seed, 80, true);
    }
}
