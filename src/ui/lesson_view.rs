//! What a student sees of a lesson: the dock with the narration, "step k of n", back /
//! replay / continue and the lesson speed; the start card and the end card with a recap and
//! "next lesson"; the welcome card and the lesson list grouped by topic.

use crate::el;
use crate::text;
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
            el!(
                "button",
                "class" = classes!("seg", on.then_some("on")),
                "aria-pressed" = on.to_string(),
                "aria-label" = tr!(
                    lang,
                    "ui.ls.speed_aria",
                    label = speed_label(s),
                    s = crate::sim::decimal::shortest(s)
                ),
            )
            .on_click(send(v.link, Msg::LessonSpeed(s)))
            .c(speed_label(s))
            .done()
        })
        .collect::<Html>();
    el!(
        "span",
        "class" = "lesson-speed",
        "role" = "group",
        "aria-label" = text!(lang, "ui.ls.speed_group"),
    )
    .c(buttons)
    .done()
}

fn end_card(v: &View, l: &Lesson) -> Html {
    let link = v.link;
    let lang = v.ui.lang;
    let failures = l.player.failures().len();
    let next = l.next_preset();
    let again = l.preset.map(|p| p.id);
    // A pasted or opened scenario is not a lesson: its card says so, and a card with failed
    // checks is not drawn as a success.
    let lesson = l.preset.is_some();
    el!(
        "div",
        "class" = classes!("end-card", (failures > 0).then_some("failed")),
        "data-lesson-end" = "",
        // Focus comes here when the last Continue, which the card replaces, had it.
        "tabindex" = "-1",
    )
    .c(el!("h3").c(if lesson {
        text!(lang, "ui.ls.complete")
    } else {
        text!(lang, "ui.ls.complete_scenario")
    }))
    .c(if !l.recap(lang).is_empty() {
        el!("p", "class" = "recap")
            .c(el!("strong").c(text!(lang, "ui.ls.remember")))
            .c(l.recap(lang).to_string())
            .done()
    } else {
        Html::default()
    })
    .c(if failures > 0 {
        el!("p", "class" = "error")
            .c(if lesson {
                tr!(lang, "ui.ls.checks_failed", n = failures)
            } else {
                tr!(lang, "ui.ls.checks_failed_scenario", n = failures)
            })
            .done()
    } else {
        Html::default()
    })
    .c(el!("div", "class" = "row wrap")
        .c(if let Some(n) = next {
            el!(
                "button",
                "class" = "primary",
                "title" = text!(lang, "ui.ls.next_aria")
            )
            .on_click(send(link, Msg::StartLesson(n.id)))
            .c(tr!(lang, "ui.ls.next", title = n.title_in(lang)))
            .done()
        } else {
            Html::default()
        })
        .c(if let Some(id) = again {
            el!("button", "aria-label" = text!(lang, "ui.ls.again_aria"))
                .on_click(send(link, Msg::StartLesson(id)))
                .c(text!(lang, "ui.ls.again"))
                .done()
        } else {
            Html::default()
        })
        .c(el!(
            "button",
            "aria-label" = text!(lang, "ui.ls.free_aria"),
            "title" = text!(lang, "ui.ls.free_tip"),
        )
        .on_click(send(link, Msg::PlayerClose))
        .c(text!(lang, "ui.ls.free"))))
    .done()
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
        Some((line, text)) => el!(
            "div",
            "class" = classes!("narration", playing.then_some("stale")),
            "role" = "note",
            "aria-live" = "polite",
            "data-narration" = line.to_string(),
            "data-lineno" = lineno(*line).to_string(),
        )
        .c(el!("p").c(l
            .player
            .script
            .lines
            .get(*line)
            .and_then(|x| x.narration(lang))
            .unwrap_or(text)
            .to_string()))
        .done(),
        None if !done => el!("div", "class" = "narration intro", "data-lesson-start" = "")
            .c(el!("p").c(l.preset.map_or("", |p| p.description_in(lang)).to_string()))
            .c(el!("p", "class" = "hint").c(text!(lang, "ui.ls.press_start")))
            .done(),
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
    el!(
        "section",
        "class" = classes!(
            "lesson-dock",
            playing.then_some("playing"),
            done.then_some("done")
        ),
        "aria-label" = text!(lang, "ui.ls.aria"),
        "data-lesson-step" = k.to_string(),
        "data-lesson-steps" = steps.to_string(),
        "data-lesson-playing" = playing.to_string(),
    )
    .c(el!("div", "class" = "lesson-head")
        .c(el!("span", "class" = "lesson-title", "title" = title.clone()).c(title))
        .c(
            el!("span", "class" = "lesson-progress", "data-step-text" = "").c(
                if done && steps == 0 {
                    tr!(lang, "ui.ls.end_only").to_string()
                } else if done {
                    tr!(lang, "ui.ls.end", steps = steps)
                } else {
                    tr!(lang, "ui.ls.step", k = k, steps = steps)
                },
            ),
        ))
    .c(el!(
        "div",
        "class" = "lesson-bar",
        "role" = "group",
        "aria-label" = text!(lang, "ui.ls.steps_aria"),
    )
    .c(el!(
        "button",
        "disabled" = k == 0 || playing,
        "aria-label" = text!(lang, "ui.ls.back_aria"),
        "title" = text!(lang, "ui.ls.back_tip"),
    )
    .on_click(send(link, Msg::LessonBack))
    .c("◀"))
    .c(el!(
        "button",
        "disabled" = k == 0 || playing,
        "aria-label" = text!(lang, "ui.ls.replay_aria"),
        "title" = text!(lang, "ui.ls.replay_tip"),
    )
    .on_click(send(link, Msg::LessonReplay))
    .c("⟲"))
    .c(if !done {
        el!(
            "button",
            "class" = "primary go",
            "aria-label" = go_aria,
            "data-go" = "",
            "title" = format!("{}{}", tr!(lang, "ui.ls.go_tip"), keys::hint(lang, "l")),
        )
        .on_click(send(link, Msg::LessonPlay(!playing)))
        .c(go_label)
        .done()
    } else {
        Html::default()
    })
    .c(speeds(v, l))
    .c(if playing {
        el!("span", "class" = "lesson-clock")
            .c(secs(v.sim.now))
            .done()
    } else {
        Html::default()
    }))
    .c(narration)
    .c(if done {
        end_card(v, l)
    } else {
        Html::default()
    })
    .done()
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
                    el!("li")
                        .c(el!(
                            "button",
                            "class" = "link-btn lesson-link",
                            "title" = p.description_in(lang),
                            "data-lesson" = id,
                        )
                        .on_click(send(v.link, Msg::StartLesson(id)))
                        .c(el!("span", "class" = "lesson-no").c(n.to_string()))
                        .c(" ")
                        .c(p.title_in(lang)))
                        .done()
                })
                .collect::<Html>();
            el!("div", "class" = "lesson-group")
                .c(el!("h3").c(presets::group_name(g, lang)))
                .c(el!("ul").c(items))
                .done()
        })
        .collect::<Html>();
    el!("div", "class" = "lesson-list", "data-lesson-list" = "")
        .c(groups)
        .done()
}

/// The first thing a visitor sees beside the playground: start lesson 1, or pick a lesson.
pub fn welcome(v: &View) -> Html {
    let first = PRESETS[0];
    let link = v.link;
    let lang = v.ui.lang;
    el!(
        "section",
        "class" = "welcome panel",
        "aria-label" = text!(lang, "ui.ls.welcome_aria"),
        "data-welcome" = "",
    )
    .c(el!("div", "class" = "row spread")
        .c(el!("h2").c(text!(lang, "ui.ls.welcome")))
        .c(el!(
            "button",
            "class" = "link-btn",
            "aria-label" = text!(lang, "ui.ls.welcome_close")
        )
        .on_click(send(link, Msg::Welcome(false)))
        .c("✕")))
    .c(el!("p")
        .c(el!("span", "class" = "wide-only").c(text!(lang, "ui.ls.welcome_left")))
        .c(el!("span", "class" = "narrow-only").c(text!(lang, "ui.ls.welcome_above"))))
    .c(el!("button", "class" = "primary big")
        .on_click(send(link, Msg::StartLesson(first.id)))
        .c(tr!(lang, "ui.ls.start_first", title = first.title_in(lang))))
    .c(el!("details", "class" = "lessons")
        .c(el!("summary").c(text!(lang, "ui.ls.all")))
        .c(lesson_list(v)))
    .done()
}

/// Presenter mode without a lesson: play / pause and the pace, nothing else.
pub fn presenter_controls(v: &View) -> Html {
    let link = v.link;
    let lang = v.ui.lang;
    let running = v.running();
    let teach = v.ui.pace == Pace::Teach;
    el!(
        "section",
        "class" = "lesson-dock",
        "aria-label" = text!(lang, "ui.ls.playback")
    )
    .c(el!("div", "class" = "lesson-bar")
        .c(el!(
            "button",
            "class" = "primary go",
            "aria-label" = if running {
                tr!(lang, "ui.tb.pause_aria")
            } else {
                tr!(lang, "ui.tb.play_aria")
            },
        )
        .on_click(send(link, Msg::TogglePlay))
        .c(if running {
            tr!(lang, "ui.tb.pause")
        } else {
            tr!(lang, "ui.tb.play")
        }))
        .c(el!("button")
            .on_click(send(
                link,
                Msg::Pace(if teach { Pace::Fixed(5.0) } else { Pace::Teach }),
            ))
            .c(if teach {
                tr!(lang, "ui.ls.fast")
            } else {
                tr!(lang, "ui.ls.teach")
            }))
        .c(el!("span", "class" = "lesson-clock").c(secs(v.sim.now))))
    .c(el!("p", "class" = "hint").c(text!(lang, "ui.ls.presenter_hint")))
    .done()
}
