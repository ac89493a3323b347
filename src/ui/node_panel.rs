//! The clicked node: its full state and everything you can do to it.

use crate::el;
use crate::text;
use yew::prelude::*;

use crate::raft::NodeId;
use crate::sim::{Action, SimNode, Status};

use super::action_bar::latest_box;
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
            el!(
                "button",
                "aria-label" = tr!(l, "ui.node.select", node = node_name(id))
            )
            .on_click(pick)
            .c(node_name(id))
            .done()
        })
        .collect::<Html>();
    el!("div", "class" = "node-panel")
        .c(el!("p", "class" = "hint").c(text!(l, "ui.node.hint")))
        .c(el!("div", "class" = "row wrap").c(buttons))
        .done()
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
    el!(
        "button",
        "class" = Classes::from(class),
        "title" = title,
        "aria-label" = aria
    )
    .on_click(onclick)
    .c(label.to_string())
    .done()
}

fn actions(v: &View, n: &SimNode, learner: bool) -> Html {
    let id: NodeId = n.raft.id;
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
    el!(
        "div",
        "class" = "row wrap actions",
        "role" = "group",
        "aria-label" = tr!(l, "ui.node.actions_on", node = node_name(id)),
    )
    .c(life)
    .c(button(
        v,
        tr!(l, "ui.node.isolate"),
        "partition",
        Action::Isolate(id),
        "",
    ))
    .c(button(
        v,
        tr!(l, "ui.node.campaign"),
        "election timer",
        Action::Campaign(id),
        "",
    ))
    .c(button(
        v,
        tr!(l, "ui.node.transfer"),
        "transfer leadership",
        Action::TransferLeader(id),
        "",
    ))
    .c(if learner {
        button(
            v,
            tr!(l, "ui.node.promote"),
            "promote",
            Action::Promote(id),
            "",
        )
    } else {
        Html::default()
    })
    .c(button(
        v,
        tr!(l, "ui.node.remove"),
        "quorum",
        Action::Remove(id),
        "",
    ))
    .c(button(
        v,
        tr!(l, "ui.node.compact"),
        "compaction",
        Action::Compact(id),
        "",
    ))
    .c(button(
        v,
        tr!(l, "ui.node.force_new_cluster"),
        "force-new-cluster",
        Action::ForceNewCluster(id),
        "danger",
    ))
    .done()
}

/// The panel.
pub fn render(v: &View) -> Html {
    let Some(n) = v.ui.selected_node.and_then(|id| v.sim.nodes.get(&id)) else {
        return chooser(v);
    };
    let r = &n.raft;
    let l = v.ui.lang;
    let learner = n.is_learner(&v.sim.config().learners);
    let row = |k: &str, val: String, concept: &str| {
        el!("tr", "title" = tip(l, concept).to_string())
            .c(el!("th", "scope" = "row").c(k.to_string()))
            .c(el!("td").c(val))
            .done()
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
    } else if learner {
        // As the drawing and the logs name it; the table's role is raft's own.
        tr!(l, "role.learner").to_string()
    } else {
        role_name.clone()
    };
    let status = labels::status(n.status).render(l);
    el!(
        "div",
        "class" = "node-panel",
        "data-panel-node" = node_name(r.id)
    )
    .c(el!("div", "class" = "row spread")
        .c(el!("h3").c(format!("{} — {role}", node_name(r.id))))
        .c(el!(
            "button",
            "class" = "link-btn",
            "aria-label" = text!(l, "ui.node.close_aria")
        )
        .on_click(close)
        .c(text!(l, "ui.close"))))
    .c(actions(v, n, learner))
    .c(latest.map_or_else(Html::default, |req| latest_box(l, req)))
    .c(el!("table", "class" = "kv")
        .c(row(tr!(l, "ui.node.status"), status, "misconfigured"))
        .c(row(tr!(l, "ui.node.role"), role_name, r.role.name()))
        .c(row(tr!(l, "ui.node.term"), r.term.to_string(), "term"))
        .c(row(tr!(l, "ui.node.vote"), node_name(r.vote), "vote"))
        .c(row(tr!(l, "ui.node.follows"), node_name(r.lead), "leader"))
        .c(row(
            tr!(l, "ui.node.last_index"),
            tr!(
                l,
                "ui.node.index_term",
                index = r.log.last_index(),
                term = r.log.last_term()
            ),
            "commit",
        ))
        .c(row(
            tr!(l, "ui.node.commit"),
            r.log.committed.to_string(),
            "commit",
        ))
        .c(row(
            tr!(l, "ui.node.applied"),
            r.log.applied.to_string(),
            "applied",
        ))
        .c(row(
            tr!(l, "ui.node.snapshot"),
            tr!(
                l,
                "ui.node.up_to",
                index = r.log.snapshot.index,
                term = r.log.snapshot.term
            ),
            "snapshot",
        ))
        .c(row(
            tr!(l, "ui.node.election_timer"),
            tr!(
                l,
                "ui.node.ticks_of",
                elapsed = r.election_elapsed,
                timeout = r.randomized_election_timeout
            ),
            "election timer",
        ))
        .c(row(
            tr!(l, "ui.node.its_config"),
            r.trk.config.describe(),
            "quorum",
        ))
        .c(row(tr!(l, "ui.node.kv"), kv, "applied")))
    .done()
}
