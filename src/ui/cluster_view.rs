//! The cluster drawing: nodes on a ring (role by shape and weight, term, vote, election
//! timer arc, status), the links between them (cut links and partitions), partition groups
//! as shaded hulls, and the messages in flight.

use std::collections::{BTreeMap, BTreeSet};

use yew::prelude::*;

use crate::raft::{NodeId, Role};
use crate::sim::{SimNode, Status};

use super::app::{Msg, View};
use super::geometry::{self, Pt};
use super::message_view;
use super::style::{group_letter, node_name, term_style};

/// Node positions, by id, and the node radius.
pub struct Layout {
    pub pos: BTreeMap<NodeId, Pt>,
    pub r: f64,
}

/// Where every node is drawn.
pub fn layout(v: &View) -> Layout {
    let n = v.sim.nodes.len();
    let (_, r) = geometry::ring(n);
    let pos = v
        .sim
        .nodes
        .keys()
        .enumerate()
        .map(|(i, id)| (*id, geometry::node_pos(i, n)))
        .collect();
    Layout { pos, r }
}

/// The partition groups to draw: the explicit ones, plus the unlisted nodes as one more
/// group (the network's rule); empty when there is no partition.
fn groups(v: &View) -> Vec<Vec<NodeId>> {
    let net = &v.sim.net;
    if net.groups.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<Vec<NodeId>> = net
        .groups
        .iter()
        .map(|g| {
            g.iter()
                .copied()
                .filter(|id| v.sim.nodes.contains_key(id))
                .collect::<Vec<_>>()
        })
        .collect();
    let listed: BTreeSet<NodeId> = net.groups.iter().flatten().copied().collect();
    let rest: Vec<NodeId> = v
        .sim
        .nodes
        .iter()
        .filter(|(id, n)| !listed.contains(id) && n.status != Status::Removed)
        .map(|(id, _)| *id)
        .collect();
    if !rest.is_empty() {
        out.push(rest);
    }
    out
}

/// The SVG.
pub fn render(v: &View) -> Html {
    let lay = layout(v);
    let groups = groups(v);
    let group_of: BTreeMap<NodeId, usize> = groups
        .iter()
        .enumerate()
        .flat_map(|(g, ids)| ids.iter().map(move |id| (*id, g)))
        .collect();
    let hulls = groups
        .iter()
        .enumerate()
        .map(|(g, ids)| hull(g, ids, &lay))
        .collect::<Html>();
    let links = links(v, &lay);
    let learners = v.sim.config().learners;
    let nodes = v
        .sim
        .nodes
        .iter()
        .filter_map(|(id, n)| {
            let p = *lay.pos.get(id)?;
            Some(node(v, n, p, lay.r, &learners))
        })
        .collect::<Html>();
    // Partition letters sit on their nodes but outside the focusable nodes, so a node's
    // accessible name is exactly the words drawn inside it.
    let badges = v
        .sim
        .nodes
        .keys()
        .filter_map(|id| Some(group_badge(*lay.pos.get(id)?, lay.r, *group_of.get(id)?)))
        .collect::<Html>();
    let msgs = message_view::in_flight(v, &lay);
    let label = format!(
        "cluster of {} nodes at t = {:.1} s, {}",
        v.sim.nodes.len(),
        v.sim.now as f64 / 1000.0,
        match v.sim.leader() {
            Some(l) => format!("leader {}", node_name(l)),
            None => "no leader".to_string(),
        }
    );
    let empty = v.sim.nodes.is_empty();
    html! {
        // A group, not an image: the nodes inside are buttons.
        <svg class="cluster" role="group" aria-label={label}
            viewBox={format!("0 0 {} {}", geometry::WIDTH, geometry::HEIGHT)}
            preserveAspectRatio="xMidYMid meet">
            <g class="hulls">{ hulls }</g>
            <g class="links">{ links }</g>
            <g class="nodes">{ nodes }</g>
            <g class="badges" aria-hidden="true">{ badges }</g>
            <g class="msgs">{ msgs }</g>
            if empty {
                <text x="320" y="220" text-anchor="middle" class="hint">{ "no nodes" }</text>
            }
        </svg>
    }
}

fn hull(g: usize, ids: &[NodeId], lay: &Layout) -> Html {
    let pts: Vec<Pt> = ids
        .iter()
        .filter_map(|id| lay.pos.get(id).copied())
        .collect();
    if pts.is_empty() {
        return html! {};
    }
    let pad = lay.r + 14.0;
    let class = format!("hull g{}", g % 4);
    let members = ids
        .iter()
        .map(|i| node_name(*i))
        .collect::<Vec<_>>()
        .join(" ");
    let title = format!("partition group {}: {members}", group_letter(g));
    let shape = if pts.len() == 1 {
        html! { <circle cx={fmt(pts[0].x)} cy={fmt(pts[0].y)} r={fmt(pad)} /> }
    } else {
        let h = geometry::hull(&pts);
        html! {
            <polygon points={geometry::points_attr(&h)} stroke-width={fmt(2.0 * pad)}
                stroke-linejoin="round" stroke-linecap="round" />
        }
    };
    // The group's letter, outside its first node.
    let lp = geometry::towards(pts[0], geometry::centre(), -(pad + 10.0));
    html! {
        <g class={class} data-group={group_letter(g).to_string()}>
            <title>{ title }</title>
            { shape }
            <text class="hull-label" x={fmt(lp.x)} y={fmt(lp.y + 4.0)} text-anchor="middle">
                { format!("{}", group_letter(g)) }
            </text>
        </g>
    }
}

fn links(v: &View, lay: &Layout) -> Html {
    let ids: Vec<NodeId> = v
        .sim
        .nodes
        .iter()
        .filter(|(_, n)| n.status != Status::Removed)
        .map(|(id, _)| *id)
        .collect();
    let net = &v.sim.net;
    let mut out = Vec::new();
    for (i, &a) in ids.iter().enumerate() {
        for &b in &ids[i + 1..] {
            let (Some(&pa), Some(&pb)) = (lay.pos.get(&a), lay.pos.get(&b)) else {
                continue;
            };
            let cut = net.cuts.contains(&(a.min(b), a.max(b)));
            let parted = !cut && !net.connected(a, b);
            let unreachable = [a, b].iter().any(|x| {
                v.sim
                    .nodes
                    .get(x)
                    .is_some_and(|n| n.status == Status::Misconfigured)
            });
            let class = if cut {
                "link cut"
            } else if parted {
                "link parted"
            } else if unreachable {
                "link unreachable"
            } else {
                "link"
            };
            let mid = geometry::along(pa, pb, 0.5, 0.0);
            let title = if cut {
                format!("link {}–{} cut", node_name(a), node_name(b))
            } else if parted {
                format!(
                    "{} and {} are in different partition groups",
                    node_name(a),
                    node_name(b)
                )
            } else {
                format!("link {}–{}", node_name(a), node_name(b))
            };
            out.push(html! {
                <g class={class} data-link={format!("n{a}-n{b}")}>
                    <title>{ title }</title>
                    <line x1={fmt(pa.x)} y1={fmt(pa.y)} x2={fmt(pb.x)} y2={fmt(pb.y)} />
                    if cut {
                        <text class="cut-mark" x={fmt(mid.x)} y={fmt(mid.y + 5.0)} text-anchor="middle">{ "✕" }</text>
                    }
                </g>
            });
        }
    }
    out.into_iter().collect()
}

fn role_name(n: &SimNode) -> &'static str {
    if n.status != Status::Running {
        return "down";
    }
    n.raft.role.name()
}

/// A partition group's letter on a node.
fn group_badge(p: Pt, r: f64, g: usize) -> Html {
    let b = Pt {
        x: p.x + r * 0.8,
        y: p.y - r * 0.8,
    };
    html! {
        <g class={format!("group-badge g{}", g % 4)}>
            <circle cx={fmt(b.x)} cy={fmt(b.y)} r="8" />
            <text x={fmt(b.x)} y={fmt(b.y + 3.5)} text-anchor="middle">{ group_letter(g).to_string() }</text>
        </g>
    }
}

fn node(v: &View, n: &SimNode, p: Pt, r: f64, learners: &BTreeSet<NodeId>) -> Html {
    let raft = &n.raft;
    let id = raft.id;
    let running = n.status == Status::Running;
    let learner = raft.is_learner() || learners.contains(&id);
    let role = role_name(n);
    let selected = v.ui.selected_node == Some(id);
    let mut class = classes!(
        "node",
        format!("role-{role}"),
        format!("status-{}", status_class(n.status))
    );
    if learner {
        class.push("learner");
    }
    if selected {
        class.push("selected");
    }
    let onclick = v
        .link
        .callback(move |_: MouseEvent| Msg::SelectNode(Some(id)));
    let vote = if raft.vote == 0 {
        "no vote".to_string()
    } else {
        format!("voted {}", node_name(raft.vote))
    };
    let status_label = match n.status {
        Status::Running if learner => "learner".to_string(),
        Status::Running => raft.role.name().to_string(),
        Status::Misconfigured => "unreachable".to_string(),
        s => s.name().to_string(),
    };
    let title = format!(
        "{}: {}{}, term {}, {}, commit {}, applied {}, last index {} — click for details and actions",
        node_name(id),
        status_label,
        if running { "" } else { " (not running)" },
        raft.term,
        vote,
        raft.log.committed,
        raft.log.applied,
        raft.log.last_index()
    );
    let (cx, cy) = (fmt(p.x), fmt(p.y));
    // The election timer, for voters that may campaign.
    let arc = if running && raft.role != Role::Leader && raft.promotable() {
        let frac = if raft.randomized_election_timeout == 0 {
            0.0
        } else {
            raft.election_elapsed as f64 / raft.randomized_election_timeout as f64
        };
        html! {
            <>
                <circle class="timer-track" cx={cx.clone()} cy={cy.clone()} r={fmt(r + 6.0)} />
                <path class="timer" d={geometry::arc_path(p, r + 6.0, frac)}>
                    <title>{ format!("election timer: {} of {} ticks", raft.election_elapsed, raft.randomized_election_timeout) }</title>
                </path>
            </>
        }
    } else {
        html! {}
    };
    let leader_marks = if running && raft.role == Role::Leader {
        html! {
            <>
                <circle class="ring2" cx={cx.clone()} cy={cy.clone()} r={fmt(r + 6.0)} />
                <text class="crown" x={cx.clone()} y={fmt(p.y - r - 12.0)} text-anchor="middle">{ "♛" }</text>
            </>
        }
    } else {
        html! {}
    };
    let cross = if matches!(n.status, Status::Killed | Status::Removed) {
        let d = r * 0.72;
        html! {
            <g class="cross">
                <line x1={fmt(p.x - d)} y1={fmt(p.y - d)} x2={fmt(p.x + d)} y2={fmt(p.y + d)} />
                <line x1={fmt(p.x - d)} y1={fmt(p.y + d)} x2={fmt(p.x + d)} y2={fmt(p.y - d)} />
            </g>
        }
    } else {
        html! {}
    };
    let fs = (r * 0.5).clamp(9.0, 16.0);
    // The name says what is drawn, in the order it is read: "n2, leader, term 3, voted n2".
    // The texts below are in the same order (and spaced), so the name contains them.
    let name = format!(
        "{}, {status_label}, term {}, {vote}",
        node_name(id),
        raft.term
    );
    html! {
        <g class={class} data-node={format!("n{id}")} data-role={role} data-term={raft.term.to_string()}
            data-status={status_class(n.status)} data-vote={raft.vote.to_string()}
            data-learner={learner.to_string()} data-commit={raft.log.committed.to_string()}
            data-last-index={raft.log.last_index().to_string()}
            role="button" aria-label={name} aria-pressed={selected.to_string()} tabindex="0" {onclick}>
            <title>{ title }</title>
            if selected {
                <circle class="sel" cx={cx.clone()} cy={cy.clone()} r={fmt(r + 10.0)} />
            }
            { arc }
            { leader_marks }
            <circle class="body" cx={cx.clone()} cy={cy.clone()} r={fmt(r)} style={term_style(raft.term)} />
            { cross }
            <text class="nid" x={cx.clone()} y={fmt(p.y - fs * 0.1)} text-anchor="middle"
                font-size={fmt(fs * 1.05)}>{ node_name(id) }</text>
            { " " }
            <text class="nlabel" x={cx.clone()} y={fmt(p.y + r + 17.0)} text-anchor="middle">{ status_label }</text>
            { " " }
            <text class="nterm" x={cx.clone()} y={fmt(p.y + fs * 0.95)} text-anchor="middle"
                font-size={fmt(fs * 0.72)}>{ format!("term {}", raft.term) }</text>
            { " " }
            <text class="nvote" x={cx} y={fmt(p.y + r + 29.0)} text-anchor="middle">{ vote }</text>
        </g>
    }
}

/// The status as a CSS-friendly word.
pub fn status_class(s: Status) -> &'static str {
    match s {
        Status::Running => "running",
        Status::Killed => "killed",
        Status::NotStarted => "not-started",
        Status::Misconfigured => "misconfigured",
        Status::Removed => "removed",
    }
}

/// A coordinate as SVG text.
pub fn fmt(x: f64) -> String {
    format!("{x:.1}")
}
