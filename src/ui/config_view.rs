//! The configuration at a glance: "quorum 3 of 4 voters, 2 reachable", both majorities in a
//! joint configuration, the learners, and which voters the leader cannot reach and why.

use std::collections::BTreeSet;

use yew::prelude::*;

use crate::raft::NodeId;
use crate::sim::health::HalfStatus;
use crate::sim::{Sim, Status};

use super::app::View;
use super::glossary::tip;
use super::style::node_name;

fn names(ids: &BTreeSet<NodeId>) -> String {
    ids.iter()
        .map(|i| node_name(*i))
        .collect::<Vec<_>>()
        .join(" ")
}

fn why_not(sim: &Sim, id: NodeId) -> Option<String> {
    let n = sim.nodes.get(&id)?;
    match n.status {
        Status::Running => {
            let l = sim.leader()?;
            (l != id && !sim.net.connected(l, id)).then(|| format!("{} cut off", node_name(id)))
        }
        Status::Misconfigured => Some(format!("{} unreachable (wrong peer URL)", node_name(id))),
        s => Some(format!("{} {}", node_name(id), s.name())),
    }
}

fn half(label: &str, h: &HalfStatus) -> String {
    let reach = match h.reachable {
        Some(r) => format!(", {r} reachable"),
        None => ", no leader".to_string(),
    };
    format!(
        "{label}quorum {} of {} voters{reach}",
        h.quorum,
        h.voters.len()
    )
}

/// The summary line.
pub fn render(v: &View) -> Html {
    let sim = v.sim;
    let cfg = sim.config();
    // The simulator says what the quorum is and whether the leader has it; the view only
    // words it.
    let status = sim.quorum_status();
    let joint = status.outgoing.is_some();
    let main = half(if joint { "new voters: " } else { "" }, &status.incoming);
    let q = status.incoming.quorum;
    let outgoing = status
        .outgoing
        .as_ref()
        .map(|o| (half("old voters: ", o), o.quorum));
    let down: Vec<String> = cfg
        .all_voters()
        .iter()
        .filter_map(|id| why_not(sim, *id))
        .collect();
    let mut learners: BTreeSet<NodeId> = cfg.learners.clone();
    learners.extend(cfg.learners_next.iter().copied());
    let leader = match status.leader {
        Some(l) => format!(
            "leader {} (term {})",
            node_name(l),
            sim.nodes.get(&l).map_or(0, |n| n.raft.term)
        ),
        None => "no leader".to_string(),
    };
    let reach = status.incoming.reachable;
    let has_quorum = status.has_quorum;
    html! {
        <div class={classes!("quorum", (!has_quorum).then_some("lost"))}
            data-quorum={q.to_string()} data-voters={cfg.voters.len().to_string()}
            data-reachable={reach.map_or(String::new(), |r| r.to_string())}
            data-joint={joint.to_string()} data-has-quorum={has_quorum.to_string()}
            data-learners={names(&learners)}
            title={tip("quorum")}>
            <span class="q-main">{ main }</span>
            if let Some((text, oq)) = outgoing {
                <span class="q-joint" data-quorum-outgoing={oq.to_string()} title={tip("joint consensus")}>
                    { " AND " }{ text }
                </span>
            }
            <span class="q-sep">{ " · " }</span>
            <span class="q-leader">{ leader }</span>
            if !learners.is_empty() {
                <span class="q-learners" title={tip("learner")}>{ format!(" · learners: {}", names(&learners)) }</span>
            }
            if !down.is_empty() {
                <span class="q-down">{ format!(" · {}", down.join(", ")) }</span>
            }
            <span class="q-members">{ format!(" · voters: {}", names(&cfg.all_voters())) }</span>
        </div>
    }
}
