//! The Explore tab: which faults and actions a search may schedule, what it looks for, how
//! long each schedule runs and how many to try, then start / stop and the progress and
//! result of the search, which runs in a Web Worker (`explore_ctl`). A counterexample can be
//! opened as a scenario to step through, downloaded and shared.

use yew::prelude::*;
use yew::TargetCast;

use crate::i18n::{Lang, Msg as Text};
use crate::sim::explore::{ExploreSpec, Fault, HitKind};
use crate::sim::explore_job::FoundSummary;
use crate::tr;

use super::app::{Msg, View};

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
            from_scenario: false,
            scenario: None,
            status: Status::Idle,
            error: None,
            share_link: None,
        };
        e.prefill(&ExploreSpec::default());
        e
    }

    /// Shows these settings in the form (a lesson's `explore` line).
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
    html! {
        <label class={classes!("field", (mode == "text").then_some("block"))}>{ label.to_string() }
            <input type="text" inputmode={mode.to_string()} value={value.to_string()} {oninput} data-explore-field={name} disabled={v.ui.explore.busy()} />
            { extra }
        </label>
    }
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
    let found = match &e.status {
        Status::Found { found, scn, .. } => {
            let link = v.link;
            let steps = found
                .steps
                .iter()
                .map(|s| html! { <li><code>{ s.clone() }</code></li> })
                .collect::<Html>();
            html! {
                <div class="explore-hit" data-explore-hit={found.kind.name()}>
                    <p class="verbatim" data-explore-detail="">{ found.detail.render(l) }</p>
                    <ol class="explore-steps">{ steps }</ol>
                    if let Some(c) = &found.check {
                        <p class="hint">{ tr!(l, "ui.explore.expect", check = c) }</p>
                    }
                    <div class="row wrap">
                        <button class="primary" data-explore-open="" onclick={link.callback(|_| Msg::Explore(ExploreMsg::Open))}>{ tr!(l, "ui.explore.open") }</button>
                        <button onclick={link.callback(|_| Msg::Explore(ExploreMsg::Download))}>{ tr!(l, "ui.explore.download") }</button>
                        <button data-explore-share="" onclick={link.callback(|_| Msg::Explore(ExploreMsg::Share))}>{ tr!(l, "ui.explore.share") }</button>
                    </div>
                    if let Some(url) = &e.share_link {
                        <label class="field block">{ tr!(l, "ui.explore.link_label") }
                            <input type="text" readonly=true value={url.clone()} data-explore-link="" />
                        </label>
                    }
                    <details>
                        <summary>{ tr!(l, "ui.explore.as_scenario") }</summary>
                        <pre class="scn-preview" tabindex="0" data-explore-scn="">{ scn.clone() }</pre>
                    </details>
                </div>
            }
        }
        _ => html! {},
    };
    html! {
        <>
            <p class="explore-status" role="status" aria-live="polite" data-explore-state={state}
                data-explore-tried={tried.to_string()} data-explore-ms={crate::sim::decimal::fixed(ms, 0)}>{ line }</p>
            { found }
        </>
    }
}

/// The panel.
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
            html! {
                <label class="check">
                    <input type="checkbox" checked={on} disabled={busy} data-explore-allow={f.name()}
                        onchange={link.callback(move |_| Msg::Explore(ExploreMsg::Allow(f)))} />
                    { crate::i18n::text(l, key) }
                </label>
            }
        })
        .collect::<Html>();
    let checks = CHECKS
        .iter()
        .map(|(k, key)| {
            let k = *k;
            let on = e.check.contains(&k);
            html! {
                <label class="check">
                    <input type="checkbox" checked={on} disabled={busy} data-explore-check={k.name()}
                        onchange={link.callback(move |_| Msg::Explore(ExploreMsg::Check(k)))} />
                    { crate::i18n::text(l, key) }
                </label>
            }
        })
        .collect::<Html>();
    let has_scenario = e.scenario.is_some();
    let now = link.callback(|_| Msg::Explore(ExploreMsg::FromScenario(false)));
    let scn = link.callback(|_| Msg::Explore(ExploreMsg::FromScenario(true)));
    let lesson_name = v.scenario.map(|s| s.name.clone()).unwrap_or_default();
    html! {
        <div class="explore-panel" data-explore="">
            <p class="hint">{ tr!(l, "ui.explore.intro") }</p>
            <fieldset>
                <legend>{ tr!(l, "ui.explore.from") }</legend>
                <label class="radio">
                    <input type="radio" name="explore-from" checked={!e.from_scenario || !has_scenario} onchange={now} disabled={busy} data-explore-from="now" />
                    { tr!(l, "ui.explore.from_now") }
                </label>
                if has_scenario {
                    <label class="radio">
                        <input type="radio" name="explore-from" checked={e.from_scenario} onchange={scn} disabled={busy} data-explore-from="scenario" />
                        { tr!(l, "ui.explore.from_scenario", name = lesson_name) }
                    </label>
                }
            </fieldset>
            <fieldset>
                <legend>{ tr!(l, "ui.explore.allow") }</legend>
                <div class="check-grid">{ faults }</div>
            </fieldset>
            <fieldset>
                <legend>{ tr!(l, "ui.explore.checks") }</legend>
                <div class="check-grid">{ checks }</div>
                { field(v, ExField::Until, &e.until, tr!(l, "ui.explore.until"), "text",
                    html! { <span class="hint">{ tr!(l, "ui.explore.until_hint") }{ " " }<code>{ "n1.term > 5" }</code></span> }) }
            </fieldset>
            <div class="row wrap explore-numbers">
                { field(v, ExField::Horizon, &e.horizon, tr!(l, "ui.explore.horizon"), "numeric", html! {}) }
                { field(v, ExField::Schedules, &e.schedules, tr!(l, "ui.explore.schedules"), "numeric", html! {}) }
                { field(v, ExField::Seconds, &e.seconds, tr!(l, "ui.explore.seconds"), "decimal", html! {}) }
                { field(v, ExField::Seed, &e.seed, tr!(l, "ui.explore.seed"), "numeric", html! {}) }
            </div>
            <div class="row wrap">
                if busy {
                    <button class="danger" data-explore-stop="" onclick={link.callback(|_| Msg::Explore(ExploreMsg::Stop))}>{ tr!(l, "ui.explore.stop") }</button>
                } else {
                    <button class="primary" data-explore-start="" onclick={link.callback(|_| Msg::Explore(ExploreMsg::Start))}>{ tr!(l, "ui.explore.start") }</button>
                }
            </div>
            if let Some(err) = &e.error {
                <p class="error" role="alert" data-explore-error="">{ err.render(l) }</p>
            }
            { status(v) }
        </div>
    }
}
