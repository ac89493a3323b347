//! The clicked node: its full state and everything you can do to it.

use yew::prelude::*;

use crate::raft::NodeId;
use crate::sim::{Action, SimNode, Status};

use super::action_bar::request_line;
use super::app::{Msg, View};
use super::h::send;
use crate::sim::labels;
use crate::tr;

use super::glossary::tip_in as tip;
use super::keys;
use super::style::node_name;

fn chooser(v: &View) -> Html {
    let l = v.ui.lang;
    let buttons = v
        .sim
        .nodes
        .keys()
        .map(|id| {
            let id = *id;
            let pick = send(v.link, Msg::SelectNode(Some(id)));
            html! { <button onclick={pick} aria-label={tr!(l, "ui.node.select", node = node_name(id))}>{ node_name(id) }</button> }
        })
        .collect::<Html>();
    html! {
        <div class="node-panel">
            <p class="hint">{ tr!(l, "ui.node.hint") }</p>
            <div class="row wrap">{ buttons }</div>
        </div>
    }
}

fn button(v: &View, label: &str, concept: &str, action: Action, class: &'static str) -> Html {
    let l = v.ui.lang;
    let key = match action {
        Action::Kill(_) | Action::Restart(_) => keys::hint(l, "k"),
        Action::Isolate(_) => keys::hint(l, "i"),
        Action::Campaign(_) => keys::hint(l, "c"),
        _ => String::new(),
    };
    let title = match action.etcdctl_words() {
        Some(e) => format!("{} — etcdctl: {}{key}", tip(l, concept), e.render(l)),
        None => format!("{}{key}", tip(l, concept)),
    };
    let aria = format!("{label} ({})", action.to_scn());
    let onclick = send(v.link, Msg::Act(action.clone()));
    html! { <button class={class} {onclick} title={title} aria-label={aria}>{ label.to_string() }</button> }
}

fn actions(v: &View, n: &SimNode) -> Html {
    let id: NodeId = n.raft.id;
    let learner = n.raft.is_learner() || v.sim.config().learners.contains(&id);
    let l = v.ui.lang;
    let life = match n.status {
        Status::Running => button(v, tr!(l, "ui.node.kill"), "", Action::Kill(id), "danger"),
        Status::Killed => button(v, tr!(l, "ui.node.restart"), "", Action::Restart(id), ""),
        Status::NotStarted | Status::Misconfigured => button(
            v,
            tr!(l, "ui.node.start"),
            "misconfigured",
            Action::Start(id),
            "",
        ),
        Status::Removed => html! {},
    };
    html! {
        <div class="row wrap actions" role="group" aria-label={tr!(l, "ui.node.actions_on", node = node_name(id))}>
            { life }
            { button(v, tr!(l, "ui.node.isolate"), "partition", Action::Isolate(id), "") }
            { button(v, tr!(l, "ui.node.campaign"), "election timer", Action::Campaign(id), "") }
            { button(v, tr!(l, "ui.node.transfer"), "transfer leadership", Action::TransferLeader(id), "") }
            if learner {
                { button(v, tr!(l, "ui.node.promote"), "promote", Action::Promote(id), "") }
            }
            { button(v, tr!(l, "ui.node.remove"), "quorum", Action::Remove(id), "") }
            { button(v, tr!(l, "ui.node.compact"), "compaction", Action::Compact(id), "") }
            { button(v, tr!(l, "ui.node.force_new_cluster"), "force-new-cluster", Action::ForceNewCluster(id), "danger") }
        </div>
    }
}

/// The panel.
pub fn render(v: &View) -> Html {
    let Some(n) = v.ui.selected_node.and_then(|id| v.sim.nodes.get(&id)) else {
        return chooser(v);
    };
    let r = &n.raft;
    let l = v.ui.lang;
    let row = |k: &str, val: String, concept: &str| {
        html! { <tr title={tip(l, concept).to_string()}><th scope="row">{ k.to_string() }</th><td>{ val }</td></tr> }
    };
    let kv = if r.kv.is_empty() {
        tr!(l, "ui.node.empty").to_string()
    } else {
        let mut s: Vec<String> =
            r.kv.iter()
                .take(12)
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
        if r.kv.len() > 12 {
            s.push(tr!(l, "ui.node.more", n = r.kv.len() - 12));
        }
        s.join(" ")
    };
    let close = send(v.link, Msg::SelectNode(None));
    let latest = v.sim.requests.values().next_back();
    let role_name = labels::role(r.role).render(l);
    let role = if n.status != Status::Running {
        tr!(
            l,
            "ui.node.status_was",
            status = labels::status(n.status).render(l),
            role = role_name
        )
    } else if r.is_learner() {
        tr!(l, "role.learner").to_string()
    } else {
        role_name.clone()
    };
    let status = labels::status(n.status).render(l);
    html! {
        <div class="node-panel" data-panel-node={node_name(r.id)}>
            <div class="row spread">
                <h3>{ format!("{} — {role}", node_name(r.id)) }</h3>
                <button class="link-btn" onclick={close} aria-label={tr!(l, "ui.node.close_aria")}>{ tr!(l, "ui.close") }</button>
            </div>
            { actions(v, n) }
            if let Some(req) = latest {
                <div class="latest big">{ tr!(l, "ui.node.latest") }{ request_line(l, req) }</div>
            }
            <table class="kv">
                { row(tr!(l, "ui.node.status"), status, "misconfigured") }
                { row(tr!(l, "ui.node.role"), role_name, r.role.name()) }
                { row(tr!(l, "ui.node.term"), r.term.to_string(), "term") }
                { row(tr!(l, "ui.node.vote"), node_name(r.vote), "vote") }
                { row(tr!(l, "ui.node.follows"), node_name(r.lead), "leader") }
                { row(tr!(l, "ui.node.last_index"), tr!(l, "ui.node.index_term", index = r.log.last_index(), term = r.log.last_term()), "commit") }
                { row(tr!(l, "ui.node.commit"), r.log.committed.to_string(), "commit") }
                { row(tr!(l, "ui.node.applied"), r.log.applied.to_string(), "applied") }
                { row(tr!(l, "ui.node.snapshot"), tr!(l, "ui.node.up_to", index = r.log.snapshot.index, term = r.log.snapshot.term), "snapshot") }
                { row(tr!(l, "ui.node.election_timer"), tr!(l, "ui.node.ticks_of", elapsed = r.election_elapsed, timeout = r.randomized_election_timeout), "election timer") }
                { row(tr!(l, "ui.node.its_config"), r.trk.config.describe(), "quorum") }
                { row(tr!(l, "ui.node.kv"), kv, "applied") }
            </table>
        </div>
    }
}
