//! The app component: it owns the run (a [`Timeline`], or a scenario [`Player`] holding one),
//! the animation clock and the view state, turns clicks into [`Action`]s and renders the
//! panels. No protocol logic lives here: everything shown is read from the simulator.

use yew::html::Scope;
use yew::prelude::*;

use crate::raft::NodeId;
use crate::sim::announce::Announcer;
use crate::sim::change;
use crate::sim::client::Outcome;
use crate::sim::event::EventKind;
use crate::sim::history::Timeline;
use crate::sim::launch::{self, Source, ThemeChoice};
use crate::sim::player::{LineStatus, Player};
use crate::sim::scenario::Script;
use crate::sim::{presets, share, Action, Options, Sim, TICK_MS};

use super::dom::{self, FrameClock, KeyListener};
use super::forms::{Field, Forms};
use super::keys::{self, Command};
use super::{
    action_bar, cluster_view, config_view, event_log, help, log_view, message_view, player_panel,
    progress_view, tabs, timeline_bar, toolbar,
};

/// The right-hand panel shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Node,
    Network,
    Members,
    Client,
    Scenario,
    Share,
}

/// Colour theme: the system's, or forced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    Auto,
    Light,
    Dark,
}

/// One action the person took, with what it meant and whether it made sense.
#[derive(Clone, Debug)]
pub struct LastAction {
    pub scn: String,
    pub etcdctl: Option<String>,
    pub error: Option<String>,
    pub at: u64,
}

/// A scenario loaded into the player.
pub struct Loaded {
    pub player: Player,
    pub name: String,
    /// The narration being shown: (line index, text).
    pub narration: Option<(usize, String)>,
}

/// Everything about the view that is not the run itself.
pub struct Ui {
    pub playing: bool,
    pub speed: f64,
    pub selected_node: Option<NodeId>,
    pub selected_msg: Option<u64>,
    pub tab: Tab,
    pub hidden_kinds: Vec<EventKind>,
    pub theme: Theme,
    pub help: bool,
    pub forms: Forms,
    pub history: Vec<LastAction>,
    pub notice: Option<String>,
    pub script_error: Option<String>,
    pub share_link: Option<String>,
    pub embed: bool,
    /// Wall time the last frame's simulation and view took, ms.
    pub frame_ms: f64,
    /// How many log columns (the newest) are drawn.
    pub log_cols: u64,
    /// The last step's event and what it changed, in words.
    pub step_line: Option<String>,
    /// Whether the person changed the event filters (until then, stepping shows every kind).
    pub kinds_touched: bool,
    /// What the polite live region says now.
    pub live: String,
}

/// Messages to the app.
pub enum Msg {
    Frame(f64),
    TogglePlay,
    Speed(f64),
    StepTick,
    StepEvent,
    NextChange,
    Command(Command),
    Announce,
    BackTick,
    BackEvent,
    Seek(u64),
    Live,
    Reset,
    Act(Action),
    Acts(Vec<Action>),
    Set(&'static str, String),
    SetLearnerReady(String),
    SelectNode(Option<NodeId>),
    SelectMessage(Option<u64>),
    Tab(Tab),
    Field(Field, String),
    PartitionGroup(NodeId, u8),
    ToggleKind(EventKind),
    AllKinds(bool),
    Theme,
    Help(Option<bool>),
    Escape,
    LoadScript(String, String),
    LoadPreset,
    LoadPasted,
    ScriptError(String),
    PlayerStep,
    PlayerRunTo(usize),
    PlayerContinue,
    PlayerClose,
    ExportScn,
    ExportTrace,
    ShareLink,
    DismissNotice,
    MoreLog,
    None,
}

/// What the panels render from: the run at the moment viewed, and the view state.
pub struct View<'a> {
    pub tl: &'a Timeline,
    pub sim: &'a Sim,
    pub ui: &'a Ui,
    pub scenario: Option<&'a Loaded>,
    pub link: &'a Scope<App>,
}

/// The app.
pub struct App {
    tl: Timeline,
    scenario: Option<Loaded>,
    ui: Ui,
    clock: FrameClock,
    last_ts: Option<f64>,
    carry: f64,
    seen_violations: usize,
    frame_start: Option<f64>,
    /// The scenario line last scrolled into view.
    revealed_line: Option<usize>,
    _keys: Option<KeyListener>,
    announcer: Announcer,
    /// A pending announcement's wake-up, while the run is paused.
    announce_timer: Option<gloo_timers::callback::Timeout>,
    link: Option<Scope<App>>,
}

const SPEEDS: [f64; 9] = [0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 15.0, 20.0];

/// The speeds offered, slow motion to fast-forward.
pub fn speeds() -> &'static [f64] {
    &SPEEDS
}

impl App {
    fn tl(&self) -> &Timeline {
        match self.scenario.as_ref().and_then(|s| s.player.timeline()) {
            Some(t) => t,
            None => &self.tl,
        }
    }

    fn tl_mut(&mut self) -> &mut Timeline {
        match self.scenario.as_mut().and_then(|s| s.player.timeline_mut()) {
            Some(t) => t,
            None => &mut self.tl,
        }
    }

    fn act(&mut self, action: Action) {
        // After a write, offer the next value (x=1, then x=2, ...).
        if let Action::Propose { value, .. } = &action {
            if let Ok(n) = value.parse::<u64>() {
                if self.ui.forms.put_value.trim() == value {
                    self.ui.forms.put_value = (n + 1).to_string();
                }
            }
        }
        let scn = action.to_scn();
        let etcdctl = action.etcdctl();
        let heal = matches!(action, Action::Heal);
        let r = self.tl_mut().act(action);
        if heal && r.is_ok() {
            self.ui.forms.after_heal();
        }
        let at = self.tl().sim().now;
        self.ui.history.push(LastAction {
            scn,
            etcdctl,
            error: r.err(),
            at,
        });
        if self.ui.history.len() > 20 {
            self.ui.history.remove(0);
        }
    }

    fn set_playing(&mut self, on: bool) {
        self.ui.playing = on;
        self.last_ts = None;
        self.carry = 0.0;
        if on {
            self.clock.request();
        } else {
            self.clock.cancel();
        }
    }

    /// Pauses on a new invariant violation.
    fn watch_violations(&mut self) {
        let n = self.tl().sim().violations.len();
        if n > self.seen_violations {
            self.set_playing(false);
        }
        self.seen_violations = n;
    }

    fn reset(&mut self) {
        let f = &self.ui.forms;
        let n = f.reset_n.trim().parse::<usize>().unwrap_or(3).clamp(1, 9);
        let mut opts = self.tl().sim().opts.clone();
        match f.reset_seed.trim().parse::<u64>() {
            Ok(s) => opts.seed = s,
            Err(_) => {
                self.ui.notice = Some(format!(
                    "the seed must be a whole number, not '{}'",
                    f.reset_seed.trim()
                ));
                return;
            }
        }
        self.tl = Timeline::new(n, opts);
        self.scenario = None;
        self.ui.selected_node = None;
        self.ui.selected_msg = None;
        self.ui.history.clear();
        self.ui.share_link = None;
        self.ui.forms.groups.clear();
        self.seen_violations = 0;
    }

    /// Shows the loaded run's size and seed in the toolbar's reset fields.
    fn sync_reset_form(&mut self, n: usize, seed: u64) {
        self.ui.forms.reset_n = n.to_string();
        self.ui.forms.reset_seed = seed.to_string();
    }

    /// Loads scenario text into the player and runs its `cluster` line.
    fn load_script(&mut self, name: String, text: &str) -> bool {
        match Script::parse(text) {
            Ok(script) => {
                let mut player = Player::new(script);
                // The first line is always `cluster`: run it so the new cluster shows at once.
                player.step();
                if let Some(tl) = player.timeline() {
                    self.sync_reset_form(tl.initial_size(), tl.initial_options().seed);
                }
                self.scenario = Some(Loaded {
                    player,
                    name,
                    narration: None,
                });
                self.ui.script_error = None;
                self.ui.selected_node = None;
                self.ui.selected_msg = None;
                self.ui.history.clear();
                self.ui.tab = Tab::Scenario;
                self.seen_violations = 0;
                self.set_playing(false);
                true
            }
            Err(e) => {
                self.ui.script_error = Some(format!("{name}: line {e}"));
                self.ui.tab = Tab::Scenario;
                false
            }
        }
    }

    /// Runs scenario lines until a narration, the end, or line `stop` (when given).
    fn run_scenario(&mut self, stop: Option<usize>, pause_on_say: bool) {
        let Some(s) = self.scenario.as_mut() else {
            return;
        };
        s.narration = None;
        loop {
            if let (Some(stop), Some(next)) = (stop, s.player.next_line()) {
                if next >= stop {
                    break;
                }
            }
            let Some(r) = s.player.step() else { break };
            if let LineStatus::Narration(text) = r.status {
                s.narration = Some((r.line, text));
                if pause_on_say {
                    break;
                }
            }
        }
        self.watch_violations();
    }

    /// Applies the page address (`?n=`, `?seed=`, `?speed=`, `?paused=`, `?theme=`,
    /// `?embed`, `?preset=`, `#run=`): validated once by [`launch::parse`], so every control
    /// shows the value in force, and every bad parameter is named in one notice.
    fn apply_location(&mut self) {
        let (query, hash) = dom::location_parts();
        let offered: Vec<String> = SPEEDS.iter().map(|s| s.to_string()).collect();
        let offered: Vec<&str> = offered.iter().map(String::as_str).collect();
        let l = launch::parse(&query, &hash, &offered);
        self.ui.embed = l.embed;
        if let Some(s) = l.speed.as_deref().and_then(|s| s.parse::<f64>().ok()) {
            self.ui.speed = s;
        }
        if let Some(p) = l.paused {
            self.ui.playing = !p;
        }
        if let Some(t) = l.theme {
            self.ui.theme = match t {
                ThemeChoice::Dark => Theme::Dark,
                ThemeChoice::Light => Theme::Light,
                ThemeChoice::Auto => Theme::Auto,
            };
        }
        self.ui.forms.reset_n = l.n.to_string();
        self.ui.forms.reset_seed = l.seed.to_string();
        self.reset();
        self.ui.forms.preset.clear();
        match &l.source {
            Source::Fresh => {}
            Source::Shared(text) => self.load_shared(text),
            Source::Preset(id) => {
                if let Some(p) = presets::find(id) {
                    self.ui.forms.preset = p.id.to_string();
                    if self.load_script(p.title().to_string(), p.text) {
                        self.ui.playing = false;
                    }
                }
            }
        }
        if let Some(n) = l.notice() {
            self.ui.notice = Some(n);
        }
    }

    /// Replays a shared run to its end and keeps it as the free run.
    fn load_shared(&mut self, text: &str) {
        match Script::parse(text) {
            Ok(script) => {
                let mut player = Player::new(script);
                player.run_all();
                let failures = player.failures().len();
                match player.into_timeline() {
                    Some(tl) => {
                        self.sync_reset_form(tl.initial_size(), tl.initial_options().seed);
                        self.tl = tl;
                        self.scenario = None;
                        self.ui.playing = false;
                        self.seen_violations = self.tl.sim().violations.len();
                        if failures > 0 {
                            self.ui.notice = Some(format!(
                                "The shared run was replayed, but {failures} of its lines failed."
                            ));
                        }
                    }
                    None => self.ui.notice = Some(
                        "The share link holds no cluster line. A new cluster was started instead."
                            .into(),
                    ),
                }
            }
            Err(e) => {
                self.ui.notice = Some(format!(
                    "The share link in the address is not a valid raftlab run (line {e}). A new cluster was started instead."
                ));
            }
        }
    }

    fn frame(&mut self, ts: f64) -> bool {
        self.clock.arrived();
        if !self.ui.playing {
            self.last_ts = None;
            return false;
        }
        self.frame_start = now_ms();
        // Wall time since the last frame, capped: a slow frame only means more events per
        // frame, never a different run (advance_to processes every event on the way).
        let dt = match self.last_ts {
            Some(last) => (ts - last).clamp(0.0, 500.0),
            None => 0.0,
        };
        self.last_ts = Some(ts);
        self.carry += dt * self.ui.speed;
        let ms = self.carry.floor();
        self.carry -= ms;
        if ms >= 1.0 {
            let target = self.tl().sim().now + ms as u64;
            self.tl_mut().advance_to(target);
        }
        self.watch_violations();
        self.announce();
        if self.ui.playing {
            self.clock.request();
        }
        true
    }
}

/// Most events "next change" runs through looking for a change.
const NEXT_CHANGE_LIMIT: u64 = 100_000;

impl App {
    /// Feeds the live region: notable events since the last look, at most one announcement
    /// per [`crate::sim::announce::MIN_GAP_MS`]; a batch held back is sent by a timer.
    fn announce(&mut self) {
        let sim = match self.scenario.as_ref().and_then(|s| s.player.timeline()) {
            Some(t) => t.sim(),
            None => self.tl.sim(),
        };
        self.announcer.observe(sim);
        let now = now_ms().unwrap_or(0.0);
        if let Some(text) = self.announcer.take(now) {
            self.ui.live = text;
        } else if self.announcer.has_pending() && self.announce_timer.is_none() {
            if let Some(link) = self.link.clone() {
                let wait = crate::sim::announce::MIN_GAP_MS as u32;
                self.announce_timer = Some(gloo_timers::callback::Timeout::new(wait, move || {
                    link.send_message(Msg::Announce)
                }));
            }
        }
    }
}

/// This page without embed mode (keeping a shared run in the hash).
fn full_app_url() -> String {
    let (_, hash) = dom::location_parts();
    let keep: Vec<String> = dom::pairs(&hash)
        .into_iter()
        .filter(|(k, _)| k != "embed")
        .map(|(k, v)| if v.is_empty() { k } else { format!("{k}={v}") })
        .collect();
    if keep.is_empty() {
        dom::base_url()
    } else {
        format!("{}#{}", dom::base_url(), keep.join("&"))
    }
}

fn now_ms() -> Option<f64> {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
}

impl Component for App {
    type Message = Msg;
    type Properties = ();

    fn create(ctx: &Context<Self>) -> Self {
        let link = ctx.link().clone();
        let clock = FrameClock::new(move |ts| link.send_message(Msg::Frame(ts)));
        let keys_link = ctx.link().clone();
        let keys = KeyListener::new(move |e: web_sys::KeyboardEvent| {
            if dom::from_text_field(&e) || e.ctrl_key() || e.meta_key() || e.alt_key() {
                return;
            }
            let key = e.key();
            // Enter or space on a focused node selects it, like a click.
            if matches!(key.as_str(), "Enter" | " " | "Spacebar") {
                if let Some(id) = dom::focused_node(&e) {
                    e.prevent_default();
                    keys_link.send_message(Msg::SelectNode(Some(id)));
                    return;
                }
            }
            if let Some(msg) = keys::letter(&key) {
                e.prevent_default();
                keys_link.send_message(msg);
                return;
            }
            let msg = match key.as_str() {
                " " | "Spacebar" => Msg::TogglePlay,
                "ArrowRight" if e.shift_key() => Msg::StepEvent,
                "ArrowRight" => Msg::StepTick,
                "ArrowLeft" if e.shift_key() => Msg::BackEvent,
                "ArrowLeft" => Msg::BackTick,
                "?" => Msg::Help(None),
                "Escape" => Msg::Escape,
                _ => return,
            };
            e.prevent_default();
            if key == " " {
                dom::blur_target(&e);
            }
            keys_link.send_message(msg);
        });
        let opts = Options::default();
        let mut app = App {
            tl: Timeline::new(3, opts.clone()),
            scenario: None,
            ui: Ui {
                playing: true,
                speed: 1.0,
                selected_node: None,
                selected_msg: None,
                tab: Tab::Node,
                hidden_kinds: vec![EventKind::Vote, EventKind::Replication],
                theme: Theme::Auto,
                help: false,
                forms: Forms::new(3, opts.seed),
                history: Vec::new(),
                notice: None,
                script_error: None,
                share_link: None,
                embed: false,
                frame_ms: 0.0,
                log_cols: log_view::DEFAULT_COLS,
                step_line: None,
                kinds_touched: false,
                live: String::new(),
            },
            clock,
            last_ts: None,
            carry: 0.0,
            seen_violations: 0,
            frame_start: None,
            revealed_line: None,
            _keys: keys,
            announcer: Announcer::default(),
            announce_timer: None,
            link: Some(ctx.link().clone()),
        };
        app.apply_location();
        // Only what happens from now on is announced.
        app.announcer = Announcer::new(app.tl().sim());
        if app.ui.playing {
            app.clock.request();
        }
        app
    }

    fn update(&mut self, _ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Frame(ts) => return self.frame(ts),
            Msg::TogglePlay => {
                let on = !self.ui.playing;
                self.set_playing(on);
            }
            Msg::Speed(s) => {
                if s.is_finite() && s > 0.0 {
                    self.ui.speed = s;
                }
            }
            Msg::StepTick => {
                self.set_playing(false);
                self.tl_mut().tick(1);
            }
            Msg::StepEvent => {
                self.set_playing(false);
                self.ui.step_line = Some(match change::step_one(self.tl_mut()) {
                    Some(c) => c.line(),
                    None => "Nothing left to run: every node is stopped.".into(),
                });
            }
            Msg::NextChange => {
                self.set_playing(false);
                self.ui.step_line = Some(match change::step_to_next_change(self.tl_mut(), NEXT_CHANGE_LIMIT) {
                    Some(c) => c.line(),
                    None => format!(
                        "No change within the next {NEXT_CHANGE_LIMIT} events: every node is stopped or only timers run."
                    ),
                });
            }
            Msg::Command(c) => match keys::actions(c, self.tl().sim(), &self.ui) {
                Ok(list) => return Component::update(self, _ctx, Msg::Acts(list)),
                Err(e) => self.ui.notice = Some(e),
            },
            Msg::Announce => self.announce_timer = None,
            Msg::BackTick => {
                self.set_playing(false);
                let t = self.tl().sim().now.saturating_sub(TICK_MS);
                self.tl_mut().seek(t);
            }
            Msg::BackEvent => {
                self.set_playing(false);
                self.tl_mut().step_back_event();
            }
            Msg::Seek(t) => {
                let t = t.min(self.tl().head_time());
                self.tl_mut().seek(t);
            }
            Msg::Live => {
                let t = self.tl().head_time();
                self.tl_mut().seek(t);
            }
            Msg::Reset => self.reset(),
            Msg::Act(a) => self.act(a),
            Msg::Acts(list) => {
                for a in list {
                    let before = self.ui.history.len();
                    let last_req = self.tl().sim().requests.keys().last().copied();
                    self.act(a);
                    let failed = self
                        .ui
                        .history
                        .get(before)
                        .is_some_and(|h| h.error.is_some());
                    // A refused request (a member add without a leader) ends the list too:
                    // what follows it (starting that member) would be doomed.
                    let refused = self.tl().sim().requests.values().last().is_some_and(|r| {
                        Some(r.id) != last_req && matches!(r.outcome, Outcome::Rejected { .. })
                    });
                    if failed || refused {
                        break;
                    }
                }
            }
            Msg::Set(name, value) => self.act(Action::Set {
                name: name.to_string(),
                value,
            }),
            Msg::SetLearnerReady(v) => {
                self.ui.forms.learner_ready = None;
                self.act(Action::Set {
                    name: "learner-ready".into(),
                    value: v,
                });
            }
            Msg::SelectNode(n) => {
                self.ui.selected_node = n;
                if n.is_some() {
                    self.ui.tab = Tab::Node;
                }
            }
            Msg::SelectMessage(m) => self.ui.selected_msg = m,
            Msg::Tab(t) => self.ui.tab = t,
            Msg::Field(f, v) => self.ui.forms.set(f, v),
            Msg::PartitionGroup(id, g) => {
                self.ui.forms.groups.insert(id, g);
            }
            Msg::ToggleKind(k) => {
                // Start from what is shown (everything, while paused and untouched).
                self.ui.hidden_kinds = event_log::hidden_kinds(&self.ui);
                self.ui.kinds_touched = true;
                if let Some(i) = self.ui.hidden_kinds.iter().position(|h| *h == k) {
                    self.ui.hidden_kinds.remove(i);
                } else {
                    self.ui.hidden_kinds.push(k);
                }
            }
            Msg::AllKinds(show) => {
                self.ui.kinds_touched = true;
                self.ui.hidden_kinds = if show {
                    Vec::new()
                } else {
                    EventKind::ALL.to_vec()
                };
            }
            Msg::Theme => {
                self.ui.theme = match self.ui.theme {
                    Theme::Auto => Theme::Dark,
                    Theme::Dark => Theme::Light,
                    Theme::Light => Theme::Auto,
                }
            }
            Msg::Help(v) => self.ui.help = v.unwrap_or(!self.ui.help),
            Msg::Escape => {
                if self.ui.help {
                    self.ui.help = false;
                } else {
                    self.ui.selected_msg = None;
                    self.ui.selected_node = None;
                }
            }
            Msg::LoadScript(name, text) => {
                self.load_script(name, &text);
            }
            Msg::LoadPreset => {
                let id = self.ui.forms.preset.clone();
                match presets::find(&id) {
                    Some(p) => {
                        self.load_script(p.title().to_string(), p.text);
                    }
                    None => self.ui.script_error = Some("choose a preset first".into()),
                }
            }
            Msg::LoadPasted => {
                let text = self.ui.forms.paste.clone();
                self.load_script("pasted scenario".into(), &text);
            }
            Msg::ScriptError(e) => self.ui.script_error = Some(e),
            Msg::PlayerStep => {
                if let Some(s) = self.scenario.as_mut() {
                    s.narration = None;
                    if let Some(r) = s.player.step() {
                        if let LineStatus::Narration(text) = r.status {
                            s.narration = Some((r.line, text));
                        }
                    }
                }
                self.watch_violations();
            }
            Msg::PlayerRunTo(line) => self.run_scenario(Some(line), false),
            Msg::PlayerContinue => self.run_scenario(None, true),
            Msg::PlayerClose => {
                if let Some(s) = self.scenario.take() {
                    if let Some(tl) = s.player.into_timeline() {
                        self.tl = tl;
                    }
                }
            }
            Msg::ExportScn => {
                let text = self.tl().export_scn();
                if let Err(e) = dom::download("raftlab-run.scn", "text/plain", &text) {
                    self.ui.notice = Some(e);
                }
            }
            Msg::ExportTrace => {
                let text = self.tl().trace_json();
                if let Err(e) = dom::download("raftlab-trace.json", "application/json", &text) {
                    self.ui.notice = Some(e);
                }
            }
            Msg::ShareLink => {
                let code = share::encode(&self.tl().export_scn());
                let url = format!("{}#run={code}", dom::base_url());
                dom::copy_to_clipboard(&url);
                self.ui.share_link = Some(url);
            }
            Msg::DismissNotice => self.ui.notice = None,
            Msg::MoreLog => self.ui.log_cols = self.ui.log_cols.saturating_mul(2).min(100_000),
            Msg::None => return false,
        }
        self.watch_violations();
        self.announce();
        true
    }

    fn rendered(&mut self, _ctx: &Context<Self>, _first: bool) {
        // Per-frame work (simulation, view, DOM update), shown as data-frame-ms.
        if let (Some(start), Some(end)) = (self.frame_start.take(), now_ms()) {
            self.ui.frame_ms = (end - start).max(0.0);
        }
        // Keep the scenario's current line in view.
        let line = self.scenario.as_ref().and_then(|s| s.player.next_line());
        if line != self.revealed_line {
            self.revealed_line = line;
            dom::reveal_in(".script .lines", "[data-current-line]");
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let tl = self.tl();
        let sim = tl.sim();
        let v = View {
            tl,
            sim,
            ui: &self.ui,
            scenario: self.scenario.as_ref(),
            link: ctx.link(),
        };
        let theme = match self.ui.theme {
            Theme::Auto => "theme-auto",
            Theme::Light => "theme-light",
            Theme::Dark => "theme-dark",
        };
        // The digest of the whole state, for determinism tests; only while paused (it costs
        // a full formatting of the state).
        let fingerprint = if self.ui.playing {
            String::new()
        } else {
            format!("{:016x}", sim.fingerprint())
        };
        let notice = self.ui.notice.as_ref().map(|n| {
            html! {
                <div class="notice" role="alert" data-notice="">
                    <span>{ n.clone() }</span>
                    <button aria-label="dismiss this message" onclick={ctx.link().callback(|_| Msg::DismissNotice)}>{ "✕" }</button>
                </div>
            }
        });
        let live = html! {
            <div class="sr-only" role="status" aria-live="polite" aria-atomic="true" data-live="">{ self.ui.live.clone() }</div>
        };
        let status = html! {
            <span class="sim-state" hidden=true
                data-fingerprint={fingerprint}
                data-now={sim.now.to_string()}
                data-processed={sim.processed.to_string()}
                data-playing={self.ui.playing.to_string()}
                data-head={tl.head_time().to_string()}
                data-frame-ms={format!("{:.2}", self.ui.frame_ms)}></span>
        };
        if self.ui.embed {
            return html! {
                <div class={classes!("app", "embed", theme)}>
                    { status }
                    { live }
                    { notice }
                    <div class="embed-bar">
                        <button class="play" aria-label={if self.ui.playing { "pause" } else { "play" }}
                            onclick={ctx.link().callback(|_| Msg::TogglePlay)}>
                            { if self.ui.playing { "❚❚" } else { "▶" } }
                        </button>
                        <span class="clock">{ format!("t = {:.1} s", sim.now as f64 / 1000.0) }</span>
                        <a href={full_app_url()} target="_blank" rel="noopener">{ "open in raftlab" }</a>
                    </div>
                    { cluster_view::render(&v) }
                    { config_view::render(&v) }
                    { log_view::render(&v) }
                </div>
            };
        }
        html! {
            <div class={classes!("app", theme)}>
                { status }
                { live }
                { toolbar::render(&v) }
                { timeline_bar::render(&v) }
                { notice }
                <main class="main">
                    <section class="left" aria-label="cluster">
                        { player_panel::narration(&v) }
                        <div class="cluster-wrap">
                            { cluster_view::render(&v) }
                            { message_view::detail(&v) }
                        </div>
                        { config_view::render(&v) }
                        { action_bar::render(&v) }
                        { log_view::render(&v) }
                    </section>
                    <section class="right" aria-label="controls and events">
                        { tabs::render(&v) }
                        { progress_view::render(&v) }
                        { event_log::render(&v) }
                    </section>
                </main>
                if self.ui.help { { help::render(&v) } }
            </div>
        }
    }
}
