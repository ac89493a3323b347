//! The logs: one row per node, entries as boxes aligned by index (term number and colour,
//! label), committed solid and uncommitted dashed, the applied point marked, a compacted
//! prefix as a snapshot block. The rows scroll sideways together, anchored at the tail: the
//! newest entry is always in view, older ones by scrolling or "earlier". Membership entries
//! say what they do (`+n4 learner`, `promote n4`, `joint +n4 -n1`, `leave joint`).

use yew::prelude::*;

use std::collections::BTreeSet;

use crate::raft::{ConfChangeSingle, Entry, EntryData, NodeId, Raft, Role};
use crate::sim::{SimNode, Status};

use super::app::{Msg, View};
use super::cluster_view::status_class;
use super::glossary::tip;
use super::style::{node_name, term_style};

/// Column width in pixels.
const COL: u64 = 48;
/// An entry box's width (the rest of the column is the gap), as in the CSS.
const BOX: u64 = 44;
/// Columns drawn at first (the newest); "show earlier" adds more.
pub const DEFAULT_COLS: u64 = 48;

/// The panel.
pub fn render(v: &View) -> Html {
    let sim = v.sim;
    let max_last = sim
        .nodes
        .values()
        .map(|n| n.raft.log.last_index())
        .max()
        .unwrap_or(0);
    let hi = max_last.max(1);
    let lo = hi.saturating_sub(v.ui.log_cols.max(1) - 1).max(1);
    let hidden = lo - 1;
    let width = (hi - lo + 1) * COL + 8;
    // The shifted layer spans every column up to the newest, so no row clips its own boxes.
    let full = hi * COL + 8;
    let leader = sim
        .leader()
        .and_then(|l| sim.nodes.get(&l))
        .map(|n| &n.raft);
    let labels = sim.nodes.values().map(|n| label(v, n)).collect::<Html>();
    let rows = sim
        .nodes
        .values()
        .map(|n| row(n, lo, leader))
        .collect::<Html>();
    let ruler = (lo..=hi)
        .filter(|i| (*i == lo && hidden == 0) || i % 5 == 0 || *i == hi)
        .map(|i| {
            html! { <span class="tick" style={format!("left:{}px", (i - 1) * COL)}>{ i.to_string() }</span> }
        })
        .collect::<Html>();
    html! {
        <section class={classes!("logs", "panel", (sim.nodes.len() > 5).then_some("dense"))} aria-label="logs">
            <h2>
                { "Logs" }
                <span class="legend">
                    <span class="lg solid" title={tip("commit")}>{ "committed" }</span>
                    <span class="lg dashed" title={tip("commit")}>{ "not committed" }</span>
                    <span class="lg applied" title={tip("applied")}>{ "▲ applied" }</span>
                    <span class="lg snap" title={tip("snapshot")}>{ "snapshot" }</span>
                </span>
            </h2>
            if max_last == 0 {
                <p class="hint">{ "All logs are empty: the first leader appends an empty entry of its term." }</p>
            }
            <div class="log-body">
                <div class="log-labels">
                    <div class="log-label head">{ "index" }</div>
                    { labels }
                </div>
                <div class="log-scroll" tabindex="0" role="region" aria-label="logs, scroll sideways for older entries">
                    <div class="log-grid" style={format!("width:{width}px")}>
                        if hidden > 0 {
                            <button class="link-btn earlier" onclick={v.link.callback(|_| Msg::MoreLog)}
                                aria-label="show earlier log entries">{ format!("◀ {hidden} earlier") }</button>
                        }
                        // Boxes sit at their absolute index; one shift for all keeps the
                        // newest in view without restyling every box when a column is added.
                        <div class="log-shift" style={format!("width:{full}px;transform:translateX(-{}px)", (lo - 1) * COL)}>
                            <div class="ruler">{ ruler }</div>
                            { rows }
                        </div>
                    </div>
                </div>
            </div>
        </section>
    }
}

fn label(v: &View, n: &SimNode) -> Html {
    let r = &n.raft;
    let id = r.id;
    let lead = n.status == Status::Running && r.role == Role::Leader;
    let onclick = v.link.callback(move |_| Msg::SelectNode(Some(id)));
    let role = if n.status != Status::Running {
        n.status.name().to_string()
    } else if r.is_learner() {
        "learner".to_string()
    } else {
        r.role.name().to_string()
    };
    html! {
        <div class={classes!("log-label", format!("status-{}", status_class(n.status)))}>
            <button class="link-btn" {onclick} aria-label={format!("select {}", node_name(id))}>
                { node_name(id) }{ if lead { " ♛" } else { "" } }
            </button>
            <span class="role">{ role }</span>
            <span class="ca" title={format!("{} {}", tip("commit"), tip("applied"))}>
                { format!("commit {} · applied {}", r.log.committed, r.log.applied) }
            </span>
        </div>
    }
}

fn entry_label(e: &Entry) -> String {
    match &e.data {
        EntryData::Empty => String::new(),
        _ => e.label(),
    }
}

/// A membership entry in words that cannot be misread: whether it adds a voter or a learner,
/// promotes a learner, or enters or leaves a joint configuration. `learners` are the
/// learners before this entry; it is updated.
fn conf_label(e: &Entry, learners: &mut BTreeSet<NodeId>) -> Option<String> {
    let EntryData::Conf { cc, .. } = &e.data else {
        return None;
    };
    if cc.is_leave_joint() {
        return Some("leave joint".to_string());
    }
    let voter_changes = cc
        .changes
        .iter()
        .filter(|c| !matches!(c, ConfChangeSingle::AddLearner(_)))
        .count();
    let parts: Vec<String> = cc
        .changes
        .iter()
        .map(|c| match c {
            ConfChangeSingle::AddNode(n) if learners.remove(n) => format!("promote n{n}"),
            ConfChangeSingle::AddNode(n) => format!("+n{n} voter"),
            ConfChangeSingle::AddLearner(n) => {
                learners.insert(*n);
                format!("+n{n} learner")
            }
            ConfChangeSingle::RemoveNode(n) => {
                learners.remove(n);
                format!("-n{n}")
            }
        })
        .collect();
    let text = parts.join(" ");
    Some(if voter_changes > 1 {
        format!("joint {text}")
    } else {
        text
    })
}

/// A label cut to fit a box (the full text is in the title).
fn short(label: &str) -> String {
    if label.chars().count() <= 6 {
        label.to_string()
    } else {
        let mut s: String = label.chars().take(5).collect();
        s.push('…');
        s
    }
}

/// A membership label as two short lines for a box: what ("learner", "voter", "promote",
/// "remove", "joint", "leave"), and whom.
fn conf_lines(label: &str) -> (String, String) {
    let words: Vec<&str> = label.split_whitespace().collect();
    match words.as_slice() {
        ["promote", rest @ ..] | ["joint", rest @ ..] | ["leave", rest @ ..] => {
            (words[0].to_string(), short(&rest.join(" ")))
        }
        [node, kind] if node.starts_with('+') => (kind.to_string(), node.to_string()),
        [node] if node.starts_with('-') => ("remove".to_string(), node[1..].to_string()),
        _ => (short(label), String::new()),
    }
}

/// One entry box, as drawn.
#[derive(Clone, Debug, PartialEq)]
struct EntryBox {
    index: u64,
    term: u64,
    committed: bool,
    applied: bool,
    label: String,
    /// For a membership entry, the unambiguous description.
    conf_label: Option<String>,
    conf: bool,
    empty: bool,
    diverged: bool,
}

/// What a log row shows. Rows are components, so yew skips a row whose data did not change
/// (most rows, most frames).
#[derive(Clone, Debug, PartialEq, Properties)]
struct RowProps {
    name: AttrValue,
    status: &'static str,
    lo: u64,
    snapshot: (u64, u64),
    applied: u64,
    entries: Vec<EntryBox>,
}

fn row(n: &SimNode, lo: u64, leader: Option<&Raft>) -> Html {
    let r = &n.raft;
    let log = &r.log;
    let mut learners: BTreeSet<NodeId> = log.snapshot.conf.learners.clone();
    let entries: Vec<EntryBox> = log
        .entries
        .iter()
        .map(|e| (e, conf_label(e, &mut learners)))
        .filter(|(e, _)| e.index >= lo)
        .map(|(e, conf_label)| EntryBox {
            index: e.index,
            term: e.term,
            committed: e.index <= log.committed,
            applied: e.index <= log.applied,
            label: entry_label(e),
            conf_label,
            conf: e.is_conf(),
            empty: matches!(e.data, EntryData::Empty),
            diverged: leader
                .filter(|l| l.id != r.id)
                .and_then(|l| l.log.term(e.index))
                .is_some_and(|t| t != e.term),
        })
        .collect();
    html! {
        <LogRow key={r.id.to_string()} name={AttrValue::from(node_name(r.id))} status={status_class(n.status)} {lo}
            snapshot={(log.snapshot.index, log.snapshot.term)} applied={log.applied} {entries} />
    }
}

#[component]
fn LogRow(p: &RowProps) -> Html {
    let name = &p.name;
    let lo = p.lo;
    let (snap_index, snap_term) = p.snapshot;
    let snapshot = if snap_index >= lo {
        let w = (snap_index - lo + 1) * COL - (COL - BOX);
        html! {
            <div class="snapshot" style={format!("left:{}px;width:{w}px", (lo - 1) * COL)}
                title={format!("snapshot: entries up to index {snap_index} (term {snap_term}) compacted. {}", tip("snapshot"))}
                data-snapshot-index={snap_index.to_string()}>
                { format!("snapshot ≤ {snap_index}") }
            </div>
        }
    } else {
        html! {}
    };
    let entries = p
        .entries
        .iter()
        .map(|e| {
            let class = classes!(
                "entry",
                if e.committed { "committed" } else { "uncommitted" },
                e.conf.then_some("conf"),
                e.empty.then_some("empty"),
                e.diverged.then_some("diverged"),
            );
            let shown = e.conf_label.as_deref().unwrap_or(e.label.as_str());
            let title = format!(
                "{name} index {} term {}: {}{}{}{}",
                e.index,
                e.term,
                if shown.is_empty() {
                    "the leader's empty entry"
                } else {
                    shown
                },
                if e.committed { ", committed" } else { ", not committed yet" },
                if e.applied { ", applied" } else { "" },
                if e.diverged {
                    ", differs from the leader's log: it will be replaced"
                } else {
                    ""
                }
            );
            html! {
                <div class={class} key={e.index.to_string()}
                    style={format!("left:{}px;{}", (e.index - 1) * COL, term_style(e.term))}
                    data-node={name.clone()} data-index={e.index.to_string()} data-term={e.term.to_string()}
                    data-committed={e.committed.to_string()} data-label={e.label.clone()}
                    data-conf-label={e.conf_label.clone()} title={title}>
                    if let Some(c) = &e.conf_label {
                        <span class="t small">{ e.term.to_string() }</span>
                        <span class="l c1">{ conf_lines(c).0 }</span>
                        <span class="l c2">{ conf_lines(c).1 }</span>
                    } else {
                        <span class="t">{ e.term.to_string() }</span>
                        <span class="l">{ short(&e.label) }</span>
                    }
                </div>
            }
        })
        .collect::<Html>();
    let applied = if p.applied >= lo && p.applied > 0 {
        html! {
            <span class="applied-mark" style={format!("left:{}px", (p.applied - 1) * COL + BOX / 2 - 8)}
                title={format!("{name} applied up to index {}", p.applied)}>{ "▲" }</span>
        }
    } else {
        html! {}
    };
    html! {
        <div class={classes!("log-row", format!("status-{}", p.status))} data-log-node={name.clone()}>
            { snapshot }
            <div class="entries">{ entries }</div>
            { applied }
        </div>
    }
}
