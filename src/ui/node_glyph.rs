//! One node of the cluster drawing (`cluster_view`): its shape by role, the term, the election
//! timer's arc, a leader's crown, a dead node's cross, its name and status, and, beside it
//! and outside its button, a candidate's vote marks and its partition letter. A component
//! whose inputs ([`NodeProps`]) are compared, so an unchanged node is not redrawn.

use super::h;
use crate::el;
use crate::text;
use yew::prelude::*;

use crate::i18n::Lang;
use crate::raft::vec_map::VecSet;
use crate::raft::{NodeId, Role};
use crate::sim::{labels, SimNode, Status};
use crate::tr;

use super::app::{Msg, View};
use super::cluster_view::{fmt, status_class, Layout};
use super::geometry::{self, Pt};
use super::style::{group_letter, node_name, term_hue};

/// What a candidate knows of one voter's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteMark {
    Granted,
    Refused,
    Pending,
}

/// Everything one node shows; compared by yew so an unchanged node is not redrawn.
#[derive(Clone, Debug, PartialEq, Properties)]
pub struct NodeProps {
    id: NodeId,
    at: Pt,
    r: f64,
    role: &'static str,
    status: &'static str,
    status_label: String,
    term: u64,
    vote: NodeId,
    learner: bool,
    selected: bool,
    leader: bool,
    /// (elapsed, timeout) of the election timer, for voters that may campaign.
    timer: Option<(u64, u64)>,
    /// A campaign's answers: the voter, where to draw the mark, and the answer.
    votes: Vec<(NodeId, Pt, VoteMark)>,
    group: Option<usize>,
    commit: u64,
    applied: u64,
    last_index: u64,
    dispatch: Callback<Msg>,
    lang: Lang,
}

fn role_name(n: &SimNode) -> &'static str {
    if n.status != Status::Running {
        return "down";
    }
    n.raft.role.name()
}

pub(super) fn node_props(
    v: &View,
    n: &SimNode,
    p: Pt,
    lay: &Layout,
    group: Option<usize>,
    learners: &VecSet<NodeId>,
) -> NodeProps {
    let raft = &n.raft;
    let id = raft.id;
    let running = n.status == Status::Running;
    let learner = n.is_learner(learners);
    let l = v.ui.lang;
    let status_label = match n.status {
        Status::Running if learner => tr!(l, "role.learner").to_string(),
        Status::Running => labels::role(raft.role).render(l),
        Status::Misconfigured => tr!(l, "ui.cv.unreachable").to_string(),
        s => labels::status(s).render(l),
    };
    let timer = (running && raft.role != Role::Leader && raft.promotable())
        .then_some((raft.election_elapsed, raft.randomized_election_timeout));
    let campaigning = running && matches!(raft.role, Role::Candidate | Role::PreCandidate);
    let votes = if campaigning {
        raft.trk
            .config
            .all_voters()
            .iter()
            .filter(|x| **x != id)
            .filter_map(|x| {
                let q = lay.pos.get(x)?;
                let mark = match raft.trk.votes.get(x) {
                    Some(true) => VoteMark::Granted,
                    Some(false) => VoteMark::Refused,
                    None => VoteMark::Pending,
                };
                Some((*x, geometry::towards(p, *q, lay.frame.r + 15.0), mark))
            })
            .collect()
    } else {
        Vec::new()
    };
    NodeProps {
        id,
        at: p,
        r: lay.frame.r,
        role: role_name(n),
        status: status_class(n.status),
        status_label,
        term: raft.term,
        vote: raft.vote,
        learner,
        selected: v.ui.selected_node == Some(id),
        leader: running && raft.role == Role::Leader,
        timer,
        votes,
        group,
        commit: raft.log.committed,
        applied: raft.log.applied,
        last_index: raft.log.last_index(),
        dispatch: v.dispatch.clone(),
        lang: l,
    }
}

#[component]
pub(super) fn NodeGlyph(p: &NodeProps) -> Html {
    let id = p.id;
    let r = p.r;
    let at = p.at;
    let running = p.status == "running";
    let mut class = classes!(
        "node",
        format!("role-{}", p.role),
        format!("status-{}", p.status)
    );
    if p.learner {
        class.push("learner");
    }
    if p.selected {
        class.push("selected");
    }
    let dispatch = p.dispatch.clone();
    let onclick = Callback::from(move |_: MouseEvent| dispatch.emit(Msg::SelectNode(Some(id))));
    let dispatch = p.dispatch.clone();
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter" {
            dispatch.emit(Msg::SelectNode(Some(id)));
        }
    });
    let l = p.lang;
    let granted = p.votes.iter().filter(|v| v.2 == VoteMark::Granted).count();
    let vote = if !p.votes.is_empty() {
        // The candidate's own vote counts too.
        tr!(l, "ui.cv.votes", got = granted + 1, of = p.votes.len() + 1)
    } else if p.vote == 0 {
        tr!(l, "ui.cv.no_vote").to_string()
    } else {
        tr!(l, "ui.cv.voted", node = node_name(p.vote))
    };
    let title = tr!(
        l,
        "ui.cv.node_tip",
        node = node_name(id),
        status = p.status_label,
        down = if running {
            ""
        } else {
            tr!(l, "ui.cv.not_running")
        },
        term = p.term,
        vote = vote,
        commit = p.commit,
        applied = p.applied,
        last = p.last_index
    );
    let (cx, cy) = (fmt(at.x), fmt(at.y));
    let ring_r = r + 8.0;
    let arc = match p.timer {
        Some((elapsed, timeout)) => {
            let frac = if timeout == 0 {
                0.0
            } else {
                elapsed as f64 / timeout as f64
            };
            h::frag()
                .c(el!(
                    "circle",
                    "class" = "timer-track",
                    "cx" = cx.clone(),
                    "cy" = cy.clone(),
                    "r" = fmt(ring_r),
                ))
                .c(el!(
                    "path",
                    "class" = "timer",
                    "d" = geometry::arc_path(at, ring_r, frac),
                    "data-timer" = format!("{elapsed}/{timeout}"),
                )
                .c(el!("title").c(tr!(
                    l,
                    "ui.cv.timer",
                    elapsed = elapsed,
                    timeout = timeout
                ))))
                .done()
        }
        None => html! {},
    };
    let leader_marks = if p.leader {
        h::frag()
            .c(el!(
                "circle",
                "class" = "ring2",
                "cx" = cx.clone(),
                "cy" = cy.clone(),
                "r" = fmt(ring_r),
            ))
            .c(el!(
                "text",
                "class" = "crown",
                "x" = cx.clone(),
                "y" = fmt(at.y - ring_r - 6.0),
                "text-anchor" = "middle",
            )
            .c("♛"))
            .done()
    } else {
        html! {}
    };
    let cross = if matches!(p.status, "killed" | "removed") {
        let d = r * 0.72;
        el!("g", "class" = "cross")
            .c(el!(
                "line",
                "x1" = fmt(at.x - d),
                "y1" = fmt(at.y - d),
                "x2" = fmt(at.x + d),
                "y2" = fmt(at.y + d),
            ))
            .c(el!(
                "line",
                "x1" = fmt(at.x - d),
                "y1" = fmt(at.y + d),
                "x2" = fmt(at.x + d),
                "y2" = fmt(at.y - d),
            ))
            .done()
    } else {
        html! {}
    };
    let badge = match p.group {
        Some(g) => {
            let b = Pt {
                x: at.x + r * 0.85,
                y: at.y - r * 0.85,
            };
            el!(
                "g",
                "class" = Classes::from(format!("group-badge g{}", g % 4))
            )
            .c(el!("circle", "cx" = fmt(b.x), "cy" = fmt(b.y), "r" = "10"))
            .c(el!(
                "text",
                "x" = fmt(b.x),
                "y" = fmt(b.y + 4.5),
                "text-anchor" = "middle"
            )
            .c(group_letter(g).to_string()))
            .done()
        }
        None => html! {},
    };
    let votes = p
        .votes
        .iter()
        .map(|(voter, q, mark)| {
            let (class, sign, word, said) = match mark {
                VoteMark::Granted => ("vote-mark granted", "✓", "granted", tr!(l, "ui.cv.granted")),
                VoteMark::Refused => ("vote-mark refused", "✕", "refused", tr!(l, "ui.cv.refused")),
                VoteMark::Pending => (
                    "vote-mark pending",
                    "",
                    "no answer yet",
                    tr!(l, "ui.cv.no_answer"),
                ),
            };
            el!(
                "g",
                "class" = Classes::from(class),
                "data-vote-from" = node_name(*voter),
                "data-vote-mark" = word,
            )
            .c(el!("title").c(tr!(
                l,
                "ui.cv.vote_of",
                node = node_name(*voter),
                answer = said
            )))
            .c(el!("circle", "cx" = fmt(q.x), "cy" = fmt(q.y), "r" = "8"))
            .c(el!(
                "text",
                "x" = fmt(q.x),
                "y" = fmt(q.y + 4.5),
                "text-anchor" = "middle"
            )
            .c(sign))
            .done()
        })
        .collect::<Html>();
    let big = (r * 0.95).clamp(20.0, 40.0);
    // The name says what is drawn, in the order it is read: "n2, leader, term 3, voted n2".
    // The texts inside the button are in that order and spaced, so the name contains them;
    // vote marks and the partition letter are drawn beside it, outside the button.
    let name = tr!(
        l,
        "ui.cv.node_name",
        node = node_name(id),
        status = p.status_label,
        term = p.term,
        vote = vote
    );
    h::frag()
        .c(el!(
            "g",
            "class" = class,
            "data-node" = node_name(id),
            "data-role" = p.role,
            "data-term" = p.term.to_string(),
            "data-status" = p.status,
            "data-vote" = p.vote.to_string(),
            "data-learner" = p.learner.to_string(),
            "data-commit" = p.commit.to_string(),
            "data-last-index" = p.last_index.to_string(),
            "role" = "button",
            "aria-label" = name,
            "aria-pressed" = p.selected.to_string(),
            "tabindex" = "0",
        )
        .on_click(onclick)
        .on_keydown(onkeydown)
        .c(el!("title").c(title).done())
        .c(if p.selected {
            el!(
                "circle",
                "class" = "sel",
                "cx" = cx.clone(),
                "cy" = cy.clone(),
                "r" = fmt(ring_r + 8.0)
            )
            .done()
        } else {
            Html::default()
        })
        .c(arc)
        .c(leader_marks)
        .c(el!(
            "circle",
            "class" = "body",
            "cx" = cx.clone(),
            "cy" = cy.clone(),
            "r" = fmt(r),
            "style" = format!("--h:{}", term_hue(p.term)),
        )
        .done())
        .c(cross)
        .c(el!(
            "text",
            "class" = "nid",
            "x" = cx.clone(),
            "y" = fmt(at.y + ring_r + 19.0),
            "text-anchor" = "middle",
        )
        .c(node_name(id))
        .c(el!("tspan", "class" = "nlabel").c(format!(" {}", p.status_label)))
        .done())
        .c(" ")
        .c(el!(
            "text",
            "class" = "nterm-label",
            "x" = cx.clone(),
            "y" = fmt(at.y - big * 0.55),
            "text-anchor" = "middle",
        )
        .c(text!(l, "ui.cv.term"))
        .done())
        .c(" ")
        .c(el!(
            "text",
            "class" = "nterm",
            "x" = cx.clone(),
            "y" = fmt(at.y + big * 0.42),
            "text-anchor" = "middle",
            "font-size" = fmt(big),
        )
        .c(p.term.to_string())
        .done())
        .c(" ")
        .c(el!(
            "text",
            "class" = "nvote",
            "x" = cx,
            "y" = fmt(at.y + ring_r + 34.0),
            "text-anchor" = "middle"
        )
        .c(vote)
        .done())
        .done())
        .c(el!("g", "class" = "node-marks", "aria-hidden" = "true")
            .c(votes)
            .c(badge))
        .done()
}
