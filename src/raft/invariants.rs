//! Raft's safety properties (Figure 3 of the paper, plus etcd's own), checked from outside
//! the nodes after every event.
//!
//! The checker keeps "ghost" state no single node has (see [`ghost`]): which term was
//! committed at each index, which node led each term, which term precedes each entry. A
//! violation names the nodes, indexes and terms involved.
//!
//! It cannot cry wolf: only a term read from some node's log is evidence (an index compacted
//! away before the checker saw it is unknown, never "term 0"); a snapshot, a restart or a
//! compaction only removes evidence; `--force-new-cluster` forks the history into a new
//! lineage, because that recovery deliberately breaks Raft's guarantees for the old members.
//!
//! Two ways to run it, with the same ghost state: [`Checker::check_touched`] after an event
//! looks only at the nodes the event changed (its cost does not grow with the cluster), and
//! [`Checker::check`] looks at every node and also compares every pair of logs directly (the
//! reference the incremental check is tested against; the simulator runs it after user
//! actions).

pub mod ghost;

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

use self::ghost::{Ghost, Seen};
use super::message::NodeId;
use super::quorum;
use super::raft::{Raft, Role};
use super::tracker::Config;
use super::vec_map::VecMap;

/// One broken property.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    /// The property, e.g. "election safety".
    pub invariant: String,
    /// What exactly broke, naming nodes, indexes and terms.
    pub detail: String,
}

/// A node as the checker sees it: its state and whether it is running. A crashed node keeps
/// its durable state, which still counts for what a quorum holds.
#[derive(Clone, Copy)]
pub struct Observed<'a> {
    /// The node's state (for a crashed node, frozen at the crash).
    pub raft: &'a Raft,
    /// Whether it is running.
    pub alive: bool,
}

/// What the checker remembers about one node between checks.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Memo {
    /// Term and commit index last seen.
    term: u64,
    commit: u64,
    /// Its committed prefix up to here is compared with the ghost's committed terms.
    checked_upto: u64,
    /// (index, term) of the last entry whose link was recorded; entries after it are new.
    tail: (u64, u64),
    /// While it leads: what its log looked like.
    lead: Option<LeadMemo>,
    /// The commit index already checked for quorum counting.
    leader_commit: u64,
    /// Its configuration at the previous check as leader (a commit is decided under the
    /// configuration in force before the entries it commits are applied).
    prev_config: Option<Config>,
    /// The leader's [`ProgressTracker::config_stamp`](super::tracker::ProgressTracker::config_stamp)
    /// when `prev_config` was last confirmed equal to its configuration (0: not known).
    prev_config_stamp: u64,
    /// What the node looked like at its last check, if that check found nothing wrong: a
    /// node that still looks the same would be found clean again (see [`Checker::check_node`]).
    quiet: Option<Look>,
    /// Set by a check that left `quiet` equal to the node as it is (with a known
    /// configuration stamp), cleared by [`Checker::unsettle`]: while set, a check of the node
    /// would skip it as quiet, so the caller may leave it out (see [`Checker::settled`]).
    /// Not kept across serialization (unknown reads as unsettled).
    #[serde(skip)]
    settled: bool,
}

/// Everything of a node that its check reads, in summary: while these stay the same, the log
/// below `last` keeps its terms (it only changes by a node's own step, which moves one of
/// them or is checked at once), so an incremental check finds nothing new and changes no
/// memo or ghost state. The configuration stamp is unique per `set_config` in the process,
/// so it also tells a restarted node (a new `Raft`) from the old one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Look {
    alive: bool,
    leader: bool,
    term: u64,
    snapshot: u64,
    applied: u64,
    committed: u64,
    last: u64,
    last_term: u64,
    config_stamp: u64,
    lineage: usize,
}

impl Look {
    fn of(o: Observed, lineage: usize) -> Look {
        let l = &o.raft.log;
        Look {
            alive: o.alive,
            leader: o.raft.role == Role::Leader,
            term: o.raft.term,
            snapshot: l.snapshot.index,
            applied: l.applied,
            committed: l.committed,
            last: l.last_index(),
            last_term: l.last_term(),
            config_stamp: o.raft.trk.config_stamp(),
            lineage,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct LeadMemo {
    term: u64,
    last: u64,
    last_term: u64,
    /// Its log was scanned for configuration entries up to here ...
    conf_scanned: u64,
    /// ... and these were found, not yet applied.
    conf_unapplied: Vec<u64>,
}

/// Ids below this have their memo in a slot of their own (scenarios name nodes up to
/// n1000); larger ids, possible through the library, go to a map.
const MEMO_SLOTS: u64 = 1024;

/// The per-node memos. Every touched node's memo is looked up after every event: a slot per
/// id makes that a bounds check rather than a tree search, so the lookup costs the same at 64
/// nodes as at 5. Memos are never removed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct MemoTable {
    /// Slot `id` holds node `id`'s memo, for ids below [`MEMO_SLOTS`].
    slots: Vec<Option<Memo>>,
    /// The memos of larger ids.
    large: VecMap<NodeId, Memo>,
}

impl MemoTable {
    fn get(&self, id: NodeId) -> Option<&Memo> {
        if id < MEMO_SLOTS {
            self.slots.get(id as usize).and_then(Option::as_ref)
        } else {
            self.large.get(&id)
        }
    }

    fn get_mut(&mut self, id: NodeId) -> Option<&mut Memo> {
        if id < MEMO_SLOTS {
            self.slots.get_mut(id as usize).and_then(Option::as_mut)
        } else {
            self.large.get_mut(&id)
        }
    }

    /// Node `id`'s memo, created empty if it had none; true if it was created.
    fn entry(&mut self, id: NodeId) -> (bool, &mut Memo) {
        if id >= MEMO_SLOTS {
            let fresh = !self.large.contains_key(&id);
            return (fresh, self.large.get_or_insert_with(id, Memo::default));
        }
        let i = id as usize;
        if self.slots.len() <= i {
            self.slots.resize_with(i + 1, || None);
        }
        let fresh = self.slots[i].is_none();
        (fresh, self.slots[i].get_or_insert_with(Memo::default))
    }
}

/// The invariant checker and its ghost state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checker {
    /// Ghost state per lineage: 0 is the original cluster, each force-new-cluster adds one.
    ghosts: Vec<Ghost>,
    /// node → its lineage, where not 0.
    lineage: VecMap<NodeId, usize>,
    /// Per node memory.
    memo: MemoTable,
    /// Tests: no node is ever reported settled, so a caller checks every node it touched
    /// (the reference that leaving settled nodes out is compared with).
    #[cfg(test)]
    #[serde(skip)]
    pub(crate) never_settled: bool,
}

impl Default for Checker {
    fn default() -> Self {
        Checker {
            ghosts: vec![Ghost::default()],
            lineage: VecMap::new(),
            memo: MemoTable::default(),
            #[cfg(test)]
            never_settled: false,
        }
    }
}

/// `a == b`, cheaper where it matters: a leader's configuration is compared after nearly
/// every event, and most of its sets are empty. (Destructured, so a new field of `Config`
/// cannot be forgotten here.)
fn same_config(a: &Config, b: &Config) -> bool {
    fn same(a: &BTreeSet<NodeId>, b: &BTreeSet<NodeId>) -> bool {
        a.len() == b.len() && (a.is_empty() || a == b)
    }
    let Config {
        voters,
        outgoing,
        learners,
        learners_next,
        auto_leave,
    } = a;
    *auto_leave == b.auto_leave
        && same(voters, &b.voters)
        && same(outgoing, &b.outgoing)
        && same(learners, &b.learners)
        && same(learners_next, &b.learners_next)
}

/// "term 3", or "no entry" where a log has none.
fn term_word(t: Option<u64>) -> String {
    t.map_or("no entry".to_string(), |t| format!("term {t}"))
}

fn v(invariant: &str, detail: String) -> Violation {
    Violation {
        invariant: invariant.to_string(),
        detail,
    }
}

impl Checker {
    /// A checker that has seen nothing.
    pub fn new() -> Checker {
        Checker::default()
    }

    /// The term committed at `index` in the original cluster, if some node showed it.
    pub fn committed_term(&self, index: u64) -> Option<u64> {
        self.ghosts[0].committed_term(index)
    }

    fn lineage_of(&self, id: NodeId) -> usize {
        self.lineage.get(&id).copied().unwrap_or(0)
    }

    /// Node `id` was restarted with `--force-new-cluster` (call before the next check). Its
    /// committed history so far stays evidence; from now on it is a new cluster whose terms,
    /// leaders and entries are not compared with the old members'.
    pub fn force_new_cluster(&mut self, id: NodeId) {
        let commit = self.memo.get(id).map_or(0, |m| m.commit);
        let old = self.lineage_of(id);
        let fork = self.ghosts[old].fork(commit);
        self.ghosts.push(fork);
        self.lineage.insert(id, self.ghosts.len() - 1);
        if let Some(m) = self.memo.get_mut(id) {
            m.tail = (0, 0);
            m.lead = None;
            m.quiet = None;
            m.settled = false;
        }
    }

    /// Node `id` joins the cluster that `sponsor` (the leader that accepted its addition)
    /// belongs to.
    pub fn adopt(&mut self, id: NodeId, sponsor: NodeId) {
        match self.lineage_of(sponsor) {
            0 => self.lineage.remove(&id),
            l => self.lineage.insert(id, l),
        };
        if let Some(m) = self.memo.get_mut(id) {
            m.quiet = None;
            m.settled = false;
        }
    }

    /// Whether node `id` is known to be unchanged since a check found it clean: checking it
    /// now would skip it as quiet (find nothing, change nothing), so a caller may leave it
    /// out of [`Checker::check_touched`]. True only if every change to the node since that
    /// check was reported with [`Checker::unsettle`].
    pub fn settled(&self, id: NodeId) -> bool {
        #[cfg(test)]
        if self.never_settled {
            return false;
        }
        self.memo.get(id).is_some_and(|m| m.settled)
    }

    /// If node `o` looks as it did at its last clean check, marks it [`Checker::settled`]
    /// and returns true: exactly what a check of it would do now (it would skip it as
    /// quiet), and all it would do. For a caller that holds the node right after changing
    /// it, so the check after the event may leave it out.
    pub fn settle_if_quiet(&mut self, o: Observed) -> bool {
        let lineage = self.lineage_of(o.raft.id);
        let Some(memo) = self.memo.get_mut(o.raft.id) else {
            return false;
        };
        let look = Look::of(o, lineage);
        let quiet = look.config_stamp != 0 && memo.quiet == Some(look);
        memo.settled |= quiet;
        quiet
    }

    /// Node `id` changed (or may have: its raft state, whether it runs, its lineage): it is
    /// no longer [`Checker::settled`] until its next check.
    pub fn unsettle(&mut self, id: NodeId) {
        if let Some(m) = self.memo.get_mut(id) {
            m.settled = false;
        }
    }

    /// Whether the [`Checker::settled`] mark of `o`'s node lies: set although a check now
    /// would not skip the node as quiet (for the tests of every path that changes a node).
    #[cfg(test)]
    pub(crate) fn settled_mark_lies(&self, o: Observed) -> bool {
        let id = o.raft.id;
        let look = Look::of(o, self.lineage_of(id));
        self.memo
            .get(id)
            .is_some_and(|m| m.settled && !(look.config_stamp != 0 && m.quiet == Some(look)))
    }

    /// Every node may have changed (see [`Checker::unsettle`]).
    pub fn unsettle_all(&mut self) {
        for m in self.memo.slots.iter_mut().flatten() {
            m.settled = false;
        }
        for m in self.memo.large.values_mut() {
            m.settled = false;
        }
    }

    /// Checks every property against every node, and compares every pair of logs; returns
    /// what broke. `nodes` are all the nodes that exist (started).
    pub fn check(&mut self, nodes: &[Observed]) -> Vec<Violation> {
        let mut out = Vec::new();
        let by_id: VecMap<NodeId, Observed> = nodes.iter().map(|o| (o.raft.id, *o)).collect();
        let lookup = |id: NodeId| by_id.get(&id).copied();
        for o in nodes {
            self.check_node(*o, true, &lookup, &mut out);
        }
        self.prune(nodes);
        self.check_log_matching_pairwise(nodes, &mut out);
        out
    }

    /// Forgets ghost state no node can contradict any more (indexes every node compacted,
    /// links below every live node's commit), so memory follows the live part of the logs.
    /// `nodes` are all the started nodes. Forgetting only ever removes evidence.
    pub fn prune(&mut self, nodes: &[Observed]) {
        let snapshot_floor = nodes.iter().map(|o| o.raft.log.snapshot.index).min();
        let commit_floor = nodes
            .iter()
            .filter(|o| o.alive)
            .map(|o| o.raft.log.committed)
            .min();
        if let (Some(s), Some(c)) = (snapshot_floor, commit_floor) {
            for g in &mut self.ghosts {
                g.prune(s, c);
            }
        }
    }

    /// Checks what an event changed: the nodes in `touched` (their new log entries, their
    /// newly committed entries, and, for a leader, the leader properties). `lookup` finds any
    /// started node by id (a leader's commit is checked against its voters' logs). The cost
    /// depends on what changed, not on the number of nodes.
    pub fn check_touched<'a>(
        &mut self,
        touched: &[NodeId],
        lookup: &dyn Fn(NodeId) -> Option<Observed<'a>>,
    ) -> Vec<Violation> {
        let mut out = Vec::new();
        for (k, id) in touched.iter().enumerate() {
            if touched[..k].contains(id) {
                continue;
            }
            if let Some(o) = lookup(*id) {
                self.check_node(o, false, lookup, &mut out);
            }
        }
        out
    }

    fn check_node<'a>(
        &mut self,
        o: Observed<'a>,
        full: bool,
        lookup: &dyn Fn(NodeId) -> Option<Observed<'a>>,
        out: &mut Vec<Violation>,
    ) {
        let r = o.raft;
        let id = r.id;
        let l = &r.log;
        let lineage = self.lineage_of(id);
        // One lookup: this runs after nearly every event, for every node it touched.
        let (fresh, memo) = self.memo.entry(id);
        // A node that looks as it did at its last clean check (the sender of a delivery, a
        // follower told only what it knew): checking it again would find nothing and change
        // nothing. Not for a tracker of unknown stamp (0), nor in the full check.
        let look = Look::of(o, lineage);
        if !full && look.config_stamp != 0 && memo.quiet == Some(look) {
            memo.settled = true;
            return;
        }
        let found_before = out.len();
        if !(l.snapshot.index <= l.applied
            && l.applied <= l.committed
            && l.committed <= l.last_index())
        {
            out.push(v(
                "snapshot <= applied <= commit <= last",
                format!(
                    "n{id}: snapshot {} applied {} commit {} last {}",
                    l.snapshot.index,
                    l.applied,
                    l.committed,
                    l.last_index()
                ),
            ));
        }
        if !fresh {
            if r.term < memo.term {
                out.push(v(
                    "term never goes back",
                    format!("n{id}: term went from {} to {}", memo.term, r.term),
                ));
            }
            if l.committed < memo.commit {
                out.push(v(
                    "commit never goes back",
                    format!("n{id}: commit went from {} to {}", memo.commit, l.committed),
                ));
            }
        }
        memo.term = r.term;
        memo.commit = l.committed;
        let ghost = &mut self.ghosts[lineage];
        // State machine safety: every node commits the same entry at each index. Indexes
        // this node compacted before the checker saw them are skipped, not guessed.
        let from = (memo.checked_upto + 1).max(l.snapshot.index).max(1);
        for i in from..=l.committed {
            let Some(t) = l.term(i) else { continue };
            if let Seen::Conflicts(ct) = ghost.commit(i, t, r.term) {
                out.push(v(
                    "state machine safety",
                    format!(
                        "n{id} committed index {i} with term {t}, but term {ct} was committed there"
                    ),
                ));
            }
        }
        memo.checked_upto = memo.checked_upto.max(l.committed);
        // Log matching above the commit index (below it, state machine safety compares
        // every log with the one committed history).
        let (mi, mt) = memo.tail;
        let mut start = l.committed + 1;
        if !full && mi >= start && mi <= l.last_index() && l.term(mi) == Some(mt) {
            start = mi + 1;
        }
        for i in start..=l.last_index() {
            let (Some(t), Some(p)) = (l.term(i), l.term(i - 1)) else {
                continue;
            };
            if let Seen::Conflicts(q) = ghost.link(i, t, p) {
                out.push(v(
                    "log matching",
                    format!(
                        "n{id} holds entry {i} (term {t}) after an entry of term {p}, but another log holds entry {i} (term {t}) after term {q}"
                    ),
                ));
                break;
            }
        }
        memo.tail = (l.last_index(), l.last_term());
        if o.alive && r.role == Role::Leader {
            Self::check_leader(r, ghost, full, lookup, memo, out);
        } else {
            memo.lead = None;
        }
        let clean = out.len() == found_before;
        memo.quiet = clean.then_some(look);
        memo.settled = clean && look.config_stamp != 0;
    }

    fn check_leader<'a>(
        r: &Raft,
        ghost: &mut Ghost,
        full: bool,
        lookup: &dyn Fn(NodeId) -> Option<Observed<'a>>,
        memo: &mut Memo,
        out: &mut Vec<Violation>,
    ) {
        let id = r.id;
        match ghost.leaders.get(&r.term) {
            Some(&other) if other != id => out.push(v(
                "election safety",
                format!("n{other} and n{id} both led term {}", r.term),
            )),
            Some(_) => {}
            None => {
                ghost.leaders.insert(r.term, id);
                // Leader completeness: a new leader holds every entry committed in an
                // earlier term that it has not compacted. An entry committed in this term or
                // later binds it not (a leader of an old term may be elected late, after
                // later leaders committed), nor does an entry whose term is unknown.
                for (i, ct, seen) in ghost.committed_above(r.log.snapshot.index) {
                    if seen >= r.term {
                        continue;
                    }
                    if r.log.term(i) != Some(ct) {
                        out.push(v(
                            "leader completeness",
                            format!(
                                "n{id} leads term {} without committed entry {i} (term {ct}); it has {} there",
                                r.term,
                                term_word(r.log.term(i))
                            ),
                        ));
                        break;
                    }
                }
            }
        }
        // Leader append-only: a leader never overwrites or deletes its own entries.
        let (li, lt) = (r.log.last_index(), r.log.last_term());
        let mut lead = match memo.lead.take() {
            Some(m) if m.term == r.term => {
                let (old_li, old_lt) = (m.last, m.last_term);
                if li < old_li
                    || (old_li >= r.log.snapshot.index && r.log.term(old_li) != Some(old_lt))
                {
                    out.push(v(
                        "leader append-only",
                        format!(
                            "n{id} (term {}) had last {old_li}/term {old_lt}, now last {li}, entry {old_li} {}",
                            r.term,
                            term_word(r.log.term(old_li))
                        ),
                    ));
                }
                m
            }
            _ => LeadMemo {
                term: r.term,
                conf_scanned: r.log.applied,
                ..LeadMemo::default()
            },
        };
        lead.last = li;
        lead.last_term = lt;
        // At most one configuration change pending: the leader's unapplied configuration
        // entries, found once each as its log grows.
        if full || lead.conf_scanned > li {
            lead.conf_scanned = r.log.applied;
            lead.conf_unapplied.clear();
        }
        for i in lead.conf_scanned.max(r.log.applied) + 1..=li {
            if r.log.entry(i).is_some_and(|e| e.is_conf()) {
                lead.conf_unapplied.push(i);
            }
        }
        lead.conf_scanned = li;
        lead.conf_unapplied.retain(|i| *i > r.log.applied);
        let pending = lead.conf_unapplied.len();
        memo.lead = Some(lead);
        if pending > 1 {
            out.push(v(
                "at most one pending configuration change",
                format!(
                    "n{id} (leader, term {}) has {pending} unapplied configuration entries after index {}",
                    r.term, r.log.applied
                ),
            ));
        }
        // Learners never counted: what the leader committed in its term is held by a
        // majority of voters of each half of its configuration, learners aside.
        let c = r.log.committed;
        // Cloned only when it changed (a leader is checked after nearly every event); when
        // it did not, the configuration before is the one now. An unchanged stamp says so
        // without comparing the sets (O(voters), the largest cost at 64 nodes).
        let stamp = r.trk.config_stamp();
        let unchanged = if stamp != 0 && stamp == memo.prev_config_stamp {
            debug_assert!(
                memo.prev_config
                    .as_ref()
                    .is_some_and(|p| same_config(p, &r.trk.config)),
                "n{id}: configuration assigned without set_config (stamp {stamp} kept)"
            );
            true
        } else {
            memo.prev_config
                .as_ref()
                .is_some_and(|p| same_config(p, &r.trk.config))
        };
        memo.prev_config_stamp = stamp;
        let prev = if unchanged {
            None
        } else {
            memo.prev_config.replace(r.trk.config.clone())
        };
        if memo.leader_commit < c && r.log.term(c) == Some(r.term) {
            memo.leader_commit = c;
            let holds = |nid: NodeId| {
                lookup(nid).is_some_and(|o| {
                    o.raft.log.snapshot.index >= c || o.raft.log.term(c) == Some(r.term)
                })
            };
            let short = |cfg: &Config| -> Option<String> {
                for half in [&cfg.voters, &cfg.outgoing] {
                    if half.is_empty() {
                        continue;
                    }
                    let have = half.iter().filter(|n| holds(**n)).count();
                    let q = quorum::quorum_size(half);
                    if have < q {
                        return Some(format!("{have} of {} voters, quorum {q}", half.len()));
                    }
                }
                None
            };
            // Committing an entry may apply a configuration change at once; the decision was
            // made under the configuration before it.
            let now = short(&r.trk.config);
            let before = prev.as_ref().map_or(now.clone(), short);
            if let (Some(why), Some(_)) = (now, before) {
                let learners: Vec<String> = r
                    .trk
                    .config
                    .learners
                    .iter()
                    .map(|n| format!("n{n}"))
                    .collect();
                out.push(v(
                    "learners never counted",
                    format!(
                        "n{id} committed index {c} (term {}) held by {why}; learners: [{}]",
                        r.term,
                        learners.join(" ")
                    ),
                ));
            }
        }
    }

    /// The reference check of Log Matching on the logs as they are now: for every pair of
    /// nodes of one lineage, if their logs hold an entry with the same index and term above
    /// their commit indexes, they agree on every entry before it.
    fn check_log_matching_pairwise(&self, nodes: &[Observed], out: &mut Vec<Violation>) {
        for (a_i, a) in nodes.iter().enumerate() {
            for b in nodes.iter().skip(a_i + 1) {
                if self.lineage_of(a.raft.id) != self.lineage_of(b.raft.id) {
                    continue;
                }
                let (la, lb) = (&a.raft.log, &b.raft.log);
                let lo = la
                    .committed
                    .min(lb.committed)
                    .max(la.first_index())
                    .max(lb.first_index());
                let mut hi = la.last_index().min(lb.last_index());
                while hi >= lo && hi > 0 && la.term(hi) != lb.term(hi) {
                    hi -= 1;
                }
                if hi < lo {
                    continue;
                }
                for i in lo..=hi {
                    if la.term(i) != lb.term(i) {
                        out.push(v(
                            "log matching",
                            format!(
                                "n{} and n{} agree at index {hi} ({}) but differ at {i}: {} vs {}",
                                a.raft.id,
                                b.raft.id,
                                term_word(la.term(hi)),
                                term_word(la.term(i)),
                                term_word(lb.term(i))
                            ),
                        ));
                        break;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
