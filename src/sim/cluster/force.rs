//! etcd's server side of `--force-new-cluster`: which members it finds in the data dir.

use crate::raft::{ConfChangeSingle, EntryData, Raft};

/// Whether etcd's `--force-new-cluster` would leave `raft`'s member without a single voter,
/// which raft refuses with a panic ("removed all voters"), so the member never starts.
///
/// etcd counts as members the voters its snapshot names plus every member its committed
/// entries add, as a voter or as a learner (getIDs), and then removes every member but
/// itself; it adds itself as a voter only if it is not among them. A learner added by a
/// committed entry is among them, so it stays a learner and no voter is left. One named
/// only by the snapshot (its addition compacted away) is not, and is added as a voter.
pub(super) fn would_remove_all_voters(raft: &Raft) -> bool {
    let log = &raft.log;
    let snap = &log.snapshot.conf;
    let mut members = snap.voters.clone();
    let mut learner = snap.learners.contains(&raft.id);
    for e in log.entries.iter().take_while(|e| e.index <= log.committed) {
        let EntryData::Conf { cc, .. } = &e.data else {
            continue;
        };
        for c in &cc.changes {
            match *c {
                ConfChangeSingle::AddNode(id) | ConfChangeSingle::AddLearner(id) => {
                    members.insert(id);
                }
                ConfChangeSingle::RemoveNode(id) => {
                    members.remove(&id);
                }
            }
            if c.node() == raft.id {
                learner = matches!(c, ConfChangeSingle::AddLearner(_));
            }
        }
    }
    learner && members.contains(&raft.id)
}
