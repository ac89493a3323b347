//! The clicked node: its full state and everything you can do to it.

use yew::prelude::*;

use crate::raft::NodeId;
use crate::sim::{Action, SimNode, Status};

use super::action_bar::request_line;
use super::app::{Msg, View};
use super::glossary::tip;
use super::keys;
use super::style::node_name;

fn chooser(v: &View) -> Html {
    let buttons = v
        .sim
        .nodes
        .keys()
        .map(|id| {
            let id = *id;
            let pick = v.link.callback(move |_| Msg::SelectNode(Some(id)));
            html! { <button onclick={pick} aria-label={format!("select {}", node_name(id))}>{ node_name(id) }</button> }
        })
        .collect::<Html>();
    html! {
        <div class="node-panel">
            <p class="hint">{ "Click a node in the drawing (or pick one here) to see its full state and act on it." }</p>
            <div class="row wrap">{ buttons }</div>
        </div>
    }
}

fn button(v: &View, label: &str, concept: &str, action: Action, class: &'static str) -> Html {
    let key = match action {
        Action::Kill(_) | Action::Restart(_) => keys::hint("k"),
        Action::Isolate(_) => keys::hint("i"),
        Action::Campaign(_) => keys::hint("c"),
        _ => String::new(),
    };
    let title = match action.etcdctl() {
        Some(e) => format!("{} — etcdctl: {e}{key}", tip(concept)),
        None => format!("{}{key}", tip(concept)),
    };
    let aria = format!("{label} ({})", action.to_scn());
    let onclick = v.link.callback(move |_| Msg::Act(action.clone()));
    html! { <button class={class} {onclick} title={title} aria-label={aria}>{ label.to_string() }</button> }
}

fn actions(v: &View, n: &SimNode) -> Html {
    let id: NodeId = n.raft.id;
    let learner = n.raft.is_learner() || v.sim.config().learners.contains(&id);
    let life = match n.status {
        Status::Running => button(v, "Kill", "", Action::Kill(id), "danger"),
        Status::Killed => button(v, "Restart", "", Action::Restart(id), ""),
        Status::NotStarted | Status::Misconfigured => {
            button(v, "Start process", "misconfigured", Action::Start(id), "")
        }
        Status::Removed => html! {},
    };
    html! {
        <div class="row wrap actions" role="group" aria-label={format!("actions on {}", node_name(id))}>
            { life }
            { button(v, "Isolate", "partition", Action::Isolate(id), "") }
            { button(v, "Campaign now", "election timer", Action::Campaign(id), "") }
            { button(v, "Transfer leadership here", "transfer leadership", Action::TransferLeader(id), "") }
            if learner {
                { button(v, "Promote", "promote", Action::Promote(id), "") }
            }
            { button(v, "Remove", "quorum", Action::Remove(id), "") }
            { button(v, "Compact log", "compaction", Action::Compact(id), "") }
            { button(v, "Force new cluster", "force-new-cluster", Action::ForceNewCluster(id), "danger") }
        </div>
    }
}

/// The panel.
pub fn render(v: &View) -> Html {
    let Some(n) = v.ui.selected_node.and_then(|id| v.sim.nodes.get(&id)) else {
        return chooser(v);
    };
    let r = &n.raft;
    let row = |k: &str, val: String, concept: &str| {
        html! { <tr title={tip(concept).to_string()}><th scope="row">{ k.to_string() }</th><td>{ val }</td></tr> }
    };
    let kv = if r.kv.is_empty() {
        "(empty)".to_string()
    } else {
        let mut s: Vec<String> =
            r.kv.iter()
                .take(12)
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
        if r.kv.len() > 12 {
            s.push(format!("… {} more", r.kv.len() - 12));
        }
        s.join(" ")
    };
    let close = v.link.callback(|_| Msg::SelectNode(None));
    let latest = v.sim.requests.values().next_back();
    let role = if n.status != Status::Running {
        format!("{} (was {})", n.status.name(), r.role.name())
    } else if r.is_learner() {
        "learner".to_string()
    } else {
        r.role.name().to_string()
    };
    html! {
        <div class="node-panel" data-panel-node={node_name(r.id)}>
            <div class="row spread">
                <h3>{ format!("{} — {role}", node_name(r.id)) }</h3>
                <button class="link-btn" onclick={close} aria-label="close node details">{ "close" }</button>
            </div>
            { actions(v, n) }
            if let Some(req) = latest {
                <div class="latest big">{ "latest request: " }{ request_line(req) }</div>
            }
            <table class="kv">
                { row("status", n.status.name().to_string(), "misconfigured") }
                { row("role", r.role.name().to_string(), r.role.name()) }
                { row("term", r.term.to_string(), "term") }
                { row("vote", node_name(r.vote), "vote") }
                { row("follows", node_name(r.lead), "leader") }
                { row("last index", format!("{} (term {})", r.log.last_index(), r.log.last_term()), "commit") }
                { row("commit", r.log.committed.to_string(), "commit") }
                { row("applied", r.log.applied.to_string(), "applied") }
                { row("snapshot", format!("up to {} (term {})", r.log.snapshot.index, r.log.snapshot.term), "snapshot") }
                { row("election timer", format!("{} of {} ticks", r.election_elapsed, r.randomized_election_timeout), "election timer") }
                { row("its configuration", r.trk.config.describe(), "quorum") }
                { row("key-value state", kv, "applied") }
            </table>
        </div>
    }
}
