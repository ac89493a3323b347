//! The app's state apart from the run itself, and the messages (actions) that change it. The
//! app component is the one reducer: every click becomes a [`Msg`], handled in `app.rs`.

use yew::html::Scope;
use yew::Callback;

use crate::raft::NodeId;
use crate::sim::event::EventKind;
use crate::sim::history::Timeline;
use crate::sim::{Action, Sim};

use super::app::App;
use super::forms::{Field, Forms};
use super::keys::Command;
use super::lesson::Lesson;
use super::pace::Pace;

/// The right-hand panel shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Node,
    Network,
    Members,
    Client,
    Scenario,
    Share,
    Explore,
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
    pub error: Option<crate::i18n::Msg>,
    pub at: u64,
}

/// Everything about the view that is not the run itself.
pub struct Ui {
    /// Free play's clock runs (a lesson has its own `playing`).
    pub playing: bool,
    /// Free play's speed.
    pub pace: Pace,
    pub selected_node: Option<NodeId>,
    pub selected_msg: Option<u64>,
    pub tab: Tab,
    pub hidden_kinds: Vec<EventKind>,
    pub theme: Theme,
    pub help: bool,
    pub forms: Forms,
    pub history: Vec<LastAction>,
    pub notice: Option<crate::i18n::Msg>,
    pub script_error: Option<crate::i18n::Msg>,
    pub share_link: Option<String>,
    pub embed: bool,
    /// Only the picture, the narration and the step controls (key `p`).
    pub presenter: bool,
    /// The right-hand column (tabs, progress, events) is shown.
    pub controls: bool,
    /// The legend on the drawing is shown.
    pub legend: bool,
    /// The welcome card (start lesson 1, the lesson list) is shown.
    pub welcome: bool,
    /// How many log columns (the newest) are drawn.
    pub log_cols: u64,
    /// The language everything is shown in.
    pub lang: crate::i18n::Lang,
    /// The last step's event and what it changed, worded when shown.
    pub step_line: Option<crate::i18n::Msg>,
    /// Whether the person changed the event filters (until then, stepping shows every kind).
    pub kinds_touched: bool,
    /// What the polite live region says now.
    pub live: String,
    /// The Explore tab's form and its search's state.
    pub explore: super::explore_panel::ExploreUi,
    /// A shared run being replayed over several frames.
    pub replaying: Option<Replaying>,
}

/// How far a shared run's replay got, for its banner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replaying {
    /// Simulated ms so far (of the comparison's runs once `comparing`).
    pub done: u64,
    /// The most the run can take, ms (`Script::time_bound_ms`).
    pub bound: u64,
    /// The run is replayed; a `compare=` link's two runs are now being played.
    pub comparing: bool,
}

/// Messages to the app: everything a person (or the animation clock) can do.
#[derive(Clone)]
pub enum Msg {
    Frame(f64),
    TogglePlay,
    Pace(Pace),
    StepTick,
    StepEvent,
    /// Steps past quiet timer ticks to the next event that changes something.
    NextChange,
    /// A letter shortcut that needs the current state to become actions.
    Command(Command),
    /// Continue the loaded lesson or scenario to its next pause (key `l`).
    LessonContinue,
    /// A held-back live-region announcement is due.
    Announce,
    BackTick,
    BackEvent,
    Seek(u64),
    Live,
    Reset,
    /// Reset with a seed picked at random (the toolbar's dice), shown in the seed field.
    RandomSeed,
    Act(Action),
    Acts(Vec<Action>),
    /// The Client tab's write, as its form stands when the message is handled.
    ProposeForm,
    /// The Client tab's read, as its form stands when the message is handled.
    ReadForm,
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
    /// Show everything in this language (the run, selection and lesson position stay).
    Lang(crate::i18n::Lang),
    /// The catalog of a language asked for arrived (and is installed), or could not be had.
    LangReady(crate::i18n::Lang, Result<(), crate::i18n::Msg>),
    Help(Option<bool>),
    Escape,
    LoadScript(String, String),
    LoadPreset,
    LoadPasted,
    ScriptError(crate::i18n::Msg),
    PlayerStep,
    PlayerRunTo(usize),
    PlayerContinue,
    PlayerClose,
    /// Opens preset ID as a lesson and shows its start card.
    StartLesson(&'static str),
    /// Preset ID's text arrived (or could not be had): see `lazy_text`.
    PresetText(
        &'static str,
        super::lazy_text::Then,
        Result<String, crate::i18n::Msg>,
    ),
    /// Plays (or pauses) the lesson's stretch up to its next narration.
    LessonPlay(bool),
    /// Back to the previous narration.
    LessonBack,
    /// Plays the stretch leading to the narration shown once more.
    LessonReplay,
    /// The lesson's speed, a multiple of the teaching pace.
    LessonSpeed(f64),
    Presenter(Option<bool>),
    Controls(Option<bool>),
    Legend(Option<bool>),
    Welcome(bool),
    ExportScn,
    ExportTrace,
    ShareLink,
    DismissNotice,
    /// Stops replaying a shared run (the fresh cluster stays).
    CancelReplay,
    MoreLog,
    /// The Explore tab (its form, the worker's reports).
    Explore(super::explore_panel::ExploreMsg),
    /// A test asks for the run's fingerprint (`probe`); nothing on the page changes.
    Fingerprint,
    None,
}

/// What the panels render from: the run at the moment viewed, and the view state.
pub struct View<'a> {
    pub tl: &'a Timeline,
    pub sim: &'a Sim,
    pub ui: &'a Ui,
    pub scenario: Option<&'a Lesson>,
    /// The comparison shown in two panes instead of the single drawing, if any.
    pub compare: Option<&'a super::compare_view::Compare>,
    pub link: &'a Scope<App>,
    /// Sends a message to the app; the same callback every frame, so components that take
    /// it as an input still compare equal when nothing else changed.
    pub dispatch: Callback<Msg>,
    /// The panels' kept builds (see `memo`).
    pub memos: &'a super::memo::Memos,
    /// Bumped by every message but the animation frame: a panel's stamp includes it, so
    /// anything a person does rebuilds every panel.
    pub generation: u64,
}

impl View<'_> {
    /// Whether the clock is running (free play, or a lesson's stretch).
    pub fn running(&self) -> bool {
        match self.scenario {
            Some(l) if !l.done() => l.playing,
            _ => self.ui.playing,
        }
    }
}
