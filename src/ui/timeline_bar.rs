//! Time travel: a scrubber over the whole run with markers (elections, leader changes,
//! faults, membership, violations), steps by tick and by event both ways, and a way back to
//! the present. Acting while in the past forks a new future (the timeline does that).

use super::h;
use crate::el;
use crate::text;
use yew::prelude::*;
use yew::TargetCast;

use crate::sim::event::EventKind;

use super::app::{Msg, View};
use super::h::send;
use crate::tr;

use super::glossary::tip_in as tip;
use super::keys;
use super::style::secs;

/// At most this many markers are drawn (the scrubber is only so wide).
const MAX_MARKERS: usize = 300;

/// The bar.
pub fn render(v: &View) -> Html {
    let link = v.link;
    let l = v.ui.lang;
    let tl = v.tl;
    let head = tl.head_time().max(v.sim.now).max(1);
    let now = v.sim.now;
    let seek = link.callback(|e: InputEvent| {
        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
        match crate::sim::decimal::parse(&input.value()) {
            Some(t) if t.is_finite() && t >= 0.0 => Msg::Seek(t as u64),
            _ => Msg::None,
        }
    });
    let markers = tl.markers();
    let stride = markers.len().div_ceil(MAX_MARKERS).max(1);
    let marks = markers
        .iter()
        .enumerate()
        .filter(|(i, m)| i % stride == 0 || m.kind == EventKind::Invariant)
        .map(|(_, m)| {
            let t = m.time;
            let left = t as f64 * 100.0 / head as f64;
            let go = send(link, Msg::Seek(t));
            let label = m.msg.render(l);
            el!(
                "button",
                "class" = classes!("marker", format!("k-{}", m.kind.name())),
                "style" = format!("left:{}%", crate::sim::decimal::fixed(left, 2)),
                "title" = format!("{}: {}", secs(t), label),
                "aria-label" = tr!(l, "ui.tl.go_to", time = secs(t), label = label),
            )
            .on_click(go)
            .done()
        })
        .collect::<Html>();
    let past = !tl.at_head();
    let step_line = v.ui.step_line.as_ref().map(|m| {
        el!(
            "p",
            "class" = "step-line",
            "data-step-line" = "",
            "title" = text!(l, "ui.tl.step_line_tip"),
        )
        .c(m.render(l))
        .done()
    });
    h::frag()
        .c(el!(
            "div",
            "class" = "timeline",
            "role" = "group",
            "aria-label" = text!(l, "ui.tl.aria"),
            "title" = tip(l, "time travel"),
        )
        .c(el!(
            "button",
            "aria-label" = text!(l, "ui.tl.back_tick_aria"),
            "title" = text!(l, "ui.tl.back_tick_tip"),
        )
        .on_click(send(link, Msg::BackTick))
        .c(text!(l, "ui.tl.back_tick")))
        .c(el!(
            "button",
            "aria-label" = text!(l, "ui.tl.back_event_aria"),
            "title" = text!(l, "ui.tl.back_event_tip"),
        )
        .on_click(send(link, Msg::BackEvent))
        .c(text!(l, "ui.tl.back_event")))
        .c(el!("div", "class" = "scrub")
            .c(el!("div", "class" = "markers").c(marks))
            .c(el!(
                "input",
                "type" = "range",
                "min" = "0",
                "max" = head.to_string(),
                "step" = "1",
                "aria-label" = text!(l, "ui.tl.time_aria"),
                "data-scrubber" = "",
            )
            .on_input(seek)
            .value(now.to_string())
            .done()))
        .c(el!(
            "button",
            "aria-label" = text!(l, "ui.tl.event_aria"),
            "title" = text!(l, "ui.tl.event_tip"),
        )
        .on_click(send(link, Msg::StepEvent))
        .c(text!(l, "ui.tl.event")))
        .c(el!(
            "button",
            "aria-label" = text!(l, "ui.tl.tick_aria"),
            "title" = text!(l, "ui.tl.tick_tip"),
        )
        .on_click(send(link, Msg::StepTick))
        .c(text!(l, "ui.tl.tick")))
        .c(el!(
            "button",
            "class" = "next-change",
            "data-next-change" = "",
            "title" = format!("{}{}", tr!(l, "ui.tl.next_change_tip"), keys::hint(l, "n")),
        )
        .on_click(send(link, Msg::NextChange))
        .c(text!(l, "ui.tl.next_change")))
        .c(el!("span", "class" = "times").c(format!("{} / {}", secs(now), secs(tl.head_time()))))
        .c(if past {
            el!("span", "class" = "past", "data-past" = "")
                .c(text!(l, "ui.tl.past"))
                .c(el!("button", "title" = text!(l, "ui.tl.live_aria"))
                    .on_click(send(link, Msg::Live))
                    .c(text!(l, "ui.tl.live")))
                .done()
        } else {
            Html::default()
        }))
        .c(step_line)
        .done()
}
