//! etcd's server rules for the requests of a member that goes down, and what a restart with
//! --force-new-cluster says, checked against etcd 3.4.23 (a put held by a member with no
//! leader, then SIGTERM; a restart with --force-new-cluster over uncommitted entries).

use raftlab::sim::client::{Outcome, Refusal};
use raftlab::sim::player::Player;
use raftlab::sim::scenario::Script;
use raftlab::sim::{Action, Sim};

/// Plays `text` to its end (every line must hold) and returns the event texts, oldest first,
/// with the final state.
fn play(text: &str) -> (Vec<String>, Sim) {
    let mut p = Player::new(Script::parse(text).expect("parses"));
    p.run_all();
    let failures: Vec<String> = p.failures().iter().map(|r| format!("{r:?}")).collect();
    assert!(failures.is_empty(), "{failures:#?}");
    let sim = p.timeline().expect("a cluster ran").sim().clone();
    let events = sim.events.iter().map(|e| e.text().to_string()).collect();
    (events, sim)
}

/// etcd's log says "forcing restart of member ... at commit index N" and "discarding K
/// uncommitted WAL entries" before the configuration changes it writes are applied; the
/// requests the old process held fail as it stops.
#[test]
fn force_new_cluster_says_its_commit_index_and_the_entries_it_drops_before_its_changes() {
    let (events, _) = play(
        "cluster 3 seed=1\n\
         await leader = n2 within 40\n\
         transfer-leader n1\n\
         await leader = n1 within 20\n\
         propose x=1\n\
         await n1.value x = 1 within 5\n\
         kill n2\n\
         kill n3\n\
         propose y=1 via n1\n\
         propose z=1 via n1\n\
         tick 20\n\
         force-new-cluster n1\n\
         await leader = n1 within 30\n\
         expect n1.value y = none\n",
    );
    let at = |needle: &str| {
        events
            .iter()
            .position(|e| e.contains(needle))
            .unwrap_or_else(|| panic!("no event with {needle:?} in {events:#?}"))
    };
    let forced =
        at("restarted with --force-new-cluster at commit index 3: uncommitted entries 4–5 dropped");
    assert!(at("put y=1 rejected: n1 went down") < forced);
    assert!(at("put z=1 rejected: n1 went down") < forced);
    assert!(forced < at("configuration change -n2 applied"));
}

/// A write that reached the leader before its member crashed fails for its client and is
/// committed all the same: its outcome and one event (not one per member that applies it)
/// say both.
#[test]
fn a_write_whose_member_crashed_is_reported_failed_then_committed_later_once() {
    let (events, sim) = play(
        "cluster 3 seed=1\n\
         await leader = n2 within 40\n\
         propose x=1 via n1\n\
         kill n1\n\
         expect outcome = rejected\n\
         expect error = transport-is-closing\n\
         await n3.value x = 1 within 3\n\
         restart n1\n\
         await n1.value x = 1 within 5\n",
    );
    let r = sim.requests.values().next().expect("one request");
    assert_eq!(
        r.outcome,
        Outcome::Rejected {
            refusal: Refusal::MemberDown {
                id: 1,
                later: Some(2)
            }
        }
    );
    assert!(
        r.outcome.describe().ends_with("committed later at index 2"),
        "{}",
        r.outcome.describe()
    );
    let later: Vec<&String> = events
        .iter()
        .filter(|e| e.contains("committed later"))
        .collect();
    assert_eq!(
        later,
        ["put x=1 failed when n1 went down, but was committed later at index 2"],
        "{events:#?}"
    );
}

/// A learner forced with --force-new-cluster: etcd counts a learner that a committed entry
/// added as a member, keeps it a learner and removes every voter, and raft panics ("removed
/// all voters": etcd 3.4.23 did). raftlab refuses and says why. A learner whose addition was
/// compacted into the snapshot is not counted (etcd reads only the snapshot's voters), so etcd
/// adds it as a voter and the recovery works: raftlab does the same.
#[test]
fn forcing_a_learner_is_refused_unless_its_addition_was_compacted_away() {
    let learner = "cluster 3 seed=1\n\
                   await leader = n2 within 40\n\
                   tick 51\n\
                   propose a=1\n\
                   await n1.value a = 1 within 5\n\
                   member add n4 learner\n\
                   await outcome = committed within 5\n\
                   start n4\n\
                   await n4.value a = 1 within 20\n";
    let (_, mut sim) = play(learner);
    let mut compacted = sim.clone();
    let err = sim
        .apply(&Action::ForceNewCluster(4))
        .expect_err("etcd would stop with no voter");
    assert!(
        err.to_string().contains("n4 is a learner")
            && err.to_string().contains("removed all voters"),
        "{err}"
    );
    compacted.apply(&Action::Compact(4)).expect("compacts");
    compacted
        .apply(&Action::ForceNewCluster(4))
        .expect("a learner known from the snapshot alone is added as a voter");
    compacted.tick(40);
    assert_eq!(compacted.leader(), Some(4));
}
