//! Everything a person (or a scenario) can do to a running cluster, with its scenario
//! spelling and the etcdctl command it corresponds to.

use serde::{Deserialize, Serialize};

use crate::raft::NodeId;

/// One user action. Actions are recorded with the moment they were taken, so a run is its
/// options plus its actions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// Crash a node; its durable state is kept.
    Kill(NodeId),
    /// Start a crashed node again.
    Restart(NodeId),
    /// Cut a node off from every other node.
    Isolate(NodeId),
    /// Split the nodes into groups that cannot talk to each other.
    Partition(Vec<Vec<NodeId>>),
    /// Cut one link, both ways.
    Cut(NodeId, NodeId),
    /// Lose this percentage of all messages.
    Loss(u32),
    /// Remove every partition, cut and loss.
    Heal,
    /// Fire a node's election timer now.
    Campaign(NodeId),
    /// A client write, to the leader or via a given node.
    Propose {
        /// Key.
        key: String,
        /// Value.
        value: String,
        /// The node the client talks to (None: the leader).
        via: Option<NodeId>,
    },
    /// A client read.
    Read {
        /// Key.
        key: String,
        /// The node the client talks to (None: the leader).
        via: Option<NodeId>,
        /// ReadIndex (true) or a local, serializable read (false).
        linearizable: bool,
    },
    /// `etcdctl member add`: only changes the configuration.
    MemberAdd {
        /// The new member.
        node: NodeId,
        /// Added as a learner.
        learner: bool,
        /// Its peer URL is wrong: it can never be reached.
        misconfigured: bool,
    },
    /// Start an added member's process.
    Start(NodeId),
    /// `etcdctl member promote`.
    Promote(NodeId),
    /// `etcdctl member remove`.
    Remove(NodeId),
    /// One joint-consensus change.
    MemberChange {
        /// New voters (or learners promoted).
        add: Vec<NodeId>,
        /// New learners.
        learners: Vec<NodeId>,
        /// Members removed.
        remove: Vec<NodeId>,
    },
    /// `etcdctl move-leader`.
    TransferLeader(NodeId),
    /// Snapshot a node's state machine and truncate its log.
    Compact(NodeId),
    /// Restart a node with `--force-new-cluster`.
    ForceNewCluster(NodeId),
    /// Drop one message in flight, by id.
    Drop(u64),
    /// Change an option while running.
    Set {
        /// Option name.
        name: String,
        /// Its new value.
        value: String,
    },
}

fn n(id: NodeId) -> String {
    format!("n{id}")
}

fn list(ids: &[NodeId]) -> String {
    ids.iter().map(|i| n(*i)).collect::<Vec<_>>().join(",")
}

impl Action {
    /// The scenario line that performs this action.
    pub fn to_scn(&self) -> String {
        match self {
            Action::Kill(x) => format!("kill {}", n(*x)),
            Action::Restart(x) => format!("restart {}", n(*x)),
            Action::Isolate(x) => format!("isolate {}", n(*x)),
            Action::Partition(groups) => {
                let g: Vec<String> = groups.iter().map(|g| list(g)).collect();
                format!("partition {}", g.join(" | "))
            }
            Action::Cut(a, b) => format!("cut {} {}", n(*a), n(*b)),
            Action::Loss(p) => format!("loss {p}"),
            Action::Heal => "heal".into(),
            Action::Campaign(x) => format!("campaign {}", n(*x)),
            Action::Propose { key, value, via } => match via {
                Some(v) => format!("propose {key}={value} via {}", n(*v)),
                None => format!("propose {key}={value}"),
            },
            Action::Read {
                key,
                via,
                linearizable,
            } => {
                let mode = if *linearizable {
                    "linearizable"
                } else {
                    "serializable"
                };
                match via {
                    Some(v) => format!("read {key} via {} {mode}", n(*v)),
                    None => format!("read {key} {mode}"),
                }
            }
            Action::MemberAdd {
                node,
                learner,
                misconfigured,
            } => {
                let mut s = format!("member add {}", n(*node));
                if *learner {
                    s.push_str(" learner");
                }
                if *misconfigured {
                    s.push_str(" misconfigured");
                }
                s
            }
            Action::Start(x) => format!("start {}", n(*x)),
            Action::Promote(x) => format!("member promote {}", n(*x)),
            Action::Remove(x) => format!("member remove {}", n(*x)),
            Action::MemberChange {
                add,
                learners,
                remove,
            } => {
                let mut s = "member change".to_string();
                if !add.is_empty() {
                    s.push_str(&format!(" add={}", list(add)));
                }
                if !learners.is_empty() {
                    s.push_str(&format!(" learners={}", list(learners)));
                }
                if !remove.is_empty() {
                    s.push_str(&format!(" remove={}", list(remove)));
                }
                s
            }
            Action::TransferLeader(x) => format!("transfer-leader {}", n(*x)),
            Action::Compact(x) => format!("compact {}", n(*x)),
            Action::ForceNewCluster(x) => format!("force-new-cluster {}", n(*x)),
            Action::Drop(id) => format!("drop {id}"),
            Action::Set { name, value } => format!("set {name}={value}"),
        }
    }

    /// [`Action::etcdctl`] as a message: the command itself reads the same in every
    /// language; only the shell comment ("# on n1") and the note after a command that etcd
    /// has no exact equivalent for are worded.
    pub fn etcdctl_words(&self) -> Option<crate::i18n::Msg> {
        use crate::i18n::Msg;
        let n = |id: NodeId| format!("n{id}");
        Some(match self {
            Action::Kill(x) => crate::msg!("cmd.kill").arg("id", n(*x)),
            Action::Restart(x) => crate::msg!("cmd.restart").arg("id", n(*x)),
            Action::Compact(x) => crate::msg!("cmd.compact").arg("id", n(*x)),
            _ => Msg::verbatim(self.etcdctl()?),
        })
    }

    /// The etcd operator command this action corresponds to, if there is one.
    pub fn etcdctl(&self) -> Option<String> {
        let url = |x: &NodeId, bad: bool| {
            if bad {
                format!("http://n{x}-typo:2380")
            } else {
                format!("http://n{x}:2380")
            }
        };
        Some(match self {
            Action::MemberAdd {
                node,
                learner,
                misconfigured,
            } => format!(
                "etcdctl member add {} --peer-urls={}{}",
                n(*node),
                url(node, *misconfigured),
                if *learner { " --learner" } else { "" }
            ),
            Action::Start(x) => format!(
                "etcd --name {} --initial-cluster-state existing --initial-advertise-peer-urls {}",
                n(*x),
                url(x, false)
            ),
            Action::Promote(x) => format!("etcdctl member promote {}", n(*x)),
            Action::Remove(x) => format!("etcdctl member remove {}", n(*x)),
            Action::TransferLeader(x) => format!("etcdctl move-leader {}", n(*x)),
            Action::Propose { key, value, via } => match via {
                Some(v) => format!("etcdctl --endpoints={} put {key} {value}", n(*v)),
                None => format!("etcdctl put {key} {value}"),
            },
            Action::Read {
                key,
                via,
                linearizable,
            } => {
                let ep = via
                    .map(|v| format!(" --endpoints={}", n(v)))
                    .unwrap_or_default();
                let c = if *linearizable { "l" } else { "s" };
                format!("etcdctl{ep} get {key} --consistency={c}")
            }
            Action::Kill(x) => format!("kill -9 $(pidof etcd)  # on {}", n(*x)),
            Action::Restart(x) => format!("systemctl start etcd  # on {}", n(*x)),
            Action::Compact(x) => {
                format!("etcdctl --endpoints={} snapshot (log compaction)", n(*x))
            }
            Action::ForceNewCluster(x) => {
                format!("etcd --name {} --force-new-cluster", n(*x))
            }
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worded_command_in_english_is_the_command() {
        for a in [
            Action::Kill(2),
            Action::Restart(2),
            Action::Compact(3),
            Action::Promote(4),
            Action::Heal,
        ] {
            assert_eq!(
                a.etcdctl_words().map(|m| m.render(crate::i18n::Lang::En)),
                a.etcdctl(),
                "{a:?}"
            );
        }
    }

    #[test]
    fn etcdctl_for_a_learner_add() {
        let a = Action::MemberAdd {
            node: 4,
            learner: true,
            misconfigured: false,
        };
        assert_eq!(
            a.etcdctl().unwrap(),
            "etcdctl member add n4 --peer-urls=http://n4:2380 --learner"
        );
        assert_eq!(a.to_scn(), "member add n4 learner");
    }
}
