//! The Explore tab: which faults and actions a search may schedule, what it looks for, how
//! long each schedule runs and how many to try, then start / stop and the progress and
//! result of the search, which runs in a Web Worker (`explore_ctl`). A counterexample can be
//! opened as a scenario to step through, downloaded and shared.

use super::h;
use crate::el;
use crate::text;
use yew::prelude::*;
use yew::TargetCast;

use crate::i18n::{Lang, Msg as Text};
use crate::sim::explore::{ExploreSpec, Fault, HitKind};
use crate::sim::explore_job::FoundSummary;
use crate::tr;

use super::app::{Msg, View};
use super::h::send;

/// The faults and actions offered, with their catalog keys (every kind the search knows).
const FAULTS: [(Fault, &str); 11] = [
    (Fault::Crash, "ui.explore.fault.crash"),
    (Fault::Restart, "ui.explore.fault.restart"),
    (Fault::Partition, "ui.explore.fault.partition"),
    (Fault::Loss, "ui.explore.fault.loss"),
    (Fault::Delay, "ui.explore.fault.delay"),
    (Fault::Member, "ui.explore.fault.member"),
    (Fault::Transfer, "ui.explore.fault.transfer"),
    (Fault::Compact, "ui.explore.fault.compact"),
    (Fault::Write, "ui.explore.fault.write"),
    (Fault::Read, "ui.explore.fault.read"),
    (Fault::Campaign, "ui.explore.fault.campaign"),
];

/// The built-in checks, with their catalog keys.
const CHECKS: [(HitKind, &str); 4] = [
    (HitKind::Invariant, "ui.explore.kind.invariant"),
    (HitKind::Liveness, "ui.explore.kind.liveness"),
    (HitKind::LostWrite, "ui.explore.kind.write"),
    (HitKind::WrongRead, "ui.explore.kind.read"),
];

/// A hit's kind in words.
pub fn kind_name(l: Lang, k: HitKind) -> &'static str {
    match CHECKS.iter().find(|(c, _)| *c == k) {
        Some((_, key)) => crate::i18n::text(l, key),
        None => tr!(l, "ui.explore.kind.condition"),
    }
}

/// A text field of the form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExField {
    Until,
    Horizon,
    Schedules,
    Seconds,
    Seed,
    Actions,
    Liveness,
}

/// Where a search stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    Idle,
    /// Waiting for the worker to load.
    Starting,
    Running {
        tried: u64,
        ms: f64,
    },
    Shrinking {
        index: u64,
        tried: u64,
        ms: f64,
        detail: Text,
    },
    Found {
        tried: u64,
        ms: f64,
        found: Box<FoundSummary>,
        scn: String,
    },
    Nothing {
        tried: u64,
        ms: f64,
        out_of_time: bool,
    },
    Stopped {
        tried: u64,
    },
}

/// The Explore tab's form and the search's state.
#[derive(Clone, Debug)]
pub struct ExploreUi {
    pub allow: Vec<Fault>,
    pub check: Vec<HitKind>,
    pub until: String,
    pub horizon: String,
    pub schedules: String,
    pub seconds: String,
    pub seed: String,
    /// At most this many actions per schedule.
    pub actions: String,
    /// Election timeouts without a leader, with a quorum up, that count as a liveness failure.
    pub liveness: String,
    /// Start from the loaded scenario (to its `explore` line) rather than this moment.
    pub from_scenario: bool,
    /// The loaded scenario's text, if any.
    pub scenario: Option<String>,
    pub status: Status,
    /// Why the last start failed, or what the worker reported wrong.
    pub error: Option<Text>,
    /// The counterexample's share link, once made.
    pub share_link: Option<String>,
}

impl ExploreUi {
    /// The form with the search's defaults.
    pub fn new() -> ExploreUi {
        let mut e = ExploreUi {
            allow: Vec::new(),
            check: Vec::new(),
            until: String::new(),
            horizon: String::new(),
            schedules: String::new(),
            seconds: "30".into(),
            seed: String::new(),
            actions: String::new(),
            liveness: String::new(),
            from_scenario: false,
            scenario: None,
            status: Status::Idle,
            error: None,
            share_link: None,
        };
        e.prefill(&ExploreSpec::default());
        e
    }

    /// Shows these settings in the form (a lesson's `explore` line): every one of them, so a
    /// search started from the form is the search the line (and `raftlab explore`) runs.
    pub fn prefill(&mut self, spec: &ExploreSpec) {
        self.allow = spec.allow.clone();
        self.check = spec.check.clone();
        self.until = spec
            .until
            .as_ref()
            .map(|c| c.text.clone())
            .unwrap_or_default();
        self.horizon = spec.horizon.to_string();
        self.schedules = spec.schedules.to_string();
        self.seed = spec.seed.to_string();
        self.actions = spec.actions.to_string();
        self.liveness = spec.liveness.to_string();
    }

    /// The settings the form says, or what is wrong with them.
    pub fn spec(&self) -> Result<ExploreSpec, Text> {
        let mut spec = ExploreSpec::default();
        if self.allow.is_empty() {
            return Err(Text::new("ui.explore.no_allow"));
        }
        spec.allow = self.allow.clone();
        spec.check = self.check.clone();
        let bad = |e: String| Text::new("ui.explore.bad_setting").arg("error", e);
        for (key, value) in [
            ("horizon", &self.horizon),
            ("schedules", &self.schedules),
            ("seed", &self.seed),
            ("actions", &self.actions),
            ("liveness", &self.liveness),
        ] {
            spec.set(key, value.trim()).map_err(bad)?;
        }
        let until = self.until.trim();
        if !until.is_empty() {
            spec.set("until", until).map_err(bad)?;
        }
        Ok(spec)
    }

    /// The time limit the form says (empty: none), or what is wrong with it.
    pub fn seconds(&self) -> Result<Option<f64>, Text> {
        let s = self.seconds.trim();
        if s.is_empty() {
            return Ok(None);
        }
        match crate::sim::decimal::parse(s) {
            Some(x) if x > 0.0 && x.is_finite() => Ok(Some(x)),
            _ => Err(Text::new("ui.explore.bad_seconds").arg("value", s)),
        }
    }

    /// Whether a search is under way.
    pub fn busy(&self) -> bool {
        matches!(
            self.status,
            Status::Starting | Status::Running { .. } | Status::Shrinking { .. }
        )
    }
}

impl Default for ExploreUi {
    fn default() -> Self {
        ExploreUi::new()
    }
}

/// What the Explore tab sends the app.
#[derive(Clone, Debug, PartialEq)]
pub enum ExploreMsg {
    Allow(Fault),
    Check(HitKind),
    Field(ExField, String),
    FromScenario(bool),
    Start,
    Stop,
    /// A message from the worker.
    Worker(Box<crate::sim::explore_job::FromWorker>),
    /// The worker failed to load or stopped with an error.
    WorkerFailed(String),
    /// Open the counterexample as a scenario.
    Open,
    Download,
    Share,
}

fn rate(tried: u64, ms: f64) -> String {
    if ms <= 0.0 {
        return "0".into();
    }
    crate::sim::decimal::fixed(tried as f64 / (ms / 1000.0), 0)
}

fn secs(ms: f64) -> String {
    crate::sim::decimal::fixed(ms / 1000.0, 1)
}

/// A text field; `mode` is the on-screen keyboard to offer (`numeric`, `text`). Numbers are
/// typed as text so that anything typed reaches the form's own checks and messages.
fn field(v: &View, f: ExField, value: &str, label: &str, mode: &str, extra: Html) -> Html {
    let oninput = v.link.callback(move |e: InputEvent| {
        let i: web_sys::HtmlInputElement = e.target_unchecked_into();
        Msg::Explore(ExploreMsg::Field(f, i.value()))
    });
    let name = format!("{f:?}").to_ascii_lowercase();
    el!(
        "label",
        "class" = classes!("field", (mode == "text").then_some("block"))
    )
    .c(label.to_string())
    .c(el!(
        "input",
        "type" = "text",
        "inputmode" = mode.to_string(),
        "data-explore-field" = name,
        "disabled" = v.ui.explore.busy(),
    )
    .on_input(oninput)
    .value(value.to_string())
    .done())
    .c(extra)
    .done()
}

fn status(v: &View) -> Html {
    let e = &v.ui.explore;
    let l = v.ui.lang;
    let line = match &e.status {
        Status::Idle => return html! {},
        Status::Starting => tr!(l, "ui.explore.starting").to_string(),
        Status::Running { tried, ms } => {
            tr!(
                l,
                "ui.explore.running",
                tried = tried,
                rate = rate(*tried, *ms)
            )
        }
        Status::Shrinking {
            index,
            tried,
            ms,
            detail,
        } => tr!(
            l,
            "ui.explore.shrinking",
            index = index,
            tried = tried,
            seconds = secs(*ms),
            detail = detail.render(l)
        ),
        Status::Found {
            tried, ms, found, ..
        } => tr!(
            l,
            "ui.explore.found",
            kind = kind_name(l, found.kind),
            index = found.index,
            tried = tried,
            seconds = secs(*ms),
            from = found.original,
            to = found.steps.len()
        ),
        Status::Nothing {
            tried,
            ms,
            out_of_time,
        } => {
            let key = if *out_of_time {
                "ui.explore.nothing_time"
            } else {
                "ui.explore.nothing"
            };
            Text::new(key)
                .arg("tried", *tried)
                .arg("seconds", secs(*ms))
                .render(l)
        }
        Status::Stopped { tried } => tr!(l, "ui.explore.stopped", tried = tried),
    };
    let (tried, ms) = match &e.status {
        Status::Running { tried, ms }
        | Status::Shrinking { tried, ms, .. }
        | Status::Found { tried, ms, .. }
        | Status::Nothing { tried, ms, .. } => (*tried, *ms),
        Status::Stopped { tried } => (*tried, 0.0),
        _ => (0, 0.0),
    };
    let state = match &e.status {
        Status::Idle => "idle",
        Status::Starting => "starting",
        Status::Running { .. } => "running",
        Status::Shrinking { .. } => "shrinking",
        Status::Found { .. } => "found",
        Status::Nothing { .. } => "nothing",
        Status::Stopped { .. } => "stopped",
    };
    let found =
        match &e.status {
            Status::Found { found, scn, .. } => {
                let link = v.link;
                let steps = found
                    .steps
                    .iter()
                    .map(|s| el!("li").c(el!("code").c(s.clone())).done())
                    .collect::<Html>();
                el!(
                    "div",
                    "class" = "explore-hit",
                    "data-explore-hit" = found.kind.id()
                )
                .c(el!("p", "class" = "verbatim", "data-explore-detail" = "")
                    .c(found.detail.render(l)))
                .c(el!("ol", "class" = "explore-steps").c(steps))
                .c(if let Some(c) = &found.check {
                    el!("p", "class" = "hint")
                        .c(tr!(l, "ui.explore.expect", check = c))
                        .done()
                } else {
                    Html::default()
                })
                .c(el!("div", "class" = "row wrap")
                    .c(el!("button", "class" = "primary", "data-explore-open" = "")
                        .on_click(send(link, Msg::Explore(ExploreMsg::Open)))
                        .c(text!(l, "ui.explore.open")))
                    .c(el!("button")
                        .on_click(send(link, Msg::Explore(ExploreMsg::Download)))
                        .c(text!(l, "ui.explore.download")))
                    .c(el!("button", "data-explore-share" = "")
                        .on_click(send(link, Msg::Explore(ExploreMsg::Share)))
                        .c(text!(l, "ui.explore.share"))))
                .c(if let Some(url) = &e.share_link {
                    el!("label", "class" = "field block")
                        .c(text!(l, "ui.explore.link_label"))
                        .c(el!(
                            "input",
                            "type" = "text",
                            "readonly" = "readonly",
                            "data-explore-link" = ""
                        )
                        .value(url.clone())
                        .done())
                        .done()
                } else {
                    Html::default()
                })
                .c(el!("details")
                    .c(el!("summary").c(text!(l, "ui.explore.as_scenario")))
                    .c(el!(
                        "pre",
                        "class" = "scn-preview",
                        "tabindex" = "0",
                        "data-explore-scn" = ""
                    )
                    .c(scn.clone())))
                .done()
            }
            _ => html! {},
        };
    h::frag()
        .c(el!(
            "p",
            "class" = "explore-status",
            "role" = "status",
            "aria-live" = "polite",
            "data-explore-state" = state,
            "data-explore-tried" = tried.to_string(),
            "data-explore-ms" = crate::sim::decimal::fixed(ms, 0),
        )
        .c(line))
        .c(found)
        .done()
}

/// The panel.
// Not inlined into its one caller, so that scripts/split-wasm.mjs can move it, rarely needed,
// to the wasm's second part.
#[inline(never)]
pub fn render(v: &View) -> Html {
    let e = &v.ui.explore;
    let l = v.ui.lang;
    let link = v.link;
    let busy = e.busy();
    let faults = FAULTS
        .iter()
        .map(|(f, key)| {
            let f = *f;
            let on = e.allow.contains(&f);
            el!("label", "class" = "check")
                .c(el!(
                    "input",
                    "type" = "checkbox",
                    "disabled" = busy,
                    "data-explore-allow" = f.name(),
                )
                .on_change(send(link, Msg::Explore(ExploreMsg::Allow(f))))
                .checked(on)
                .done())
                .c(crate::i18n::text(l, key))
                .done()
        })
        .collect::<Html>();
    let checks = CHECKS
        .iter()
        .map(|(k, key)| {
            let k = *k;
            let on = e.check.contains(&k);
            el!("label", "class" = "check")
                .c(el!(
                    "input",
                    "type" = "checkbox",
                    "disabled" = busy,
                    "data-explore-check" = k.id(),
                )
                .on_change(send(link, Msg::Explore(ExploreMsg::Check(k))))
                .checked(on)
                .done())
                .c(crate::i18n::text(l, key))
                .done()
        })
        .collect::<Html>();
    let has_scenario = e.scenario.is_some();
    let now = send(link, Msg::Explore(ExploreMsg::FromScenario(false)));
    let scn = send(link, Msg::Explore(ExploreMsg::FromScenario(true)));
    let lesson_name = v.scenario.map(|s| s.name.clone()).unwrap_or_default();
    el!("div", "class" = "explore-panel", "data-explore" = "")
        .c(el!("p", "class" = "hint").c(text!(l, "ui.explore.intro")))
        .c(el!("fieldset")
            .c(el!("legend").c(text!(l, "ui.explore.from")))
            .c(el!("label", "class" = "radio")
                .c(el!(
                    "input",
                    "type" = "radio",
                    "name" = "explore-from",
                    "disabled" = busy,
                    "data-explore-from" = "now",
                )
                .on_change(now)
                .checked(!e.from_scenario || !has_scenario)
                .done())
                .c(text!(l, "ui.explore.from_now")))
            .c(if has_scenario {
                el!("label", "class" = "radio")
                    .c(el!(
                        "input",
                        "type" = "radio",
                        "name" = "explore-from",
                        "disabled" = busy,
                        "data-explore-from" = "scenario",
                    )
                    .on_change(scn)
                    .checked(e.from_scenario)
                    .done())
                    .c(tr!(l, "ui.explore.from_scenario", name = lesson_name))
                    .done()
            } else {
                Html::default()
            }))
        .c(el!("fieldset")
            .c(el!("legend").c(text!(l, "ui.explore.allow")))
            .c(el!("div", "class" = "check-grid").c(faults)))
        .c(el!("fieldset")
            .c(el!("legend").c(text!(l, "ui.explore.checks")))
            .c(el!("div", "class" = "check-grid").c(checks))
            .c(field(
                v,
                ExField::Until,
                &e.until,
                tr!(l, "ui.explore.until"),
                "text",
                el!("span", "class" = "hint")
                    .c(text!(l, "ui.explore.until_hint"))
                    .c(" ")
                    .c(el!("code").c("n1.term > 5"))
                    .done(),
            )))
        .c(el!("div", "class" = "row wrap explore-numbers")
            .c(field(
                v,
                ExField::Horizon,
                &e.horizon,
                tr!(l, "ui.explore.horizon"),
                "numeric",
                html! {},
            ))
            .c(field(
                v,
                ExField::Schedules,
                &e.schedules,
                tr!(l, "ui.explore.schedules"),
                "numeric",
                html! {},
            ))
            .c(field(
                v,
                ExField::Seconds,
                &e.seconds,
                tr!(l, "ui.explore.seconds"),
                "decimal",
                html! {},
            ))
            .c(field(
                v,
                ExField::Seed,
                &e.seed,
                tr!(l, "ui.explore.seed"),
                "numeric",
                html! {},
            ))
            .c(field(
                v,
                ExField::Actions,
                &e.actions,
                tr!(l, "ui.explore.actions"),
                "numeric",
                html! {},
            ))
            .c(field(
                v,
                ExField::Liveness,
                &e.liveness,
                tr!(l, "ui.explore.liveness"),
                "numeric",
                html! {},
            )))
        .c(el!("div", "class" = "row wrap").c(if busy {
            el!("button", "class" = "danger", "data-explore-stop" = "")
                .on_click(send(link, Msg::Explore(ExploreMsg::Stop)))
                .c(text!(l, "ui.explore.stop"))
                .done()
        } else {
            el!("button", "class" = "primary", "data-explore-start" = "")
                .on_click(send(link, Msg::Explore(ExploreMsg::Start)))
                .c(text!(l, "ui.explore.start"))
                .done()
        }))
        .c(if let Some(err) = &e.error {
            el!(
                "p",
                "class" = "error",
                "role" = "alert",
                "data-explore-error" = ""
            )
            .c(err.render(l))
            .done()
        } else {
            Html::default()
        })
        .c(status(v))
        .done()
}
