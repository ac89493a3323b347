//! One sentence per concept, for tooltips (`title`) and the help overlay.

/// (concept, one-sentence explanation), in teaching order.
pub const CONCEPTS: &[(&str, &str)] = &[
    ("term", "A term is Raft's logical clock: each election starts a new, higher term, and a node that sees a higher term steps down to follower."),
    ("vote", "In each term a node votes for at most one candidate, and only for one whose log is at least as up to date as its own."),
    ("leader", "The leader is the one node of a term that accepts writes, appends them to its log and replicates them to the others."),
    ("follower", "A follower answers the leader and candidates, and campaigns only if it hears from no leader for an election timeout."),
    ("candidate", "A candidate has started a new term and asks every voter for its vote; a majority makes it leader."),
    ("precandidate", "A pre-candidate asks whether it could win before bumping its term, so a node that was cut off cannot disrupt a healthy leader."),
    ("election timer", "The arc around a node fills as its election timer runs; when it is full the node campaigns (randomized so nodes rarely collide)."),
    ("quorum", "A quorum is a majority of the voters; a write commits and a leader is elected only with a quorum."),
    ("commit", "An entry is committed once a quorum stores it in the leader's term; committed entries are never lost (solid boxes; dashed = not yet committed)."),
    ("applied", "Applied entries have been executed by the node's key-value state machine (the marker under a log row)."),
    ("learner", "A learner receives the log but does not vote and does not count toward the quorum, so adding one cannot break availability."),
    ("promote", "Promoting a learner makes it a voter; etcd refuses while the learner's log lags the leader's by more than the learner-ready threshold."),
    ("pre-vote", "With pre-vote, a node first checks that it could win an election before starting one, so a rejoining node does not force a needless election."),
    ("check-quorum", "With check-quorum, a leader that has not heard from a quorum for an election timeout steps down by itself."),
    ("strict reconfig", "etcd's --strict-reconfig-check refuses a membership change that would leave the cluster without a quorum of started members."),
    ("unsafe commit", "Teaching only, never in etcd: let a leader commit an older term's entry once a majority holds it, breaking the paper's Figure 8 rule; the invariant checker shows the damage (preset 20)."),
    ("learner-ready", "A learner can be promoted only when its log has reached this percentage of the leader's log."),
    ("snapshot", "A snapshot replaces a compacted prefix of the log with the state it produced; a follower too far behind receives a snapshot instead of entries."),
    ("compaction", "Compacting a log saves a snapshot of the applied state and discards the entries it covers."),
    ("probe", "Probe: the leader does not know where the follower's log matches, so it sends one append at a time until it finds out."),
    ("replicate", "Replicate: the follower's log is known to match, so the leader streams appends, up to the inflight window."),
    ("snapshot state", "Snapshot: the follower needs entries the leader has compacted away, so the leader sends a snapshot and waits."),
    ("match", "Match is the highest log index the leader knows the member stores."),
    ("next", "Next is the index of the next entry the leader will send to the member."),
    ("inflight", "Inflight counts appends sent but not yet acknowledged; when the window is full the leader pauses that member."),
    ("joint consensus", "During a joint configuration, elections and commits need a majority of the old voters and a majority of the new voters."),
    ("partition", "A network partition splits nodes into groups that cannot talk to each other; only a group with a quorum can make progress."),
    ("cut link", "A cut link stops messages between two nodes in both directions, while each can still reach the others."),
    ("loss", "Message loss drops this percentage of messages at random; Raft retries, so it slows the cluster down but never breaks safety."),
    ("latency", "Each message takes a random time between these bounds to arrive; messages on one link never overtake each other."),
    ("misconfigured", "A member added with a wrong peer URL can never be reached, yet it counts toward the quorum as a voter."),
    ("linearizable read", "A linearizable read (ReadIndex) asks the leader to confirm it still leads before answering, so it never returns stale data."),
    ("serializable read", "A serializable read answers from the local node's applied state at once; it may be stale."),
    ("transfer leadership", "Leadership transfer (etcdctl move-leader): the leader brings the target up to date, then tells it to campaign at once."),
    ("force-new-cluster", "Restarting with --force-new-cluster makes a node a one-member cluster from its own log, the last resort when quorum is lost for good."),
    ("invariants", "The lab checks Raft's safety properties after every event: election safety, log matching, leader completeness, state machine safety."),
    ("time travel", "Drag the timeline to see any past moment; acting while in the past starts a new future from there."),
];

/// The sentence for `concept` ("" if unknown).
pub fn tip(concept: &str) -> &'static str {
    CONCEPTS
        .iter()
        .find(|(c, _)| *c == concept)
        .map(|(_, t)| *t)
        .unwrap_or("")
}
