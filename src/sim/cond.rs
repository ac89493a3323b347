//! Conditions of `expect` and `await`: `LHS OP VALUE`, e.g. `leader = n1`, `n2.term > 3`,
//! `n1.value x = 5`, `voters = n1,n2,n3`.
//!
//! Types are checked when parsing (`n1.term = leader` is an error there, not a failure at
//! run time); evaluating returns whether it holds and the actual value, for failure messages.

use serde::{Deserialize, Serialize};

use crate::i18n::Msg;
use crate::raft::{NodeId, ProgressState};

use super::client::Outcome;
use super::cluster::{Sim, Status};
use super::scenario::{err, node, tokenize, ParseError, Tok};

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// An integer field of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum IntField {
    /// Current term.
    Term,
    /// Commit index.
    Commit,
    /// Applied index.
    Applied,
    /// Last log index.
    Last,
    /// Snapshot index.
    Snapshot,
}

/// What a condition looks at.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lhs {
    /// The live leader with the highest term.
    Leader,
    /// The voters of the configuration in force.
    Voters,
    /// Its learners.
    Learners,
    /// Its quorum size (of the incoming half).
    Quorum,
    /// Invariant violations so far.
    Violations,
    /// Leaders deposed by a higher term while they could still reach a quorum
    /// ([`Sim::disruptions`]).
    Disruptions,
    /// The last read's outcome: a value, none, pending or rejected.
    Read,
    /// Whether the last read was stale.
    ReadStale,
    /// The last write / membership / transfer request's outcome.
    Outcome,
    /// The etcd error of the last request of any kind, as one word (`unhealthy-cluster`,
    /// `deadline-exceeded`), or none.
    Error,
    /// A node's role.
    Role(NodeId),
    /// A node's integer field.
    Int(NodeId, IntField),
    /// A node's vote.
    Vote(NodeId),
    /// The leader a node knows.
    Lead(NodeId),
    /// Whether a node runs.
    Alive(NodeId),
    /// A node's process status.
    Status(NodeId),
    /// A key's value in a node's applied state.
    Value(NodeId, String),
    /// A node's membership in the configuration in force.
    Member(NodeId),
    /// A node's view (as leader) of a peer's progress state.
    Progress(NodeId, NodeId),
    /// A node's view (as leader) of a peer's match index.
    Match(NodeId, NodeId),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Int,
    Word,
}

/// A parsed condition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cond {
    /// What is looked at.
    pub lhs: Lhs,
    /// How it is compared.
    pub op: Op,
    /// With what (as written).
    pub rhs: String,
    /// The condition as written.
    pub text: String,
}

const OPS: [(&str, Op); 6] = [
    ("!=", Op::Ne),
    ("<=", Op::Le),
    (">=", Op::Ge),
    ("=", Op::Eq),
    ("<", Op::Lt),
    (">", Op::Gt),
];

/// Parses a condition; `col` is the column where `text` starts in its line.
pub fn parse(text: &str, col: usize) -> Result<Cond, ParseError> {
    let text = text.trim();
    // Find the first operator (two-character ones first at each position).
    let mut found = None;
    for (i, _) in text.char_indices() {
        if let Some((sym, op)) = OPS.iter().find(|(sym, _)| text[i..].starts_with(sym)) {
            found = Some((i, *sym, *op));
            break;
        }
    }
    let Some((at, sym, op)) = found else {
        return Err(err(
            col,
            crate::msg!("parse.no_comparison").arg("text", text),
        ));
    };
    let op_col = col + text[..at].chars().count();
    let lhs_text = &text[..at];
    let rhs_text = text[at + sym.len()..].trim();
    let rhs_col = op_col + sym.len() + 1;
    let words = tokenize(lhs_text);
    let Some(first) = words.first() else {
        return Err(err(col, crate::msg!("parse.missing_lhs")));
    };
    let first = Tok {
        s: first.s,
        col: col + first.col - 1,
    };
    let extra = words.get(1).map(|w| Tok {
        s: w.s,
        col: col + w.col - 1,
    });
    if words.len() > 2 {
        return Err(err(
            col + words[2].col - 1,
            crate::msg!("parse.unexpected").arg("got", words[2].s),
        ));
    }
    if rhs_text.is_empty() {
        return Err(err(rhs_col, crate::msg!("parse.missing_rhs")));
    }
    if rhs_text.split_whitespace().count() > 1 {
        return Err(err(
            rhs_col,
            crate::msg!("parse.one_value").arg("got", rhs_text),
        ));
    }
    let (lhs, kind) = parse_lhs(first, extra)?;
    if kind == Kind::Word && !matches!(op, Op::Eq | Op::Ne) {
        return Err(err(
            op_col,
            crate::msg!("parse.eq_only").arg("what", first.s),
        ));
    }
    if kind == Kind::Int && rhs_text.parse::<u64>().is_err() {
        return Err(err(
            rhs_col,
            crate::msg!("opt.not_whole").arg("v", rhs_text),
        ));
    }
    check_rhs(&lhs, rhs_text).map_err(|m| err(rhs_col, m))?;
    Ok(Cond {
        lhs,
        op,
        rhs: rhs_text.to_string(),
        text: text.to_string(),
    })
}

fn no_extra(extra: Option<Tok>) -> Result<(), ParseError> {
    match extra {
        Some(t) => Err(err(t.col, crate::msg!("parse.unexpected").arg("got", t.s))),
        None => Ok(()),
    }
}

fn parse_lhs(first: Tok, extra: Option<Tok>) -> Result<(Lhs, Kind), ParseError> {
    let simple = |l: Lhs, k: Kind| -> Result<(Lhs, Kind), ParseError> {
        no_extra(extra)?;
        Ok((l, k))
    };
    match first.s {
        "leader" => return simple(Lhs::Leader, Kind::Word),
        "voters" => return simple(Lhs::Voters, Kind::Word),
        "learners" => return simple(Lhs::Learners, Kind::Word),
        "quorum" => return simple(Lhs::Quorum, Kind::Int),
        "violations" => return simple(Lhs::Violations, Kind::Int),
        "disruptions" => return simple(Lhs::Disruptions, Kind::Int),
        "read" => return simple(Lhs::Read, Kind::Word),
        "read.stale" => return simple(Lhs::ReadStale, Kind::Word),
        "outcome" => return simple(Lhs::Outcome, Kind::Word),
        "error" => return simple(Lhs::Error, Kind::Word),
        _ => {}
    }
    let Some((n, field)) = first.s.split_once('.') else {
        return Err(err(
            first.col,
            crate::msg!("parse.unknown_cond").arg("got", first.s),
        ));
    };
    let id = node(Tok {
        s: n,
        col: first.col,
    })?;
    let fcol = first.col + n.chars().count() + 1;
    let int = |f: IntField| -> Result<(Lhs, Kind), ParseError> {
        no_extra(extra)?;
        Ok((Lhs::Int(id, f), Kind::Int))
    };
    let peer = || -> Result<NodeId, ParseError> {
        let t = extra.ok_or_else(|| {
            err(
                fcol,
                crate::msg!("parse.needs_peer")
                    .arg("field", field)
                    .arg("n", n),
            )
        })?;
        node(t)
    };
    match field {
        "role" => simple(Lhs::Role(id), Kind::Word),
        "term" => int(IntField::Term),
        "commit" => int(IntField::Commit),
        "applied" => int(IntField::Applied),
        "last" => int(IntField::Last),
        "snapshot" => int(IntField::Snapshot),
        "vote" => simple(Lhs::Vote(id), Kind::Word),
        "lead" => simple(Lhs::Lead(id), Kind::Word),
        "alive" => simple(Lhs::Alive(id), Kind::Word),
        "status" => simple(Lhs::Status(id), Kind::Word),
        "member" => simple(Lhs::Member(id), Kind::Word),
        "value" => {
            let key = extra.ok_or_else(|| err(fcol, crate::msg!("parse.value_needs_key")))?;
            Ok((Lhs::Value(id, key.s.to_string()), Kind::Word))
        }
        "progress" => Ok((Lhs::Progress(id, peer()?), Kind::Word)),
        "match" => Ok((Lhs::Match(id, peer()?), Kind::Int)),
        _ => Err(err(
            fcol,
            crate::msg!("parse.unknown_field").arg("got", field),
        )),
    }
}

fn one_of(v: &str, allowed: &[&str]) -> Result<(), Msg> {
    if allowed.contains(&v) {
        Ok(())
    } else {
        let allowed = allowed
            .iter()
            .map(|w| Msg::verbatim(*w))
            .reduce(|a, b| crate::msg!("parse.or").arg("a", a).arg("b", b))
            .unwrap_or_else(|| Msg::verbatim(""));
        Err(crate::msg!("parse.one_of")
            .arg("allowed", allowed)
            .arg("got", v))
    }
}

fn node_or_none(v: &str) -> Result<(), Msg> {
    if v == "none" {
        return Ok(());
    }
    node(Tok { s: v, col: 0 })
        .map(|_| ())
        .map_err(|e| e.message)
}

fn check_rhs(lhs: &Lhs, v: &str) -> Result<(), Msg> {
    match lhs {
        Lhs::Leader | Lhs::Vote(_) | Lhs::Lead(_) => node_or_none(v),
        Lhs::Voters | Lhs::Learners => {
            if v == "none" {
                return Ok(());
            }
            for part in v.split(',') {
                node_or_none(part)?;
            }
            Ok(())
        }
        Lhs::Role(_) => one_of(v, &["follower", "precandidate", "candidate", "leader"]),
        Lhs::Alive(_) | Lhs::ReadStale => one_of(v, &["true", "false"]),
        Lhs::Status(_) => one_of(
            v,
            &[
                "running",
                "killed",
                "not-started",
                "misconfigured",
                "removed",
            ],
        ),
        Lhs::Member(_) => one_of(v, &["voter", "learner", "none"]),
        Lhs::Progress(..) => one_of(v, &["probe", "replicate", "snapshot", "none"]),
        Lhs::Outcome => one_of(
            v,
            &[
                "committed",
                "rejected",
                "pending",
                "accepted",
                "timed-out",
                "committed-late",
                "lost",
            ],
        ),
        _ => Ok(()),
    }
}

fn node_word(id: NodeId) -> String {
    if id == 0 {
        "none".into()
    } else {
        format!("n{id}")
    }
}

fn list_word(ids: impl IntoIterator<Item = NodeId>) -> String {
    let v: Vec<String> = ids.into_iter().map(|i| format!("n{i}")).collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join(",")
    }
}

impl Cond {
    /// The actual value of the left-hand side now, as a word.
    pub fn actual(&self, sim: &Sim) -> String {
        let raft = |id: &NodeId| sim.nodes.get(id).map(|n| &n.raft);
        match &self.lhs {
            Lhs::Leader => node_word(sim.leader().unwrap_or(0)),
            Lhs::Voters => list_word(sim.config().all_voters()),
            Lhs::Learners => {
                let c = sim.config();
                list_word(c.learners.iter().chain(c.learners_next.iter()).copied())
            }
            Lhs::Quorum => sim.quorum_status().incoming.quorum.to_string(),
            Lhs::Violations => sim.violations.len().to_string(),
            Lhs::Disruptions => sim.disruptions.to_string(),
            Lhs::Read | Lhs::ReadStale => {
                let r = sim.last_read.and_then(|id| sim.requests.get(&id));
                let stale_q = self.lhs == Lhs::ReadStale;
                match r.map(|r| &r.outcome) {
                    None if stale_q => "false".into(),
                    None => "none".into(),
                    Some(Outcome::Value { stale, .. }) if stale_q => stale.is_some().to_string(),
                    Some(_) if stale_q => "false".into(),
                    Some(Outcome::Value { value, .. }) => {
                        value.clone().unwrap_or_else(|| "none".into())
                    }
                    Some(Outcome::Rejected { .. }) => "rejected".into(),
                    Some(Outcome::TimedOut { .. }) => "timed-out".into(),
                    Some(_) => "pending".into(),
                }
            }
            Lhs::Outcome => {
                let last = sim
                    .requests
                    .values()
                    .rev()
                    .find(|r| !matches!(r.kind, super::client::ReqKind::Read { .. }));
                match last.map(|r| &r.outcome) {
                    None => "none".into(),
                    Some(Outcome::Committed { .. }) => "committed".into(),
                    Some(Outcome::Rejected { .. }) => "rejected".into(),
                    Some(Outcome::Accepted) => "accepted".into(),
                    Some(Outcome::Lost { .. }) => "lost".into(),
                    Some(Outcome::TimedOut { later: None, .. }) => "timed-out".into(),
                    Some(Outcome::TimedOut { .. }) => "committed-late".into(),
                    Some(_) => "pending".into(),
                }
            }
            Lhs::Error => sim
                .requests
                .values()
                .next_back()
                .map_or("none".into(), |r| r.outcome.error_word()),
            Lhs::Role(id) => raft(id).map_or("none".into(), |r| r.role.name().into()),
            Lhs::Int(id, f) => raft(id).map_or("0".into(), |r| {
                match f {
                    IntField::Term => r.term,
                    IntField::Commit => r.log.committed,
                    IntField::Applied => r.log.applied,
                    IntField::Last => r.log.last_index(),
                    IntField::Snapshot => r.log.snapshot.index,
                }
                .to_string()
            }),
            Lhs::Vote(id) => node_word(raft(id).map_or(0, |r| r.vote)),
            Lhs::Lead(id) => node_word(raft(id).map_or(0, |r| r.lead)),
            Lhs::Alive(id) => sim.is_running(*id).to_string(),
            Lhs::Status(id) => sim.nodes.get(id).map_or("none".into(), |n| {
                match n.status {
                    Status::NotStarted => "not-started",
                    s => s.name(),
                }
                .into()
            }),
            Lhs::Value(id, key) => raft(id)
                .and_then(|r| r.kv.get(key).cloned())
                .unwrap_or_else(|| "none".into()),
            Lhs::Member(id) => {
                let c = sim.config();
                if c.is_voter(*id) {
                    "voter".into()
                } else if c.is_learner(*id) {
                    "learner".into()
                } else {
                    "none".into()
                }
            }
            Lhs::Progress(id, peer) => raft(id)
                .filter(|r| r.role == crate::raft::Role::Leader)
                .and_then(|r| r.progress(*peer))
                .map_or("none".into(), |p| match p.state {
                    ProgressState::Probe => "probe".into(),
                    ProgressState::Replicate => "replicate".into(),
                    ProgressState::Snapshot => "snapshot".into(),
                }),
            Lhs::Match(id, peer) => raft(id)
                .and_then(|r| r.progress(*peer))
                .map_or("0".into(), |p| p.matched.to_string()),
        }
    }

    /// The opposite condition (`n1.term > 5` becomes `n1.term <= 5`), which holds exactly
    /// when this one does not. Used to write a counterexample's final `expect`.
    pub fn negated(&self) -> Cond {
        let (op, sym) = match self.op {
            Op::Eq => (Op::Ne, "!="),
            Op::Ne => (Op::Eq, "="),
            Op::Lt => (Op::Ge, ">="),
            Op::Le => (Op::Gt, ">"),
            Op::Gt => (Op::Le, "<="),
            Op::Ge => (Op::Lt, "<"),
        };
        let lhs_text = OPS
            .iter()
            .filter_map(|(s, _)| self.text.find(s))
            .min()
            .map_or(self.text.as_str(), |at| self.text[..at].trim_end());
        Cond {
            lhs: self.lhs.clone(),
            op,
            rhs: self.rhs.clone(),
            text: format!("{lhs_text} {sym} {}", self.rhs),
        }
    }

    /// Whether the condition holds, and the actual value.
    pub fn eval(&self, sim: &Sim) -> (bool, String) {
        let actual = self.actual(sim);
        let holds = match (actual.parse::<u64>(), self.rhs.parse::<u64>()) {
            (Ok(a), Ok(b)) if !matches!(self.lhs, Lhs::Value(..) | Lhs::Read) => match self.op {
                Op::Eq => a == b,
                Op::Ne => a != b,
                Op::Lt => a < b,
                Op::Le => a <= b,
                Op::Gt => a > b,
                Op::Ge => a >= b,
            },
            _ => {
                let same = if matches!(self.lhs, Lhs::Voters | Lhs::Learners) {
                    sorted(&actual) == sorted(&self.rhs)
                } else {
                    actual == self.rhs
                };
                match self.op {
                    Op::Ne => !same,
                    _ => same,
                }
            }
        };
        (holds, actual)
    }
}

fn sorted(list: &str) -> Vec<String> {
    let mut v: Vec<String> = list.split(',').map(|s| s.to_string()).collect();
    super::small_sort::sort_small_by(&mut v, |a, b| a.cmp(b));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Options, Sim};

    #[test]
    fn parses_and_type_checks() {
        assert!(parse("leader = n1", 1).is_ok());
        assert!(parse("leader=none", 1).is_ok());
        assert!(parse("n1.value x = 5", 1).is_ok());
        assert!(parse("n1.term > 2", 1).is_ok());
        assert!(parse("n1.progress n2 = replicate", 1).is_ok());
        assert!(parse("voters = n1,n2,n3", 1).is_ok());
        assert!(parse("leader > n1", 1)
            .unwrap_err()
            .message
            .to_string()
            .contains("only be compared"));
        assert!(parse("n1.term = lots", 1)
            .unwrap_err()
            .message
            .to_string()
            .contains("whole number"));
        assert!(parse("n1.role = boss", 1)
            .unwrap_err()
            .message
            .to_string()
            .contains("expected follower"));
        assert!(parse("n1.term 3", 1)
            .unwrap_err()
            .message
            .to_string()
            .contains("comparison"));
        assert!(parse("= 3", 1)
            .unwrap_err()
            .message
            .to_string()
            .contains("missing what"));
        assert!(parse("leader =", 1)
            .unwrap_err()
            .message
            .to_string()
            .contains("missing value"));
        assert!(parse("n1.value = 3", 1)
            .unwrap_err()
            .message
            .to_string()
            .contains("needs a key"));
        assert_eq!(parse("n1.colour = red", 8).unwrap_err().col, 11);
    }

    #[test]
    fn evaluates_against_a_cluster() {
        let mut sim = Sim::new(3, Options::default());
        sim.tick(40);
        let l = sim.leader().unwrap();
        let c = parse(&format!("leader = n{l}"), 1).unwrap();
        assert!(c.eval(&sim).0);
        let c = parse("quorum = 2", 1).unwrap();
        assert!(c.eval(&sim).0);
        let c = parse("voters = n3,n1,n2", 1).unwrap();
        assert!(c.eval(&sim).0, "order does not matter");
        let c = parse("n1.term >= 1", 1).unwrap();
        assert!(c.eval(&sim).0);
        let c = parse("n1.term > 100", 1).unwrap();
        assert_eq!(c.eval(&sim), (false, sim.nodes[&1].raft.term.to_string()));
        let c = parse("learners = none", 1).unwrap();
        assert!(c.eval(&sim).0);
        let c = parse("disruptions = 0", 1).unwrap();
        assert!(c.eval(&sim).0);
    }

    #[test]
    fn negation_holds_exactly_when_the_condition_does_not() {
        let mut sim = Sim::new(3, Options::default());
        sim.tick(40);
        for text in [
            "n1.term > 1",
            "n1.term >= 1",
            "n1.term < 1",
            "n1.term <= 1",
            "n1.term = 1",
            "n1.term != 1",
            "leader = n1",
            "leader != none",
            "n1.value x = 1",
        ] {
            let c = parse(text, 1).unwrap();
            let n = c.negated();
            assert_eq!(parse(&n.text, 1).unwrap(), n, "{text}");
            assert_ne!(c.eval(&sim).0, n.eval(&sim).0, "{text} vs {}", n.text);
        }
    }
}
