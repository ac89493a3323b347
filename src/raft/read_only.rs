//! ReadIndex bookkeeping (thesis §6.4, seed 003): a read is served at the commit index the
//! leader had when the request arrived, once a quorum has acknowledged a heartbeat that was
//! sent after it, proving the leader was still the leader at that moment.

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

use super::message::NodeId;
use super::vec_map::VecMap;

/// A read request waiting for its heartbeat round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadIndexStatus {
    /// The node that asked (the leader itself for a local read).
    pub from: NodeId,
    /// The request id (the heartbeat context).
    pub ctx: u64,
    /// The leader's commit index when the request arrived.
    pub index: u64,
    /// Who has acknowledged a heartbeat carrying this context.
    pub acks: BTreeSet<NodeId>,
}

/// Pending read-index requests, in arrival order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadOnly {
    /// Requests by context.
    pub pending: VecMap<u64, ReadIndexStatus>,
    /// Contexts in arrival order.
    pub queue: Vec<u64>,
}

impl ReadOnly {
    /// Queues a request at `index` (ignored if the context is already queued).
    pub fn add_request(&mut self, index: u64, from: NodeId, ctx: u64) {
        if self.pending.contains_key(&ctx) {
            return;
        }
        self.pending.insert(
            ctx,
            ReadIndexStatus {
                from,
                ctx,
                index,
                acks: BTreeSet::new(),
            },
        );
        self.queue.push(ctx);
    }

    /// Records `id`'s acknowledgement of `ctx`; returns the acks so far.
    pub fn recv_ack(&mut self, id: NodeId, ctx: u64) -> Option<&BTreeSet<NodeId>> {
        let rs = self.pending.get_mut(&ctx)?;
        rs.acks.insert(id);
        Some(&rs.acks)
    }

    /// Releases `ctx` and every request queued before it: a quorum that acknowledged a later
    /// heartbeat also confirms the earlier requests.
    pub fn advance(&mut self, ctx: u64) -> Vec<ReadIndexStatus> {
        let Some(pos) = self.queue.iter().position(|c| *c == ctx) else {
            return Vec::new();
        };
        let released: Vec<u64> = self.queue.drain(..=pos).collect();
        released
            .into_iter()
            .filter_map(|c| self.pending.remove(&c))
            .collect()
    }

    /// The newest pending context (heartbeats carry it).
    pub fn last_pending(&self) -> u64 {
        self.queue.last().copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advance_releases_earlier_requests_too() {
        let mut ro = ReadOnly::default();
        ro.add_request(5, 2, 100);
        ro.add_request(6, 3, 101);
        ro.add_request(7, 1, 102);
        let done = ro.advance(101);
        assert_eq!(
            done.iter().map(|r| r.ctx).collect::<Vec<_>>(),
            vec![100, 101]
        );
        assert_eq!(ro.last_pending(), 102);
        assert!(ro.advance(999).is_empty());
    }
}
