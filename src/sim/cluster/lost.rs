//! Requests whose entry can never commit. A leader appends a client's entry at some index;
//! if a later leader commits that index with another entry (its own empty entry, another
//! write), the first entry is gone for good (State Machine Safety), and the client is told so
//! instead of waiting forever.

use crate::raft::{Entry, EntryData};

use super::super::client::{Outcome, ReqKind};
use super::super::event::EventKind;
use super::{Sim, Status};

impl Sim {
    /// Remembers where a leader appended request `req`'s entry.
    pub(super) fn on_appended(&mut self, req: u64, index: u64, term: u64) {
        if self
            .requests
            .get(&req)
            .is_some_and(|r| r.outcome == Outcome::Pending)
        {
            self.appended.insert(req, (index, term));
        }
    }

    /// Marks lost every pending request whose index some node has committed with another
    /// entry. Called after every event and action; costs nothing while no appended request
    /// is pending.
    pub(super) fn settle_lost(&mut self) {
        // Most events commit nothing at an appended index: skip them without looking at any
        // log (only a node that committed an index can show what won it).
        let Some(lowest) = self.appended.values().map(|&(index, _)| index).min() else {
            return;
        };
        if self.commit_bound < lowest {
            return;
        }
        let committed = self
            .nodes
            .values()
            .filter(|n| !matches!(n.status, Status::NotStarted | Status::Misconfigured))
            .map(|n| n.raft.log.committed)
            .max();
        self.commit_bound = committed.unwrap_or(0);
        if committed.is_none_or(|c| c < lowest) {
            return;
        }
        let mut lost = Vec::new();
        let requests = &self.requests;
        self.appended.retain(|req, _| {
            requests
                .get(req)
                .is_some_and(|r| r.outcome == Outcome::Pending)
        });
        for (&req, &(index, term)) in &self.appended {
            let winner = self
                .nodes
                .values()
                .filter(|n| !matches!(n.status, Status::NotStarted | Status::Misconfigured))
                .filter(|n| n.raft.log.committed >= index)
                .filter_map(|n| n.raft.log.entry(index))
                .find(|e| e.term != term || e.req() != req);
            if let Some(e) = winner {
                lost.push((req, index, e.term, self.word_entry(e)));
            }
        }
        for (req, index, term, by) in lost {
            self.appended.remove(&req);
            let Some(r) = self.requests.get_mut(&req) else {
                continue;
            };
            r.outcome = Outcome::Lost {
                index,
                term,
                by: by.clone(),
            };
            let label = super::super::labels::request(&r.kind);
            let via = r.via;
            self.log(
                via,
                EventKind::Client,
                crate::msg!("ev.req_lost")
                    .arg("label", label)
                    .arg("term", term)
                    .arg("index", index)
                    .arg("by", by.as_str()),
            );
        }
    }

    /// An entry as a client would recognise it.
    fn word_entry(&self, e: &Entry) -> String {
        match &e.data {
            EntryData::Empty => format!("the term-{} leader's empty entry", e.term),
            EntryData::Put { key, value, req } => match self.requests.get(req).map(|r| &r.kind) {
                Some(ReqKind::Write { .. }) | None => format!("put {key}={value}"),
                Some(k) => k.label(),
            },
            EntryData::Conf { cc, .. } => format!("configuration change {}", cc.describe()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::action::Action;
    use super::super::super::options::Options;
    use super::*;

    /// A leader cut off with a write it appended; the majority elects another leader, which
    /// commits its empty entry at the same index.
    #[test]
    fn a_write_appended_by_a_deposed_leader_is_lost() {
        let mut sim = Sim::new(5, Options::default());
        while sim.leader().is_none() {
            sim.tick(1);
        }
        sim.tick(5);
        let old = sim.leader().expect("elected");
        let old_term = sim.nodes[&old].raft.term;
        let others: Vec<_> = sim.ids().into_iter().filter(|id| *id != old).collect();
        sim.apply(&Action::Partition(vec![vec![old], others.clone()]))
            .unwrap();
        sim.apply(&Action::Propose {
            key: "x".into(),
            value: "1".into(),
            via: Some(old),
        })
        .unwrap();
        let req = *sim.requests.keys().last().expect("made");
        let index = sim.nodes[&old].raft.log.last_index();
        for _ in 0..200 {
            sim.tick(1);
            if sim.requests[&req].outcome != Outcome::Pending {
                break;
            }
        }
        let new = sim
            .ids()
            .into_iter()
            .filter(|id| others.contains(id))
            .find(|id| sim.nodes[id].raft.role == crate::raft::Role::Leader)
            .expect("the majority elected a leader");
        let new_term = sim.nodes[&new].raft.term;
        assert!(new_term > old_term);
        assert_eq!(
            sim.requests[&req].outcome,
            Outcome::Lost {
                index,
                term: new_term,
                by: format!("the term-{new_term} leader's empty entry"),
            }
        );
        assert!(sim.requests[&req].outcome.describe().starts_with(&format!(
            "lost: overwritten by term {new_term} at index {index}"
        )));
        assert!(sim.events.iter().any(|e| e.text().contains("put x=1 lost")));
    }

    /// A write the leader commits is never reported lost.
    #[test]
    fn a_committed_write_is_not_lost() {
        let mut sim = Sim::new(3, Options::default());
        while sim.leader().is_none() {
            sim.tick(1);
        }
        sim.apply(&Action::Propose {
            key: "x".into(),
            value: "1".into(),
            via: None,
        })
        .unwrap();
        sim.tick(20);
        let r = sim.requests.values().last().unwrap();
        assert!(matches!(r.outcome, Outcome::Committed { .. }), "{:?}", r);
        assert!(sim.appended.is_empty());
    }
}
