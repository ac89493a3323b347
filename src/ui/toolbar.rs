//! The toolbar: play / pause, the pace (teaching pace by default, fast one click away), the
//! clock, and folded under "cluster": reset with N nodes and a seed and the protocol switches
//! (recorded as `set` actions); the invariants badge, theme and help.

use yew::prelude::*;
use yew::TargetCast;

use super::app::{Msg, Theme, View};
use super::event_log;
use super::forms::Field;
use super::glossary::tip;
use super::pace::{Pace, FIXED};
use super::style::secs;

fn speed_label(s: f64) -> String {
    if s < 1.0 {
        format!("{s}× slow")
    } else {
        format!("{s}×")
    }
}

/// "Teaching pace" and the fixed speeds.
fn pace_options(current: Pace) -> Html {
    let teach = html! {
        <option value="teach" selected={current == Pace::Teach}
            title="slow motion while the protocol acts, faster while only heartbeats fly">{ "teaching pace" }</option>
    };
    let fixed = FIXED
        .iter()
        .map(|s| {
            let on = matches!(current, Pace::Fixed(c) if (c - *s).abs() < 1e-9);
            html! { <option value={s.to_string()} selected={on}>{ speed_label(*s) }</option> }
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
        <label class="switch" title={tip(concept).to_string()}>
            <input type="checkbox" checked={on} {onchange} aria-label={label} data-option={name} />
            { label }
        </label>
    }
}

/// The etcd release select and the request timeout, both applied as `set` actions: a release
/// brings its own defaults (etcd 3.4 turns pre-vote off), so the switches below follow it.
fn etcd_fields(v: &View) -> Html {
    let o = &v.sim.opts;
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
    if !waits.contains(&o.request_timeout) {
        waits.push(o.request_timeout);
        waits.sort_unstable();
    }
    let waits = waits
        .into_iter()
        .map(|ms| html! { <option value={ms.to_string()} selected={o.request_timeout == ms}>{ secs(ms) }</option> })
        .collect::<Html>();
    html! {
        <div class="row">
            <label class="field" title="the etcd release followed: 3.4 has pre-vote off by default; see docs/etcd-versions.md">
                { "etcd " }
                <select onchange={pick("etcd")} aria-label="etcd release" data-option="etcd">{ releases }</select>
            </label>
            <label class="field" title="how long a client waits before etcdctl's 'context deadline exceeded' (--command-timeout)">
                { "request timeout " }
                <select onchange={pick("request-timeout")} aria-label="request timeout" data-option="request-timeout">{ waits }</select>
            </label>
        </div>
    }
}

/// The toolbar.
pub fn render(v: &View) -> Html {
    let ui = v.ui;
    let sim = v.sim;
    let link = v.link;
    let play = link.callback(|_| Msg::TogglePlay);
    let speed = link.callback(|e: Event| {
        let s: web_sys::HtmlSelectElement = e.target_unchecked_into();
        match Pace::parse(&s.value()) {
            Some(p) => Msg::Pace(p),
            None => Msg::None,
        }
    });
    let options = pace_options(ui.pace);
    let teach = ui.pace == Pace::Teach;
    let fast =
        link.callback(move |_| Msg::Pace(if teach { Pace::Fixed(5.0) } else { Pace::Teach }));
    let running = v.running();
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
    let reset = link.callback(|_| Msg::Reset);
    // Typed into the form first (the page re-renders every frame), applied on change.
    let learner_typing = link.callback(|e: InputEvent| {
        let s: web_sys::HtmlInputElement = e.target_unchecked_into();
        Msg::Field(Field::LearnerReady, s.value())
    });
    let learner_ready = link.callback(|e: Event| {
        let s: web_sys::HtmlInputElement = e.target_unchecked_into();
        Msg::SetLearnerReady(s.value().trim().to_string())
    });
    let theme = link.callback(|_| Msg::Theme);
    let help = link.callback(|_| Msg::Help(Some(true)));
    let theme_label = match ui.theme {
        Theme::Auto => "theme: system",
        Theme::Light => "theme: light",
        Theme::Dark => "theme: dark",
    };
    let o = &sim.opts;
    html! {
        <header class="toolbar" role="toolbar" aria-label="run controls">
            <h1 class="brand" title="an interactive Raft consensus lab">{ "raftlab" }</h1>
            <div class="group">
                <button class={classes!("play", running.then_some("on"))} onclick={play}
                    aria-label={if running { "pause" } else { "play" }} data-playing={running.to_string()}
                    title="play / pause (space); during a lesson it plays the lesson">
                    { if running { "❚❚ Pause" } else { "▶ Play" } }
                </button>
                <label class="field">
                    <span class="wide-only">{ "speed " }</span>
                    <select onchange={speed} aria-label="speed">{ options }</select>
                </label>
                <button class="fast" onclick={fast} aria-label={if teach { "fast pace" } else { "slow, teaching pace" }}
                    title={if teach { "5× real time" } else { "back to the teaching pace" }}>
                    { if teach { "▶▶ fast" } else { "slow" } }
                </button>
                <span class="clock" title="simulated time; a tick is 100 ms">
                    { format!("t = {} · tick {}", secs(sim.now), sim.now / 100) }
                </span>
            </div>
            <details class="group options">
                <summary aria-label="cluster options">{ "⚙ cluster" }</summary>
                <div class="switches">
                    <div class="row">
                        <label class="field">
                            { "nodes " }
                            <select onchange={set_n} aria-label="number of nodes">{ n_opts }</select>
                        </label>
                        <label class="field">
                            { "seed " }
                            <input class="num" type="number" min="0" value={ui.forms.reset_seed.clone()} oninput={set_seed} aria-label="seed" />
                        </label>
                        <button onclick={reset} aria-label="reset the cluster" title="start a new cluster with these nodes and seed">{ "↺ Reset" }</button>
                    </div>
                    { etcd_fields(v) }
                    { switch(v, "prevote", "pre-vote", o.prevote, "pre-vote") }
                    { switch(v, "checkquorum", "check-quorum", o.checkquorum, "check-quorum") }
                    { switch(v, "strict-reconfig", "strict reconfig", o.strict_reconfig, "strict reconfig") }
                    { switch(v, "unsafe-commit", "unsafe commit", o.unsafe_commit, "unsafe commit") }
                    <label class="field" title={tip("learner-ready")}>
                        { "learner-ready " }
                        <input class="num" type="number" min="0" max="100"
                            value={ui.forms.learner_ready.clone().unwrap_or_else(|| o.learner_ready.to_string())}
                            oninput={learner_typing} onchange={learner_ready} aria-label="learner-ready threshold percent" />
                        { "%" }
                    </label>
                </div>
            </details>
            <div class="group end">
                { event_log::badge(v) }
                <button onclick={theme} aria-label={theme_label} title={theme_label}>{ "◐" }</button>
                <button onclick={help} aria-label="help and keyboard shortcuts" title="help (?)">{ "?" }</button>
            </div>
        </header>
    }
}
