//! The checker's "settled" mark (a node an event touched is left out of the check while it
//! is set: a delivery's sender, or a receiver the message left as it was) must never outlive
//! a change of the node: every path that changes a node has to clear
//! it. These runs go through every kind of change the simulator makes (ticks, deliveries,
//! snapshots, crashes and restarts, partitions, membership changes and removals, stops of
//! removed members, timeouts and retries of requests, force-new-cluster) and, after every
//! event and action, look at every node: a set mark must mean that a check would skip the
//! node as quiet, i.e. leaving it out finds exactly what checking it would. The same runs
//! hold `settle_lost`'s commit bound to its promise (no started node commits past it).

use super::super::action::Action;
use super::super::options::Options;
use super::{observed, Sim, Status};
use crate::raft::{NodeId, Rng};

/// Every node whose mark is set although a check would not skip it.
fn lying_marks(sim: &Sim) -> Vec<NodeId> {
    sim.nodes
        .keys()
        .copied()
        .filter(|&id| {
            let settled = sim.checker.settled(id);
            match observed(&sim.nodes, id) {
                Some(o) => sim.checker.settled_mark_lies(o),
                // A node the checker cannot see was not checked clean as it is now.
                None => settled,
            }
        })
        .collect()
}

fn random_action(sim: &Sim, rng: &mut Rng, next_id: &mut NodeId) -> Action {
    let ids = sim.ids();
    let pick = |rng: &mut Rng| ids[rng.range(0, ids.len() as u64) as usize];
    match rng.range(0, 20) {
        0 => Action::Kill(pick(rng)),
        1 => Action::Restart(pick(rng)),
        2 => {
            let a = pick(rng);
            Action::Partition(vec![
                vec![a],
                ids.iter().copied().filter(|x| *x != a).collect(),
            ])
        }
        3 => Action::Heal,
        4 => Action::Cut(pick(rng), pick(rng)),
        5 => Action::Remove(pick(rng)),
        6 => {
            *next_id += 1;
            Action::MemberAdd {
                node: *next_id,
                learner: rng.range(0, 3) == 0,
                misconfigured: rng.range(0, 6) == 0,
            }
        }
        7 => Action::Start(pick(rng)),
        8 => Action::Compact(pick(rng)),
        9 => Action::TransferLeader(pick(rng)),
        10 => Action::Campaign(pick(rng)),
        11 => Action::Loss(rng.range(0, 3) as u32 * 10),
        12 if rng.range(0, 8) == 0 => Action::ForceNewCluster(pick(rng)),
        13 => Action::Promote(pick(rng)),
        _ => Action::Propose {
            key: format!("k{}", rng.range(0, 20)),
            value: format!("v{}", rng.range(0, 1000)),
            via: (rng.range(0, 3) == 0).then(|| pick(rng)),
        },
    }
}

/// The five-node cluster the randomized tests here drive: snapshots every 8 entries, so the
/// runs also go through compaction and snapshot transfer.
fn random_sim(seed: u64) -> Sim {
    Sim::new(
        5,
        Options {
            seed,
            snapshot_every: 8,
            ..Options::default()
        },
    )
}

#[test]
fn a_settled_mark_never_outlives_a_change_of_its_node() {
    let (mut removed, mut snapshots, mut skipped) = (0, 0, 0u64);
    for seed in 1..=12 {
        let mut sim = random_sim(seed);
        let mut rng = Rng::new(seed * 7919);
        let mut next_id = 5;
        for step in 0..250 {
            let action = random_action(&sim, &mut rng, &mut next_id);
            let _ = sim.apply(&action);
            assert_eq!(
                lying_marks(&sim),
                Vec::<NodeId>::new(),
                "seed {seed} step {step}: after {action:?}"
            );
            let until = sim.now + rng.range(1, 6) * super::TICK_MS;
            while sim.next_event_time().is_some_and(|t| t <= until) {
                skipped += sim
                    .nodes
                    .keys()
                    .filter(|id| sim.checker.settled(**id))
                    .count() as u64;
                sim.step_event();
                let lies = lying_marks(&sim);
                assert!(
                    lies.is_empty(),
                    "seed {seed} step {step} at {} ms: marks of {lies:?} outlived a change",
                    sim.now
                );
            }
            sim.advance_to(until);
        }
        removed += sim
            .nodes
            .values()
            .filter(|n| n.status == Status::Removed)
            .count();
        snapshots += sim
            .nodes
            .values()
            .filter(|n| n.raft.log.snapshot.index > 0)
            .count();
    }
    // The runs went through the rarer paths, and the marks were used.
    assert!(
        removed > 0 && snapshots > 0 && skipped > 0,
        "{removed} {snapshots} {skipped}"
    );
}

/// Damages node `id` as a bug in the core might (its term or its commit index goes back),
/// telling the checker that it changed, as every change must.
fn damage(sim: &mut Sim, id: NodeId, commit: bool) {
    let Some(n) = sim.nodes.get_mut(&id) else {
        return;
    };
    let r = &mut n.raft;
    if commit && r.log.committed > r.log.snapshot.index {
        r.log.committed -= 1;
    } else {
        r.term = 0;
    }
    sim.checker.unsettle(id);
}

/// A violation injected into a node between events, after whatever changed it last (a tick,
/// a delivery, a snapshot, a crash, a removal ...), is found at the same event, with the same
/// words, as by a run that checks every node an event touched (no node is ever settled
/// there: senders and receivers left alone by a delivery are checked too); in particular
/// when the next event is a delivery from the damaged node.
#[test]
fn leaving_settled_nodes_out_finds_what_checking_them_finds() {
    let (mut found, mut by_sender) = (0, 0);
    for seed in 1..=8 {
        let (mut fast, mut reference) = (random_sim(seed), random_sim(seed));
        reference.checker.never_settled = true;
        let mut rng = Rng::new(seed * 104_729);
        let mut next_id = 5;
        for step in 0..120 {
            let action = random_action(&fast, &mut rng, &mut next_id);
            assert_eq!(fast.apply(&action), reference.apply(&action));
            let until = fast.now + rng.range(1, 4) * super::TICK_MS;
            while fast.next_event_time().is_some_and(|t| t <= until) {
                let mut sender = None;
                if rng.range(0, 30) == 0 {
                    let ids = fast.ids();
                    let id = ids[rng.range(0, ids.len() as u64) as usize];
                    let commit = rng.range(0, 2) == 0;
                    damage(&mut fast, id, commit);
                    damage(&mut reference, id, commit);
                    if let Some((_, _, super::Due::Deliver { msg })) = fast.queue.peek() {
                        let f = fast.net.in_flight.get(&msg);
                        sender = f.filter(|f| f.msg.from == id && f.msg.to != id).map(|_| id);
                    }
                }
                let before = reference.violations.len();
                fast.step_event();
                reference.step_event();
                assert_eq!(
                    fast.violations, reference.violations,
                    "seed {seed} step {step} at {} ms",
                    fast.now
                );
                let named = |id: NodeId| {
                    reference.violations[before..]
                        .iter()
                        .any(|v| v.detail.starts_with(&format!("n{id}:")))
                };
                if sender.is_some_and(named) {
                    by_sender += 1;
                }
            }
            fast.advance_to(until);
            reference.advance_to(until);
        }
        found += fast.violations.len();
    }
    assert!(
        found > 0 && by_sender > 0,
        "{found} found, {by_sender} on a delivery from the damaged node"
    );
}

/// The highest commit index of a started node (what `settle_lost` compares with).
fn max_started_commit(sim: &Sim) -> u64 {
    sim.nodes
        .values()
        .filter(|n| !matches!(n.status, Status::NotStarted | Status::Misconfigured))
        .map(|n| n.raft.log.committed)
        .max()
        .unwrap_or(0)
}

/// `settle_lost` skips its pass over the nodes while the commit bound is below every
/// appended index: exact only if no started node ever commits past the bound. Through every
/// kind of change (as in the test above), after every event and action, it holds; and the
/// runs had writes pending whose pass the bound spared.
#[test]
fn the_commit_bound_never_falls_below_a_started_nodes_commit() {
    let mut spared = 0u64;
    for seed in 1..=12 {
        let mut sim = random_sim(seed);
        let mut rng = Rng::new(seed * 6_151);
        let mut next_id = 5;
        for step in 0..250 {
            let action = random_action(&sim, &mut rng, &mut next_id);
            let _ = sim.apply(&action);
            let until = sim.now + rng.range(1, 6) * super::TICK_MS;
            while sim.next_event_time().is_some_and(|t| t <= until) {
                sim.step_event();
                let max = max_started_commit(&sim);
                assert!(
                    sim.commit_bound >= max,
                    "seed {seed} step {step} at {} ms: bound {} below commit {max}",
                    sim.now,
                    sim.commit_bound
                );
                let lowest = sim.appended.values().map(|&(i, _)| i).min();
                if lowest.is_some_and(|l| sim.commit_bound < l) {
                    spared += 1;
                }
            }
            sim.advance_to(until);
        }
    }
    assert!(spared > 0);
}

/// After an action, `refresh_links` and `note_reachability` are skipped while the shape they
/// read is the one they last ran on. Through every kind of change, a twin that always runs
/// them (its memo cleared before each action) holds the same links (with their times) and
/// the same reachability times; and the runs skipped both after many actions.
#[test]
fn skipping_links_and_reachability_for_an_unchanged_shape_changes_nothing() {
    let (mut skipped, mut actions) = (0u64, 0u64);
    for seed in 1..=12 {
        let (mut fast, mut reference) = (random_sim(seed), random_sim(seed));
        let mut rng = Rng::new(seed * 7_577);
        let mut next_id = 5;
        for step in 0..250 {
            let action = random_action(&fast, &mut rng, &mut next_id);
            let before = fast.shape_seen.clone();
            reference.shape_seen = None;
            assert_eq!(fast.apply(&action), reference.apply(&action));
            actions += 1;
            if before.is_some() && before == fast.shape_seen {
                skipped += 1;
            }
            assert_eq!(
                fast.links, reference.links,
                "seed {seed} step {step}: {action:?}"
            );
            assert_eq!(
                fast.reachable_since, reference.reachable_since,
                "seed {seed} step {step}: {action:?}"
            );
            let until = fast.now + rng.range(1, 6) * super::TICK_MS;
            fast.advance_to(until);
            reference.advance_to(until);
        }
        assert_eq!(fast.fingerprint(), reference.fingerprint(), "seed {seed}");
    }
    assert!(skipped * 5 > actions, "{skipped} of {actions} skipped");
}
