//! What a student sees of a lesson: the dock with the narration, "step k of n", back /
//! replay / continue and the lesson speed; the start card and the end card with a recap and
//! "next lesson"; the welcome card and the lesson list grouped by topic.

use yew::prelude::*;

use crate::sim::presets::{self, GROUPS, PRESETS};
use crate::tr;

use super::app::{Msg, View};
use super::h::send;
use super::keys;
use super::lesson::{Lesson, LESSON_SPEEDS};
use super::pace::Pace;
use super::style::secs;

fn speed_label(s: f64) -> String {
    if s == 0.5 {
        "½×".to_string()
    } else {
        format!("{}×", crate::sim::decimal::shortest(s))
    }
}

/// The lesson speed buttons.
fn speeds(v: &View, l: &Lesson) -> Html {
    let lang = v.ui.lang;
    let buttons = LESSON_SPEEDS
        .iter()
        .map(|s| {
            let s = *s;
            let on = (l.speed - s).abs() < 1e-9;
            html! {
                <button class={classes!("seg", on.then_some("on"))} aria-pressed={on.to_string()}
                    aria-label={tr!(lang, "ui.ls.speed_aria", label = speed_label(s), s = crate::sim::decimal::shortest(s))}
                    onclick={send(v.link, Msg::LessonSpeed(s))}>{ speed_label(s) }</button>
            }
        })
        .collect::<Html>();
    html! { <span class="lesson-speed" role="group" aria-label={tr!(lang, "ui.ls.speed_group")}>{ buttons }</span> }
}

fn end_card(v: &View, l: &Lesson) -> Html {
    let link = v.link;
    let lang = v.ui.lang;
    let failures = l.player.failures().len();
    let next = l.next_preset();
    let again = l.preset.map(|p| p.id);
    html! {
        <div class="end-card" data-lesson-end="">
            <h3>{ tr!(lang, "ui.ls.complete") }</h3>
            if !l.recap(lang).is_empty() {
                <p class="recap"><strong>{ tr!(lang, "ui.ls.remember") }</strong>{ l.recap(lang) }</p>
            }
            if failures > 0 {
                <p class="error">{ tr!(lang, "ui.ls.checks_failed", n = failures) }</p>
            }
            <div class="row wrap">
                if let Some(n) = next {
                    <button class="primary" title={tr!(lang, "ui.ls.next_aria")} onclick={send(link, Msg::StartLesson(n.id))}>
                        { tr!(lang, "ui.ls.next", title = n.title_in(lang)) }
                    </button>
                }
                if let Some(id) = again {
                    <button aria-label={tr!(lang, "ui.ls.again_aria")} onclick={send(link, Msg::StartLesson(id))}>{ tr!(lang, "ui.ls.again") }</button>
                }
                <button aria-label={tr!(lang, "ui.ls.free_aria")} onclick={send(link, Msg::PlayerClose)}
                    title={tr!(lang, "ui.ls.free_tip")}>{ tr!(lang, "ui.ls.free") }</button>
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
    let lang = v.ui.lang;
    let steps = l.steps();
    let k = l.step();
    let done = l.done();
    let playing = l.playing;
    let lineno = |line: usize| l.player.script.lines.get(line).map_or(0, |x| x.lineno);
    let narration = match &l.narration {
        Some((line, text)) => html! {
            <div class={classes!("narration", playing.then_some("stale"))} role="note" aria-live="polite"
                data-narration={line.to_string()} data-lineno={lineno(*line).to_string()}>
                <p>{ l.player.script.lines.get(*line).and_then(|x| x.narration(lang)).unwrap_or(text).to_string() }</p>
            </div>
        },
        None if !done => html! {
            <div class="narration intro" data-lesson-start="">
                <p>{ l.preset.map_or("", |p| p.description_in(lang)).to_string() }</p>
                <p class="hint">{ tr!(lang, "ui.ls.press_start") }</p>
            </div>
        },
        None => html! {},
    };
    let start = l.at_start() && l.narration.is_none();
    let go_label = if playing {
        tr!(lang, "ui.ls.pause")
    } else if start {
        tr!(lang, "ui.ls.start")
    } else {
        tr!(lang, "ui.ls.continue")
    };
    let go_aria = if playing {
        tr!(lang, "ui.ls.pause_aria")
    } else if start {
        tr!(lang, "ui.ls.start_aria")
    } else {
        tr!(lang, "ui.ls.continue_aria")
    };
    let title = l
        .preset
        .map_or_else(|| l.name.clone(), |p| p.title_in(lang).to_string());
    html! {
        <section class={classes!("lesson-dock", playing.then_some("playing"), done.then_some("done"))}
            aria-label={tr!(lang, "ui.ls.aria")} data-lesson-step={k.to_string()} data-lesson-steps={steps.to_string()}
            data-lesson-playing={playing.to_string()}>
            <div class="lesson-head">
                // On a phone the title is cut to one line; the whole of it is in the tooltip.
                <span class="lesson-title" title={title.clone()}>{ title }</span>
                <span class="lesson-progress" data-step-text="">
                    { if done { tr!(lang, "ui.ls.end", steps = steps) } else { tr!(lang, "ui.ls.step", k = k, steps = steps) } }
                </span>
            </div>
            <div class="lesson-bar" role="group" aria-label={tr!(lang, "ui.ls.steps_aria")}>
                <button onclick={send(link, Msg::LessonBack)} disabled={k == 0 || playing}
                    aria-label={tr!(lang, "ui.ls.back_aria")} title={tr!(lang, "ui.ls.back_tip")}>{ "◀" }</button>
                <button onclick={send(link, Msg::LessonReplay)} disabled={k == 0 || playing}
                    aria-label={tr!(lang, "ui.ls.replay_aria")} title={tr!(lang, "ui.ls.replay_tip")}>{ "⟲" }</button>
                if !done {
                    <button class="primary go" onclick={send(link, Msg::LessonPlay(!playing))}
                        aria-label={go_aria} data-go="" title={format!("{}{}", tr!(lang, "ui.ls.go_tip"), keys::hint(lang, "l"))}>{ go_label }</button>
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
    let lang = v.ui.lang;
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
                            <button class="link-btn lesson-link" title={p.description_in(lang)}
                                data-lesson={id} onclick={send(v.link, Msg::StartLesson(id))}>
                                <span class="lesson-no">{ n.to_string() }</span>{ " " }{ p.title_in(lang) }
                            </button>
                        </li>
                    }
                })
                .collect::<Html>();
            html! {
                <div class="lesson-group">
                    <h3>{ presets::group_name(g, lang) }</h3>
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
    let lang = v.ui.lang;
    html! {
        <section class="welcome panel" aria-label={tr!(lang, "ui.ls.welcome_aria")} data-welcome="">
            <div class="row spread">
                <h2>{ tr!(lang, "ui.ls.welcome") }</h2>
                <button class="link-btn" onclick={send(link, Msg::Welcome(false))}
                    aria-label={tr!(lang, "ui.ls.welcome_close")}>{ "✕" }</button>
            </div>
            <p>
                <span class="wide-only">{ tr!(lang, "ui.ls.welcome_left") }</span>
                <span class="narrow-only">{ tr!(lang, "ui.ls.welcome_above") }</span>
            </p>
            <button class="primary big" onclick={send(link, Msg::StartLesson(first.id))}>
                { tr!(lang, "ui.ls.start_first", title = first.title_in(lang)) }
            </button>
            <details class="lessons">
                <summary>{ tr!(lang, "ui.ls.all") }</summary>
                { lesson_list(v) }
            </details>
        </section>
    }
}

/// Presenter mode without a lesson: play / pause and the pace, nothing else.
pub fn presenter_controls(v: &View) -> Html {
    let link = v.link;
    let lang = v.ui.lang;
    let running = v.running();
    let teach = v.ui.pace == Pace::Teach;
    html! {
        <section class="lesson-dock" aria-label={tr!(lang, "ui.ls.playback")}>
            <div class="lesson-bar">
                <button class="primary go" aria-label={if running { tr!(lang, "ui.tb.pause_aria") } else { tr!(lang, "ui.tb.play_aria") }}
                    onclick={send(link, Msg::TogglePlay)}>{ if running { tr!(lang, "ui.tb.pause") } else { tr!(lang, "ui.tb.play") } }</button>
                <button onclick={send(link, Msg::Pace(if teach { Pace::Fixed(5.0) } else { Pace::Teach }))}>
                    { if teach { tr!(lang, "ui.ls.fast") } else { tr!(lang, "ui.ls.teach") } }
                </button>
                <span class="lesson-clock">{ secs(v.sim.now) }</span>
            </div>
            <p class="hint">{ tr!(lang, "ui.ls.presenter_hint") }</p>
        </section>
    }
}
