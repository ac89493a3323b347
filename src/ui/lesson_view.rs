//! What a student sees of a lesson: the dock with the narration, "step k of n", back /
//! replay / continue and the lesson speed; the start card and the end card with a recap and
//! "next lesson"; the welcome card and the lesson list grouped by topic.

use yew::prelude::*;

use crate::sim::presets::{GROUPS, PRESETS};

use super::app::{Msg, View};
use super::keys;
use super::lesson::{Lesson, LESSON_SPEEDS};
use super::pace::Pace;
use super::style::secs;

fn speed_label(s: f64) -> String {
    if s == 0.5 {
        "½×".to_string()
    } else {
        format!("{s}×")
    }
}

/// The lesson speed buttons.
fn speeds(v: &View, l: &Lesson) -> Html {
    let buttons = LESSON_SPEEDS
        .iter()
        .map(|s| {
            let s = *s;
            let on = (l.speed - s).abs() < 1e-9;
            html! {
                <button class={classes!("seg", on.then_some("on"))} aria-pressed={on.to_string()}
                    aria-label={format!("{} (lesson speed {s} times the teaching pace)", speed_label(s))}
                    onclick={v.link.callback(move |_| Msg::LessonSpeed(s))}>{ speed_label(s) }</button>
            }
        })
        .collect::<Html>();
    html! { <span class="lesson-speed" role="group" aria-label="lesson speed">{ buttons }</span> }
}

fn end_card(v: &View, l: &Lesson) -> Html {
    let link = v.link;
    let failures = l.player.failures().len();
    let next = l.next_preset();
    let again = l.preset.map(|p| p.id);
    html! {
        <div class="end-card" data-lesson-end="">
            <h3>{ "Lesson complete" }</h3>
            if !l.recap().is_empty() {
                <p class="recap"><strong>{ "Remember: " }</strong>{ l.recap() }</p>
            }
            if failures > 0 {
                <p class="error">{ format!("{failures} of the lesson's checks failed — see the script.") }</p>
            }
            <div class="row wrap">
                if let Some(n) = next {
                    <button class="primary" title="next lesson" onclick={link.callback(move |_| Msg::StartLesson(n.id))}>
                        { format!("Next: {} ▶", n.title()) }
                    </button>
                }
                if let Some(id) = again {
                    <button aria-label="play the lesson again" onclick={link.callback(move |_| Msg::StartLesson(id))}>{ "⟲ again" }</button>
                }
                <button aria-label="keep playing freely" onclick={link.callback(|_| Msg::PlayerClose)}
                    title="leave the lesson and keep playing with this cluster">{ "keep playing freely" }</button>
            </div>
        </div>
    }
}

/// The lesson dock: narration, progress and step controls.
pub fn dock(v: &View) -> Html {
    let Some(l) = v.scenario else {
        return html! {};
    };
    let link = v.link;
    let steps = l.steps();
    let k = l.step();
    let done = l.done();
    let playing = l.playing;
    let lineno = |line: usize| l.player.script.lines.get(line).map_or(0, |x| x.lineno);
    let narration = match &l.narration {
        Some((line, text)) => html! {
            <div class={classes!("narration", playing.then_some("stale"))} role="note" aria-live="polite"
                data-narration={line.to_string()} data-lineno={lineno(*line).to_string()}>
                <p>{ text.clone() }</p>
            </div>
        },
        None if !done => html! {
            <div class="narration intro" data-lesson-start="">
                <p>{ l.preset.map_or("", |p| p.description()).to_string() }</p>
                <p class="hint">{ "Press Start: the cluster plays slowly and pauses at each explanation." }</p>
            </div>
        },
        None => html! {},
    };
    let start = l.at_start() && l.narration.is_none();
    let go_label = if playing {
        "❚❚ Pause"
    } else if start {
        "Start ▶"
    } else {
        "Continue ▶"
    };
    let go_aria = if playing {
        "pause the lesson"
    } else if start {
        "start the lesson"
    } else {
        "continue the scenario"
    };
    html! {
        <section class={classes!("lesson-dock", playing.then_some("playing"), done.then_some("done"))}
            aria-label="lesson" data-lesson-step={k.to_string()} data-lesson-steps={steps.to_string()}
            data-lesson-playing={playing.to_string()}>
            <div class="lesson-head">
                <span class="lesson-title">{ l.name.clone() }</span>
                <span class="lesson-progress" data-step-text="">
                    { if done { format!("{steps} of {steps} · end") } else { format!("step {k} of {steps}") } }
                </span>
            </div>
            <div class="lesson-bar" role="group" aria-label="lesson steps">
                <button onclick={link.callback(|_| Msg::LessonBack)} disabled={k == 0 || playing}
                    aria-label="back to the previous step" title="back to the previous explanation">{ "◀" }</button>
                <button onclick={link.callback(|_| Msg::LessonReplay)} disabled={k == 0 || playing}
                    aria-label="replay this step" title="play the last step again">{ "⟲" }</button>
                if !done {
                    <button class="primary go" onclick={link.callback(move |_| Msg::LessonPlay(!playing))}
                        aria-label={go_aria} title={format!("play to the next explanation{}", keys::hint("l"))}>{ go_label }</button>
                }
                { speeds(v, l) }
                if playing {
                    <span class="lesson-clock">{ secs(v.sim.now) }</span>
                }
            </div>
            { narration }
            if done { { end_card(v, l) } }
        </section>
    }
}

/// The lessons, grouped by topic; each button opens one.
pub fn lesson_list(v: &View) -> Html {
    let groups = GROUPS
        .iter()
        .map(|g| {
            let items = PRESETS
                .iter()
                .filter(|p| p.group() == *g)
                .map(|p| {
                    let id = p.id;
                    let n = id.split('-').next().unwrap_or("");
                    html! {
                        <li>
                            <button class="link-btn lesson-link" title={p.description()}
                                data-lesson={id} onclick={v.link.callback(move |_| Msg::StartLesson(id))}>
                                <span class="lesson-no">{ n.to_string() }</span>{ " " }{ p.title() }
                            </button>
                        </li>
                    }
                })
                .collect::<Html>();
            html! {
                <div class="lesson-group">
                    <h3>{ *g }</h3>
                    <ul>{ items }</ul>
                </div>
            }
        })
        .collect::<Html>();
    html! { <div class="lesson-list" data-lesson-list="">{ groups }</div> }
}

/// The first thing a visitor sees beside the playground: start lesson 1, or pick a lesson.
pub fn welcome(v: &View) -> Html {
    let first = PRESETS[0];
    let link = v.link;
    html! {
        <section class="welcome panel" aria-label="welcome" data-welcome="">
            <div class="row spread">
                <h2>{ "Learn Raft by watching it" }</h2>
                <button class="link-btn" onclick={link.callback(|_| Msg::Welcome(false))}
                    aria-label="close the welcome card">{ "✕" }</button>
            </div>
            <p>
                { "The cluster " }
                <span class="wide-only">{ "on the left" }</span>
                <span class="narrow-only">{ "above" }</span>
                { " is live: click a node to crash it, cut links, write values. Or follow a lesson that explains each step." }
            </p>
            <button class="primary big" onclick={link.callback(move |_| Msg::StartLesson(first.id))}>
                { format!("Start lesson 1: {} ▶", first.title()) }
            </button>
            <details class="lessons">
                <summary>{ "All lessons" }</summary>
                { lesson_list(v) }
            </details>
        </section>
    }
}

/// Presenter mode without a lesson: play / pause and the pace, nothing else.
pub fn presenter_controls(v: &View) -> Html {
    let link = v.link;
    let running = v.running();
    let teach = v.ui.pace == Pace::Teach;
    html! {
        <section class="lesson-dock" aria-label="playback">
            <div class="lesson-bar">
                <button class="primary go" aria-label={if running { "pause" } else { "play" }}
                    onclick={link.callback(|_| Msg::TogglePlay)}>{ if running { "❚❚ Pause" } else { "▶ Play" } }</button>
                <button onclick={link.callback(move |_| Msg::Pace(if teach { Pace::Fixed(5.0) } else { Pace::Teach }))}>
                    { if teach { "▶▶ fast" } else { "teaching pace" } }
                </button>
                <span class="lesson-clock">{ secs(v.sim.now) }</span>
            </div>
            <p class="hint">{ "p or Esc: leave presenter mode" }</p>
        </section>
    }
}
