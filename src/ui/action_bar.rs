//! The last action taken (its scenario line and the etcdctl command it corresponds to, or
//! why it made no sense) and the latest client request's outcome.

use yew::prelude::*;

use crate::sim::client::{Outcome, Request};

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

/// The outcome's description without the "(<etcd error>)" it carries, since the error is shown
/// apart as a chip.
fn describe_without_error(o: &Outcome) -> String {
    let text = o.describe();
    match o.etcd_error() {
        Some(err) => text.replacen(&format!(" ({err})"), "", 1),
        None => text,
    }
}

/// One request as a line.
pub fn request_line(r: &Request) -> Html {
    let via = r
        .via
        .map(|v| format!(" via {}", node_name(v)))
        .unwrap_or_default();
    html! {
        <span class={classes!("req", outcome_class(&r.outcome))} data-request={r.id.to_string()}
            data-outcome={outcome_class(&r.outcome)}>
            <span class="req-what">{ format!("{}{via}", r.kind.label()) }</span>
            { " → " }
            <span class="req-outcome">{ describe_without_error(&r.outcome) }</span>
            if let Some(err) = r.outcome.etcd_error() {
                { " " }<code class="etcd-error" data-etcd-error="">{ err }</code>
            }
            <span class="req-time">{ format!(" ({})", secs(r.time)) }</span>
        </span>
    }
}

/// The bar.
pub fn render(v: &View) -> Html {
    let last = v.ui.history.last();
    let latest = v.sim.requests.values().next_back();
    if last.is_none() && latest.is_none() {
        return html! {
            <div class="action-bar hint">
                { "Click a node to act on it, or use the panels " }
                <span class="wide-only">{ "on the right" }</span>
                <span class="narrow-only">{ "below" }</span>
                { ". Every action shows its etcdctl equivalent here." }
            </div>
        };
    }
    html! {
        <div class="action-bar" aria-live="polite">
            if let Some(a) = last {
                <div class="last-action" data-last-action={a.scn.clone()}>
                    <span class="label">{ format!("at {} ", secs(a.at)) }</span>
                    <code class="scn">{ a.scn.clone() }</code>
                    if let Some(e) = &a.etcdctl {
                        <span class="label">{ " etcdctl: " }</span>
                        <code class="etcdctl" data-etcdctl="">{ e.clone() }</code>
                    }
                    if let Some(err) = &a.error {
                        <span class="error" role="alert" data-action-error="">{ format!(" — not done: {err}") }</span>
                    }
                </div>
            }
            if let Some(r) = latest {
                <div class="latest-request" data-latest-request="">
                    <span class="label">{ "latest request " }</span>
                    { request_line(r) }
                </div>
            }
        </div>
    }
}
