//! The page layout. On a laptop or projector (at least 900 × 560) the page is exactly the
//! window: the stage (cluster drawing, quorum line, last action, logs) on the left sized to
//! fit, the lesson dock and the controls on the right, each scrolling inside itself, so the
//! page never scrolls by itself. Presenter mode keeps only the stage, the narration and the
//! step controls. Narrow screens get one column, drawing first, with the lesson in a bar
//! fixed at the bottom. Embeds show the stage and the lesson dock.

use std::hash::{Hash, Hasher};

use super::h;
use crate::el;
use crate::sim::client::Outcome;
use crate::text;
use crate::tr;
use yew::prelude::*;

use super::app::{Msg, Theme, View};
use super::h::send;
use super::keys;
use super::location::full_app_url;
use super::memo::{self, Slot};
use super::{
    action_bar, cluster_view, compare_view, config_view, event_log, help, lesson_view, log_view,
    message_view, progress_view, tabs, timeline_bar, toolbar,
};

fn theme_class(t: Theme) -> &'static str {
    match t {
        Theme::Auto => "theme-auto",
        Theme::Light => "theme-light",
        Theme::Dark => "theme-dark",
    }
}

/// Hidden state for tests and benchmarks. `data-frame-ms` and `data-builds` are only known
/// once a render is done (the frame's work, the list items built by child components after
/// this view), so the app writes them itself after each render (`App::rendered`, through
/// [`super::dom::set_status`]); here they are constant, so yew never writes them. The run's
/// fingerprint is not here: tests ask for it (`super::probe`).
fn status(v: &View) -> Html {
    let sim = v.sim;
    let running = v.running();
    el!(
        "span",
        "class" = "sim-state",
        "hidden" = true,
        "data-now" = sim.now.to_string(),
        "data-processed" = sim.processed.to_string(),
        "data-playing" = running.to_string(),
        "data-head" = v.tl.head_time().to_string(),
        "data-frame-ms" = "0.00",
        "data-builds" = "",
    )
    .done()
}

/// The one polite live region: elections, leaders, step-downs, commits and refusals, batched
/// and rate-limited by the app (`sim::announce`).
fn live(v: &View) -> Html {
    el!(
        "div",
        "class" = "sr-only",
        "role" = "status",
        "aria-live" = "polite",
        "aria-atomic" = "true",
        "data-live" = "",
    )
    .c(v.ui.live.clone())
    .done()
}

/// A shared run's replay while it lasts: how far it got, and a way to stop it.
fn replaying(v: &View) -> Html {
    let Some(r) = v.ui.replaying else {
        return html! {};
    };
    let l = v.ui.lang;
    let secs = |ms: u64| crate::sim::decimal::fixed(ms as f64 / 1000.0, 1);
    // No live role: its figure changes every frame, and a screen reader would read each one.
    el!(
        "div",
        "class" = "notice replaying",
        "data-replaying" = r.done.to_string(),
        "data-comparing" = r.comparing.to_string()
    )
    .c(el!("span").c(if r.comparing {
        tr!(
            l,
            "ui.replay.compare_progress",
            done = secs(r.done),
            bound = secs(r.bound)
        )
    } else {
        tr!(
            l,
            "ui.replay.progress",
            done = secs(r.done),
            bound = secs(r.bound)
        )
    }))
    .c(el!(
        "button",
        "aria-label" = text!(l, "ui.replay.cancel_aria"),
        "data-cancel-replay" = ""
    )
    .on_click(send(v.link, Msg::CancelReplay))
    .c(text!(l, "ui.replay.cancel")))
    .done()
}

fn notice(v: &View) -> Html {
    let Some(n) = &v.ui.notice else {
        return html! {};
    };
    el!(
        "div",
        "class" = "notice",
        "role" = "alert",
        "data-notice" = ""
    )
    .c(el!("span").c(n.render(v.ui.lang)))
    .c(
        el!("button", "aria-label" = text!(v.ui.lang, "ui.page.dismiss"))
            .on_click(send(v.link, Msg::DismissNotice))
            .c("✕"),
    )
    .done()
}

/// The drawing with its overlays (legend, the selected message's card, view toggles).
fn stage_picture(v: &View) -> Html {
    let link = v.link;
    let l = v.ui.lang;
    el!("div", "class" = "cluster-wrap")
        .c(cluster_view::render(v))
        .c(cluster_view::legend(v))
        .c(el!("div", "class" = "view-toggles").c(if !v.ui.embed {
            el!(
                "button",
                "class" = "icon",
                "aria-label" = if v.ui.presenter {
                    tr!(l, "ui.page.leave_presenter")
                } else {
                    tr!(l, "ui.page.presenter")
                },
                "aria-pressed" = v.ui.presenter.to_string(),
                "title" = format!("{}{}", tr!(l, "ui.page.presenter_tip"), keys::hint(l, "p")),
            )
            .on_click(send(link, Msg::Presenter(None)))
            .c(if v.ui.presenter { "⤡" } else { "⤢" })
            .done()
        } else {
            Html::default()
        }))
        .c(message_view::detail(v))
        .done()
}

fn stage(v: &View) -> Html {
    if let Some(c) = v.compare {
        // Compare mode: both runs follow the script, so no actions and no single log.
        return el!(
            "section",
            "class" = "stage compare-stage",
            "aria-label" = text!(v.ui.lang, "ui.cmp.stage_aria"),
        )
        .c(compare_view::render(v, c))
        .done();
    }
    el!(
        "section",
        "class" = "stage",
        "aria-label" = text!(v.ui.lang, "ui.page.stage_aria")
    )
    .c(stage_picture(v))
    .c(config_view::render(v))
    .c(if !v.ui.presenter && !v.ui.embed {
        action_bar::render(v)
    } else {
        action_bar::request_only(v)
    })
    .c(log_view::render(v))
    .done()
}

/// What the tabs show that can change while the clock runs. The node chooser (the Node tab
/// with no node selected) shows nothing else than the node names; the Client tab shows the
/// node names (its "via" lists) and the newest requests (`client_panel::RECENT`), each worded
/// from the request alone. Every other panel is built again on each frame, as it reads more
/// of the run.
fn tabs_stamp(v: &View) -> u64 {
    let tab = v.ui.tab;
    let chooser = tab == super::app::Tab::Node
        && v.ui
            .selected_node
            .is_none_or(|id| !v.sim.nodes.contains_key(&id));
    if chooser {
        memo::stamp(v.generation, NodeIds(v.sim))
    } else if tab == super::app::Tab::Client {
        memo::stamp(v.generation, (NodeIds(v.sim), RecentRequests(v.sim)))
    } else {
        memo::stamp(v.generation, (v.sim.now, v.sim.processed, v.running()))
    }
}

/// The node ids, hashed in place (the stamp is taken on every frame).
struct NodeIds<'a>(&'a crate::sim::Sim);

impl Hash for NodeIds<'_> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        for id in self.0.nodes.keys() {
            id.hash(h);
        }
    }
}

/// The newest requests as the Client tab lists them: a request's kind, target and time are
/// fixed when it is made, so its id and its outcome are all that can change a line.
struct RecentRequests<'a>(&'a crate::sim::Sim);

impl Hash for RecentRequests<'_> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        for r in self
            .0
            .requests
            .values()
            .rev()
            .take(super::client_panel::RECENT)
        {
            r.id.hash(h);
            hash_outcome(&r.outcome, h);
        }
    }
}

/// Every field of an outcome (the match is exhaustive, so a new kind of outcome must be
/// added here). Only a refusal, final and rare, is hashed through its Debug form.
fn hash_outcome<H: Hasher>(o: &Outcome, h: &mut H) {
    match o {
        Outcome::Pending => 0u8.hash(h),
        Outcome::Accepted => 1u8.hash(h),
        Outcome::Committed { index } => (2u8, index).hash(h),
        Outcome::Rejected { refusal } => (3u8, format!("{refusal:?}")).hash(h),
        Outcome::TimedOut {
            at,
            no_leader,
            later,
            by,
        } => (4u8, at, no_leader, later, by).hash(h),
        Outcome::Lost { index, term, by } => (5u8, index, term, by).hash(h),
        Outcome::Value {
            value,
            index,
            stale,
        } => (6u8, value, index, stale).hash(h),
    }
}

/// Everything the progress table reads: the leader, its last index, the learner threshold and
/// each peer's progress.
fn progress_stamp(v: &View) -> u64 {
    let sim = v.sim;
    let Some(lead) = sim.leader().and_then(|l| sim.nodes.get(&l)) else {
        return memo::stamp(v.generation, None::<u64>);
    };
    let raft = &lead.raft;
    let peers: Vec<_> = raft
        .trk
        .progress
        .iter()
        .map(|(id, p)| {
            (
                *id,
                p.matched,
                p.next,
                p.state.name(),
                p.inflights.count(),
                p.inflights.cap,
                p.is_paused(),
                sim.unheard_by_leader(raft, *id),
                p.is_learner,
            )
        })
        .collect();
    memo::stamp(
        v.generation,
        (
            Some(raft.id),
            raft.log.last_index(),
            sim.opts.learner_ready,
            peers,
        ),
    )
}

/// The event log shows the newest events (events are only ever appended, and the oldest
/// dropped), filtered by what is hidden (which depends on playing), and the violations (only
/// ever appended).
fn events_stamp(v: &View) -> u64 {
    let sim = v.sim;
    let ends = (
        sim.events.len(),
        sim.events.front().map(|e| e.seq),
        sim.events.back().map(|e| e.seq),
    );
    memo::stamp(
        v.generation,
        (ends, sim.violations.len(), v.ui.playing, v.running()),
    )
}

/// The app.
pub fn render(v: &View) -> Html {
    let ui = v.ui;
    let l = ui.lang;
    let theme = theme_class(ui.theme);
    let lesson = v.scenario.is_some();
    if ui.embed {
        let link = v.link;
        let running = v.running();
        return el!(
            "div",
            "class" = classes!("app", "embed", theme, lesson.then_some("with-lesson"))
        )
        .c(status(v))
        .c(live(v))
        .c(notice(v))
        .c(el!("div", "class" = "embed-bar")
            .c(if !lesson {
                el!(
                    "button",
                    "class" = "play",
                    "aria-label" = if running {
                        tr!(l, "ui.tb.pause_aria")
                    } else {
                        tr!(l, "ui.tb.play_aria")
                    },
                )
                .on_click(send(link, Msg::TogglePlay))
                .c(if running { "❚❚" } else { "▶" })
                .done()
            } else {
                Html::default()
            })
            .c(el!("span", "class" = "clock").c(tr!(
                l,
                "ui.page.clock",
                time = crate::sim::decimal::fixed(v.sim.now as f64 / 1000.0, 1)
            )))
            .c(el!(
                "a",
                "href" = full_app_url(),
                "target" = "_blank",
                "rel" = "noopener"
            )
            .c(text!(l, "ui.page.open_full"))))
        .c(el!("main", "class" = "main").c(stage(v)).c(if lesson {
            el!("aside", "class" = "side")
                .c(lesson_view::dock(v))
                .done()
        } else {
            Html::default()
        }))
        .done();
    }
    let side_controls = ui.controls && !ui.presenter;
    let classes = classes!(
        "app",
        theme,
        ui.presenter.then_some("presenter"),
        (!side_controls).then_some("no-controls"),
        lesson.then_some("with-lesson"),
    );
    let link = v.link;
    let progress = || match v.compare {
        Some(c) => compare_view::progress(v, c),
        None => v.memos.panel(Slot::Progress, progress_stamp(v), || {
            progress_view::render(v)
        }),
    };
    // The status first: read by every frame's status write and by tests and benchmarks at
    // every frame, it is found without walking the page's ~2,500 elements.
    el!("div", "class" = classes)
        .c(status(v))
        .c(live(v))
        .c(if !ui.presenter {
            h::frag()
                .c(toolbar::render(v))
                .c(timeline_bar::render(v))
                .done()
        } else {
            Html::default()
        })
        .c(replaying(v))
        .c(notice(v))
        .c(el!("main", "class" = "main").c(stage(v)).c(el!(
            "aside",
            "class" = "side",
            "aria-label" = text!(l, "ui.page.side_aria")
        )
        .c(if lesson {
            lesson_view::dock(v)
        } else if ui.presenter {
            lesson_view::presenter_controls(v)
        } else if ui.welcome {
            v.memos
                .panel(Slot::Welcome, memo::stamp(v.generation, ()), || {
                    lesson_view::welcome(v)
                })
        } else {
            Html::default()
        })
        // What a lesson's narration talks about comes before the controls: the leader's
        // progress (match index, probe / replicate, a learner's catch-up) is part of the
        // picture a lecturer teaches from, and below the tabs it was under the fold at
        // 1280x720. Presenter mode and hidden controls keep it for the same reason.
        .c(if lesson || ui.presenter {
            progress()
        } else {
            Html::default()
        })
        .c(if side_controls {
            h::frag()
                .c(el!("div", "class" = "side-head").c(el!(
                    "button",
                    "class" = "link-btn",
                    "aria-label" = text!(l, "ui.page.hide_controls_aria"),
                    "title" = text!(l, "ui.page.hide_controls_tip"),
                )
                .on_click(send(link, Msg::Controls(Some(false))))
                .c(text!(l, "ui.page.hide_controls"))))
                .c(v.memos.panel(Slot::Tabs, tabs_stamp(v), || tabs::render(v)))
                .c(if lesson { Html::default() } else { progress() })
                .c(v.memos
                    .panel(Slot::Events, events_stamp(v), || event_log::render(v)))
                .done()
        } else if !ui.presenter {
            el!(
                "button",
                "class" = "show-controls",
                "aria-label" = text!(l, "ui.page.show_controls_aria"),
            )
            .on_click(send(link, Msg::Controls(Some(true))))
            .c(text!(l, "ui.page.show_controls"))
            .done()
        } else {
            Html::default()
        })))
        .c(if ui.help {
            help::render(v)
        } else {
            Html::default()
        })
        .done()
}
