//! The simulator end to end: a 3-node cluster elects a leader and a write reaches every node.

use raftlab::sim::{Action, Options, Sim};

#[test]
fn three_nodes_elect_a_leader_and_commit() {
    let mut s = Sim::new(3, Options::default());
    s.tick(40);
    assert!(s.leader().is_some(), "a leader within 40 ticks");
    s.apply(&Action::Propose {
        key: "x".into(),
        value: "1".into(),
        via: None,
    })
    .unwrap();
    s.tick(5);
    for n in s.nodes.values() {
        assert_eq!(
            n.raft.kv.get("x").map(|s| s.as_str()),
            Some("1"),
            "n{}",
            n.raft.id
        );
    }
    assert!(s.violations.is_empty(), "{:?}", s.violations);
}
