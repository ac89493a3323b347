//! The last action taken (its scenario line and the etcdctl command it corresponds to, or
//! why it made no sense) and the latest client request's outcome.

use yew::prelude::*;

use crate::i18n::Lang;
use crate::sim::client::{Outcome, Request};
use crate::sim::labels;
use crate::tr;

use super::app::View;
use super::style::{node_name, secs};

/// A request's outcome as a CSS word.
pub fn outcome_class(o: &Outcome) -> &'static str {
    match o {
        Outcome::Pending => "pending",
        Outcome::Accepted => "accepted",
        Outcome::Committed { .. } => "committed",
        Outcome::Rejected { .. } => "rejected",
        Outcome::Lost { .. } => "lost",
        Outcome::TimedOut { .. } => "timed-out",
        Outcome::Value { stale: Some(_), .. } => "stale",
        Outcome::Value { .. } => "value",
    }
}

/// The outcome's words in `l` without the "(<etcd error>)" they carry, since the error is
/// shown apart as a chip, verbatim.
fn describe_without_error(l: Lang, r: &Request) -> String {
    let text = labels::outcome(r).render(l);
    match r.outcome.etcd_error() {
        Some(err) => {
            text.replacen(&format!(" ({err})"), "", 1)
                .replacen(&format!("（{err}）"), "", 1)
        }
        None => text,
    }
}

/// One request as a line.
pub fn request_line(l: Lang, r: &Request) -> Html {
    let via = r
        .via
        .map(|v| tr!(l, "ui.act.via", node = node_name(v)))
        .unwrap_or_default();
    html! {
        <span class={classes!("req", outcome_class(&r.outcome))} data-request={r.id.to_string()}
            data-outcome={outcome_class(&r.outcome)}>
            <span class="req-what">{ format!("{}{via}", labels::request(&r.kind).render(l)) }</span>
            { " → " }
            <span class="req-outcome">{ describe_without_error(l, r) }</span>
            if let Some(err) = r.outcome.etcd_error() {
                { " " }<code class="etcd-error" data-etcd-error="">{ err }</code>
            }
            <span class="req-time">{ format!(" ({})", secs(r.time)) }</span>
        </span>
    }
}

/// The bar.
pub fn render(v: &View) -> Html {
    let l = v.ui.lang;
    let last = v.ui.history.last();
    let latest = v.sim.requests.values().next_back();
    if last.is_none() && latest.is_none() {
        return html! {
            <div class="action-bar hint">
                { tr!(l, "ui.act.hint_1") }
                <span class="wide-only">{ tr!(l, "ui.act.hint_right") }</span>
                <span class="narrow-only">{ tr!(l, "ui.act.hint_below") }</span>
                { tr!(l, "ui.act.hint_2") }
            </div>
        };
    }
    html! {
        <div class="action-bar" aria-live="polite">
            if let Some(a) = last {
                <div class="last-action" data-last-action={a.scn.clone()}>
                    <span class="label">{ tr!(l, "ui.act.at", time = secs(a.at)) }</span>
                    <code class="scn">{ a.scn.clone() }</code>
                    if let Some(e) = &a.etcdctl {
                        <span class="label">{ " etcdctl: " }</span>
                        <code class="etcdctl" data-etcdctl="">{ e.clone() }</code>
                    }
                    if let Some(err) = &a.error {
                        <span class="error" role="alert" data-action-error="">{ tr!(l, "ui.act.not_done", error = err.render(l)) }</span>
                    }
                </div>
            }
            if let Some(r) = latest {
                <div class="latest-request" data-latest-request="">
                    <span class="label">{ tr!(l, "ui.act.latest") }</span>
                    { request_line(l, r) }
                </div>
            }
        </div>
    }
}
