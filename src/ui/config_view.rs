//! The configuration at a glance: "quorum 3 of 4 voters, 2 reachable", both majorities in a
//! joint configuration, the learners, and which voters the leader cannot reach and why.

use crate::el;
use crate::raft::vec_map::VecSet;
use crate::text;
use yew::prelude::*;

use crate::raft::NodeId;
use crate::sim::health::HalfStatus;
use crate::sim::{labels, Sim, Status};

use super::app::View;
use crate::i18n::Lang;
use crate::tr;

use super::glossary::tip_in as tip;
use super::style::node_name;

fn names(ids: &VecSet<NodeId>) -> String {
    ids.iter()
        .map(|i| node_name(*i))
        .collect::<Vec<_>>()
        .join(" ")
}

fn why_not(l: Lang, sim: &Sim, id: NodeId) -> Option<String> {
    let n = sim.nodes.get(&id)?;
    let node = node_name(id);
    match n.status {
        Status::Running => {
            let cut_off = match sim.leader() {
                Some(lead) => lead != id && !sim.net.connected(lead, id),
                // With no leader to count from, a voter is cut off when it has no two-way
                // link to any other running node (a lecturer's "n1 is still isolated").
                None => {
                    let mut others = sim
                        .nodes
                        .iter()
                        .filter(|(o, n)| **o != id && n.status == Status::Running)
                        .peekable();
                    others.peek().is_some()
                        && others
                            .all(|(o, _)| !(sim.net.connected(id, *o) && sim.net.connected(*o, id)))
                }
            };
            cut_off.then(|| tr!(l, "ui.q.cut_off", node = node))
        }
        Status::Misconfigured => Some(tr!(l, "ui.q.unreachable", node = node)),
        s => Some(tr!(
            l,
            "ui.q.status",
            node = node,
            status = labels::status(s).render(l)
        )),
    }
}

fn half(l: Lang, label: &str, h: &HalfStatus) -> String {
    match h.reachable {
        Some(r) => tr!(
            l,
            "ui.q.half",
            label = label,
            q = h.quorum,
            n = h.voters.len(),
            reachable = r
        ),
        None => tr!(
            l,
            "ui.q.half_no_leader",
            label = label,
            q = h.quorum,
            n = h.voters.len()
        ),
    }
}

/// The summary line.
pub fn render(v: &View) -> Html {
    let sim = v.sim;
    let l = v.ui.lang;
    let cfg = sim.config();
    // The simulator says what the quorum is and whether the leader has it; the view only
    // words it.
    let status = sim.quorum_status();
    let joint = status.outgoing.is_some();
    let new_label = if joint { tr!(l, "ui.q.new_voters") } else { "" };
    let main = half(l, new_label, &status.incoming);
    let q = status.incoming.quorum;
    let outgoing = status
        .outgoing
        .as_ref()
        .map(|o| (half(l, tr!(l, "ui.q.old_voters"), o), o.quorum));
    let down: Vec<String> = cfg
        .all_voters()
        .iter()
        .filter_map(|id| why_not(l, sim, *id))
        .collect();
    let mut learners: VecSet<NodeId> = cfg.learners.clone();
    learners.extend(cfg.learners_next.iter().copied());
    let leader = match status.leader {
        Some(lead) => tr!(
            l,
            "ui.q.leader",
            node = node_name(lead),
            term = sim.nodes.get(&lead).map_or(0, |n| n.raft.term)
        ),
        None => tr!(l, "ui.q.no_leader").to_string(),
    };
    let reach = status.incoming.reachable;
    let has_quorum = status.has_quorum;
    el!(
        "div",
        "class" = classes!("quorum", (!has_quorum).then_some("lost")),
        "data-quorum" = q.to_string(),
        "data-voters" = cfg.voters.len().to_string(),
        "data-reachable" = reach.map_or(String::new(), |r| r.to_string()),
        "data-joint" = joint.to_string(),
        "data-has-quorum" = has_quorum.to_string(),
        "data-learners" = names(&learners),
        "title" = tip(l, "quorum"),
    )
    .c(el!("span", "class" = "q-main").c(main))
    .c(if let Some((text, oq)) = outgoing {
        el!(
            "span",
            "class" = "q-joint",
            "data-quorum-outgoing" = oq.to_string(),
            "title" = tip(l, "joint consensus"),
        )
        .c(text!(l, "ui.q.and"))
        .c(text)
        .done()
    } else {
        Html::default()
    })
    .c(el!("span", "class" = "q-sep").c(" · "))
    .c(el!("span", "class" = "q-leader").c(leader))
    .c(if !learners.is_empty() {
        el!("span", "class" = "q-learners", "title" = tip(l, "learner"))
            .c(tr!(l, "ui.q.learners", names = names(&learners)))
            .done()
    } else {
        Html::default()
    })
    .c(if !down.is_empty() {
        el!("span", "class" = "q-down")
            .c(format!(" · {}", down.join(", ")))
            .done()
    } else {
        Html::default()
    })
    .c(el!("span", "class" = "q-members").c(tr!(
        l,
        "ui.q.voters",
        names = names(&cfg.all_voters())
    )))
    .done()
}
