//! Regression tests for the places where raftlab's core differed from etcd-io/raft (the raft
//! of etcd 3.6), each named after the behaviour that was wrong. The datadriven files under
//! tests/testdata show the same behaviours message by message.

mod harness;

use harness::{config, Net};
use raftlab::raft::{
    ConfChange, ConfChangeSingle, ConfChangeTransition, Config, EntryData, Message, MsgType,
    NodeId, Note, ProgressState, ProposalRefusal, Raft, RaftConfig, Rng, Snapshot, NONE,
};

/// Takes `id`'s outgoing messages.
fn take(net: &mut Net, id: NodeId) -> Vec<Message> {
    std::mem::take(&mut net.node_mut(id).msgs)
}

/// Three voters, n1 elected, everything delivered.
fn three(cfg: RaftConfig) -> Net {
    let mut net = Net::new(3, cfg);
    net.campaign(1);
    net
}

fn heartbeat_resp(from: NodeId, to: NodeId, term: u64) -> Message {
    let mut m = Message::new(MsgType::HeartbeatResp, from, to);
    m.term = term;
    m
}

/// A throttled replicate flow (inflights full) answers a heartbeat response with one empty
/// append and frees nothing (etcd: TestMsgAppFlowControlRecvHeartbeat, replicate_pause.txt).
/// The legacy switch keeps etcd 3.5's pacing: one slot freed, one append with entries.
#[test]
fn throttled_replicate_sends_only_an_empty_append_on_heartbeat_response() {
    for legacy in [false, true] {
        let cfg = RaftConfig {
            max_inflight: 2,
            max_entries: 1,
            legacy_flow_control: legacy,
            ..config(false, false)
        };
        let mut net = three(cfg);
        for i in 0..4 {
            net.node_mut(1).client_put("k", &i.to_string(), 0).unwrap();
        }
        let to2: Vec<Message> = take(&mut net, 1)
            .into_iter()
            .filter(|m| m.to == 2 && m.msg_type == MsgType::App)
            .collect();
        assert_eq!(to2.len(), 2, "the window of 2 fills");
        let term = net.node(1).term;
        net.node_mut(1).step(heartbeat_resp(2, 1, term));
        let apps: Vec<Message> = take(&mut net, 1)
            .into_iter()
            .filter(|m| m.to == 2 && m.msg_type == MsgType::App)
            .collect();
        assert_eq!(
            apps.len(),
            1,
            "legacy={legacy}: one append per heartbeat response"
        );
        let pr = net.node(1).progress(2).unwrap();
        assert_eq!(pr.inflights.count(), 2, "legacy={legacy}");
        if legacy {
            assert_eq!(
                apps[0].entries.len(),
                1,
                "3.5 frees a slot and sends an entry"
            );
        } else {
            assert!(apps[0].entries.is_empty(), "3.6 sends only an empty append");
            assert!(pr.is_paused());
        }
    }
}

/// A transfer to the current leader while another transfer is pending aborts the pending one
/// and proposals are taken again (etcd: TestLeaderTransferBack).
#[test]
fn transfer_back_to_the_leader_aborts_the_pending_transfer() {
    let mut net = three(config(true, true));
    net.isolate(3);
    net.propose(1, "a", "1"); // n3 falls behind, so the transfer to it stays pending
    net.node_mut(1).client_transfer_leader(3).unwrap();
    net.settle();
    assert_eq!(net.node(1).lead_transferee, 3);
    assert!(net.node_mut(1).client_put("b", "1", 0).is_err());
    net.node_mut(1).client_transfer_leader(1).unwrap();
    assert_eq!(net.node(1).lead_transferee, NONE);
    assert!(net
        .node(1)
        .notes
        .iter()
        .any(|n| matches!(n, Note::TransferAborted { to: 3, .. })));
    net.node_mut(1).client_put("b", "1", 0).unwrap();
}

/// A configuration change proposed while another is pending becomes an empty normal entry,
/// so the indexes after it are etcd's (etcd: TestStepIgnoreConfig).
#[test]
fn conf_change_while_one_is_pending_is_appended_as_an_empty_entry() {
    let mut net = three(config(true, true));
    net.isolate(1); // nothing commits, so the first change stays pending
    let add = |id| ConfChange::new(vec![ConfChangeSingle::AddLearner(id)]);
    net.node_mut(1).client_conf_change(add(4), 1).unwrap();
    let last = net.node(1).log.last_index();
    net.node_mut(1).client_conf_change(add(5), 2).unwrap();
    let l = &net.node(1).log;
    assert_eq!(
        l.last_index(),
        last + 1,
        "the refused change keeps its index"
    );
    assert_eq!(l.entry(last + 1).unwrap().data, EntryData::Empty);
    assert!(net.node(1).notes.iter().any(|n| matches!(
        n,
        Note::ProposalDropped {
            req: 2,
            reason: ProposalRefusal::ConfChangePending { .. }
        }
    )));
}

/// A probing follower whose answer equals its known match goes back to replicate (etcd:
/// heartbeat_resp_recovers_from_probing.txt): the heartbeat response triggers an empty
/// append, the follower acknowledges the index the leader already knew.
#[test]
fn heartbeat_response_recovers_a_caught_up_follower_from_probe() {
    let mut net = three(config(false, false));
    net.node_mut(1)
        .trk
        .progress
        .get_mut(&2)
        .unwrap()
        .become_probe();
    net.tick_all(1); // heartbeat, response, empty append, acknowledgement
    let pr = net.node(1).progress(2).unwrap();
    assert_eq!(pr.state, ProgressState::Replicate);
}

/// After a snapshot brings a follower fully up to date, the leader sends nothing more: the
/// snapshot carried the commit index (etcd 3.6's CanBumpCommit; 3.5 sent a redundant empty
/// append because the follower had been paused). snapshot_succeed_via_app_resp.txt.
#[test]
fn acknowledged_snapshot_is_not_followed_by_a_redundant_commit_append() {
    for legacy in [false, true] {
        let cfg = RaftConfig {
            legacy_flow_control: legacy,
            ..config(false, false)
        };
        let mut net = three(cfg);
        net.isolate(3);
        net.propose(1, "a", "1");
        net.node_mut(1).compact();
        net.recover();
        net.tick_all(1); // heartbeat: n3 answers, the leader sends its snapshot
        let term = net.node(1).term;
        let last = net.node(1).log.last_index();
        assert_eq!(
            net.node(1).progress(3).unwrap().state,
            ProgressState::Replicate
        );
        // Replay the acknowledgement of the snapshot on a leader that still waits for it.
        let mut l = net.node(1).clone();
        let pr = l.trk.progress.get_mut(&3).unwrap();
        pr.matched = 1;
        pr.become_snapshot(last);
        assert_eq!(l.progress(3).unwrap().next, last + 1, "BecomeSnapshot");
        let mut ack = Message::new(MsgType::AppResp, 3, 1);
        ack.term = term;
        ack.index = last;
        l.msgs.clear();
        l.step(ack);
        let sent = l.msgs.iter().filter(|m| m.to == 3).count();
        assert_eq!(l.progress(3).unwrap().state, ProgressState::Replicate);
        assert_eq!(sent, usize::from(legacy), "legacy={legacy}");
    }
}

/// A commit index the follower may not know is sent with the next acknowledgement even when
/// the follower was never paused (etcd's sentCommit / CanBumpCommit, lagging_commit.txt).
#[test]
fn lagging_follower_is_sent_the_commit_index_on_its_acknowledgement() {
    let mut net = three(config(false, false));
    net.node_mut(1).client_put("a", "1", 0).unwrap();
    let out = take(&mut net, 1);
    let to3: Vec<Message> = out.iter().filter(|m| m.to == 3).cloned().collect();
    // n2 acknowledges first: the entry commits; the commit-carrying append to n3 is lost.
    for m in out.into_iter().filter(|m| m.to == 2) {
        net.node_mut(2).step(m);
    }
    for m in take(&mut net, 2) {
        net.node_mut(1).step(m);
    }
    let committed = net.node(1).log.committed;
    take(&mut net, 1);
    // The leader sent n3 that commit: it must not resend it on n3's late acknowledgement.
    for m in to3 {
        net.node_mut(3).step(m);
    }
    for m in take(&mut net, 3) {
        net.node_mut(1).step(m);
    }
    let resent = take(&mut net, 1).into_iter().any(|m| m.to == 3);
    assert!(!resent, "sentCommit already covers everything in flight");
    // A progress whose sent commit lags gets the commit index again.
    let pr = net.node_mut(1).trk.progress.get_mut(&3).unwrap();
    pr.sent_commit = 0;
    pr.next = committed + 1;
    assert!(pr.can_bump_commit(committed));
}

/// A snapshot whose configuration does not contain the node is refused (etcd's restore).
#[test]
fn snapshot_without_the_node_in_its_configuration_is_refused() {
    let mut r = Raft::new(
        4,
        Config::with_voters([1, 2, 3]),
        config(false, false),
        Rng::new(1),
    );
    let mut m = Message::new(MsgType::Snap, 1, 4);
    m.term = 1;
    m.snapshot = Some(Box::new(Snapshot {
        index: 10,
        term: 1,
        conf: Config::with_voters([1, 2, 3]),
        ..Snapshot::default()
    }));
    r.step(m.clone());
    assert_eq!(
        r.log.snapshot.index, 0,
        "not in the snapshot's configuration"
    );
    m.snapshot.as_mut().unwrap().conf.learners.insert(4);
    r.step(m);
    assert_eq!(r.log.snapshot.index, 10, "a learner of it is fine");
}

/// A removed leader leads on by default and steps down with step_down_on_removal (etcd's
/// StepDownOnRemoval, confchange_v1_remove_leader*.txt).
#[test]
fn removed_leader_steps_down_only_when_configured() {
    for step_down in [false, true] {
        let cfg = RaftConfig {
            step_down_on_removal: step_down,
            ..config(true, true)
        };
        let mut net = three(cfg);
        net.node_mut(1)
            .client_conf_change(ConfChange::new(vec![ConfChangeSingle::RemoveNode(1)]), 1)
            .unwrap();
        net.settle();
        assert!(!net.node(1).trk.config.is_voter(1));
        let leads = net.node(1).role == raftlab::raft::Role::Leader;
        assert_eq!(leads, !step_down);
        if leads {
            assert!(net.node_mut(1).client_put("x", "1", 9).is_ok());
            assert!(net.node(1).notes.iter().any(|n| matches!(
                n,
                Note::ProposalDropped {
                    reason: ProposalRefusal::LeaderRemoved,
                    ..
                }
            )));
        }
    }
}

/// An explicit joint change stays joint until the empty change is proposed (etcd's
/// ConfChangeTransitionJointExplicit, confchange_v2_add_single_explicit.txt).
#[test]
fn explicit_joint_change_waits_for_the_leave() {
    let mut net = three(config(true, true));
    net.node_mut(1)
        .client_conf_change(explicit(ConfChangeSingle::AddLearner(4)), 8)
        .unwrap();
    net.settle();
    net.tick_all(3);
    let c = net.node(1).trk.config.clone();
    assert!(c.is_joint() && !c.auto_leave, "{}", c.describe());
    net.node_mut(1)
        .client_conf_change(ConfChange::default(), 9)
        .unwrap();
    net.settle();
    assert!(!net.node(1).trk.config.is_joint());
}

fn explicit(change: ConfChangeSingle) -> ConfChange {
    ConfChange {
        transition: ConfChangeTransition::JointExplicit,
        ..ConfChange::new(vec![change])
    }
}

/// The transition travels with the entry (etcd's ConfChangeV2.Transition): every node,
/// whatever its own settings, and a node that replays the entry after a restart, enters the
/// same explicit joint configuration the leader does. It used to be read from the applying
/// node's RaftConfig, so a single change proposed as joint was applied directly by the
/// followers, and the configurations differed.
#[test]
fn conf_change_transition_travels_with_the_entry() {
    let mut net = three(config(true, true));
    net.node_mut(1)
        .client_conf_change(explicit(ConfChangeSingle::AddLearner(4)), 8)
        .unwrap();
    net.settle();
    net.tick_all(3);
    let durable = net.node(3).durable();
    let replayed = Raft::restart(3, durable, config(true, true), Rng::new(3));
    let mut configs = vec![replayed.trk.config.clone()];
    configs.extend((1..=3).map(|id| net.node(id).trk.config.clone()));
    for c in &configs {
        assert!(c.is_joint() && !c.auto_leave, "{}", c.describe());
        assert_eq!(c, &configs[0]);
    }
}

/// A ReadIndex response for a read the node does not know (it restarted while its request
/// was at the leader) is dropped, never answered with whatever the key holds: etcd's server
/// pairs a read state with a pending read by its request id and ignores any other, and the
/// client of the crashed process saw an error.
#[test]
fn read_index_response_for_an_unknown_request_is_dropped() {
    let mut net = three(config(true, true));
    net.propose(1, "x", "1");
    net.node_mut(2).client_read_index("y", 7).unwrap();
    let forwarded = take(&mut net, 2);
    assert!(forwarded.iter().any(|m| m.msg_type == MsgType::ReadIndex));
    let durable = net.node(2).durable();
    net.nodes.insert(
        2,
        Raft::restart(2, durable, config(true, true), Rng::new(5)),
    );
    for m in forwarded {
        net.node_mut(1).step(m);
    }
    // Deliver the leader's heartbeat round by hand until it answers n2.
    let mut answers = Vec::new();
    for _ in 0..10 {
        let out: Vec<Message> = net
            .nodes
            .values_mut()
            .flat_map(|n| std::mem::take(&mut n.msgs))
            .collect();
        for m in out {
            if m.msg_type == MsgType::ReadIndexResp {
                answers.push(m);
            } else {
                net.node_mut(m.to).step(m);
            }
        }
    }
    assert_eq!(answers.len(), 1, "the leader answers the read once");
    net.node_mut(2).notes.clear();
    for m in answers {
        net.node_mut(2).step(m);
    }
    assert!(
        !net.node(2)
            .notes
            .iter()
            .any(|n| matches!(n, Note::ReadServed { .. })),
        "{:?}",
        net.node(2).notes
    );
    assert!(net.node(2).read_waits.is_empty());
}
