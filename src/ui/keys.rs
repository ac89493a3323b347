//! Keyboard shortcuts: one table, used by the key handler, the help overlay and the buttons'
//! tooltips, so the three never disagree. Letters act on the selected node (Tab to a node and
//! press Enter to select it) or on the cluster; none fires while typing in a field.

use crate::i18n::{Lang, Msg as Text};
use crate::raft::NodeId;
use crate::sim::{Action, Sim, Status};
use crate::tr;

use super::app::{Msg, Ui};
use super::forms::parse_node;

/// Something a letter key does that needs the current state to become actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// A client write with the Client tab's key and value (to the leader unless a node is set).
    Write,
    /// Kill the selected node, or restart it when it is down.
    KillOrRestart,
    /// Cut the selected node off from every other.
    Isolate,
    /// Partition: the Network tab's groups, or else the leader with too few others to keep a
    /// quorum on one side and the rest on the other.
    Partition,
    /// Make the selected node campaign now.
    Campaign,
}

/// One shortcut: the key as shown, and what it does.
pub struct Shortcut {
    /// The key as printed in the help and tooltips.
    pub key: &'static str,
    /// The catalog key of what it does.
    pub what: &'static str,
}

/// Every shortcut, in the order the help lists them.
pub const SHORTCUTS: &[Shortcut] = &[
    Shortcut {
        key: "space",
        what: "ui.keys.space",
    },
    Shortcut {
        key: "enter",
        what: "ui.keys.enter",
    },
    Shortcut {
        key: "n",
        what: "ui.keys.n",
    },
    Shortcut {
        key: "→",
        what: "ui.keys.right",
    },
    Shortcut {
        key: "←",
        what: "ui.keys.left",
    },
    Shortcut {
        key: "w",
        what: "ui.keys.w",
    },
    Shortcut {
        key: "k",
        what: "ui.keys.k",
    },
    Shortcut {
        key: "i",
        what: "ui.keys.i",
    },
    Shortcut {
        key: "s",
        what: "ui.keys.s",
    },
    Shortcut {
        key: "h",
        what: "ui.keys.h",
    },
    Shortcut {
        key: "c",
        what: "ui.keys.c",
    },
    Shortcut {
        key: "l",
        what: "ui.keys.l",
    },
    Shortcut {
        key: "p",
        what: "ui.keys.p",
    },
    Shortcut {
        key: "?",
        what: "ui.keys.help",
    },
    Shortcut {
        key: "esc",
        what: "ui.keys.esc",
    },
];

/// The key for a shortcut's tooltip, in `lang`: " (key W)".
pub fn hint(lang: Lang, key: &str) -> String {
    tr!(lang, "ui.keys.hint", key = key.to_ascii_uppercase())
}

/// The message for a letter key, if it is one of ours (no modifier but shift is checked by
/// the caller).
pub fn letter(key: &str) -> Option<Msg> {
    Some(match key {
        "n" | "N" => Msg::NextChange,
        "w" | "W" => Msg::Command(Command::Write),
        "k" | "K" => Msg::Command(Command::KillOrRestart),
        "i" | "I" => Msg::Command(Command::Isolate),
        "s" | "S" => Msg::Command(Command::Partition),
        "h" | "H" => Msg::Act(Action::Heal),
        "c" | "C" => Msg::Command(Command::Campaign),
        "l" | "L" => Msg::LessonContinue,
        _ => return None,
    })
}

/// `what`: the catalog key of the act ("kill or restart").
fn selected(ui: &Ui, what: &'static str) -> Result<NodeId, Text> {
    ui.selected_node
        .ok_or_else(|| Text::new("ui.keys.select_first").arg("what", Text::new(what)))
}

/// The actions `cmd` stands for now, or why it cannot act.
pub fn actions(cmd: Command, sim: &Sim, ui: &Ui) -> Result<Vec<Action>, Text> {
    let f = &ui.forms;
    Ok(match cmd {
        Command::Write => {
            let via = if f.put_via.trim().is_empty() {
                None
            } else {
                Some(parse_node(&f.put_via).ok_or_else(|| {
                    Text::new("ui.keys.not_a_node").arg("value", f.put_via.as_str())
                })?)
            };
            vec![Action::Propose {
                key: f.put_key.trim().to_string(),
                value: f.put_value.trim().to_string(),
                via,
            }]
        }
        Command::KillOrRestart => {
            let id = selected(ui, "ui.keys.act_kill")?;
            match sim.nodes.get(&id).map(|n| n.status) {
                Some(Status::Running) => vec![Action::Kill(id)],
                Some(Status::Killed) => vec![Action::Restart(id)],
                Some(s) => {
                    return Err(Text::new("ui.keys.cannot_kill")
                        .arg("id", id)
                        .arg("status", crate::sim::labels::status(s)))
                }
                None => return Err(Text::new("err.no_such_node").arg("id", id)),
            }
        }
        Command::Isolate => vec![Action::Isolate(selected(ui, "ui.keys.act_isolate")?)],
        Command::Campaign => vec![Action::Campaign(selected(ui, "ui.keys.act_campaign")?)],
        Command::Partition => vec![Action::Partition(partition_groups(sim, ui))],
    })
}

/// The Network tab's groups when at least one node is placed, else the leader (or the
/// selected node, or the first) plus as few others as leave it without a quorum, against the
/// rest.
pub fn partition_groups(sim: &Sim, ui: &Ui) -> Vec<Vec<NodeId>> {
    let chosen: Vec<(NodeId, u8)> = ui
        .forms
        .groups
        .iter()
        .filter(|(id, g)| *g > 0 && sim.nodes.contains_key(id))
        .copied()
        .collect();
    if !chosen.is_empty() {
        let mut groups: Vec<Vec<NodeId>> = Vec::new();
        for g in 1..=3u8 {
            let ids: Vec<NodeId> = chosen
                .iter()
                .filter(|(_, x)| *x == g)
                .map(|(id, _)| *id)
                .collect();
            if !ids.is_empty() {
                groups.push(ids);
            }
        }
        return groups;
    }
    let ids = sim.ids();
    let first = sim
        .leader()
        .or(ui.selected_node)
        .or_else(|| ids.first().copied())
        .unwrap_or(1);
    let minority = (ids.len().saturating_sub(1)) / 2;
    let mut a = vec![first];
    a.extend(
        ids.iter()
            .copied()
            .filter(|id| *id != first)
            .take(minority.saturating_sub(1)),
    );
    let b: Vec<NodeId> = ids.iter().copied().filter(|id| !a.contains(id)).collect();
    vec![a, b]
}
