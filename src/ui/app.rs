//! The app component, the one reducer at the top: it owns the run (a [`Timeline`], or a
//! [`Lesson`] holding one), the animation clock and the view state ([`Ui`]), and turns each
//! [`Msg`] into simulator actions. No protocol logic lives here: everything shown is read
//! from the simulator. The page is laid out in `page.rs`; the address bar is read in
//! `location.rs`.

use yew::prelude::*;

use crate::i18n::{Lang, Msg as Text};
use crate::sim::announce::Announcer;
use crate::sim::change;
use crate::sim::client::Outcome;
use crate::sim::event::EventKind;
use crate::sim::history::Timeline;
use crate::sim::{launch, share, Action, Options, TICK_MS};

use super::dom::{self, FrameClock, KeyListener, WindowListener};
use super::forms::Forms;
use super::keys;
use super::lang_pref;
use super::lazy_text;
use super::lesson::Lesson;
use super::memo::Memos;
use super::pace::Pace;
use super::prefs;
use super::{event_log, log_view, page};

pub use super::state::{LastAction, Msg, Tab, Theme, Ui, View};

/// The app.
pub struct App {
    pub(super) tl: Timeline,
    pub(super) scenario: Option<Lesson>,
    /// The comparison shown in compare mode (see `compare_view`).
    pub(super) compare: Option<super::compare_view::Compare>,
    /// The explore search's worker, while one runs.
    pub(super) explore_worker: Option<super::explore_ctl::ExploreWorker>,
    pub(super) ui: Ui,
    clock: FrameClock,
    last_ts: Option<f64>,
    carry: f64,
    pub(super) seen_violations: usize,
    frame_start: Option<f64>,
    /// The scenario line last scrolled into view.
    revealed_line: Option<usize>,
    /// Where focus goes once the modal help has been drawn (opened) or removed (closed): into
    /// its close button, or back to what had focus when it opened.
    help_focus: HelpFocus,
    /// What had focus when the help opened.
    help_opener: Option<web_sys::Element>,
    /// Focus a render took away goes where the action led (`focus.rs`).
    focus: super::focus::Keeper,
    /// A shared run still being replayed (see `location.rs`).
    pub(super) replay: Option<super::location::Replay>,
    pub(super) dispatch: Callback<Msg>,
    _keys: Option<KeyListener>,
    /// Keeps the logs' newest column in view when the window's size changes.
    _resize: Option<WindowListener>,
    announcer: Announcer,
    /// A wake-up is set for a held-back announcement (the run may be paused, with no frames
    /// coming to flush it).
    announce_waiting: bool,
    /// The panels' kept builds, and the generation their stamps include (see `memo`).
    memos: Memos,
    generation: u64,
    /// The preset texts fetched so far (the browser build carries only their index).
    pub(super) preset_texts: Vec<(&'static str, String)>,
    /// The preset whose text is on its way: only its arrival opens a lesson (a later click
    /// on another lesson wins).
    pub(super) preset_pending: Option<&'static str>,
}

/// Where focus goes after the next render (the modal help's focus, see `App::set_help`).
enum HelpFocus {
    Stay,
    Into,
    Back(Option<web_sys::Element>),
}

/// The help dialog's close button and the toolbar button that opens it.
const HELP_CLOSE: &str = "[data-help-close]";
const HELP_BUTTON: &str = "[data-help-open]";
/// The toolbar's cluster options while they are unfolded.
const CLUSTER_OPTIONS: &str = ".toolbar details.options[open]";
/// The logs' sideways scroller.
const LOG_SCROLL: &str = ".log-scroll";

impl App {
    /// Opens or closes the help. It is modal (`aria-modal`): focus moves into it when it
    /// opens and returns to where it was when it closes (or to the help button); the key
    /// listener keeps Tab inside it meanwhile.
    fn set_help(&mut self, on: bool) {
        if on == self.ui.help {
            return;
        }
        self.ui.help = on;
        self.help_focus = if on {
            self.help_opener = dom::focused();
            HelpFocus::Into
        } else {
            HelpFocus::Back(self.help_opener.take())
        };
    }

    /// The Export tab's three acts, apart from `update` and never inlined there: a first
    /// visit does none of them, so the page's first part goes without them
    /// (scripts/split-wasm.mjs).
    #[inline(never)]
    fn export(&mut self, m: Msg) {
        match m {
            Msg::ExportScn => {
                let text = self.tl().export_scn();
                if let Err(e) = dom::download("raftlab-run.scn", "text/plain", &text) {
                    self.ui.notice = Some(Text::new("ui.note.download_failed").arg("error", e));
                }
            }
            Msg::ExportTrace => {
                let text = self.tl().trace_json();
                if let Err(e) = dom::download("raftlab-trace.json", "application/json", &text) {
                    self.ui.notice = Some(Text::new("ui.note.download_failed").arg("error", e));
                }
            }
            Msg::ShareLink => {
                let code = share::encode(&self.tl().export_scn());
                // The language travels with the link, so the reader sees what the sender saw.
                let url = format!(
                    "{}?lang={}#run={code}",
                    dom::base_url(),
                    self.ui.lang.code()
                );
                dom::copy_to_clipboard(&url);
                self.ui.share_link = Some(url);
            }
            _ => {}
        }
    }

    /// Shows everything in `lang` (its catalog is at hand) and remembers the choice.
    fn set_lang(&mut self, lang: crate::i18n::Lang) {
        self.ui.lang = lang;
        lang_pref::switch_to(lang);
        if let Some(l) = self.scenario.as_mut() {
            l.set_lang(lang);
        }
    }

    pub(super) fn tl(&self) -> &Timeline {
        match self.scenario.as_ref().and_then(|s| s.player.timeline()) {
            Some(t) => t,
            None => &self.tl,
        }
    }

    pub(super) fn tl_mut(&mut self) -> &mut Timeline {
        match self.scenario.as_mut().and_then(|s| s.player.timeline_mut()) {
            Some(t) => t,
            None => &mut self.tl,
        }
    }

    /// The lesson, while it has lines left to play.
    fn live_lesson(&mut self) -> Option<&mut Lesson> {
        self.scenario.as_mut().filter(|l| !l.done())
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
        let r = self.tl_mut().act_worded(action);
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

    /// Starts or stops free play's clock (and a lesson's stretch with it when stopping).
    pub(super) fn set_playing(&mut self, on: bool) {
        self.ui.playing = on;
        if !on {
            if let Some(l) = self.scenario.as_mut() {
                l.set_playing(false);
            }
        }
        self.sync_clock();
    }

    /// Requests animation frames exactly while something plays: nothing runs while paused.
    pub(super) fn sync_clock(&mut self) {
        self.last_ts = None;
        self.carry = 0.0;
        if self.running() {
            self.clock.request();
        } else {
            self.clock.cancel();
        }
    }

    /// Counts `n` violations as already seen (a run loaded with them does not pause again).
    pub(super) fn seen_violations_reset(&mut self, n: usize) {
        self.seen_violations = n;
    }

    /// Pauses on a new invariant violation.
    fn watch_violations(&mut self) {
        let n = self.tl().sim().violations.len();
        if n > self.seen_violations {
            // A violation the lesson is about (the teaching-only unsafe switch) is narrated.
            if !self.tl().sim().opts.unsafe_commit || self.scenario.is_none() {
                self.set_playing(false);
            }
        }
        self.seen_violations = n;
    }

    pub(super) fn reset(&mut self) {
        let f = &self.ui.forms;
        let n = f.reset_n.trim().parse::<usize>().unwrap_or(3).clamp(1, 9);
        let mut opts = self.tl().sim().opts.clone();
        match f.reset_seed.trim().parse::<u64>() {
            Ok(s) => opts.seed = s,
            Err(_) => {
                self.ui.notice =
                    Some(Text::new("ui.note.bad_seed").arg("seed", f.reset_seed.trim()));
                return;
            }
        }
        self.drop_replay();
        self.tl = Timeline::new(n, opts);
        self.scenario = None;
        self.compare = None;
        self.ui.explore.scenario = None;
        self.ui.selected_node = None;
        self.ui.selected_msg = None;
        self.ui.history.clear();
        self.ui.share_link = None;
        self.ui.forms.groups.clear();
        self.seen_violations = 0;
        self.sync_clock();
    }

    /// Shows the loaded run's size and seed in the toolbar's reset fields.
    pub(super) fn sync_reset_form(&mut self, n: usize, seed: u64) {
        self.ui.forms.reset_n = n.to_string();
        self.ui.forms.reset_seed = seed.to_string();
    }

    fn frame(&mut self, ts: f64) -> bool {
        self.clock.arrived();
        if !self.running() {
            self.last_ts = None;
            return false;
        }
        if self.replay.is_some() {
            self.replay_slice();
            self.sync_clock();
            return true;
        }
        let lesson = self.scenario.as_ref().is_some_and(|l| l.playing);
        self.frame_start = now_ms();
        // Wall time since the last frame, capped (a hidden tab gets no frames; coming back
        // does not jump): a slow frame only means more events per frame, never a different
        // run (advance_to processes every event on the way).
        let dt = match self.last_ts {
            Some(last) => (ts - last).clamp(0.0, 500.0),
            None => 0.0,
        };
        self.last_ts = Some(ts);
        if lesson {
            let rate = crate::sim::pace::teaching_rate(self.tl().sim());
            if let Some(l) = self.scenario.as_mut() {
                l.advance(dt * rate * l.speed);
            }
        } else {
            self.carry += dt * self.ui.pace.rate(self.tl().sim());
            let ms = self.carry.floor();
            self.carry -= ms;
            if ms >= 1.0 {
                let target = self.tl().sim().now + ms as u64;
                self.tl_mut().advance_to(target);
            }
        }
        self.watch_violations();
        self.announce();
        if self.running() {
            self.clock.request();
        } else {
            self.last_ts = None;
        }
        true
    }

    /// Whether animation frames are coming: free play, a lesson's stretch or a replay.
    fn running(&self) -> bool {
        self.ui.playing
            || self.scenario.as_ref().is_some_and(|l| l.playing)
            || self.replay.is_some()
    }

    fn toggle_play(&mut self) {
        if let Some(l) = self.scenario.as_ref().filter(|l| !l.done()) {
            let on = !l.playing;
            self.set_lesson_playing(on);
        } else {
            let on = !self.ui.playing;
            self.set_playing(on);
        }
    }

    fn set_presenter(&mut self, on: bool) {
        if self.ui.presenter != on {
            self.ui.presenter = on;
            dom::fullscreen(on);
        }
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
        if let Some(text) = self.announcer.take_in(now, self.ui.lang) {
            self.ui.live = text;
        } else if self.announcer.has_pending() && !self.announce_waiting {
            let dispatch = self.dispatch.clone();
            let wait = crate::sim::announce::MIN_GAP_MS as u32;
            self.announce_waiting = dom::after(wait, move || dispatch.emit(Msg::Announce));
        }
    }
}

/// The page's clock, ms (None outside a browser window).
pub(super) fn now_ms() -> Option<f64> {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
}

fn key_message(e: &web_sys::KeyboardEvent) -> Option<Msg> {
    Some(match e.key().as_str() {
        " " | "Spacebar" => Msg::TogglePlay,
        "ArrowRight" if e.shift_key() => Msg::StepEvent,
        "ArrowRight" => Msg::StepTick,
        "ArrowLeft" if e.shift_key() => Msg::BackEvent,
        "ArrowLeft" => Msg::BackTick,
        "?" => Msg::Help(None),
        "p" | "f" => Msg::Presenter(None),
        "Escape" => Msg::Escape,
        _ => return None,
    })
}

impl Component for App {
    type Message = Msg;
    type Properties = ();

    fn create(ctx: &Context<Self>) -> Self {
        let link = ctx.link().clone();
        let clock = FrameClock::new(move |ts| link.send_message(Msg::Frame(ts)));
        let keys_link = ctx.link().clone();
        let keys = KeyListener::new(move |e: web_sys::KeyboardEvent| {
            // Escape folds the open cluster options (a drop-down over the page), from its seed
            // field too, and leaves focus on their summary.
            if e.key() == "Escape" && !dom::exists(HELP_CLOSE) && dom::fold(CLUSTER_OPTIONS) {
                e.prevent_default();
                return;
            }
            // A key a control below took as its own (the tab bar's arrows) is done.
            if e.default_prevented()
                || dom::from_text_field(&e)
                || e.ctrl_key()
                || e.meta_key()
                || e.alt_key()
            {
                return;
            }
            // A checkbox's Space and a radio group's arrows are its own, not play and step.
            if dom::on_choice(&e)
                && matches!(
                    e.key().as_str(),
                    " " | "Spacebar" | "ArrowRight" | "ArrowLeft" | "ArrowUp" | "ArrowDown"
                )
            {
                return;
            }
            // While the modal help is open the page behind it takes no keys: Tab stays on the
            // dialog's one control, and only Escape and ? (which close it) act.
            if dom::exists(HELP_CLOSE) {
                if e.key() == "Tab" {
                    e.prevent_default();
                    dom::focus(HELP_CLOSE);
                    return;
                }
                if !matches!(e.key().as_str(), "Escape" | "?") {
                    return;
                }
            }
            // Enter or space on a focused node selects it, like a click (not play/pause).
            if matches!(e.key().as_str(), "Enter" | " " | "Spacebar") {
                if let Some(id) = dom::focused_node(&e) {
                    e.prevent_default();
                    keys_link.send_message(Msg::SelectNode(Some(id)));
                    return;
                }
            }
            // Space on a focused button, link or tab presses it (play/pause is Space anywhere
            // else), and focus stays where it was.
            if matches!(e.key().as_str(), " " | "Spacebar") && dom::on_control(&e) {
                return;
            }
            let Some(msg) = key_message(&e).or_else(|| keys::letter(&e.key())) else {
                return;
            };
            e.prevent_default();
            keys_link.send_message(msg);
        });
        let opts = Options::default();
        let mut app = App {
            tl: Timeline::new(3, opts.clone()),
            scenario: None,
            compare: None,
            explore_worker: None,
            ui: Ui {
                playing: true,
                pace: Pace::Teach,
                selected_node: None,
                selected_msg: None,
                tab: Tab::Node,
                hidden_kinds: vec![EventKind::Vote, EventKind::Replication],
                theme: prefs::theme(),
                help: false,
                forms: Forms::new(3, opts.seed),
                history: Vec::new(),
                notice: None,
                script_error: None,
                share_link: None,
                embed: false,
                presenter: false,
                controls: true,
                legend: true,
                welcome: prefs::welcome_due(),
                log_cols: log_view::DEFAULT_COLS,
                lang: Lang::En,
                step_line: None,
                kinds_touched: false,
                live: String::new(),
                explore: Default::default(),
                replaying: None,
            },
            clock,
            last_ts: None,
            carry: 0.0,
            seen_violations: 0,
            frame_start: None,
            revealed_line: None,
            help_focus: HelpFocus::Stay,
            help_opener: None,
            focus: Default::default(),
            replay: None,
            dispatch: ctx.link().callback(|m: Msg| m),
            _keys: keys,
            _resize: WindowListener::new("resize", || dom::follow_tail(LOG_SCROLL)),
            announcer: Announcer::default(),
            announce_waiting: false,
            memos: Memos::default(),
            generation: 0,
            preset_texts: Vec::new(),
            preset_pending: None,
        };
        // `start` fetched the chosen language's catalog before mounting; without it (no
        // network, no offline copy) the page opens in English and says why.
        let chosen = lang_pref::initial();
        if crate::i18n::has_catalog(chosen) {
            app.ui.lang = chosen;
        }
        app.apply_location();
        if app.ui.lang != chosen {
            let why = Text::new("ui.note.lang_unavailable")
                .arg("lang", chosen.native_name())
                .arg("why", Text::new("ui.note.lazy_not_fetched"));
            app.ui.notice = launch::joined([Some(why), app.ui.notice.take()].into_iter().flatten());
        }
        lang_pref::apply_document(app.ui.lang);
        super::probe::register(app.dispatch.clone());
        // Only what happens from now on is announced.
        app.announcer = Announcer::new(app.tl().sim());
        app.sync_clock();
        app
    }

    fn update(&mut self, _ctx: &Context<Self>, msg: Msg) -> bool {
        // A frame only advances the run, and a held-back announcement only feeds the live
        // region; anything else may change what any panel shows.
        if !matches!(
            msg,
            Msg::Frame(_) | Msg::Announce | Msg::Fingerprint | Msg::None
        ) {
            self.generation += 1;
        }
        let action = matches!(
            msg,
            Msg::Act(_) | Msg::Acts(_) | Msg::ProposeForm | Msg::ReadForm
        );
        match msg {
            Msg::Frame(ts) => {
                let changed = self.frame(ts);
                self.sync_compare();
                return changed;
            }
            Msg::TogglePlay => self.toggle_play(),
            Msg::Pace(p) => self.ui.pace = p,
            Msg::StepTick => {
                self.set_playing(false);
                self.tl_mut().tick(1);
            }
            Msg::StepEvent => {
                self.set_playing(false);
                self.ui.step_line = Some(match change::step_one(self.tl_mut()) {
                    Some(c) => c.words(),
                    None => Text::new("ui.tl.nothing_left"),
                });
            }
            Msg::NextChange => {
                self.set_playing(false);
                let c = change::step_to_next_change(self.tl_mut(), NEXT_CHANGE_LIMIT);
                self.ui.step_line = Some(match c {
                    Some(c) => c.words(),
                    None => Text::new("ui.tl.no_change").arg("n", NEXT_CHANGE_LIMIT),
                });
            }
            Msg::Command(c) => match keys::actions(c, self.tl().sim(), &self.ui) {
                Ok(list) => return Component::update(self, _ctx, Msg::Acts(list)),
                Err(e) => self.ui.notice = Some(e),
            },
            Msg::LessonContinue => {
                // Free play has no lesson to continue; a loaded scenario runs to its next pause.
                let m = match self.scenario.as_ref() {
                    Some(l) if l.done() => return false,
                    Some(_) => Msg::LessonPlay(true),
                    None => return false,
                };
                self.lesson_update(m);
            }
            Msg::Announce => self.announce_waiting = false,
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
                if let Some(l) = self.live_lesson() {
                    l.set_playing(false);
                }
                let t = t.min(self.tl().head_time());
                self.tl_mut().seek(t);
            }
            Msg::Live => {
                let t = self.tl().head_time();
                self.tl_mut().seek(t);
            }
            Msg::Reset => self.reset(),
            Msg::RandomSeed => {
                self.ui.forms.reset_seed = super::dom::random_seed().to_string();
                self.reset();
            }
            Msg::Act(a) => self.act(a),
            Msg::ProposeForm => self.act(super::client_panel::put_action(&self.ui.forms)),
            Msg::ReadForm => self.act(super::client_panel::read_action(&self.ui.forms)),
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
                    self.ui.controls = true;
                }
            }
            Msg::SelectMessage(m) => self.ui.selected_msg = m,
            Msg::Tab(t) => self.ui.tab = t,
            Msg::Field(f, v) => self.ui.forms.set(f, v),
            Msg::PartitionGroup(id, g) => {
                self.ui.forms.set_group(id, g);
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
            Msg::Lang(lang) => {
                if crate::i18n::has_catalog(lang) {
                    self.set_lang(lang);
                } else {
                    // The browser build fetches the Chinese catalog the first time it is
                    // chosen; the page switches when it is here.
                    let d = self.dispatch.clone();
                    lazy_text::catalog(lang, move |r| d.emit(Msg::LangReady(lang, r)));
                }
            }
            Msg::LangReady(lang, r) => match r {
                Ok(()) => self.set_lang(lang),
                Err(why) => {
                    super::lang_pref::show_current(self.ui.lang);
                    self.ui.notice = Some(
                        Text::new("ui.note.lang_unavailable")
                            .arg("lang", lang.native_name())
                            .arg("why", why),
                    )
                }
            },
            Msg::Theme => {
                self.ui.theme = match self.ui.theme {
                    Theme::Auto => Theme::Dark,
                    Theme::Dark => Theme::Light,
                    Theme::Light => Theme::Auto,
                };
                prefs::remember_theme(self.ui.theme);
            }
            Msg::Help(v) => self.set_help(v.unwrap_or(!self.ui.help)),
            Msg::Escape => {
                if self.ui.help {
                    self.set_help(false);
                } else if self.ui.presenter {
                    self.set_presenter(false);
                } else {
                    self.ui.selected_msg = None;
                    self.ui.selected_node = None;
                }
            }
            m @ (Msg::LoadScript(..)
            | Msg::LoadPreset
            | Msg::LoadPasted
            | Msg::ScriptError(_)
            | Msg::PlayerStep
            | Msg::PlayerRunTo(_)
            | Msg::PlayerContinue
            | Msg::PlayerClose
            | Msg::StartLesson(_)
            | Msg::PresetText(..)
            | Msg::LessonPlay(_)
            | Msg::LessonBack
            | Msg::LessonReplay
            | Msg::LessonSpeed(_)) => self.lesson_update(m),
            Msg::Presenter(v) => {
                let on = v.unwrap_or(!self.ui.presenter);
                self.set_presenter(on);
            }
            Msg::Controls(v) => self.ui.controls = v.unwrap_or(!self.ui.controls),
            Msg::Legend(v) => self.ui.legend = v.unwrap_or(!self.ui.legend),
            Msg::Welcome(on) => {
                self.ui.welcome = on;
                if !on {
                    prefs::welcome_closed();
                }
            }
            m @ (Msg::ExportScn | Msg::ExportTrace | Msg::ShareLink) => self.export(m),
            Msg::DismissNotice => self.ui.notice = None,
            Msg::CancelReplay => self.cancel_replay(),
            Msg::MoreLog => self.ui.log_cols = self.ui.log_cols.saturating_mul(2).min(100_000),
            Msg::Explore(m) => self.explore_update(m),
            Msg::Fingerprint => {
                super::probe::answer(self.tl().sim().fingerprint());
                return false;
            }
            Msg::None => return false,
        }
        self.watch_violations();
        self.sync_compare();
        self.announce();
        // While the clock runs, an action is drawn by the next animation frame, due within
        // milliseconds: drawn at once, the browser would lay out and pre-paint the page for
        // it, then (it updates hover state before running a frame's callbacks) do all of it
        // again for the frame, twice the work of the heaviest frames (a write's).
        if action && self.running() {
            self.clock.request();
            return false;
        }
        true
    }

    fn rendered(&mut self, _ctx: &Context<Self>, _first: bool) {
        // Per-frame work (simulation, view, DOM update) and the build counts, written here
        // rather than by the view: a value the view showed would be one render late, and the
        // next render, whatever caused it (a held-back announcement's timer while paused),
        // would change the page with nothing having moved.
        let frame_ms = self
            .frame_start
            .take()
            .zip(now_ms())
            .map(|(start, end)| crate::sim::decimal::fixed((end - start).max(0.0), 2));
        dom::set_status(frame_ms.as_deref(), &self.memos.builds());
        match std::mem::replace(&mut self.help_focus, HelpFocus::Stay) {
            HelpFocus::Stay => {}
            HelpFocus::Into => {
                dom::focus(HELP_CLOSE);
            }
            // Opened from nowhere (the ? key, nothing focused): focus goes back to nowhere,
            // the page, where Space plays and pauses again; not to a button Space would press.
            HelpFocus::Back(None) => self.focus.forget(),
            HelpFocus::Back(opener) => dom::focus_back(opener, HELP_BUTTON),
        }
        self.focus.after_render(self.preset_pending.is_some());
        // The logs move sideways by scrolling, which repaints nothing (see `log_view::render`).
        dom::follow_tail(LOG_SCROLL);
        // Keep the scenario's current line in view (inside its own scroll box only).
        let line = self.scenario.as_ref().and_then(|s| s.player.next_line());
        if line != self.revealed_line {
            self.revealed_line = line;
            dom::reveal_in(".script .lines", "[data-current-line]");
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let tl = self.tl();
        let v = View {
            tl,
            sim: tl.sim(),
            ui: &self.ui,
            scenario: self.scenario.as_ref(),
            compare: self.compare.as_ref(),
            link: ctx.link(),
            dispatch: self.dispatch.clone(),
            memos: &self.memos,
            generation: self.generation,
        };
        page::render(&v)
    }
}
