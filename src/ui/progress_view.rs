//! The leader's view of each follower and learner: match, next, probe / replicate /
//! snapshot, inflight appends, paused; a learner's catch-up toward the promotion threshold.

use yew::prelude::*;

use crate::raft::ProgressState;

use super::app::View;
use super::glossary::tip;
use super::style::node_name;

/// The table.
pub fn render(v: &View) -> Html {
    let sim = v.sim;
    let Some(lead) = sim.leader().and_then(|l| sim.nodes.get(&l)) else {
        return html! {
            <section class="progress panel" aria-label="leader's progress">
                <h2>{ "Leader's progress" }</h2>
                <p class="hint">{ "No leader: nobody tracks replication progress right now." }</p>
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
            let state_tip = match p.state {
                ProgressState::Probe => tip("probe"),
                ProgressState::Replicate => tip("replicate"),
                ProgressState::Snapshot => tip("snapshot state"),
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
                        title={format!("{} match {} of the {} needed ({}% of the leader's {})", tip("learner-ready"), p.matched, need, pct, last)}
                        data-ready={ready.to_string()}>
                        <div class="fill" style={format!("width:{:.0}%", frac * 100.0)}></div>
                        <span>{ if ready { "ready to promote".to_string() } else { format!("{:.0}% of threshold", frac * 100.0) } }</span>
                    </div>
                }
            } else {
                html! {}
            };
            let paused = p.is_paused();
            html! {
                <tr data-progress-node={node_name(*id)} data-state={state}>
                    <th scope="row">{ node_name(*id) }{ if p.is_learner { " (learner)" } else { "" } }</th>
                    <td>{ p.matched.to_string() }</td>
                    <td>{ p.next.to_string() }</td>
                    <td class={format!("st-{state}")} title={state_tip}>{ state }</td>
                    <td title={tip("inflight")}>{ format!("{}/{}", p.inflights.count(), p.inflights.cap) }</td>
                    <td>{ if paused { "paused" } else { "" } }</td>
                    <td>{ if p.recent_active { "yes" } else { "no" } }</td>
                    <td class="bar-cell">{ bar }</td>
                </tr>
            }
        })
        .collect::<Html>();
    html! {
        <section class="progress panel" aria-label="leader's progress">
            <h2>{ format!("Leader {}'s progress (last index {last})", node_name(raft.id)) }</h2>
            <div class="table-wrap" tabindex="0" role="region" aria-label="progress table"><table class="grid">
                <thead>
                    <tr>
                        <th scope="col">{ "member" }</th>
                        <th scope="col" title={tip("match")}>{ "match" }</th>
                        <th scope="col" title={tip("next")}>{ "next" }</th>
                        <th scope="col" title={format!("{} {} {}", tip("probe"), tip("replicate"), tip("snapshot state"))}>{ "state" }</th>
                        <th scope="col" title={tip("inflight")}>{ "inflight" }</th>
                        <th scope="col">{ "paused" }</th>
                        <th scope="col" title={tip("check-quorum")}>{ "active" }</th>
                        <th scope="col" title={tip("learner-ready")}>{ "catch-up" }</th>
                    </tr>
                </thead>
                <tbody>{ rows }</tbody>
            </table></div>
        </section>
    }
}
