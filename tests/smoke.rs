use raftlab::sim::{Action, Options, Sim};

#[test]
fn three_nodes_elect_a_leader_and_commit() {
    let mut s = Sim::new(3, Options::default());
    s.tick(40);
    let l = s.leader().expect("a leader");
    s.apply(&Action::Propose { key: "x".into(), value: "1".into(), via: None }).unwrap();
    s.tick(5);
    for n in s.nodes.values() {
        assert_eq!(n.raft.kv.get("x").map(|s| s.as_str()), Some("1"), "n{}", n.raft.id);
    }
    for e in &s.events { println!("{:>6} {:?} {}", e.time, e.kind, e.text); }
    println!("leader n{l} term {}", s.nodes[&l].raft.term);
    assert!(s.violations.is_empty(), "{:?}", s.violations);
}
