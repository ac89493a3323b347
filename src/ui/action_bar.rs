//! The last action taken (its scenario line and the etcdctl command it corresponds to, or
//! why it made no sense) and the latest client request's outcome.

use super::h;
use crate::el;
use crate::text;
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

/// The latest request as a labelled box, in a tab beside the controls that made it (the
/// node and the membership tabs).
pub fn latest_box(l: Lang, r: &Request) -> Html {
    el!("div", "class" = "latest big")
        .c(text!(l, "ui.node.latest"))
        .c(request_line(l, r))
        .done()
}

/// One request as a line.
pub fn request_line(l: Lang, r: &Request) -> Html {
    let via = r
        .via
        .map(|v| tr!(l, "ui.act.via", node = node_name(v)))
        .unwrap_or_default();
    el!(
        "span",
        "class" = classes!("req", outcome_class(&r.outcome)),
        "data-request" = r.id.to_string(),
        "data-outcome" = outcome_class(&r.outcome),
    )
    .c(el!("span", "class" = "req-what").c(format!("{}{via}", labels::request(&r.kind).render(l))))
    .c(" → ")
    .c(el!("span", "class" = "req-outcome").c(describe_without_error(l, r)))
    .c(if let Some(err) = r.outcome.etcd_error() {
        h::frag()
            .c(" ")
            .c(el!("code", "class" = "etcd-error", "data-etcd-error" = "").c(err))
            .done()
    } else {
        Html::default()
    })
    .c(el!("span", "class" = "req-time").c(format!(" ({})", secs(r.time))))
    .done()
}

/// The latest request's line alone, for presenter mode and embeds, which have no controls
/// and so no last action to show: lessons point at this line ("the line under the
/// drawing") for a request's outcome and etcd's error. Nothing before the first request.
pub fn request_only(v: &View) -> Html {
    let l = v.ui.lang;
    match v.sim.requests.values().next_back() {
        Some(r) => el!("div", "class" = "action-bar", "aria-live" = "polite")
            .c(latest_line(l, r))
            .done(),
        None => Html::default(),
    }
}

/// The latest request, labelled.
fn latest_line(l: Lang, r: &Request) -> Html {
    el!(
        "div",
        "class" = "latest-request",
        "data-latest-request" = ""
    )
    .c(el!("span", "class" = "label").c(text!(l, "ui.act.latest")))
    .c(request_line(l, r))
    .done()
}

/// The bar.
pub fn render(v: &View) -> Html {
    let l = v.ui.lang;
    let last = v.ui.history.last();
    let latest = v.sim.requests.values().next_back();
    if last.is_none() && latest.is_none() {
        return el!("div", "class" = "action-bar hint")
            .c(text!(l, "ui.act.hint_1"))
            .c(el!("span", "class" = "wide-only").c(text!(l, "ui.act.hint_right")))
            .c(el!("span", "class" = "narrow-only").c(text!(l, "ui.act.hint_below")))
            .c(text!(l, "ui.act.hint_2"))
            .done();
    }
    el!("div", "class" = "action-bar", "aria-live" = "polite")
        .c(if let Some(a) = last {
            el!(
                "div",
                "class" = "last-action",
                "data-last-action" = a.scn.clone()
            )
            .c(el!("span", "class" = "label").c(tr!(l, "ui.act.at", time = secs(a.at))))
            .c(el!("code", "class" = "scn").c(a.scn.clone()))
            .c(if let Some(e) = &a.etcdctl {
                h::frag()
                    .c(el!("span", "class" = "label").c(" etcdctl: "))
                    .c(el!("code", "class" = "etcdctl", "data-etcdctl" = "").c(e.clone()))
                    .done()
            } else {
                Html::default()
            })
            .c(if let Some(err) = &a.error {
                el!(
                    "span",
                    "class" = "error",
                    "role" = "alert",
                    "data-action-error" = ""
                )
                .c(tr!(l, "ui.act.not_done", error = err.render(l)))
                .done()
            } else {
                Html::default()
            })
            .done()
        } else {
            Html::default()
        })
        .c(if let Some(r) = latest {
            latest_line(l, r)
        } else {
            Html::default()
        })
        .done()
}
