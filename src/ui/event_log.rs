//! The event log in plain words, newest first, filterable by kind; the invariants badge and,
//! after a violation, which property broke, where and after what.

use crate::el;
use crate::text;
use yew::prelude::*;

use crate::sim::event::{Event, EventKind};
use crate::sim::invariant_words;

use super::app::{Msg, Ui, View};
use super::h::send;
use crate::i18n::Lang;
use crate::tr;

use super::glossary::tip_in as tip;
use super::style::{node_name, secs};

/// How many events are listed at most.
const SHOWN: usize = 150;

/// The green / red badge.
pub fn badge(v: &View) -> Html {
    let l = v.ui.lang;
    let n = v.sim.violations.len();
    let ok = n == 0;
    let text = match n {
        0 => tr!(l, "ui.ev.invariants_hold").to_string(),
        1 => tr!(l, "ui.ev.one_violation").to_string(),
        _ => tr!(l, "ui.ev.violations", n = n),
    };
    el!(
        "span",
        "class" = classes!("badge", if ok { "ok" } else { "bad" }),
        "data-violations" = n.to_string(),
        "title" = tip(l, "invariants"),
        "role" = "status",
    )
    .c(if ok { "✓ " } else { "⚠ " })
    .c(text)
    .done()
}

fn violations(v: &View) -> Html {
    if v.sim.violations.is_empty() {
        return html! {};
    }
    let l = v.ui.lang;
    let items = v
        .sim
        .violations
        .iter()
        .map(|x| {
            let t = x.time;
            let go = send(v.link, Msg::Seek(t));
            el!("li")
                .c(el!("strong").c(invariant_words::name(&x.invariant).render(l)))
                .c(text!(l, "ui.ev.colon"))
                .c(invariant_words::detail(&x.detail).render(l))
                .c(el!("span", "class" = "where").c(tr!(
                    l,
                    "ui.ev.where",
                    time = secs(x.time),
                    cause = x
                        .cause_words
                        .as_ref()
                        .map_or(x.cause.clone(), |c| c.render(l))
                )))
                .c(el!(
                    "button",
                    "class" = "link-btn",
                    "aria-label" = tr!(l, "ui.ev.go_to", time = secs(t)),
                )
                .on_click(go)
                .c(text!(l, "ui.ev.go_there")))
                .done()
        })
        .collect::<Html>();
    el!(
        "div",
        "class" = "violations",
        "role" = "alert",
        "data-violation-panel" = ""
    )
    .c(el!("h3").c(text!(l, "ui.ev.safety_violated")))
    .c(el!("ul").c(items))
    .done()
}

/// The kinds hidden now. While paused or stepping, every kind shows until the person changes
/// the filters, so a step's vote or replication event (a delivery) is never hidden.
pub fn hidden_kinds(ui: &Ui) -> Vec<EventKind> {
    if !ui.playing && !ui.kinds_touched {
        Vec::new()
    } else {
        ui.hidden_kinds.clone()
    }
}

/// The panel.
pub fn render(v: &View) -> Html {
    let hidden = &hidden_kinds(v.ui);
    let l = v.ui.lang;
    let chips = EventKind::ALL
        .iter()
        .map(|k| {
            let k = *k;
            let on = !hidden.contains(&k);
            let onchange = send(v.link, Msg::ToggleKind(k));
            el!(
                "label",
                "class" = classes!("chip", format!("k-{}", k.name()))
            )
            .c(el!(
                "input",
                "type" = "checkbox",
                "aria-label" = tr!(l, "ui.ev.show_kind", kind = k.label(l)),
            )
            .on_change(onchange)
            .checked(on)
            .done())
            .c(k.label(l))
            .done()
        })
        .collect::<Html>();
    let events: Vec<Event> = v
        .sim
        .events
        .iter()
        .rev()
        .filter(|e| !hidden.contains(&e.kind))
        .take(SHOWN)
        .cloned()
        .collect();
    let all = send(v.link, Msg::AllKinds(true));
    let none = send(v.link, Msg::AllKinds(false));
    el!(
        "section",
        "class" = "events panel",
        "aria-label" = text!(l, "ui.ev.log_aria")
    )
    .c(el!("h2")
        .c(text!(l, "ui.ev.events"))
        .c(el!("span", "class" = "sub").c(text!(l, "ui.ev.newest_first"))))
    .c(violations(v))
    .c(el!(
        "div",
        "class" = "chips",
        "role" = "group",
        "aria-label" = text!(l, "ui.ev.filters_aria")
    )
    .c(chips)
    .c(el!(
        "button",
        "class" = "link-btn",
        "title" = text!(l, "ui.ev.all_aria")
    )
    .on_click(all)
    .c(text!(l, "ui.ev.all")))
    .c(el!(
        "button",
        "class" = "link-btn",
        "title" = text!(l, "ui.ev.none_aria")
    )
    .on_click(none)
    .c(text!(l, "ui.ev.none"))))
    .c(html! { <EventList {events} lang={l} /> })
    .done()
}

/// The event's text without the " — <etcd error>" the simulator ends it with, since the error
/// is shown apart as a chip (the CLI keeps the whole line).
fn without_etcd_error(text: &str, err: Option<&str>) -> String {
    err.and_then(|err| text.strip_suffix(err))
        .and_then(|t| t.strip_suffix(" — "))
        .unwrap_or(text)
        .to_string()
}

/// The events listed (newest first). A component, so an unchanged list is not re-rendered.
#[derive(Clone, Debug, PartialEq, Properties)]
struct ListProps {
    events: Vec<Event>,
    lang: Lang,
}

#[component]
fn EventList(p: &ListProps) -> Html {
    let items = p
        .events
        .iter()
        .map(|e| html! { <EventItem key={e.seq.to_string()} event={e.clone()} lang={p.lang} /> })
        .collect::<Html>();
    // Focusable, so the list scrolls by keyboard too; an empty list (every kind filtered
    // out) is no stop in the Tab order, as it has nothing to show or scroll.
    el!(
        "ol",
        "class" = "event-list",
        "reversed" = true,
        "tabindex" = (!p.events.is_empty()).then_some("0"),
        "aria-label" = text!(p.lang, "ui.ev.list_aria"),
    )
    .c(items)
    .done()
}

/// One listed event. Items are components, so a new event worded at the top of the list does
/// not word the others again: an unchanged event keeps its built line.
#[derive(Clone, Debug, PartialEq, Properties)]
struct ItemProps {
    event: Event,
    lang: Lang,
}

#[component]
fn EventItem(p: &ItemProps) -> Html {
    super::memo::item_built(super::memo::Item::EventLine);
    let e = &p.event;
    el!(
        "li",
        "class" = Classes::from(format!("ev k-{}", e.kind.name())),
        "data-kind" = e.kind.name(),
    )
    .c(el!("span", "class" = "ev-time").c(secs(e.time)))
    .c(el!("span", "class" = "ev-node").c(e.node.map(node_name).unwrap_or_default()))
    .c(el!("span", "class" = "ev-text").c(without_etcd_error(
        &e.text_in(p.lang),
        e.etcd_error.as_deref(),
    )))
    .c(if let Some(err) = &e.etcd_error {
        el!("code", "class" = "etcd-error", "data-etcd-error" = "")
            .c(err.clone())
            .done()
    } else {
        Html::default()
    })
    .done()
}
