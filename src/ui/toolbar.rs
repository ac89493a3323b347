//! The toolbar: play / pause, the pace (teaching pace by default, fast one click away), the
//! clock, and folded under "cluster": reset with N nodes and a seed and the protocol switches
//! (recorded as `set` actions); the invariants badge, theme and help.

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
    let teach = html! {
        <option value="teach" selected={current == Pace::Teach}
            title={tr!(l, "ui.tb.teach_tip")}>{ tr!(l, "ui.tb.teach") }</option>
    };
    let fixed = FIXED
        .iter()
        .map(|s| {
            let on = matches!(current, Pace::Fixed(c) if (c - *s).abs() < 1e-9);
            html! { <option value={crate::sim::decimal::shortest(*s)} selected={on}>{ speed_label(l, *s) }</option> }
        })
        .collect::<Html>();
    html! { <>{ teach }{ fixed }</> }
}

fn switch(v: &View, name: &'static str, label: &'static str, on: bool, concept: &str) -> Html {
    let onchange = v.link.callback(move |e: Event| {
        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
        Msg::Set(name, if input.checked() { "on" } else { "off" }.to_string())
    });
    html! {
        <label class="switch" title={tip(v.ui.lang, concept).to_string()}>
            <input type="checkbox" checked={on} {onchange} aria-label={label} data-option={name} />
            { label }
        </label>
    }
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
        .map(|r| html! { <option value={*r} selected={o.etcd.name() == *r}>{ *r }</option> })
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
        .map(|ms| html! { <option value={ms.to_string()} selected={o.request_timeout == ms}>{ secs(ms) }</option> })
        .collect::<Html>();
    html! {
        <div class="row">
            <label class="field" title={tr!(l, "ui.tb.etcd_tip")}>
                { "etcd " }
                <select onchange={pick("etcd")} aria-label={tr!(l, "ui.tb.etcd_aria")} data-option="etcd">{ releases }</select>
            </label>
            <label class="field" title={tr!(l, "ui.tb.timeout_tip")}>
                { tr!(l, "ui.tb.timeout") }
                <select onchange={pick("request-timeout")} aria-label={tr!(l, "ui.tb.timeout_aria")} data-option="request-timeout">{ waits }</select>
            </label>
        </div>
    }
}

/// The toolbar. Its controls are kept between frames (see `memo`): while the clock runs, only
/// the clock's text is built again, unless the run changes what the controls show (a lesson
/// pausing, a scenario's `set`, a violation).
pub fn render(v: &View) -> Html {
    let l = v.ui.lang;
    let sim = v.sim;
    let o = &sim.opts;
    let stamp = memo::stamp(
        v.generation,
        (v.running(), format!("{o:?}"), sim.violations.len()),
    );
    html! {
        <header class="toolbar" role="toolbar" aria-label={tr!(l, "ui.tb.aria")}>
            <h1 class="brand" title={tr!(l, "ui.tb.brand_tip")}>{ "raftlab" }</h1>
            <div class="group">
                { v.memos.panel(Slot::ToolbarPlay, stamp, || play_controls(v)) }
                <span class="clock" title={tr!(l, "ui.tb.clock_tip")}>
                    { tr!(l, "ui.tb.clock", time = secs(sim.now), tick = sim.now / 100) }
                </span>
            </div>
            { v.memos.panel(Slot::ToolbarOptions, stamp, || options_and_end(v)) }
        </header>
    }
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
    html! {
        <>
            <button class={classes!("play", running.then_some("on"))} onclick={play}
                aria-label={if running { tr!(l, "ui.tb.pause_aria") } else { tr!(l, "ui.tb.play_aria") }} data-playing={running.to_string()}
                title={tr!(l, "ui.tb.play_tip")}>
                { if running { tr!(l, "ui.tb.pause") } else { tr!(l, "ui.tb.play") } }
            </button>
            <label class="field">
                <span class="wide-only">{ tr!(l, "ui.tb.speed") }</span>
                <select onchange={speed} aria-label={tr!(l, "ui.tb.speed_aria")}>{ options }</select>
            </label>
            <button class="fast" onclick={fast} aria-label={if teach { tr!(l, "ui.tb.fast_aria") } else { tr!(l, "ui.tb.slow_aria") }}
                title={if teach { tr!(l, "ui.tb.fast_tip") } else { tr!(l, "ui.tb.back_teach_tip") }}>
                { if teach { tr!(l, "ui.tb.fast") } else { tr!(l, "ui.tb.slow_btn") } }
            </button>
        </>
    }
}

/// The folded cluster options, then the invariants badge, theme, language and help.
fn options_and_end(v: &View) -> Html {
    let ui = v.ui;
    let l = ui.lang;
    let sim = v.sim;
    let link = v.link;
    let n_opts = (1..=9)
        .map(|n| {
            html! { <option value={n.to_string()} selected={ui.forms.reset_n == n.to_string()}>{ n.to_string() }</option> }
        })
        .collect::<Html>();
    let set_n = link.callback(|e: Event| {
        let s: web_sys::HtmlSelectElement = e.target_unchecked_into();
        Msg::Field(Field::ResetN, s.value())
    });
    let set_seed = link.callback(|e: InputEvent| {
        let s: web_sys::HtmlInputElement = e.target_unchecked_into();
        Msg::Field(Field::ResetSeed, s.value())
    });
    let reset = send(link, Msg::Reset);
    // Typed into the form first, applied on change.
    let learner_typing = link.callback(|e: InputEvent| {
        let s: web_sys::HtmlInputElement = e.target_unchecked_into();
        Msg::Field(Field::LearnerReady, s.value())
    });
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
    html! {
        <>
            <details class="group options">
                <summary aria-label={tr!(l, "ui.tb.options_aria")}>{ tr!(l, "ui.tb.options") }</summary>
                <div class="switches">
                    <div class="row">
                        <label class="field">
                            { tr!(l, "ui.tb.nodes") }
                            <select onchange={set_n} aria-label={tr!(l, "ui.tb.nodes_aria")}>{ n_opts }</select>
                        </label>
                        <label class="field">
                            { tr!(l, "ui.tb.seed") }
                            <input class="num" type="number" min="0" value={ui.forms.reset_seed.clone()} oninput={set_seed} aria-label={tr!(l, "ui.tb.seed_aria")} />
                        </label>
                        <button onclick={reset} aria-label={tr!(l, "ui.tb.reset_aria")} title={tr!(l, "ui.tb.reset_tip")}>{ tr!(l, "ui.tb.reset") }</button>
                    </div>
                    { etcd_fields(v) }
                    { switch(v, "prevote", tr!(l, "ui.tb.prevote"), o.prevote, "pre-vote") }
                    { switch(v, "checkquorum", tr!(l, "ui.tb.checkquorum"), o.checkquorum, "check-quorum") }
                    { switch(v, "strict-reconfig", tr!(l, "ui.tb.strict"), o.strict_reconfig, "strict reconfig") }
                    { switch(v, "unsafe-commit", tr!(l, "ui.tb.unsafe"), o.unsafe_commit, "unsafe commit") }
                    <label class="field" title={tip(l, "learner-ready")}>
                        { tr!(l, "ui.tb.learner_ready") }
                        <input class="num" type="number" min="0" max="100"
                            value={ui.forms.learner_ready.clone().unwrap_or_else(|| o.learner_ready.to_string())}
                            oninput={learner_typing} onchange={learner_ready} aria-label={tr!(l, "ui.tb.learner_ready_aria")} />
                        { "%" }
                    </label>
                </div>
            </details>
            <div class="group end">
                { event_log::badge(v) }
                <button onclick={theme} aria-label={theme_label} title={theme_label}>{ "◐" }</button>
                { super::lang_pref::switch(v) }
                <button onclick={help} aria-label={tr!(l, "ui.tb.help_aria")} title={tr!(l, "ui.tb.help_tip")}>{ "?" }</button>
            </div>
        </>
    }
}
