//! Behaviour tests of the raft core, each tagged with the Raft paper / thesis section or the
//! etcd behaviour it checks. They drive bare cores through `harness::Net`.

mod harness;

use std::collections::BTreeMap;

use harness::{config, node_with_log, Net};
use raftlab::raft::{
    ConfChange, ConfChangeSingle, Config, MsgType, NodeId, ProgressState, Raft, RaftConfig, Rng,
    Role, ServerError,
};

fn leaders(net: &Net) -> Vec<NodeId> {
    net.nodes
        .values()
        .filter(|n| n.role == Role::Leader)
        .map(|n| n.id)
        .collect()
}

/// §5.2: a candidate that gets a majority becomes the only leader of its term.
#[test]
fn s5_2_election_by_majority() {
    let mut net = Net::new(3, config(false, false));
    net.campaign(1);
    assert_eq!(leaders(&net), vec![1]);
    assert_eq!(net.node(1).term, 1);
    for id in [2, 3] {
        assert_eq!(net.node(id).vote, 1, "n{id} voted for n1");
        assert_eq!(net.node(id).lead, 1);
    }
    // §5.4.2 / etcd: the new leader appended an empty entry of its own term.
    assert_eq!(net.terms(1), vec![1]);
    assert_eq!(net.node(1).log.committed, 1);
}

/// §5.2: without a majority there is no leader; the candidate keeps its term.
#[test]
fn s5_2_no_leader_without_majority() {
    let mut net = Net::new(3, config(false, false));
    net.isolate(1);
    net.campaign(1);
    assert_eq!(net.node(1).role, Role::Candidate);
    assert!(leaders(&net).is_empty());
}

/// §5.2: one vote per term, durable: a node that voted does not vote again in that term,
/// even after a crash and restart.
#[test]
fn s5_2_one_vote_per_term_survives_restart() {
    let mut net = Net::new(3, config(false, false));
    net.cut(1, 3);
    net.campaign(1); // n2 votes for n1 in term 1
    assert_eq!(net.node(2).vote, 1);
    let durable = net.node(2).durable();
    let restarted = Raft::restart(2, durable, config(false, false), Rng::new(5));
    assert_eq!((restarted.term, restarted.vote), (1, 1));
    net.nodes.insert(2, restarted);
    // n3 at term 0 campaigns for term 1: n2 must refuse (already voted in term 1).
    net.recover();
    net.cut(1, 3);
    net.cut(1, 2);
    net.campaign(3);
    assert_eq!(net.node(2).vote, 1);
    assert_ne!(net.node(3).role, Role::Leader);
}

/// §5.4.1: the election restriction: a voter refuses a candidate whose log is behind.
#[test]
fn s5_4_1_election_restriction() {
    let voters = [1, 2, 3];
    let mut nodes = BTreeMap::new();
    nodes.insert(1, node_with_log(1, 2, &[1], &voters, config(false, false)));
    nodes.insert(
        2,
        node_with_log(2, 2, &[1, 2], &voters, config(false, false)),
    );
    nodes.insert(
        3,
        node_with_log(3, 2, &[1, 2], &voters, config(false, false)),
    );
    let mut net = Net::from_nodes(nodes);
    net.campaign(1);
    assert_ne!(net.node(1).role, Role::Leader, "a stale log cannot win");
    net.campaign(2);
    assert_eq!(net.node(2).role, Role::Leader);
}

/// §5.3 Figure 7: a new leader brings every kind of divergent follower log into agreement
/// with its own (missing entries, extra uncommitted entries, both).
#[test]
fn s5_3_figure7_log_repair() {
    let leader_log = [1, 1, 1, 4, 4, 5, 5, 6, 6, 6];
    let followers: [&[u64]; 6] = [
        &[1, 1, 1, 4, 4, 5, 5, 6, 6],          // (a) missing one
        &[1, 1, 1, 4],                         // (b) missing many
        &[1, 1, 1, 4, 4, 5, 5, 6, 6, 6, 6],    // (c) one extra
        &[1, 1, 1, 4, 4, 5, 5, 6, 6, 6, 7, 7], // (d) extra from a later term
        &[1, 1, 1, 4, 4, 4, 4],                // (e) missing and extra
        &[1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3],    // (f) many extra from old terms
    ];
    for (case, f) in followers.iter().enumerate() {
        let voters = [1, 2, 3];
        let mut nodes = BTreeMap::new();
        nodes.insert(
            1,
            node_with_log(1, 7, &leader_log, &voters, config(false, false)),
        );
        nodes.insert(2, node_with_log(2, 7, f, &voters, config(false, false)));
        // n3 votes for the leader (its log is the leader's).
        nodes.insert(
            3,
            node_with_log(3, 7, &leader_log, &voters, config(false, false)),
        );
        let mut net = Net::from_nodes(nodes);
        net.campaign(1);
        assert_eq!(net.node(1).role, Role::Leader, "case {case}");
        assert_eq!(net.node(1).term, 8);
        net.tick_all(3);
        let mut want = leader_log.to_vec();
        want.push(8);
        assert_eq!(
            net.terms(2),
            want,
            "follower ({}) repaired",
            (b'a' + case as u8) as char
        );
        assert_eq!(net.node(2).log.committed, 11);
    }
}

/// §5.4.2 Figure 8: a leader never commits an entry of an older term by counting replicas;
/// it commits it only by committing an entry of its own term after it.
#[test]
fn s5_4_2_figure8_no_commit_by_counting_old_terms() {
    // n1 leads term 3 with an uncommitted entry of term 2 at index 2. Only one entry per
    // append, so we can observe index 2 reach a majority before index 3 does.
    let voters = [1, 2, 3];
    let cfg = RaftConfig {
        max_entries: 1,
        ..config(false, false)
    };
    let mut nodes = BTreeMap::new();
    nodes.insert(1, node_with_log(1, 2, &[1, 2], &voters, cfg.clone()));
    nodes.insert(2, node_with_log(2, 2, &[1], &voters, cfg.clone()));
    nodes.insert(3, node_with_log(3, 2, &[1], &voters, cfg.clone()));
    let mut net = Net::from_nodes(nodes);
    // Drop appends for now: win the election only.
    net.ignored.insert(MsgType::App);
    net.campaign(1);
    assert_eq!(net.node(1).role, Role::Leader);
    assert_eq!(net.terms(1), vec![1, 2, 3]);
    net.recover();
    // Deliver message by message and watch the commit index.
    let mut saw_old_on_majority_uncommitted = false;
    for _ in 0..50 {
        let msgs: Vec<_> = net
            .nodes
            .values_mut()
            .flat_map(|n| n.msgs.drain(..))
            .collect();
        if msgs.is_empty() {
            net.node_mut(1).tick();
            continue;
        }
        for m in msgs {
            if let Some(n) = net.nodes.get_mut(&m.to) {
                n.step(m);
            }
            let l = net.node(1);
            let holders = [1, 2, 3]
                .iter()
                .filter(|id| net.node(**id).log.term(2) == Some(2))
                .count();
            if holders >= 2 && l.log.committed < 2 && net.node(2).log.term(3).is_none() {
                saw_old_on_majority_uncommitted = true;
            }
            // Whenever index 2 is committed, index 3 (of term 3) must be on a majority too.
            if l.log.committed >= 2 {
                let with3 = [1, 2, 3]
                    .iter()
                    .filter(|id| net.node(**id).log.term(3) == Some(3))
                    .count();
                assert!(with3 >= 2, "committed index 2 without a current-term entry");
            }
        }
    }
    assert!(
        saw_old_on_majority_uncommitted,
        "the interesting state was reached"
    );
    assert_eq!(net.node(1).log.committed, 3);
}

/// etcd TestDuelingCandidates: without pre-vote, a partitioned node that comes back with a
/// higher term disrupts the leader (terms go up).
#[test]
fn s9_6_rejoining_node_disrupts_without_prevote() {
    let mut net = Net::new(3, config(false, false));
    net.campaign(1);
    net.isolate(3);
    for _ in 0..3 {
        net.campaign(3); // elections that cannot be won: term climbs
    }
    assert_eq!(net.node(3).term, 4);
    net.recover();
    // n3's next election timeout sends term-5 vote requests: the leader must step down.
    net.campaign(3);
    assert_ne!(net.node(1).role, Role::Leader, "the old leader was deposed");
    assert!(net.node(1).term >= 4);
}

/// Thesis §9.6 pre-vote: the same node, with pre-vote, never raises its term while it cannot
/// win, so it does not disrupt the leader when it comes back.
#[test]
fn s9_6_prevote_prevents_disruption() {
    let mut net = Net::new(3, config(true, false));
    net.campaign(1);
    assert_eq!(leaders(&net), vec![1]);
    net.isolate(3);
    for _ in 0..3 {
        net.campaign(3);
    }
    assert_eq!(net.node(3).term, 1, "pre-candidates keep their term");
    assert_eq!(net.node(3).role, Role::PreCandidate);
    net.recover();
    net.tick_all(2);
    assert_eq!(leaders(&net), vec![1]);
    assert_eq!(net.node(1).term, 1);
    assert_eq!(net.node(3).role, Role::Follower);
}

/// Dueling candidates with pre-vote: two nodes time out together; terms do not run away.
#[test]
fn s9_6_dueling_precandidates_settle() {
    let mut net = Net::new(3, config(true, false));
    net.node_mut(1).campaign_now();
    net.node_mut(3).campaign_now();
    net.settle();
    let l = leaders(&net);
    assert_eq!(l.len(), 1, "exactly one leader");
    assert_eq!(net.node(l[0]).term, 1);
}

/// etcd check-quorum: a leader that hears from no quorum within an election timeout steps
/// down, at the latest after two election timeouts.
#[test]
fn check_quorum_leader_steps_down_within_two_election_timeouts() {
    let mut net = Net::new(3, config(true, true));
    net.campaign(1);
    net.isolate(1);
    let mut ticks = 0;
    while net.node(1).role == Role::Leader {
        net.node_mut(1).tick();
        net.settle();
        ticks += 1;
        assert!(ticks <= 20, "still leading after two election timeouts");
    }
    assert!(
        ticks >= 10,
        "it waits at least one election timeout ({ticks})"
    );
    assert_eq!(net.node(1).role, Role::Follower);
}

/// etcd check-quorum lease: a follower that heard from its leader within the election timeout
/// ignores a vote request, even of a higher term; leader transfer (TimeoutNow) overrides.
#[test]
fn check_quorum_votes_ignored_within_lease() {
    let mut net = Net::new(3, config(false, true));
    net.campaign(1);
    // n3 campaigns on its own, but n2 heard from n1 just now.
    net.campaign(3);
    assert_eq!(net.node(2).vote, 1, "n2 did not vote for n3");
    assert_eq!(net.node(2).term, 1);
    assert_eq!(leaders(&net), vec![1]);

    // A leader transfer's campaign is not stopped by the lease: n2 gets TimeoutNow while it
    // cannot reach n1, and n3 (in its lease from n1) still votes for it.
    let mut net = Net::new(3, config(false, true));
    net.campaign(1);
    net.cut(1, 2);
    let mut timeout_now = raftlab::raft::Message::new(MsgType::TimeoutNow, 1, 2);
    timeout_now.term = 1;
    net.node_mut(2).step(timeout_now);
    net.settle();
    assert_eq!(
        net.node(3).vote,
        2,
        "n3 voted for the transferee despite its lease"
    );
    assert_eq!(net.node(2).role, Role::Leader);
    assert_eq!(net.node(2).term, 2);
}

/// etcd learners: a learner receives the log but its acknowledgements never commit.
#[test]
fn learner_is_not_counted_for_commit() {
    let mut net = Net::new(3, config(true, true));
    net.campaign(1);
    net.add_member(1, 4, true, true, &[1, 2, 3]);
    net.tick_all(2);
    assert!(net.node(1).trk.config.learners.contains(&4));
    let before = net.node(1).log.committed;
    // Only the learner can hear the leader: nothing commits.
    net.cut(1, 2);
    net.cut(1, 3);
    net.propose(1, "x", "1");
    net.tick_all(2);
    assert_eq!(
        net.node(4).log.last_index(),
        net.node(1).log.last_index(),
        "learner has it"
    );
    assert_eq!(
        net.node(1).log.committed,
        before,
        "a learner's ack does not commit"
    );
    // And a learner never campaigns.
    net.node_mut(4).campaign_now();
    assert_eq!(net.node(4).role, Role::Follower);
}

/// etcd server: promoting a learner is refused while its match is below 90% of the leader's.
#[test]
fn promotion_refused_while_learner_lags() {
    let mut net = Net::new(3, config(true, true));
    net.campaign(1);
    // Added, but its process is not started yet.
    net.add_member(1, 4, true, false, &[1, 2, 3]);
    for i in 0..20 {
        net.propose(1, "k", &i.to_string());
    }
    let promote = ConfChange::new(vec![ConfChangeSingle::AddNode(4)]);
    let err = net
        .node_mut(1)
        .client_conf_change(promote.clone(), 2)
        .unwrap_err();
    assert!(
        matches!(
            err,
            ServerError::LearnerNotReady {
                id: 4,
                matched: 0,
                percent: 90,
                ..
            }
        ),
        "{err:?}"
    );
    // Once it runs and catches up, the same promotion is accepted and n4 votes.
    let genesis = Config::with_voters([1, 2, 3]);
    net.nodes
        .insert(4, Raft::new(4, genesis, config(true, true), Rng::new(4)));
    net.tick_all(3);
    net.node_mut(1).client_conf_change(promote, 3).unwrap();
    net.settle();
    net.tick_all(2);
    assert!(net.node(1).trk.config.voters.contains(&4));
    assert!(net.node(4).promotable());
}

/// Thesis §4.3 joint consensus: while joint, commits need a majority of both configurations.
#[test]
fn joint_consensus_needs_both_majorities() {
    let mut net = Net::new(5, config(true, true));
    // Start from voters {1,2,3} with 4 and 5 not yet members.
    let c3 = Config::with_voters([1, 2, 3]);
    for id in 1..=5 {
        let r = Raft::new(id, c3.clone(), config(true, true), Rng::new(id));
        net.nodes.insert(id, r);
    }
    net.campaign(1);
    let cc = ConfChange::new(vec![
        ConfChangeSingle::AddNode(4),
        ConfChangeSingle::AddNode(5),
        ConfChangeSingle::RemoveNode(2),
        ConfChangeSingle::RemoveNode(3),
    ]);
    // Keep the new half unreachable: the joint entry itself commits under the old
    // configuration, but after that nothing commits without {1,4,5}'s majority.
    net.cut(1, 4);
    net.cut(1, 5);
    net.node_mut(1).client_conf_change(cc, 9).unwrap();
    net.settle();
    let cfg = &net.node(1).trk.config;
    assert!(
        cfg.is_joint(),
        "entered the joint configuration: {}",
        cfg.describe()
    );
    let stuck = net.node(1).log.committed;
    net.propose(1, "x", "1");
    net.tick_all(3);
    assert_eq!(
        net.node(1).log.committed,
        stuck,
        "old majority alone does not commit"
    );
    net.recover();
    net.tick_all(5);
    let cfg = &net.node(1).trk.config;
    assert!(
        !cfg.is_joint(),
        "left the joint configuration automatically"
    );
    assert_eq!(cfg.voters, [1, 4, 5].into_iter().collect());
    assert_eq!(net.node(4).kv.get("x").map(String::as_str), Some("1"));
}

/// etcd leader transfer: the transferee gets TimeoutNow once caught up and wins at once;
/// a transfer to a learner is refused.
#[test]
fn leader_transfer_and_refusal_for_learner() {
    let mut net = Net::new(3, config(true, true));
    net.campaign(1);
    net.node_mut(1).client_transfer_leader(2).unwrap();
    net.settle();
    assert_eq!(leaders(&net), vec![2]);
    assert_eq!(net.node(2).term, 2);
    // Add n4 as a learner, let it catch up, then try to move leadership to it.
    net.add_member(2, 4, true, true, &[1, 2, 3]);
    net.tick_all(2);
    assert!(net.node(4).is_learner());
    let err = net.node_mut(2).client_transfer_leader(4).unwrap_err();
    assert_eq!(
        err,
        ServerError::BadLeaderTransferee {
            to: 4,
            learner: true
        }
    );
    // Even a raw MsgTransferLeader (bypassing the server check) is refused by raft.
    let m = raftlab::raft::Message::new(MsgType::TransferLeader, 4, 2);
    net.node_mut(2).step(m);
    net.settle();
    net.tick_all(3);
    assert_eq!(leaders(&net), vec![2]);
}

/// etcd leader transfer: proposals are refused while a transfer is in progress, and the
/// transfer is abandoned after an election timeout.
#[test]
fn leader_transfer_pauses_proposals_then_aborts() {
    let mut net = Net::new(3, config(true, true));
    net.campaign(1);
    net.isolate(3);
    net.node_mut(1).client_transfer_leader(3).unwrap();
    net.settle();
    assert_eq!(net.node(1).lead_transferee, 3);
    let err = net.node_mut(1).client_put("x", "1", 1).unwrap_err();
    assert_eq!(err, ServerError::TransferInProgress { to: 3 });
    for _ in 0..10 {
        net.node_mut(1).tick();
        net.settle();
    }
    assert_eq!(
        net.node(1).lead_transferee,
        0,
        "aborted after an election timeout"
    );
    assert!(net.node_mut(1).client_put("x", "1", 2).is_ok());
}

/// Thesis §6.4 ReadIndex: served once a heartbeat round confirms leadership; a deposed leader
/// (partitioned away) never serves it.
#[test]
fn read_index_not_served_by_deposed_leader() {
    // Without check-quorum nothing makes the isolated leader step down by itself.
    let mut net = Net::new(3, config(true, false));
    net.campaign(1);
    net.propose(1, "x", "1");
    net.node_mut(1).client_read_index("x", 77).unwrap();
    net.settle();
    assert!(net
        .delivered
        .iter()
        .any(|m| m.msg_type == MsgType::Heartbeat && m.context == 77));
    // Served: the note was cleared by the harness, but the wait list is empty and the key gone.
    assert!(net.node(1).read_waits.is_empty());
    assert!(!net.node(1).read_keys.contains_key(&77));

    net.isolate(1);
    net.campaign(2);
    assert_eq!(net.node(2).role, Role::Leader);
    net.node_mut(2).client_put("x", "2", 0).unwrap();
    net.settle();
    // The old leader still thinks it leads, but cannot confirm it.
    assert_eq!(net.node(1).role, Role::Leader);
    net.node_mut(1).client_read_index("x", 78).unwrap();
    net.settle();
    net.node_mut(1).tick();
    net.settle();
    assert!(
        net.node(1).read_keys.contains_key(&78),
        "read 78 still waits, never served"
    );
}

/// etcd progress (seed 000): a follower whose next entry was compacted gets a snapshot,
/// then goes back to probe and replicate.
#[test]
fn snapshot_catch_up_of_far_behind_follower() {
    let mut net = Net::new(3, config(true, true));
    net.campaign(1);
    net.isolate(3);
    for i in 0..30 {
        net.propose(1, &format!("k{i}"), &i.to_string());
    }
    net.node_mut(1).compact();
    assert!(net.node(1).log.snapshot.index >= 30);
    net.recover();
    net.tick_all(1);
    assert!(
        net.delivered
            .iter()
            .any(|m| m.msg_type == MsgType::Snap && m.to == 3),
        "a snapshot was sent"
    );
    net.tick_all(3);
    assert_eq!(net.node(3).kv.get("k29").map(String::as_str), Some("29"));
    assert_eq!(
        net.node(1).progress(3).unwrap().state,
        ProgressState::Replicate
    );
    assert_eq!(
        net.node(3).log.snapshot.index,
        net.node(1).log.snapshot.index
    );
}

/// etcd membership (learner design doc, figure 7): adding a voter to a one-node cluster
/// makes the quorum 2; commits stall until the new node runs.
#[test]
fn adding_voter_to_single_node_stalls_until_it_starts() {
    let one = Config::with_voters([1]);
    let mut nodes = BTreeMap::new();
    nodes.insert(
        1,
        Raft::new(1, one.clone(), config(true, true), Rng::new(1)),
    );
    let mut net = Net::from_nodes(nodes);
    net.campaign(1);
    assert_eq!(leaders(&net), vec![1]);
    net.node_mut(1)
        .client_conf_change(ConfChange::new(vec![ConfChangeSingle::AddNode(2)]), 1)
        .unwrap();
    net.settle();
    assert_eq!(net.node(1).trk.config.voters.len(), 2);
    let stuck = net.node(1).log.committed;
    net.propose(1, "x", "1");
    assert_eq!(net.node(1).log.committed, stuck, "quorum is now 2 of 2");
    // Check-quorum soon makes the lone leader step down.
    net.tick_all(25);
    assert_ne!(net.node(1).role, Role::Leader);
    // Start n2: an election succeeds and the write... was the old leader's, uncommitted; a
    // new write commits.
    net.nodes
        .insert(2, Raft::new(2, one, config(true, true), Rng::new(2)));
    net.tick_all(40);
    let l = leaders(&net);
    assert_eq!(l.len(), 1);
    net.propose(l[0], "y", "2");
    assert_eq!(net.node(2).kv.get("y").map(String::as_str), Some("2"));
}

/// Durability: term, vote and log survive a crash; the state machine is rebuilt on restart.
#[test]
fn restart_rebuilds_state_from_durable_log() {
    let mut net = Net::new(3, config(true, true));
    net.campaign(1);
    net.propose(1, "x", "1");
    net.tick_all(1);
    let d = net.node(2).durable();
    let r = Raft::restart(2, d, config(true, true), Rng::new(9));
    assert_eq!(r.kv.get("x").map(String::as_str), Some("1"));
    assert_eq!(r.role, Role::Follower);
    assert_eq!(r.lead, 0, "volatile: leader unknown after restart");
    assert_eq!(r.term, 1);
}

/// With etcd's StepDownOnRemoval, a removed leader steps down once its removal is applied.
#[test]
fn removed_leader_steps_down() {
    let cfg = RaftConfig {
        step_down_on_removal: true,
        ..config(true, true)
    };
    let mut net = Net::new(3, cfg);
    net.campaign(1);
    net.node_mut(1)
        .client_conf_change(ConfChange::new(vec![ConfChangeSingle::RemoveNode(1)]), 1)
        .unwrap();
    net.settle();
    assert_ne!(net.node(1).role, Role::Leader);
    assert!(!net.node(1).trk.config.voters.contains(&1));
}

/// At most one configuration change is pending: a second is refused until the first applies.
#[test]
fn one_pending_conf_change_at_a_time() {
    let mut net = Net::new(3, config(true, true));
    net.campaign(1);
    net.isolate(1); // nothing commits, so the first change stays pending
    let add = |id| ConfChange::new(vec![ConfChangeSingle::AddLearner(id)]);
    net.node_mut(1).client_conf_change(add(4), 1).unwrap();
    net.settle();
    let mut r = net.node(1).clone();
    r.notes.clear();
    r.client_conf_change(ConfChange::new(vec![ConfChangeSingle::RemoveNode(3)]), 2)
        .unwrap();
    let dropped = r.notes.iter().any(|n| {
        matches!(
            n,
            raftlab::raft::Note::ProposalDropped {
                req: 2,
                reason: raftlab::raft::ProposalRefusal::ConfChangePending { .. }
            }
        )
    });
    assert!(dropped, "{:?}", r.notes);
}

/// etcd-io/raft (raft.go, the `m.Term < r.Term` branch): with neither pre-vote nor
/// check-quorum, a node whose term ran ahead is brought back only by its MsgVote reaching the
/// leader. A node whose configuration is stale (its voters were removed, the leader is new to
/// it) never reaches the leader, and it ignores the leader's lower-term appends, so it stays a
/// candidate for good. Check-quorum frees it: it answers a lower-term append with its term, the
/// leader steps down, and the next leader catches it up. (Found by the fault campaign, seed
/// 26772; its liveness oracle excuses exactly this case.)
#[test]
fn etcd_stale_config_candidate_is_stranded_without_check_quorum_and_freed_with_it() {
    for check_quorum in [false, true] {
        let cfg = config(false, check_quorum);
        let current = [4, 6, 7, 8];
        let mut nodes = BTreeMap::new();
        for id in [6, 7, 8] {
            nodes.insert(id, node_with_log(id, 3, &[1, 1, 3], &current, cfg.clone()));
        }
        // n4 missed the change that replaced n2 and n3, and ran its term up meanwhile.
        nodes.insert(4, node_with_log(4, 25, &[1, 1], &[2, 3, 4], cfg.clone()));
        let mut net = Net::from_nodes(nodes);
        net.campaign(7);
        net.tick_all(400);
        let n4 = net.node(4);
        let leader_last = net
            .nodes
            .values()
            .find(|n| n.role == Role::Leader)
            .map(|n| n.log.last_index());
        if check_quorum {
            assert_eq!(n4.role, Role::Follower, "check-quorum frees n4");
            assert!(n4.term > 25, "the cluster moved past n4's term");
            assert_eq!(Some(n4.log.last_index()), leader_last, "n4 caught up");
        } else {
            assert_eq!(n4.role, Role::Candidate, "n4 stays a candidate");
            assert_eq!(net.node(7).role, Role::Leader, "n7 never hears n4's term");
            assert_eq!(net.node(7).term, 4);
            assert!(n4.log.last_index() < net.node(7).log.last_index());
        }
    }
}
