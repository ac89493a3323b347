//! What a lesson's narration points at is on screen at its pause. A lecturer reads the text
//! to the class while the picture holds still, so a narration that tells as done what the
//! stretch after it plays (or what never shows) teaches something the screen contradicts.
//! Each check plays the preset as the app's player does, in paced slices, and looks at the
//! run at the pause of one narration.

use raftlab::raft::{MsgType, ProgressState};
use raftlab::sim::client::ReqKind;
use raftlab::sim::cluster::Sim;
use raftlab::sim::cond;
use raftlab::sim::player::{PacedStop, Player};
use raftlab::sim::presets::find;
use raftlab::sim::scenario::Script;

/// A player of preset `id`, before its first line.
fn player(id: &str) -> Player {
    let p = find(id).unwrap_or_else(|| panic!("preset {id}"));
    Player::new(Script::parse(p.text).expect("preset parses"))
}

/// Plays preset `id` to the pause of its `k`-th narration (1-based) and hands `check` the run
/// as it stands there.
fn at_pause(id: &str, k: usize, check: impl FnOnce(&Sim)) {
    let mut player = player(id);
    let mut seen = 0;
    loop {
        match player.run_for(100).stop {
            PacedStop::Budget => {}
            PacedStop::Narration => {
                seen += 1;
                if seen == k {
                    check(player.timeline().expect("a running cluster").sim());
                    return;
                }
            }
            PacedStop::End => panic!("{id} has {seen} narrations, not {k}"),
        }
    }
}

/// Asserts that each condition (the scenario language's, e.g. `n2.match n4 >= 3`) holds.
fn holds(id: &str, k: usize, sim: &Sim, conds: &[&str]) {
    for text in conds {
        let c = cond::parse(text, 0).expect("condition parses");
        let (ok, actual) = c.eval(sim);
        assert!(ok, "{id}, narration {k}: `{text}` is {actual}");
    }
}

/// Lesson 07, narration 5: "n4's process starts on the majority side ... even though n1 is
/// still cut off". Isolating n1 cut its links to the nodes of that moment only; n4, added
/// later, came up linked to n1 (the drawing showed the link open and the quorum line stopped
/// calling n1 cut off) until the lesson cut that link too.
#[test]
fn lesson_07_n1_is_cut_off_from_every_node_when_n4_starts() {
    at_pause("07-partition-then-add", 5, |sim| {
        for peer in [2, 3, 4] {
            assert!(
                !sim.net.connected(1, peer) && !sim.net.connected(peer, 1),
                "n1 still linked to n{peer}"
            );
        }
    });
}

/// Lesson 14, narration 1: "n4 is a caught-up learner (match 3 in the leader's progress
/// table)". n4 held every entry, but its reply was still in flight: the table beside the text
/// said match 0, probe, "catch-up 0% of threshold".
#[test]
fn lesson_14_the_leader_knows_its_learner_caught_up() {
    let id = "14-learner-limits";
    at_pause(id, 1, |sim| {
        holds(
            id,
            1,
            sim,
            &[
                "n4.commit = 3",
                "n2.match n4 >= 3",
                "n2.progress n4 = replicate",
            ],
        )
    });
}

/// Lesson 14, narration 4: "A serializable read is allowed: n4 answers x = 1". The request
/// line under the drawing shows the newest request: at this pause, that read, answered. Its
/// result had never been on screen at a pause (the text promised it before it ran, and the
/// next pause showed the leader transfer).
#[test]
fn lesson_14_shows_the_learners_serializable_read() {
    let id = "14-learner-limits";
    at_pause(id, 4, |sim| {
        let newest = sim.requests.values().next_back().expect("a request");
        assert!(
            matches!(&newest.kind, ReqKind::Read { key, linearizable: false } if key == "x"),
            "the newest request is {:?}",
            newest.kind
        );
        assert_eq!(newest.via, Some(4));
        holds(id, 4, sim, &["read = 1"]);
    });
}

/// Lesson 15, narration 5: "While the snapshot is in flight the progress is in snapshot
/// state". The pause came right after n3's restart, with the progress still in replicate, and
/// the snapshot state never showed at any pause.
#[test]
fn lesson_15_pauses_with_the_snapshot_in_flight() {
    let id = "15-probe-replicate-snapshot";
    at_pause(id, 5, |sim| {
        holds(id, 5, sim, &["n2.progress n3 = snapshot"])
    });
}

/// Lesson 19 (and the presets built on its set-up: 20, 24): every message takes 300 ms so
/// each step can be followed, and heartbeats go out every 300 ms too. At one heartbeat a
/// tick (100 ms), three heartbeats and three replies crowded each link at every pause, a pile
/// of pills that hid n1's and n2's names in presenter mode while the lesson is about one
/// entry. At each pause, at most one heartbeat is on its way along a link in each direction.
#[test]
fn lesson_19_heartbeats_do_not_crowd_the_links() {
    let id = "19-figure-8";
    for k in 1..=9 {
        at_pause(id, k, |sim| {
            let mut per_link: std::collections::BTreeMap<(u64, u64), usize> = Default::default();
            for f in sim.net.in_flight.values() {
                if f.msg.msg_type == MsgType::Heartbeat {
                    *per_link.entry((f.msg.from, f.msg.to)).or_default() += 1;
                }
            }
            let crowded: Vec<_> = per_link.iter().filter(|(_, n)| **n > 1).collect();
            assert!(
                crowded.is_empty(),
                "{id}, narration {k}: heartbeats in flight per link {crowded:?}"
            );
        });
    }
}

/// Asserts that `leader` tracks `peer` in replicate with `peer`'s whole log matched: the
/// progress table agrees with the logs drawn beside it.
fn table_agrees(id: &str, at: &str, sim: &Sim, leader: u64, peer: u64) {
    let lead = &sim.nodes.get(&leader).expect("the leader").raft;
    let last = sim
        .nodes
        .get(&peer)
        .expect("the peer")
        .raft
        .log
        .last_index();
    let p = lead.progress(peer).expect("the leader tracks the peer");
    assert!(
        p.matched == last && p.state == ProgressState::Replicate,
        "{id}, {at}: n{leader}'s table has n{peer} at match {}, {:?}; n{peer}'s log ends at {last}",
        p.matched,
        p.state
    );
}

/// The healed follower in the last picture of lesson 05 (its last narration's pause): "n1
/// ... follows n2 at term 1 and catches up". The logs showed n1 caught up while the leader's
/// table, n1's reply still on the wire, said *probe, paused* at match 3 of 5.
#[test]
fn lesson_05_ends_with_the_leaders_table_caught_up() {
    at_pause("05-new-member-leader-side", 5, |sim| {
        table_agrees("05", "narration 5", sim, 2, 1)
    });
}

/// Lesson 16's last narration, "n1 follows n3": the table had n1 at match 0 of 4, probe.
#[test]
fn lesson_16_ends_with_the_leaders_table_caught_up() {
    at_pause("16-prevote-checkquorum", 7, |sim| {
        table_agrees("16", "narration 7", sim, 3, 1)
    });
}

/// Lesson 18's end card, after n3 answered the linearizable read with x=2: the table had n3
/// at match 2 of 3, probe, paused.
#[test]
fn lesson_18_ends_with_the_leaders_table_caught_up() {
    let mut player = player("18-linearizable-vs-serializable");
    player.run_all();
    table_agrees(
        "18",
        "its end",
        player.timeline().expect("a run").sim(),
        2,
        3,
    );
}
