//! Majorities: how many acknowledgements commit an index or win an election.
//!
//! A joint configuration (joint consensus, thesis §4.3) needs a majority of *both* halves; an
//! empty half agrees to everything, so a simple configuration is a joint one with an empty
//! outgoing half.

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

use super::message::NodeId;
use super::vec_map::VecMap;

/// The outcome of counting votes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum VoteResult {
    /// Not decided yet: some voters have not answered.
    Pending,
    /// A majority refused (or can no longer be reached).
    Lost,
    /// A majority granted.
    Won,
}

/// A set of voters deciding by simple majority.
pub type MajorityConfig = BTreeSet<NodeId>;

/// The number of voters that form a majority of `voters` (0 for an empty set).
pub fn quorum_size(voters: &MajorityConfig) -> usize {
    majority(voters.len())
}

/// The number of votes that form a majority of `n` voters (0 when there are none). The one
/// place the formula is written.
pub fn majority(n: usize) -> usize {
    if n == 0 {
        0
    } else {
        n / 2 + 1
    }
}

/// The highest index acknowledged by a majority of `voters`, given each voter's acknowledged
/// index. An empty configuration returns `u64::MAX` so that it never holds a joint commit back.
pub fn committed_index(voters: &MajorityConfig, acked: &dyn Fn(NodeId) -> Option<u64>) -> u64 {
    if voters.is_empty() {
        return u64::MAX;
    }
    quorum_of(voters.len(), |idx| {
        for (slot, id) in idx.iter_mut().zip(voters) {
            *slot = acked(*id).unwrap_or(0);
        }
    })
}

/// [`committed_index`] with the acknowledgements given as `(id, index)` pairs in increasing
/// id order (a leader's progress map): one merge with the voters instead of a lookup per
/// voter, which the leader would pay on every acknowledgement, for every voter.
pub fn committed_index_merged(
    voters: &MajorityConfig,
    acked: impl Iterator<Item = (NodeId, u64)>,
) -> u64 {
    if voters.is_empty() {
        return u64::MAX;
    }
    let mut acked = acked.peekable();
    quorum_of(voters.len(), |idx| {
        for (slot, id) in idx.iter_mut().zip(voters) {
            while acked.next_if(|(a, _)| a < id).is_some() {}
            *slot = acked.next_if(|(a, _)| a == id).map_or(0, |(_, i)| i);
        }
    })
}

/// The quorum's value over `n` acknowledged indexes written by `fill`, one slot per voter.
/// The leader asks on every acknowledgement, so up to 16 voters the slots live on the stack.
fn quorum_of(n: usize, fill: impl FnOnce(&mut [u64])) -> u64 {
    const ON_STACK: usize = 16;
    let mut stack = [0u64; ON_STACK];
    let mut heap = Vec::new();
    let idx: &mut [u64] = if n <= ON_STACK {
        &mut stack[..n]
    } else {
        heap.resize(n, 0);
        &mut heap
    };
    fill(idx);
    quorum_value(idx)
}

/// The index a majority of `acks` (one per voter, not empty) has reached: the majority-th
/// largest. A selection, not a sort: the value is the same, found in linear time.
fn quorum_value(acks: &mut [u64]) -> u64 {
    let k = majority(acks.len()) - 1;
    *acks.select_nth_unstable_by(k, |a, b| b.cmp(a)).1
}

/// Counts `votes` (true = granted) among `voters`; votes from non-voters are ignored.
pub fn vote_result(voters: &MajorityConfig, votes: &VecMap<NodeId, bool>) -> VoteResult {
    if voters.is_empty() {
        return VoteResult::Won;
    }
    let (mut yes, mut missing) = (0, 0);
    for id in voters {
        match votes.get(id) {
            Some(true) => yes += 1,
            Some(false) => {}
            None => missing += 1,
        }
    }
    let q = quorum_size(voters);
    if yes >= q {
        VoteResult::Won
    } else if yes + missing >= q {
        VoteResult::Pending
    } else {
        VoteResult::Lost
    }
}

/// Joint counting: won only if both halves win, lost if either loses.
pub fn joint_vote_result(
    incoming: &MajorityConfig,
    outgoing: &MajorityConfig,
    votes: &VecMap<NodeId, bool>,
) -> VoteResult {
    let a = vote_result(incoming, votes);
    let b = vote_result(outgoing, votes);
    if a == b {
        a
    } else if a == VoteResult::Lost || b == VoteResult::Lost {
        VoteResult::Lost
    } else {
        VoteResult::Pending
    }
}

/// Joint commit: the smaller of the two halves' committed indexes.
pub fn joint_committed_index(
    incoming: &MajorityConfig,
    outgoing: &MajorityConfig,
    acked: &dyn Fn(NodeId) -> Option<u64>,
) -> u64 {
    committed_index(incoming, acked).min(committed_index(outgoing, acked))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn set(ids: &[u64]) -> MajorityConfig {
        ids.iter().copied().collect()
    }

    #[test]
    fn majority_commit_is_the_median_of_acks() {
        let acks: BTreeMap<u64, u64> = [(1, 5), (2, 3), (3, 9)].into_iter().collect();
        let f = |id| acks.get(&id).copied();
        assert_eq!(committed_index(&set(&[1, 2, 3]), &f), 5);
        // A missing ack counts as 0.
        assert_eq!(committed_index(&set(&[1, 2, 3, 4]), &f), 3);
        assert_eq!(committed_index(&set(&[]), &f), u64::MAX);
        // More voters than fit on the stack: 20 voters acked 1..=20, a majority is 11.
        let many: Vec<u64> = (1..=20).collect();
        assert_eq!(committed_index(&set(&many), &|id| Some(id)), 10);
    }

    #[test]
    fn the_merged_commit_equals_the_looked_up_one() {
        let mut rng = crate::raft::Rng::new(3);
        for _ in 0..500 {
            let voters: MajorityConfig = (1..=40).filter(|_| rng.chance(50)).collect();
            // Acks for some voters and some non-voters, in id order.
            let mut acks: BTreeMap<u64, u64> = BTreeMap::new();
            for id in 1..=45 {
                if rng.chance(70) {
                    acks.insert(id, rng.range(0, 8));
                }
            }
            let looked_up = committed_index(&voters, &|id| acks.get(&id).copied());
            let merged = committed_index_merged(&voters, acks.iter().map(|(a, i)| (*a, *i)));
            assert_eq!(merged, looked_up, "voters {voters:?} acks {acks:?}");
        }
    }

    #[test]
    fn joint_commit_needs_both_majorities() {
        let acks: BTreeMap<u64, u64> = [(1, 9), (2, 9), (3, 1), (4, 1), (5, 1)]
            .into_iter()
            .collect();
        let f = |id| acks.get(&id).copied();
        // Old config {1,2,3} has 9 at a majority; new {3,4,5} only 1.
        assert_eq!(
            joint_committed_index(&set(&[3, 4, 5]), &set(&[1, 2, 3]), &f),
            1
        );
    }

    #[test]
    fn votes_pending_won_lost() {
        let v = set(&[1, 2, 3]);
        let mut votes = VecMap::new();
        votes.insert(1, true);
        assert_eq!(vote_result(&v, &votes), VoteResult::Pending);
        votes.insert(2, false);
        assert_eq!(vote_result(&v, &votes), VoteResult::Pending);
        votes.insert(3, true);
        assert_eq!(vote_result(&v, &votes), VoteResult::Won);
        votes.insert(3, false);
        assert_eq!(vote_result(&v, &votes), VoteResult::Lost);
        // A 2-2 split of four voters cannot win.
        let v4 = set(&[1, 2, 3, 4]);
        let split: VecMap<u64, bool> = [(1, true), (2, true), (3, false), (4, false)]
            .into_iter()
            .collect();
        assert_eq!(vote_result(&v4, &split), VoteResult::Lost);
    }

    #[test]
    fn joint_votes_lose_if_either_half_loses() {
        let votes: VecMap<u64, bool> = [(1, true), (2, true), (3, false), (4, false)]
            .into_iter()
            .collect();
        assert_eq!(
            joint_vote_result(&set(&[3, 4, 5]), &set(&[1, 2, 3]), &votes),
            VoteResult::Lost
        );
        assert_eq!(
            joint_vote_result(&set(&[1, 2, 5]), &set(&[1, 2, 3]), &votes),
            VoteResult::Won
        );
    }
}
