//! The leader's view of each follower and learner: match, next, probe / replicate /
//! snapshot, inflight appends, paused; a learner's catch-up toward the promotion threshold.

use yew::prelude::*;

use crate::raft::ProgressState;

use super::app::View;
use crate::sim::labels;
use crate::tr;

use super::glossary::tip_in as tip;
use super::style::node_name;

/// The table.
pub fn render(v: &View) -> Html {
    let sim = v.sim;
    let l = v.ui.lang;
    let Some(lead) = sim.leader().and_then(|l| sim.nodes.get(&l)) else {
        return html! {
            <section class="progress panel" aria-label={tr!(l, "ui.pr.aria")}>
                <h2>{ tr!(l, "ui.pr.title") }</h2>
                <p class="hint">{ tr!(l, "ui.pr.no_leader") }</p>
            </section>
        };
    };
    let raft = &lead.raft;
    let last = raft.log.last_index();
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
                html! {
                    <div class={classes!("catchup", ready.then_some("ready"))}
                        title={tr!(l, "ui.pr.catchup_tip", tip = tip(l, "learner-ready"), matched = p.matched, need = need, pct = pct, last = last)}
                        data-ready={ready.to_string()}>
                        <div class="fill" style={format!("width:{}%", crate::sim::decimal::fixed(frac * 100.0, 0))}></div>
                        <span>{ if ready { tr!(l, "ui.pr.ready").to_string() } else { tr!(l, "ui.pr.of_threshold", pct = crate::sim::decimal::fixed(frac * 100.0, 0)) } }</span>
                    </div>
                }
            } else {
                html! {}
            };
            let paused = p.is_paused();
            html! {
                <tr data-progress-node={node_name(*id)} data-state={state}>
                    <th scope="row">{ node_name(*id) }{ if p.is_learner { tr!(l, "ui.pr.learner_suffix") } else { "" } }</th>
                    <td>{ p.matched.to_string() }</td>
                    <td>{ p.next.to_string() }</td>
                    <td class={format!("st-{state}")} title={state_tip}>{ state_label }</td>
                    <td title={tip(l, "inflight")}>{ format!("{}/{}", p.inflights.count(), p.inflights.cap) }</td>
                    <td>{ if paused { tr!(l, "ui.pr.paused") } else { "" } }</td>
                    <td>{ if p.recent_active { tr!(l, "ui.yes") } else { tr!(l, "ui.no") } }</td>
                    <td class="bar-cell">{ bar }</td>
                </tr>
            }
        })
        .collect::<Html>();
    html! {
        <section class="progress panel" aria-label={tr!(l, "ui.pr.aria")}>
            <h2>{ tr!(l, "ui.pr.heading", node = node_name(raft.id), last = last) }</h2>
            <div class="table-wrap" tabindex="0" role="region" aria-label={tr!(l, "ui.pr.table_aria")}><table class="grid">
                <thead>
                    <tr>
                        <th scope="col">{ tr!(l, "ui.pr.member") }</th>
                        <th scope="col" title={tip(l, "match")}>{ "match" }</th>
                        <th scope="col" title={tip(l, "next")}>{ "next" }</th>
                        <th scope="col" title={format!("{} {} {}", tip(l, "probe"), tip(l, "replicate"), tip(l, "snapshot state"))}>{ tr!(l, "ui.pr.state") }</th>
                        <th scope="col" title={tip(l, "inflight")}>{ tr!(l, "ui.pr.inflight") }</th>
                        <th scope="col">{ tr!(l, "ui.pr.paused") }</th>
                        <th scope="col" title={tip(l, "check-quorum")}>{ tr!(l, "ui.pr.active") }</th>
                        <th scope="col" title={tip(l, "learner-ready")}>{ tr!(l, "ui.pr.catchup") }</th>
                    </tr>
                </thead>
                <tbody>{ rows }</tbody>
            </table></div>
        </section>
    }
}
