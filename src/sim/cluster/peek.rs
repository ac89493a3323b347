//! A look at the next queued event without running it, for stepping tools that say what
//! they are about to do (and skip what does nothing).

use std::cmp::Reverse;

use crate::raft::NodeId;

use super::super::network::InFlight;
use super::{Due, Sim, Status};

/// The next event in the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextEvent<'a> {
    /// A running node's timer tick.
    Tick(NodeId),
    /// A message reaching its destination (it may still be dropped there).
    Delivery(&'a InFlight),
    /// A tick of a node that has since crashed or restarted, or a message already dropped by
    /// hand: it changes nothing.
    Void,
}

impl Sim {
    /// The next event [`Sim::step_event`] would process; None when nothing is scheduled.
    pub fn peek_event(&self) -> Option<NextEvent<'_>> {
        let Reverse((_, _, due)) = self.queue.peek()?;
        Some(match *due {
            Due::Tick { node, epoch } => match self.nodes.get(&node) {
                Some(n) if n.epoch == epoch && n.status == Status::Running => NextEvent::Tick(node),
                _ => NextEvent::Void,
            },
            Due::Deliver { msg } => self
                .net
                .in_flight
                .get(&msg)
                .map_or(NextEvent::Void, NextEvent::Delivery),
        })
    }

    /// Why `f` would be dropped if it arrived now (None: it would be delivered).
    pub fn drop_reason(&self, f: &InFlight) -> Option<String> {
        let (from, to) = (f.msg.from, f.msg.to);
        let reason = match self.nodes.get(&to).map(|n| n.status) {
            _ if f.lost => Some("lost".to_string()),
            _ if !self.net.connected(from, to) => Some("partitioned".to_string()),
            Some(Status::Running) => None,
            Some(Status::Misconfigured) => Some(format!("n{to} unreachable: wrong peer URL")),
            Some(s) => Some(format!("n{to} is {}", s.name())),
            None => Some(format!("n{to} does not exist")),
        };
        reason.or_else(|| {
            let receiver_forgot = self
                .nodes
                .get(&to)
                .is_some_and(|n| !n.raft.trk.config.members().contains(&from));
            (self.removed.contains(&from) && receiver_forgot)
                .then(|| format!("n{to} rejects n{from}: a removed member"))
        })
    }
}
