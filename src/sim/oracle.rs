//! Client-side oracles for a simulated run: what the clients were promised, checked against
//! what they got. The invariant checker (`raft::invariants`) looks inside the nodes; these
//! look only at requests and answers, as a Jepsen-style test would, and are shared by the
//! randomized campaign (`tests/campaign.rs`) and any other explorer of runs.
//!
//! - **Durability**: a write acknowledged to its client (committed) is never lost: a running
//!   node that applied its index holds it ([`Oracle::check_applied`], at any moment), and at
//!   the end every live voter holds it ([`Oracle::check_durable`]).
//! - **Linearizable reads**: a linearizable read is served at a read index no lower than the
//!   commit index of any write acknowledged before the read was issued, returns the key's
//!   value as of that index, and never a value no client wrote to the key.
//!
//! Writes are expected to use a distinct key each (a campaign writes `k1`, `k2`, ...; explore
//! `e1`, `e2`, ...), so a key's value tells exactly which write produced it.
//!
//! One implementation for every explorer of runs: the campaign reads the findings as words,
//! explore turns the first into a hit with a condition that replays it.
//!
//! `--force-new-cluster` is an unsafe recovery: the forced node's committed log is all that
//! survives, so acknowledged writes it had not committed are legitimately lost. The oracle
//! is told ([`Oracle::force_new_cluster`]), counts them as forgiven, and no longer expects
//! them anywhere.

use crate::raft::vec_map::VecSet;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use super::client::{Outcome, ReqKind};
use super::cluster::{Sim, Status};
use crate::i18n::Msg;
use crate::raft::NodeId;

/// An acknowledged write.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Acked {
    key: String,
    value: String,
    index: u64,
}

/// A linearizable read waiting for its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
struct OpenRead {
    key: String,
    /// The highest commit index of any write acknowledged before it was issued.
    floor: u64,
}

/// An acknowledged write missing from a node that should hold it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LostWrite {
    /// The node that lacks it.
    pub node: NodeId,
    /// The write's key.
    pub key: String,
    /// The acknowledged value.
    pub value: String,
    /// In words, in any language (`Display` gives the English).
    pub detail: Msg,
}

impl fmt::Display for LostWrite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.detail.fmt(f)
    }
}

/// A linearizable read that was answered wrongly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrongRead {
    /// The read's request id.
    pub req: u64,
    /// The key read.
    pub key: String,
    /// The value it should have returned, when one is known.
    pub expected: Option<String>,
    /// In words, in any language (`Display` gives the English).
    pub detail: Msg,
}

impl fmt::Display for WrongRead {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.detail.fmt(f)
    }
}

/// The oracles' state for one run.
#[derive(Clone, Debug, Default)]
pub struct Oracle {
    /// Request ids below this were all seen answered or are tracked as open.
    scanned: u64,
    /// Writes not yet answered.
    open_writes: VecSet<u64>,
    /// Acknowledged writes still expected to survive, by request id.
    acked: BTreeMap<u64, Acked>,
    /// key → the acknowledged write of that key (request id).
    by_key: BTreeMap<String, u64>,
    /// Linearizable reads not yet answered, by request id.
    open_reads: BTreeMap<u64, OpenRead>,
    /// Highest index of an acknowledged write still expected to survive.
    floor: u64,
    /// key → every value a client asked to write there (acknowledged or not).
    proposed: BTreeMap<String, BTreeSet<String>>,
    /// Wrong answers to linearizable reads.
    pub wrong_reads: Vec<WrongRead>,
    /// Acknowledged writes found missing.
    pub lost_writes: Vec<LostWrite>,
    /// Acknowledged writes lost to a force-new-cluster (allowed).
    pub forgiven: usize,
    /// Linearizable reads answered and checked.
    pub reads_checked: usize,
    /// Writes acknowledged.
    pub writes_acked: usize,
}

impl Oracle {
    /// An oracle that has seen no request.
    pub fn new() -> Oracle {
        Oracle::default()
    }

    /// An oracle that ignores the requests `sim` already holds (a scenario's own, made
    /// before a search starts from its state; they may reuse keys) and checks those made
    /// after.
    pub fn after(sim: &Sim) -> Oracle {
        Oracle {
            scanned: sim.requests.keys().next_back().map_or(0, |id| id + 1),
            ..Oracle::default()
        }
    }

    /// Takes in every outcome the run has produced so far. Call it after each action and
    /// each stretch of time, and before any action that makes a request: the simulator
    /// forgets old answered requests when new ones arrive.
    pub fn observe(&mut self, sim: &Sim) {
        for (&id, r) in sim.requests.range(self.scanned..) {
            self.scanned = id + 1;
            match &r.kind {
                ReqKind::Write { key, value } => {
                    self.open_writes.insert(id);
                    self.proposed
                        .entry(key.clone())
                        .or_default()
                        .insert(value.clone());
                }
                ReqKind::Read {
                    key,
                    linearizable: true,
                } => {
                    // Issued just now (the caller observes around every request).
                    self.open_reads.insert(
                        id,
                        OpenRead {
                            key: key.clone(),
                            floor: self.floor,
                        },
                    );
                }
                _ => {}
            }
        }
        let writes: Vec<u64> = self.open_writes.iter().copied().collect();
        for id in writes {
            let Some(r) = sim.requests.get(&id) else {
                self.open_writes.remove(&id);
                continue;
            };
            match (&r.kind, &r.outcome) {
                (ReqKind::Write { key, value }, Outcome::Committed { index }) => {
                    self.open_writes.remove(&id);
                    self.writes_acked += 1;
                    self.floor = self.floor.max(*index);
                    self.by_key.insert(key.clone(), id);
                    self.acked.insert(
                        id,
                        Acked {
                            key: key.clone(),
                            value: value.clone(),
                            index: *index,
                        },
                    );
                }
                (_, Outcome::Pending) => {}
                _ => {
                    self.open_writes.remove(&id);
                }
            }
        }
        let reads: Vec<u64> = self.open_reads.keys().copied().collect();
        for id in reads {
            let Some(r) = sim.requests.get(&id) else {
                self.open_reads.remove(&id);
                continue;
            };
            match &r.outcome {
                Outcome::Pending => {}
                Outcome::Value { value, index, .. } => {
                    let read = self.open_reads.remove(&id).expect("open");
                    self.reads_checked += 1;
                    self.check_read(id, &read, value.as_deref(), *index, r.via);
                }
                _ => {
                    self.open_reads.remove(&id);
                }
            }
        }
    }

    fn check_read(
        &mut self,
        id: u64,
        read: &OpenRead,
        value: Option<&str>,
        index: Option<u64>,
        via: Option<NodeId>,
    ) {
        let via = via.map_or("?".to_string(), |n| format!("n{n}"));
        let key = &read.key;
        let written = self.proposed.get(key);
        // With one write per key, that write's value is the only right non-empty answer.
        let sole = written
            .filter(|w| w.len() == 1)
            .and_then(|w| w.iter().next().cloned());
        // Every sentence names the read the same way.
        let about = |k: &'static str| {
            Msg::new(k)
                .arg("id", id)
                .arg("key", key.as_str())
                .arg("via", via.as_str())
        };
        let mut wrong = |expected: Option<String>, detail: Msg| {
            self.wrong_reads.push(WrongRead {
                req: id,
                key: key.clone(),
                expected,
                detail,
            });
        };
        let Some(ri) = index else {
            wrong(sole, about("ex.d.read_no_index"));
            return;
        };
        if ri < read.floor {
            wrong(
                sole.clone(),
                about("ex.d.read_below")
                    .arg("ri", ri)
                    .arg("floor", read.floor),
            );
        }
        if let Some(v) = value {
            if written.is_some_and(|w| !w.contains(v)) {
                wrong(
                    sole.clone(),
                    about("ex.d.read_unwritten").arg("ri", ri).arg("value", v),
                );
                return;
            }
        }
        let expected = self
            .by_key
            .get(key)
            .and_then(|w| self.acked.get(w))
            .filter(|w| w.index <= ri);
        if let Some(w) = expected {
            if value != Some(w.value.as_str()) {
                let got = match value {
                    Some(v) => Msg::verbatim(v),
                    None => crate::msg!("ex.d.none"),
                };
                let detail = about("ex.d.read_stale")
                    .arg("ri", ri)
                    .arg("got", got)
                    .arg("wkey", w.key.as_str())
                    .arg("wvalue", w.value.as_str())
                    .arg("index", w.index);
                let expected = Some(w.value.clone());
                wrong(expected, detail);
            }
        }
    }

    /// Node `id` was just restarted with `--force-new-cluster`: acknowledged writes above
    /// its commit index (before the new entries it added) are lost, as etcd documents, and
    /// reads are no longer held to them.
    pub fn force_new_cluster(&mut self, commit_before: u64) {
        let lost: Vec<u64> = self
            .acked
            .iter()
            .filter(|(_, w)| w.index > commit_before)
            .map(|(id, _)| *id)
            .collect();
        for id in lost {
            let w = self.acked.remove(&id).expect("listed");
            self.by_key.remove(&w.key);
            self.forgiven += 1;
        }
        self.floor = self.acked.values().map(|w| w.index).max().unwrap_or(0);
        for r in self.open_reads.values_mut() {
            r.floor = r.floor.min(commit_before);
        }
    }

    /// Checks that every acknowledged write is held by every running voter of `voters`
    /// (call it once the run has settled); records what is missing.
    pub fn check_durable(&mut self, sim: &Sim, voters: &VecSet<NodeId>) {
        let found = self.missing(sim, |id, _| voters.contains(&id));
        self.lost_writes.extend(found);
    }

    /// Checks, at any moment, that every running node that applied an acknowledged write's
    /// index holds it; records the first loss found and returns it.
    pub fn check_applied(&mut self, sim: &Sim) -> Option<LostWrite> {
        let first = self
            .missing(sim, |id, index| sim.nodes[&id].raft.log.applied >= index)
            .into_iter()
            .next();
        self.lost_writes.extend(first.clone());
        first
    }

    /// The acknowledged writes missing from running nodes that `owed(node, write index)`
    /// says must hold them.
    fn missing(&self, sim: &Sim, owed: impl Fn(NodeId, u64) -> bool) -> Vec<LostWrite> {
        let mut out = Vec::new();
        for (&id, n) in &sim.nodes {
            if n.status != Status::Running {
                continue;
            }
            for w in self.acked.values() {
                let has = n.raft.kv.get(&w.key);
                if !owed(id, w.index) || has == Some(&w.value) {
                    continue;
                }
                out.push(LostWrite {
                    node: id,
                    key: w.key.clone(),
                    value: w.value.clone(),
                    detail: crate::msg!("ex.d.lost_write")
                        .arg("id", id)
                        .arg("applied", n.raft.log.applied)
                        .arg("key", w.key.as_str())
                        .arg("value", w.value.as_str())
                        .arg("index", w.index)
                        .arg(
                            "has",
                            match has {
                                Some(v) => Msg::verbatim(v.as_str()),
                                None => crate::msg!("ex.d.nothing"),
                            },
                        ),
                });
            }
        }
        out
    }
}
