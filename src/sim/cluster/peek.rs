//! A look at the next queued event without running it, for stepping tools that say what
//! they are about to do (and skip what does nothing).

use crate::i18n::{Lang, Msg};
use crate::raft::NodeId;

use std::collections::BTreeSet;

use super::super::network::{InFlight, Network};
use super::{Due, Sim, SimNode, Status, Undelivered};

/// The next event in the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextEvent<'a> {
    /// A running node's timer tick.
    Tick(NodeId),
    /// A message reaching its destination (it may still be dropped there).
    Delivery(&'a InFlight),
    /// A client's request timeout coming due (request id).
    Deadline(u64),
    /// Clients retrying requests a member can now take.
    Retry,
    /// A member that applied its own removal stopping, a second later.
    StopRemoved(NodeId),
    /// A tick of a node that has since crashed or restarted, or a message already dropped by
    /// hand: it changes nothing.
    Void,
}

impl Sim {
    /// The next event [`Sim::step_event`] would process; None when nothing is scheduled.
    pub fn peek_event(&self) -> Option<NextEvent<'_>> {
        let (_, _, due) = self.queue.peek()?;
        Some(match due {
            Due::Tick { node, epoch } => match self.nodes.get(&node) {
                Some(n) if n.epoch == epoch && n.status == Status::Running => NextEvent::Tick(node),
                _ => NextEvent::Void,
            },
            Due::Deadline { req } => NextEvent::Deadline(req),
            Due::Retry => NextEvent::Retry,
            Due::StopRemoved { node, epoch } => match self.nodes.get(&node) {
                Some(n) if n.epoch == epoch && n.status == Status::Running => {
                    NextEvent::StopRemoved(node)
                }
                _ => NextEvent::Void,
            },
            Due::Deliver { msg } => self
                .net
                .in_flight
                .get(&msg)
                .map_or(NextEvent::Void, NextEvent::Delivery),
        })
    }

    /// Why `f` would not be delivered if it arrived now (None: it would be). The delivery
    /// itself asks this, so a look ahead and the delivery never disagree.
    pub fn undelivered(&self, f: &InFlight) -> Option<Undelivered> {
        undelivered_at(f, self.nodes.get(&f.msg.to), &self.net, &self.removed)
    }

    /// [`Sim::undelivered`] in English words ("partitioned", "n4 is killed").
    pub fn drop_reason(&self, f: &InFlight) -> Option<String> {
        self.drop_why(f).map(|m| m.render(Lang::En))
    }

    /// [`Sim::undelivered`] as a message, worded in any language.
    pub fn drop_why(&self, f: &InFlight) -> Option<Msg> {
        self.undelivered(f)
            .map(|u| super::super::words::undelivered(u, f.msg.from, f.msg.to))
    }
}

/// [`Sim::undelivered`], given the receiver (None: no such node), the network and the
/// members ever removed: the delivery itself looks the receiver up once for this and for its
/// step.
pub(super) fn undelivered_at(
    f: &InFlight,
    receiver: Option<&SimNode>,
    net: &Network,
    removed: &BTreeSet<NodeId>,
) -> Option<Undelivered> {
    let (from, to) = (f.msg.from, f.msg.to);
    let reason = match receiver.map(|n| n.status) {
        _ if f.lost => Some(Undelivered::Lost),
        _ if !net.connected(from, to) => Some(Undelivered::Partitioned),
        Some(Status::Running) => None,
        Some(Status::Misconfigured) => Some(Undelivered::WrongPeerUrl),
        Some(s) => Some(Undelivered::Down(s)),
        None => Some(Undelivered::Missing),
    };
    reason.or_else(|| {
        // Asked only about removed members: building the member set per message is what
        // made big clusters slow.
        let receiver_forgot =
            || receiver.is_some_and(|n| !n.raft.trk.config.members().contains(&from));
        (removed.contains(&from) && receiver_forgot()).then_some(Undelivered::RemovedSender)
    })
}
