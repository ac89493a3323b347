//! The simulated network: partitions, cut links, loss, latency, and the messages in flight.
//!
//! Links are FIFO, like etcd's TCP streams: a message never overtakes an earlier one on the
//! same link, so reordering only happens across links. Faults are checked when a message
//! arrives, so a partition made while a message is in flight drops it.

use crate::raft::vec_map::VecSet;
use serde::{Deserialize, Serialize};

use super::in_flight::InFlightMap;
use super::link_tails::LinkTails;
use crate::raft::{Message, NodeId};

/// A message on its way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InFlight {
    /// A unique, deterministic id (the UI's handle to drop it).
    pub id: u64,
    /// The message.
    pub msg: Message,
    /// When it was sent, ms of simulated time.
    pub sent_at: u64,
    /// When it arrives, ms.
    pub deliver_at: u64,
    /// Already decided to be lost (random loss or dropped by hand).
    pub lost: bool,
}

/// Partitions, cuts and loss. No fault at all is the default.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Network {
    /// Partition groups; a node in no group is in a group of its own when any exist... no:
    /// nodes not listed form one extra group together.
    pub groups: Vec<VecSet<NodeId>>,
    /// Cut links, stored as (smaller id, larger id).
    pub cuts: VecSet<(NodeId, NodeId)>,
    /// Percent of messages lost.
    pub loss: u32,
    /// Messages in flight by id.
    pub in_flight: InFlightMap,
    /// The arrival time of the last message on each directed link (FIFO).
    pub link_tail: LinkTails,
    /// The next message id.
    pub next_id: u64,
}

fn link(a: NodeId, b: NodeId) -> (NodeId, NodeId) {
    (a.min(b), a.max(b))
}

impl Network {
    /// Which partition group `id` is in (`groups.len()` for "not listed").
    pub fn group_of(&self, id: NodeId) -> usize {
        self.groups
            .iter()
            .position(|g| g.contains(&id))
            .unwrap_or(self.groups.len())
    }

    /// Whether a message from `a` can reach `b` now (ignoring loss and process state).
    pub fn connected(&self, a: NodeId, b: NodeId) -> bool {
        if a == b {
            return true;
        }
        if self.cuts.contains(&link(a, b)) {
            return false;
        }
        self.groups.is_empty() || self.group_of(a) == self.group_of(b)
    }

    /// Splits the cluster into `groups` (replacing any earlier partition).
    pub fn partition(&mut self, groups: Vec<VecSet<NodeId>>) {
        self.groups = groups.into_iter().filter(|g| !g.is_empty()).collect();
    }

    /// Cuts `id` off from every node in `all`.
    pub fn isolate(&mut self, id: NodeId, all: &[NodeId]) {
        for &o in all {
            if o != id {
                self.cuts.insert(link(id, o));
            }
        }
    }

    /// Cuts the link between `a` and `b`, both ways.
    pub fn cut(&mut self, a: NodeId, b: NodeId) {
        if a != b {
            self.cuts.insert(link(a, b));
        }
    }

    /// Removes every partition, cut and loss.
    pub fn heal(&mut self) {
        self.groups.clear();
        self.cuts.clear();
        self.loss = 0;
    }

    /// Whether any fault is active.
    pub fn is_faulty(&self) -> bool {
        !self.groups.is_empty() || !self.cuts.is_empty() || self.loss > 0
    }

    /// Puts `msg` in flight: it arrives `latency` ms after `now`, but not before the previous
    /// message on the same link. Returns its id and arrival time.
    pub fn send(&mut self, msg: Message, now: u64, latency: u64, lost: bool) -> (u64, u64) {
        let at = self.link_tail.arrival(msg.from, msg.to, now + latency);
        let id = self.next_id;
        self.next_id += 1;
        self.in_flight.insert(InFlight {
            id,
            msg,
            sent_at: now,
            deliver_at: at,
            lost,
        });
        (id, at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::MsgType;

    #[test]
    fn partitions_and_cuts() {
        let mut n = Network::default();
        assert!(n.connected(1, 2));
        n.partition(vec![
            [1, 2].into_iter().collect(),
            [3].into_iter().collect(),
        ]);
        assert!(n.connected(1, 2));
        assert!(!n.connected(1, 3));
        // Unlisted nodes share one extra group.
        assert!(n.connected(4, 5));
        assert!(!n.connected(3, 4));
        n.heal();
        n.cut(2, 1);
        assert!(!n.connected(1, 2) && n.connected(1, 3));
        n.isolate(3, &[1, 2, 3]);
        assert!(!n.connected(3, 1) && !n.connected(2, 3));
    }

    /// Every message is moved several times between its send and its step (into the
    /// in-flight map, out of it, into the receiver): up to 128 bytes a move is a few vector
    /// copies, above it a call to memcpy (what `Message::entries` being a boxed slice buys).
    #[test]
    fn a_message_in_flight_fits_an_inline_move() {
        assert!(std::mem::size_of::<InFlight>() <= 128);
        assert!(std::mem::size_of::<Option<InFlight>>() <= 128);
    }

    #[test]
    fn links_are_fifo() {
        let mut n = Network::default();
        let m = Message::new(MsgType::App, 1, 2);
        let (_, a) = n.send(m.clone(), 0, 40, false);
        let (_, b) = n.send(m, 5, 10, false);
        assert_eq!(a, 40);
        assert_eq!(b, 40, "a later message may not overtake");
    }
}
