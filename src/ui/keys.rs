//! Keyboard shortcuts: one table, used by the key handler, the help overlay and the buttons'
//! tooltips, so the three never disagree. Letters act on the selected node (Tab to a node and
//! press Enter to select it) or on the cluster; none fires while typing in a field.

use crate::raft::NodeId;
use crate::sim::{Action, Sim, Status};

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
    /// What it does.
    pub what: &'static str,
}

/// Every shortcut, in the order the help lists them.
pub const SHORTCUTS: &[Shortcut] = &[
    Shortcut {
        key: "space",
        what: "play / pause (on a focused node: select it)",
    },
    Shortcut {
        key: "enter",
        what: "on a focused node: select it and show its panel",
    },
    Shortcut {
        key: "n",
        what: "next change: step past quiet timer ticks to the next event that changes something",
    },
    Shortcut {
        key: "→",
        what: "one tick forward (shift: one event)",
    },
    Shortcut {
        key: "←",
        what: "one tick back (shift: one event)",
    },
    Shortcut {
        key: "w",
        what: "client write (the Client tab's key and value)",
    },
    Shortcut {
        key: "k",
        what: "kill the selected node, or restart it if it is down",
    },
    Shortcut {
        key: "i",
        what: "isolate the selected node",
    },
    Shortcut {
        key: "s",
        what: "partition: the Network tab's groups, or the leader into a minority",
    },
    Shortcut {
        key: "h",
        what: "heal the network",
    },
    Shortcut {
        key: "c",
        what: "the selected node campaigns now",
    },
    Shortcut {
        key: "l",
        what: "lesson: play on to the next explanation",
    },
    Shortcut {
        key: "p",
        what: "presenter mode: only the picture, the narration and the step controls (also f)",
    },
    Shortcut {
        key: "?",
        what: "this help",
    },
    Shortcut {
        key: "esc",
        what: "close help, leave presenter mode, deselect",
    },
];

/// The key for a shortcut's tooltip: " (key W)".
pub fn hint(key: &str) -> String {
    format!(" (key {})", key.to_uppercase())
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

fn selected(ui: &Ui, what: &str) -> Result<NodeId, String> {
    ui.selected_node.ok_or_else(|| {
        format!("Select a node first to {what} it: click it, or Tab to it and press Enter.")
    })
}

/// The actions `cmd` stands for now, or why it cannot act.
pub fn actions(cmd: Command, sim: &Sim, ui: &Ui) -> Result<Vec<Action>, String> {
    let f = &ui.forms;
    Ok(match cmd {
        Command::Write => {
            let via = if f.put_via.trim().is_empty() {
                None
            } else {
                Some(
                    parse_node(&f.put_via)
                        .ok_or_else(|| format!("'{}' is not a node like n2", f.put_via))?,
                )
            };
            vec![Action::Propose {
                key: f.put_key.trim().to_string(),
                value: f.put_value.trim().to_string(),
                via,
            }]
        }
        Command::KillOrRestart => {
            let id = selected(ui, "kill or restart")?;
            match sim.nodes.get(&id).map(|n| n.status) {
                Some(Status::Running) => vec![Action::Kill(id)],
                Some(Status::Killed) => vec![Action::Restart(id)],
                Some(s) => {
                    return Err(format!(
                        "n{id} is {}: it can be neither killed nor restarted",
                        s.name()
                    ))
                }
                None => return Err(format!("n{id} does not exist")),
            }
        }
        Command::Isolate => vec![Action::Isolate(selected(ui, "isolate")?)],
        Command::Campaign => vec![Action::Campaign(selected(ui, "make campaign")?)],
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
        .filter(|(id, g)| **g > 0 && sim.nodes.contains_key(id))
        .map(|(id, g)| (*id, *g))
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
