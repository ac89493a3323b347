//! The logs: one row per node, entries as boxes aligned by index (term number and colour,
//! label), committed solid and uncommitted dashed, the applied point marked, a compacted
//! prefix as a snapshot block. The rows scroll sideways together, anchored at the tail.

use yew::prelude::*;

use crate::raft::{Entry, EntryData, Raft, Role};
use crate::sim::{SimNode, Status};

use super::app::{Msg, View};
use super::cluster_view::status_class;
use super::glossary::tip;
use super::style::{node_name, term_style};

/// Column width in pixels.
const COL: u64 = 46;
/// At most this many columns are drawn (the newest).
const MAX_COLS: u64 = 400;

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
    let lo = hi.saturating_sub(MAX_COLS - 1).max(1);
    let width = (hi - lo + 1) * COL + 8;
    let leader = sim.leader().and_then(|l| sim.nodes.get(&l)).map(|n| &n.raft);
    let labels = sim.nodes.values().map(|n| label(v, n)).collect::<Html>();
    let rows = sim
        .nodes
        .values()
        .map(|n| row(n, lo, leader))
        .collect::<Html>();
    let ruler = (lo..=hi)
        .filter(|i| *i == lo || i % 5 == 0 || *i == hi)
        .map(|i| {
            html! { <span class="tick" style={format!("left:{}px", (i - lo) * COL)}>{ i.to_string() }</span> }
        })
        .collect::<Html>();
    html! {
        <section class="logs panel" aria-label="logs">
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
                <div class="log-scroll">
                    <div class="log-grid" style={format!("width:{width}px")}>
                        <div class="ruler">{ ruler }</div>
                        { rows }
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

fn row(n: &SimNode, lo: u64, leader: Option<&Raft>) -> Html {
    let r = &n.raft;
    let log = &r.log;
    let name = node_name(r.id);
    let snap = &log.snapshot;
    let snapshot = if snap.index >= lo {
        let w = (snap.index - lo + 1) * COL - 4;
        html! {
            <div class="snapshot" style={format!("left:0px;width:{w}px")}
                title={format!("snapshot: entries up to index {} (term {}) compacted. {}", snap.index, snap.term, tip("snapshot"))}
                data-snapshot-index={snap.index.to_string()}>
                { format!("snapshot ≤ {}", snap.index) }
            </div>
        }
    } else {
        html! {}
    };
    let entries = log
        .entries
        .iter()
        .filter(|e| e.index >= lo)
        .map(|e| {
            let committed = e.index <= log.committed;
            let applied = e.index <= log.applied;
            let diverged = leader
                .filter(|l| l.id != r.id)
                .and_then(|l| l.log.term(e.index))
                .is_some_and(|t| t != e.term);
            let text = entry_label(e);
            let class = classes!(
                "entry",
                if committed { "committed" } else { "uncommitted" },
                e.is_conf().then_some("conf"),
                matches!(e.data, EntryData::Empty).then_some("empty"),
                diverged.then_some("diverged"),
            );
            let title = format!(
                "{name} index {} term {}: {}{}{}{}",
                e.index,
                e.term,
                if text.is_empty() {
                    "the leader's empty entry".to_string()
                } else {
                    text.clone()
                },
                if committed { ", committed" } else { ", not committed yet" },
                if applied { ", applied" } else { "" },
                if diverged {
                    ", differs from the leader's log: it will be replaced"
                } else {
                    ""
                }
            );
            html! {
                <div class={class} key={e.index.to_string()}
                    style={format!("left:{}px;{}", (e.index - lo) * COL, term_style(e.term))}
                    data-node={name.clone()} data-index={e.index.to_string()} data-term={e.term.to_string()}
                    data-committed={committed.to_string()} data-label={text.clone()} title={title}>
                    <span class="t">{ e.term.to_string() }</span>
                    <span class="l">{ text }</span>
                </div>
            }
        })
        .collect::<Html>();
    let applied = if log.applied >= lo && log.applied > 0 {
        html! {
            <span class="applied-mark" style={format!("left:{}px", (log.applied - lo) * COL + COL / 2 - 8)}
                title={format!("{name} applied up to index {}", log.applied)}>{ "▲" }</span>
        }
    } else {
        html! {}
    };
    html! {
        <div class={classes!("log-row", format!("status-{}", status_class(n.status)))} data-log-node={name.clone()}>
            { snapshot }
            <div class="entries">{ entries }</div>
            { applied }
        </div>
    }
}
