//! The toolbar: play / pause, the pace (teaching pace by default, fast one click away), the
//! clock, and folded under "cluster": reset with N nodes and a seed and the protocol switches
//! (recorded as `set` actions); the invariants badge, theme and help.

use super::h;
use crate::el;
use crate::text;
use wasm_bindgen::JsCast;
use yew::prelude::*;
use yew::TargetCast;

use super::app::{Msg, Theme, View};
use super::event_log;
use super::forms::Field;
use super::h::send;
use crate::i18n::Lang;
use crate::tr;

use super::glossary::tip_in as tip;
use super::memo::{self, Slot};
use super::pace::{Pace, FIXED};
use super::style::secs;

fn speed_label(l: Lang, s: f64) -> String {
    if s < 1.0 {
        tr!(l, "ui.tb.slow", s = crate::sim::decimal::shortest(s))
    } else {
        tr!(l, "ui.tb.times", s = crate::sim::decimal::shortest(s))
    }
}

/// "Teaching pace" and the fixed speeds.
fn pace_options(l: Lang, current: Pace) -> Html {
    let teach = el!(
        "option",
        "value" = "teach",
        "selected" = current == Pace::Teach,
        "title" = text!(l, "ui.tb.teach_tip"),
    )
    .c(text!(l, "ui.tb.teach"))
    .done();
    let fixed = FIXED
        .iter()
        .map(|s| {
            let on = matches!(current, Pace::Fixed(c) if (c - *s).abs() < 1e-9);
            el!(
                "option",
                "value" = crate::sim::decimal::shortest(*s),
                "selected" = on
            )
            .c(speed_label(l, *s))
            .done()
        })
        .collect::<Html>();
    h::frag().c(teach).c(fixed).done()
}

fn switch(v: &View, name: &'static str, label: &'static str, on: bool, concept: &str) -> Html {
    let onchange = v.link.callback(move |e: Event| {
        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
        Msg::Set(name, if input.checked() { "on" } else { "off" }.to_string())
    });
    el!(
        "label",
        "class" = "switch",
        "title" = tip(v.ui.lang, concept).to_string()
    )
    .c(el!(
        "input",
        "type" = "checkbox",
        "aria-label" = label,
        "data-option" = name
    )
    .on_change(onchange)
    .checked(on)
    .done())
    .c(label)
    .done()
}

/// The etcd release select and the request timeout, both applied as `set` actions: a release
/// brings its own defaults (etcd 3.4 turns pre-vote off), so the switches below follow it.
fn etcd_fields(v: &View) -> Html {
    let o = &v.sim.opts;
    let l = v.ui.lang;
    let pick = |name: &'static str| {
        v.link.callback(move |e: Event| {
            let s: web_sys::HtmlSelectElement = e.target_unchecked_into();
            Msg::Set(name, s.value())
        })
    };
    let releases = ["3.4", "3.5", "3.6"]
        .iter()
        .map(|r| {
            el!("option", "value" = *r, "selected" = o.etcd.name() == *r)
                .c(*r)
                .done()
        })
        .collect::<Html>();
    // A scenario may have set a timeout not in the list: it is offered too, so it shows.
    let mut waits = vec![1000, 2000, 5000, 10_000, 30_000];
    // Put in its place (the list is sorted): a sort here was the only user of std's unstable
    // sort for numbers, a few KB of wasm.
    if !waits.contains(&o.request_timeout) {
        let at = waits.partition_point(|w| *w < o.request_timeout);
        waits.insert(at, o.request_timeout);
    }
    let waits = waits
        .into_iter()
        .map(|ms| {
            el!(
                "option",
                "value" = ms.to_string(),
                "selected" = o.request_timeout == ms
            )
            .c(secs(ms))
            .done()
        })
        .collect::<Html>();
    el!("div", "class" = "row")
        .c(el!(
            "label",
            "class" = "field",
            "title" = text!(l, "ui.tb.etcd_tip")
        )
        .c("etcd ")
        .c(el!(
            "select",
            "aria-label" = text!(l, "ui.tb.etcd_aria"),
            "data-option" = "etcd"
        )
        .on_change(pick("etcd"))
        .c(releases)
        .done()))
        .c(el!(
            "label",
            "class" = "field",
            "title" = text!(l, "ui.tb.timeout_tip")
        )
        .c(text!(l, "ui.tb.timeout"))
        .c(el!(
            "select",
            "aria-label" = text!(l, "ui.tb.timeout_aria"),
            "data-option" = "request-timeout",
        )
        .on_change(pick("request-timeout"))
        .c(waits)
        .done()))
        .done()
}

/// The toolbar. Its controls are kept between frames (see `memo`): while the clock runs, only
/// the clock's text is built again, unless the run changes what the controls show (a lesson
/// pausing, a scenario's `set`, a violation).
pub fn render(v: &View) -> Html {
    let l = v.ui.lang;
    let sim = v.sim;
    let o = &sim.opts;
    let stamp = memo::stamp(v.generation, (v.running(), o, sim.violations.len()));
    el!(
        "header",
        "class" = "toolbar",
        "role" = "toolbar",
        "aria-label" = text!(l, "ui.tb.aria")
    )
    .c(el!(
        "h1",
        "class" = "brand",
        "title" = text!(l, "ui.tb.brand_tip")
    )
    .c("raftlab"))
    .c(el!("div", "class" = "group")
        .c(v.memos.panel(Slot::ToolbarPlay, stamp, || play_controls(v)))
        .c(el!(
            "span",
            "class" = "clock",
            "title" = text!(l, "ui.tb.clock_tip")
        )
        .c(tr!(
            l,
            "ui.tb.clock",
            time = secs(sim.now),
            tick = sim.now / 100
        ))))
    .c(v.memos
        .panel(Slot::ToolbarOptions, stamp, || options_and_end(v)))
    .done()
}

/// Play / pause, the pace and the fast button.
fn play_controls(v: &View) -> Html {
    let ui = v.ui;
    let l = ui.lang;
    let link = v.link;
    let play = send(link, Msg::TogglePlay);
    let speed = link.callback(|e: Event| {
        let s: web_sys::HtmlSelectElement = e.target_unchecked_into();
        match Pace::parse(&s.value()) {
            Some(p) => Msg::Pace(p),
            None => Msg::None,
        }
    });
    let options = pace_options(l, ui.pace);
    let teach = ui.pace == Pace::Teach;
    let fast = send(
        link,
        Msg::Pace(if teach { Pace::Fixed(5.0) } else { Pace::Teach }),
    );
    let running = v.running();
    h::frag()
        .c(el!(
            "button",
            "class" = classes!("play", running.then_some("on")),
            "aria-label" = if running {
                tr!(l, "ui.tb.pause_aria")
            } else {
                tr!(l, "ui.tb.play_aria")
            },
            "data-playing" = running.to_string(),
            "title" = text!(l, "ui.tb.play_tip"),
        )
        .on_click(play)
        .c(if running {
            tr!(l, "ui.tb.pause")
        } else {
            tr!(l, "ui.tb.play")
        }))
        .c(el!("label", "class" = "field")
            .c(el!("span", "class" = "wide-only").c(text!(l, "ui.tb.speed")))
            .c(el!("select", "aria-label" = text!(l, "ui.tb.speed_aria"))
                .on_change(speed)
                .c(options)
                .done()))
        .c(el!(
            "button",
            "class" = "fast",
            "aria-label" = if teach {
                tr!(l, "ui.tb.fast_aria")
            } else {
                tr!(l, "ui.tb.slow_aria")
            },
            "title" = if teach {
                tr!(l, "ui.tb.fast_tip")
            } else {
                tr!(l, "ui.tb.back_teach_tip")
            },
        )
        .on_click(fast)
        .c(if teach {
            tr!(l, "ui.tb.fast")
        } else {
            tr!(l, "ui.tb.slow_btn")
        }))
        .done()
}

/// The folded cluster options, then the invariants badge, theme, language and help.
fn options_and_end(v: &View) -> Html {
    let ui = v.ui;
    let l = ui.lang;
    let sim = v.sim;
    let link = v.link;
    let n_opts = (1..=9)
        .map(|n| {
            el!(
                "option",
                "value" = n.to_string(),
                "selected" = ui.forms.reset_n == n.to_string()
            )
            .c(n.to_string())
            .done()
        })
        .collect::<Html>();
    let set_n = h::field(link, Field::ResetN);
    let set_seed = h::field(link, Field::ResetSeed);
    let reset = send(link, Msg::Reset);
    // Typed into the form first, applied on change.
    let learner_typing = h::field(link, Field::LearnerReady);
    let learner_ready = link.callback(|e: Event| {
        let s: web_sys::HtmlInputElement = e.target_unchecked_into();
        Msg::SetLearnerReady(s.value().trim().to_string())
    });
    let theme = send(link, Msg::Theme);
    let help = send(link, Msg::Help(Some(true)));
    let theme_label = match ui.theme {
        Theme::Auto => tr!(l, "ui.tb.theme_system"),
        Theme::Light => tr!(l, "ui.tb.theme_light"),
        Theme::Dark => tr!(l, "ui.tb.theme_dark"),
    };
    let o = &sim.opts;
    h::frag()
        .c(el!("details", "class" = "group options")
            .on_focusout(fold_when_left())
            .c(
                el!("summary", "aria-label" = text!(l, "ui.tb.options_aria"))
                    .c(text!(l, "ui.tb.options")),
            )
            .c(el!("div", "class" = "switches")
                .c(el!("div", "class" = "row")
                    .c(el!("label", "class" = "field")
                        .c(text!(l, "ui.tb.nodes"))
                        .c(el!("select", "aria-label" = text!(l, "ui.tb.nodes_aria"))
                            .on_change(set_n)
                            .c(n_opts)
                            .done()))
                    .c(el!("label", "class" = "field")
                        .c(text!(l, "ui.tb.seed"))
                        .c(el!(
                            "input",
                            "class" = "num seed",
                            "type" = "number",
                            "min" = "0",
                            "aria-label" = text!(l, "ui.tb.seed_aria"),
                        )
                        .on_input(set_seed)
                        .value(ui.forms.reset_seed.clone())
                        .done()))
                    .c(el!(
                        "button",
                        "class" = "dice",
                        "aria-label" = text!(l, "ui.tb.random_seed_aria"),
                        "title" = text!(l, "ui.tb.random_seed_tip"),
                    )
                    .on_click(send(link, Msg::RandomSeed))
                    .c("\u{2684}"))
                    .c(el!(
                        "button",
                        "aria-label" = text!(l, "ui.tb.reset_aria"),
                        "title" = text!(l, "ui.tb.reset_tip"),
                    )
                    .on_click(reset)
                    .c(text!(l, "ui.tb.reset"))))
                .c(etcd_fields(v))
                .c(switch(
                    v,
                    "prevote",
                    tr!(l, "ui.tb.prevote"),
                    o.prevote,
                    "pre-vote",
                ))
                .c(switch(
                    v,
                    "checkquorum",
                    tr!(l, "ui.tb.checkquorum"),
                    o.checkquorum,
                    "check-quorum",
                ))
                .c(switch(
                    v,
                    "strict-reconfig",
                    tr!(l, "ui.tb.strict"),
                    o.strict_reconfig,
                    "strict reconfig",
                ))
                .c(switch(
                    v,
                    "unsafe-commit",
                    tr!(l, "ui.tb.unsafe"),
                    o.unsafe_commit,
                    "unsafe commit",
                ))
                .c(el!(
                    "label",
                    "class" = "field",
                    "title" = tip(l, "learner-ready")
                )
                .c(text!(l, "ui.tb.learner_ready"))
                .c(el!(
                    "input",
                    "class" = "num",
                    "type" = "number",
                    "min" = "0",
                    "max" = "100",
                    "aria-label" = text!(l, "ui.tb.learner_ready_aria"),
                )
                .on_input(learner_typing)
                .on_change(learner_ready)
                .value(
                    ui.forms
                        .learner_ready
                        .clone()
                        .unwrap_or_else(|| o.learner_ready.to_string()),
                )
                .done())
                .c("%"))))
        .c(el!("div", "class" = "group end")
            .c(event_log::badge(v))
            .c(
                el!("button", "aria-label" = theme_label, "title" = theme_label)
                    .on_click(theme)
                    .c("◐"),
            )
            .c(super::lang_pref::switch(v))
            .c(el!(
                "button",
                "aria-label" = text!(l, "ui.tb.help_aria"),
                "title" = text!(l, "ui.tb.help_tip"),
                "data-help-open" = "",
            )
            .on_click(help)
            .c("?")))
        .done()
}

/// The cluster options fold when Tab takes focus out of them: unfolded, they lie over the
/// page, and the control focused next (the timeline's step buttons) would be under them. A
/// click on the options' own blank space (focus to no element) leaves them open.
fn fold_when_left() -> Callback<FocusEvent> {
    Callback::from(|e: FocusEvent| {
        // The element that lost focus, not `current_target` (yew listens at the app's root).
        let Some(details) = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("details").ok().flatten())
        else {
            return;
        };
        let Some(to) = e
            .related_target()
            .and_then(|t| t.dyn_into::<web_sys::Node>().ok())
        else {
            return;
        };
        if !details.contains(Some(&to)) {
            let _ = details.remove_attribute("open");
        }
    })
}
