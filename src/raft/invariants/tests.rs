//! Each property is caught when broken, in both modes; and no event that Raft allows
//! (compaction, snapshot install, restart, force-new-cluster, joint configurations) is
//! reported.

use super::*;
use crate::raft::log::RaftLog;
use crate::raft::message::{Entry, EntryData, Snapshot};
use crate::raft::{Durable, RaftConfig, Rng};
use std::sync::Arc;

fn node(id: NodeId, term: u64, terms: &[u64], commit: u64) -> Raft {
    let conf = Config::with_voters([1, 2, 3]);
    let mut log = RaftLog::with_terms(
        Snapshot {
            conf,
            ..Snapshot::default()
        },
        terms,
    );
    log.committed = commit;
    Raft::restart(
        id,
        Durable { term, vote: 0, log },
        RaftConfig::default(),
        Rng::new(id),
    )
}

/// The full check and the incremental one, fed the same states.
struct Both {
    full: Checker,
    inc: Checker,
}

impl Both {
    fn new() -> Both {
        Both {
            full: Checker::new(),
            inc: Checker::new(),
        }
    }
}

fn names(found: Vec<Violation>) -> Vec<String> {
    let mut n: Vec<String> = found.into_iter().map(|v| v.invariant).collect();
    n.sort();
    n.dedup();
    n
}

/// Checks `nodes` with both checkers (every node touched); they must agree.
fn check(c: &mut Both, nodes: &[&Raft]) -> Vec<String> {
    let obs: Vec<Observed> = nodes
        .iter()
        .map(|r| Observed {
            raft: r,
            alive: true,
        })
        .collect();
    let full = names(c.full.check(&obs));
    let ids: Vec<NodeId> = nodes.iter().map(|r| r.id).collect();
    let inc = names(
        c.inc
            .check_touched(&ids, &|id| obs.iter().find(|o| o.raft.id == id).copied()),
    );
    assert_eq!(full, inc, "the full and the incremental check disagree");
    full
}

#[test]
fn healthy_cluster_has_no_violation() {
    let (a, b) = (node(1, 2, &[1, 2], 2), node(2, 2, &[1, 2], 2));
    assert!(check(&mut Both::new(), &[&a, &b]).is_empty());
}

#[test]
fn two_leaders_in_one_term_break_election_safety() {
    let mut c = Both::new();
    let mut a = node(1, 3, &[1], 1);
    let mut b = node(2, 3, &[1], 1);
    a.role = Role::Leader;
    assert!(check(&mut c, &[&a, &b]).is_empty());
    a.role = Role::Follower;
    b.role = Role::Leader;
    assert_eq!(check(&mut c, &[&a, &b]), vec!["election safety"]);
}

#[test]
fn different_committed_entries_break_state_machine_safety() {
    let mut c = Both::new();
    let a = node(1, 3, &[1, 2], 2);
    let b = node(2, 3, &[1, 3], 2);
    assert!(check(&mut c, &[&a, &b]).contains(&"state machine safety".to_string()));
}

#[test]
fn commit_and_term_never_go_back() {
    let mut c = Both::new();
    let a = node(1, 3, &[1, 2], 2);
    assert!(check(&mut c, &[&a]).is_empty());
    let back = node(1, 2, &[1, 2], 1);
    let found = check(&mut c, &[&back]);
    assert!(found.contains(&"term never goes back".to_string()));
    assert!(found.contains(&"commit never goes back".to_string()));
}

#[test]
fn leader_without_a_committed_entry_breaks_leader_completeness() {
    let mut c = Both::new();
    let a = node(1, 2, &[1, 2], 2);
    assert!(check(&mut c, &[&a]).is_empty());
    let mut l = node(2, 3, &[1], 1);
    l.role = Role::Leader;
    assert!(check(&mut c, &[&a, &l]).contains(&"leader completeness".to_string()));
}

#[test]
fn logs_that_agree_at_an_index_must_agree_before_it() {
    let mut c = Both::new();
    let a = node(1, 4, &[1, 2, 4], 0);
    let b = node(2, 4, &[1, 3, 4], 0);
    assert_eq!(check(&mut c, &[&a, &b]), vec!["log matching"]);
}

#[test]
fn leader_that_commits_without_a_voter_majority_is_caught() {
    // n1 leads term 2 and claims index 2 committed, but only it holds entry 2: learners or
    // anything else must not have been counted.
    let mut c = Both::new();
    let mut l = node(1, 2, &[1, 2], 1);
    l.role = Role::Leader;
    let f2 = node(2, 2, &[1], 1);
    let f3 = node(3, 2, &[1], 1);
    assert!(check(&mut c, &[&l, &f2, &f3]).is_empty());
    l.log.committed = 2;
    assert!(check(&mut c, &[&l, &f2, &f3]).contains(&"learners never counted".to_string()));
}

#[test]
fn commit_beyond_the_log_breaks_the_index_order() {
    let mut a = node(1, 2, &[1, 2], 2);
    a.log.committed = 5;
    assert!(check(&mut Both::new(), &[&a])
        .contains(&"snapshot <= applied <= commit <= last".to_string()));
}

#[test]
fn a_leader_that_loses_entries_breaks_append_only() {
    let mut c = Both::new();
    let mut l = node(1, 2, &[1, 2, 2], 1);
    l.role = Role::Leader;
    assert!(check(&mut c, &[&l]).is_empty());
    l.log.entries.truncate(2);
    assert!(check(&mut c, &[&l]).contains(&"leader append-only".to_string()));
}

#[test]
fn two_unapplied_conf_changes_on_a_leader_are_caught() {
    use crate::raft::message::{ConfChange, ConfChangeSingle};
    let mut l = node(1, 2, &[1], 1);
    l.role = Role::Leader;
    for (i, id) in [(2u64, 4u64), (3, 5)] {
        l.log.entries.push(Arc::new(Entry {
            term: 2,
            index: i,
            data: EntryData::Conf {
                cc: ConfChange::new(vec![ConfChangeSingle::AddLearner(id)]),
                req: 0,
            },
        }));
    }
    assert!(check(&mut Both::new(), &[&l])
        .contains(&"at most one pending configuration change".to_string()));
}

/// A node whose log starts after a snapshot at `snap` = (index, term), then holds entries of
/// `terms`, committed up to `commit`, under configuration `conf`.
fn node_after(
    id: NodeId,
    term: u64,
    snap: (u64, u64),
    terms: &[u64],
    commit: u64,
    conf: Config,
) -> Raft {
    let mut log = RaftLog::with_terms(
        Snapshot {
            index: snap.0,
            term: snap.1,
            conf,
            ..Snapshot::default()
        },
        terms,
    );
    log.committed = commit;
    Raft::restart(
        id,
        Durable { term, vote: 0, log },
        RaftConfig::default(),
        Rng::new(id),
    )
}

fn voters123() -> Config {
    Config::with_voters([1, 2, 3])
}

#[test]
fn commit_and_compaction_in_one_event_leave_the_index_unknown_not_term_0() {
    let mut c = Both::new();
    let (a, b, f) = (
        node(1, 1, &[1, 1, 1, 1], 2),
        node(2, 1, &[1, 1, 1, 1], 2),
        node(3, 1, &[1, 1, 1, 1], 2),
    );
    assert!(check(&mut c, &[&a, &b, &f]).is_empty());
    // n1 commits index 3 and compacts it in the same event: the checker never sees entry 3.
    let a = node_after(1, 1, (3, 1), &[1], 3, voters123());
    assert!(check(&mut c, &[&a, &b, &f]).is_empty());
    // n2 commits index 4: index 3 is still unknown, not "term 0".
    let b = node(2, 1, &[1, 1, 1, 1], 4);
    assert!(check(&mut c, &[&a, &b, &f]).is_empty());
    // n3 commits 3 and 4 with their real terms: no alarm.
    let f = node(3, 1, &[1, 1, 1, 1], 4);
    assert!(check(&mut c, &[&a, &b, &f]).is_empty());
    // What n3 showed is evidence now: another term committed at index 3 is a violation.
    let d = node(4, 2, &[1, 1, 2, 2], 4);
    assert_eq!(
        check(&mut c, &[&a, &b, &f, &d]),
        vec!["state machine safety"]
    );
}

#[test]
fn installing_a_snapshot_is_no_violation_and_its_term_is_evidence() {
    let mut c = Both::new();
    let mut l = node(1, 2, &[1, 2, 2, 2, 2, 2], 6);
    l.role = Role::Leader;
    let h = node(3, 2, &[1, 2, 2, 2, 2, 2], 6);
    let f = node(2, 1, &[1], 1);
    assert!(check(&mut c, &[&l, &f, &h]).is_empty());
    // The leader compacted up to 5; the lagging follower installs that snapshot (the
    // checker never sees entries 2-5 in its log) and commits to 6.
    let mut l = node_after(1, 2, (5, 2), &[2], 6, voters123());
    l.role = Role::Leader;
    let f = node_after(2, 2, (5, 2), &[2], 6, voters123());
    assert!(check(&mut c, &[&l, &f, &h]).is_empty());
    // A node that committed index 5 with another term contradicts the snapshot.
    let g = node(4, 3, &[1, 2, 2, 2, 3], 5);
    assert_eq!(
        check(&mut c, &[&l, &f, &h, &g]),
        vec!["state machine safety"]
    );
    // Even when the snapshots are all the checker ever saw of index 5.
    let mut fresh = Both::new();
    assert!(check(&mut fresh, &[&l, &f]).is_empty());
    assert_eq!(
        check(&mut fresh, &[&l, &f, &g]),
        vec!["state machine safety"]
    );
}

#[test]
fn a_restart_is_no_violation() {
    let mut c = Both::new();
    let mut l = node(1, 2, &[1, 2, 2], 3);
    l.role = Role::Leader;
    let f = node(2, 2, &[1, 2, 2], 3);
    assert!(check(&mut c, &[&l, &f]).is_empty());
    // Both crash and restart: applied state rebuilt, durable term, vote, log and commit kept.
    let l = Raft::restart(1, l.durable(), RaftConfig::default(), Rng::new(9));
    let f = Raft::restart(2, f.durable(), RaftConfig::default(), Rng::new(8));
    assert!(check(&mut c, &[&l, &f]).is_empty());
    // A restart that lost the durable commit would be caught.
    let lost = node(2, 2, &[1, 2, 2], 1);
    assert!(check(&mut c, &[&l, &lost]).contains(&"commit never goes back".to_string()));
}

#[test]
fn force_new_cluster_starts_a_new_lineage_not_evidence_against_the_old_members() {
    // n1 led term 2 and committed index 3 (term 2) with n2; n3 lagged at commit 2, term 1.
    let setup = |c: &mut Both| {
        let mut l = node(1, 2, &[1, 1, 2], 3);
        l.role = Role::Leader;
        let f = node(2, 2, &[1, 1, 2], 3);
        let lag = node(3, 1, &[1, 1], 2);
        assert!(check(c, &[&l, &f, &lag]).is_empty());
        (l, f, lag)
    };
    let mut c = Both::new();
    let (l, f, mut lag) = setup(&mut c);
    // n3 is forced into a cluster of its own: it commits its own entries from index 3 on.
    lag.force_new_cluster();
    c.full.force_new_cluster(3);
    c.inc.force_new_cluster(3);
    assert_eq!(lag.log.term(3), Some(1));
    assert!(check(&mut c, &[&l, &f, &lag]).is_empty());
    // Both clusters go on to elect a leader for term 3.
    let mut l3 = node(1, 3, &[1, 1, 2], 3);
    l3.role = Role::Leader;
    let mut forced = lag.clone();
    forced.term = 3;
    forced.role = Role::Leader;
    assert!(check(&mut c, &[&l3, &f, &forced]).is_empty());
    // Within the new cluster the properties still hold: a member it added that also led
    // term 3 breaks election safety.
    c.full.adopt(4, 3);
    c.inc.adopt(4, 3);
    let mut n4 = node_after(4, 3, (0, 0), &[1, 1, 1], 2, voters123());
    n4.role = Role::Leader;
    assert!(check(&mut c, &[&l3, &f, &forced, &n4]).contains(&"election safety".to_string()));
    // Without being told, the checker would take the fork for a broken cluster.
    let mut blind = Both::new();
    let (l, f, mut lag) = setup(&mut blind);
    lag.force_new_cluster();
    assert!(check(&mut blind, &[&l, &f, &lag]).contains(&"state machine safety".to_string()));
}

#[test]
fn a_joint_configuration_needs_both_majorities() {
    let joint = Config {
        voters: [1, 2, 3].into(),
        outgoing: [1, 4, 5].into(),
        ..Config::default()
    };
    let mk = |id: NodeId, terms: &[u64], commit: u64| {
        node_after(id, 2, (0, 0), terms, commit, joint.clone())
    };
    let followers_behind = [
        mk(2, &[1], 1),
        mk(3, &[1], 1),
        mk(4, &[1], 1),
        mk(5, &[1], 1),
    ];
    let mut l = mk(1, &[1, 2], 1);
    l.role = Role::Leader;
    let mut c = Both::new();
    let all = |l: &Raft, f: &[Raft; 4]| {
        let mut v: Vec<Raft> = vec![l.clone()];
        v.extend(f.iter().cloned());
        v
    };
    let nodes = all(&l, &followers_behind);
    assert!(check(&mut c, &nodes.iter().collect::<Vec<_>>()).is_empty());
    // Index 2 held by n1, n2, n3 (a majority of the incoming half) and n1 only of the
    // outgoing half: committing it is wrong.
    let held = [
        mk(2, &[1, 2], 1),
        mk(3, &[1, 2], 1),
        mk(4, &[1], 1),
        mk(5, &[1], 1),
    ];
    l.log.committed = 2;
    let nodes = all(&l, &held);
    assert_eq!(
        check(&mut c, &nodes.iter().collect::<Vec<_>>()),
        vec!["learners never counted"]
    );
    // Held by n1, n2, n4 as well: a majority of each half, fine.
    let mut c = Both::new();
    let mut l = mk(1, &[1, 2], 1);
    l.role = Role::Leader;
    let nodes = all(&l, &followers_behind);
    assert!(check(&mut c, &nodes.iter().collect::<Vec<_>>()).is_empty());
    let held = [
        mk(2, &[1, 2], 1),
        mk(3, &[1], 1),
        mk(4, &[1, 2], 1),
        mk(5, &[1], 1),
    ];
    l.log.committed = 2;
    let nodes = all(&l, &held);
    assert!(check(&mut c, &nodes.iter().collect::<Vec<_>>()).is_empty());
}

/// Found by the campaign (seed 25350): with slow links, n2 won the election of term 2 after
/// n3 had led term 3 and committed entry 1 of term 3. Leader completeness binds leaders of
/// later terms only.
#[test]
fn a_leader_of_an_older_term_elected_late_is_not_bound_by_later_commits() {
    let mut c = Both::new();
    let mut l3 = node(3, 3, &[3], 1);
    l3.role = Role::Leader;
    let f1 = node(1, 3, &[3], 1);
    assert!(check(&mut c, &[&l3, &f1]).is_empty());
    let mut l2 = node(2, 2, &[2], 0);
    l2.role = Role::Leader;
    assert!(check(&mut c, &[&l3, &f1, &l2]).is_empty());
    // A leader of term 4 without that entry is caught.
    let mut l4 = node(4, 4, &[2], 0);
    l4.role = Role::Leader;
    assert_eq!(check(&mut c, &[&l3, &f1, &l4]), vec!["leader completeness"]);
}

/// The checker's shortcut for configuration equality agrees with `==` on configurations that
/// differ in each field, or in none.
#[test]
fn same_config_is_equality() {
    let base = Config::with_voters([1, 2, 3]);
    let mut variants = vec![base.clone(), Config::with_voters([1, 2, 4])];
    let mut c = base.clone();
    c.outgoing.insert(1);
    variants.push(c);
    let mut c = base.clone();
    c.learners.insert(4);
    variants.push(c);
    let mut c = base.clone();
    c.learners_next.insert(3);
    variants.push(c);
    let mut c = base.clone();
    c.auto_leave = true;
    variants.push(c);
    for a in &variants {
        for b in &variants {
            assert_eq!(same_config(a, b), a == b, "{a:?} vs {b:?}");
        }
    }
}

/// A node that looks as it did at its last clean check is not checked again (the ghost is
/// tampered with here only to make the skip visible); one whose last check found something
/// is, so a repeated violation is still reported as before.
#[test]
fn an_unchanged_node_is_rechecked_only_after_a_violation() {
    let mut c = Checker::new();
    let mut a = node(1, 3, &[1], 1);
    let mut b = node(2, 3, &[1], 1);
    a.role = Role::Leader;
    fn check(c: &mut Checker, rs: [&Raft; 2], id: NodeId) -> Vec<String> {
        let o = rs.map(|raft| Observed { raft, alive: true });
        names(c.check_touched(&[id], &|id| o.iter().find(|o| o.raft.id == id).copied()))
    }
    assert!(check(&mut c, [&a, &b], 1).is_empty());
    c.ghosts[0].leaders.insert(3, 2);
    assert!(
        check(&mut c, [&a, &b], 1).is_empty(),
        "n1 looks the same: skipped"
    );
    c.ghosts[0].leaders.insert(3, 1);
    b.role = Role::Leader;
    assert_eq!(check(&mut c, [&a, &b], 2), vec!["election safety"]);
    assert_eq!(
        check(&mut c, [&a, &b], 2),
        vec!["election safety"],
        "repeat kept"
    );
    // A change n1's check reads (here its term) ends the shortcut.
    a.term = 4;
    assert!(check(&mut c, [&a, &b], 1).is_empty());
}

#[test]
fn the_memo_table_keeps_each_id_apart_in_slots_and_beyond() {
    let mut t = MemoTable::default();
    for id in [3, 0, MEMO_SLOTS - 1, MEMO_SLOTS, 1 << 40] {
        assert!(t.get(id).is_none());
        let (fresh, m) = t.entry(id);
        assert!(fresh, "n{id} is new");
        m.term = id + 1;
    }
    for id in [3, 0, MEMO_SLOTS - 1, MEMO_SLOTS, 1 << 40] {
        let (fresh, m) = t.entry(id);
        assert!(!fresh, "n{id} was seen");
        assert_eq!(m.term, id + 1);
        t.get_mut(id).unwrap().commit = 7;
        assert_eq!(t.get(id).map(|m| (m.term, m.commit)), Some((id + 1, 7)));
    }
    assert!(t.get(4).is_none() && t.get(MEMO_SLOTS + 1).is_none());
}
