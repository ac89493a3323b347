//! The leader's view of each follower and learner: match, next, probe / replicate /
//! snapshot (and whether it was heard from since the last check-quorum, as
//! `Sim::unheard_by_leader` says), inflight appends (and whether sending is paused); a
//! learner's catch-up toward the promotion threshold on a row of its own. Five columns, so
//! the table fits the side panel at 1024 px.

use crate::el;
use crate::text;
use yew::prelude::*;

use crate::raft::ProgressState;

use super::app::View;
use crate::sim::labels;
use crate::tr;

use super::glossary::tip_in as tip;
use super::h;
use super::style::node_name;

/// The panel around `body`, under `heading`.
fn panel(l: crate::i18n::Lang, heading: impl h::ChildArg, body: Html) -> Html {
    el!(
        "section",
        "class" = "progress panel",
        "aria-label" = text!(l, "ui.pr.aria")
    )
    .c(el!("h2").c(heading))
    .c(body)
    .done()
}

/// The table.
pub fn render(v: &View) -> Html {
    render_side(v, None)
}

/// The table of `v.sim`, its heading after `side` ("A: …") when two runs are shown.
pub fn render_side(v: &View, side: Option<&str>) -> Html {
    let sim = v.sim;
    let l = v.ui.lang;
    let sided = |heading: String| match side {
        Some(s) => tr!(l, "ui.cmp.side", side = s, label = heading),
        None => heading,
    };
    let Some(lead) = sim.leader().and_then(|l| sim.nodes.get(&l)) else {
        let hint = el!("p", "class" = "hint").c(text!(l, "ui.pr.no_leader"));
        return panel(l, sided(tr!(l, "ui.pr.title").to_string()), hint.done());
    };
    let raft = &lead.raft;
    let last = raft.log.last_index();
    let heading = sided(tr!(
        l,
        "ui.pr.heading",
        node = node_name(raft.id),
        last = last
    ));
    // A leader alone in its configuration (a 1-node cluster, the one member left by
    // --force-new-cluster) tracks nobody: say so rather than show an empty table.
    if raft.trk.progress.len() <= 1 {
        let hint = el!("p", "class" = "hint", "data-progress-alone" = "").c(tr!(
            l,
            "ui.pr.alone",
            node = node_name(raft.id)
        ));
        return panel(l, heading, hint.done());
    }
    let pct = sim.opts.learner_ready;
    let rows = raft
        .trk
        .progress
        .iter()
        .filter(|(id, _)| **id != raft.id)
        .map(|(id, p)| {
            let state = p.state.name();
            let state_label = labels::progress(p.state).render(l);
            let state_tip = match p.state {
                ProgressState::Probe => tip(l, "probe"),
                ProgressState::Replicate => tip(l, "replicate"),
                ProgressState::Snapshot => tip(l, "snapshot state"),
            };
            let bar = if p.is_learner {
                // Promotion is allowed once match * 100 >= last * pct (etcd's isLearnerReady).
                let need = (last * pct).div_ceil(100);
                let frac = if need == 0 {
                    1.0
                } else {
                    (p.matched as f64 / need as f64).min(1.0)
                };
                let ready = p.matched * 100 >= last * pct;
                el!(
                    "div",
                    "class" = classes!("catchup", ready.then_some("ready")),
                    "title" = tr!(
                        l,
                        "ui.pr.catchup_tip",
                        tip = tip(l, "learner-ready"),
                        matched = p.matched,
                        need = need,
                        pct = pct,
                        last = last
                    ),
                    "data-ready" = ready.to_string(),
                )
                .c(el!(
                    "div",
                    "class" = "fill",
                    "style" = format!("width:{}%", crate::sim::decimal::fixed(frac * 100.0, 0)),
                ))
                .c(el!("span").c(if ready {
                    tr!(l, "ui.pr.ready").to_string()
                } else {
                    tr!(
                        l,
                        "ui.pr.of_threshold",
                        pct = crate::sim::decimal::fixed(frac * 100.0, 0)
                    )
                }))
                .done()
            } else {
                html! {}
            };
            let paused = p.is_paused();
            let name = node_name(*id);
            let row = el!(
                "tr",
                "data-progress-node" = name.clone(),
                "data-state" = state
            )
            .c(el!("th", "scope" = "row")
                .c(name.clone())
                .c(if p.is_learner {
                    tr!(l, "ui.pr.learner_suffix")
                } else {
                    ""
                }))
            .c(el!("td").c(p.matched.to_string()))
            .c(el!("td").c(p.next.to_string()))
            .c(el!(
                "td",
                "class" = Classes::from(format!("st-{state}")),
                "title" = state_tip,
            )
            .c(state_label)
            .c(if !sim.unheard_by_leader(raft, *id) {
                html! {}
            } else {
                el!(
                    "span",
                    "class" = "flag",
                    "title" = tr!(l, "ui.pr.inactive_tip"),
                    "data-inactive" = ""
                )
                .c(tr!(l, "ui.pr.inactive"))
                .done()
            }))
            .c(el!("td", "title" = tip(l, "inflight"))
                .c(format!("{}/{}", p.inflights.count(), p.inflights.cap))
                .c(if paused {
                    el!("span", "class" = "flag", "data-paused" = "")
                        .c(tr!(l, "ui.pr.paused"))
                        .done()
                } else {
                    html! {}
                }))
            .done();
            // A learner's catch-up gets a row of its own under the learner's: as a column it
            // pushed the table past the side panel on projector screens.
            if p.is_learner {
                h::frag()
                    .c(row)
                    .c(el!(
                        "tr",
                        "class" = "catchup-row",
                        "data-progress-catchup" = name
                    )
                    .c(el!("td", "colspan" = "5").c(el!(
                        "div",
                        "class" = "catchup-line"
                    )
                    .c(el!(
                        "span",
                        "class" = "catchup-label",
                        "title" = tip(l, "learner-ready")
                    )
                    .c(tr!(l, "ui.pr.catchup")))
                    .c(bar))))
                    .done()
            } else {
                row
            }
        })
        .collect::<Html>();
    let table = el!(
        "div",
        "class" = "table-wrap",
        "tabindex" = "0",
        "role" = "region",
        "aria-label" = text!(l, "ui.pr.table_aria"),
    )
    .c(el!("table", "class" = "grid")
        .c(el!("thead").c(el!("tr")
            .c(el!("th", "scope" = "col").c(text!(l, "ui.pr.member")))
            .c(el!("th", "scope" = "col", "title" = tip(l, "match")).c("match"))
            .c(el!("th", "scope" = "col", "title" = tip(l, "next")).c("next"))
            .c(el!(
                "th",
                "scope" = "col",
                "title" = format!(
                    "{} {} {}",
                    tip(l, "probe"),
                    tip(l, "replicate"),
                    tip(l, "snapshot state")
                ),
            )
            .c(text!(l, "ui.pr.state")))
            .c(el!("th", "scope" = "col", "title" = tip(l, "inflight"))
                .c(text!(l, "ui.pr.inflight")))))
        .c(el!("tbody").c(rows)))
    .done();
    panel(l, heading, table)
}
