//! The app's lesson and scenario messages: loading a scenario or preset as a lesson, the
//! script panel's instant controls, and the lesson dock's play / back / replay / speed.

use crate::i18n::Msg as Text;
use crate::sim::player::Player;
use crate::sim::presets;
use crate::sim::scenario::{Script, Stmt};

use super::app::{App, Msg, Tab};
use super::lazy_text::{self, Then};
use super::lesson::Lesson;

impl App {
    /// Plays or pauses the lesson's stretch.
    pub(super) fn set_lesson_playing(&mut self, on: bool) {
        self.ui.playing = false;
        if on && !self.tl().at_head() {
            // A lesson continues from where its script left off, not from a moment scrubbed to.
            let head = self.tl().head_time();
            self.tl_mut().seek(head);
        }
        if let Some(l) = self.scenario.as_mut() {
            l.set_playing(on);
        }
        self.sync_clock();
    }

    /// Loads scenario text as a lesson and runs its `cluster` line; paused at its start card.
    pub(super) fn load_script(
        &mut self,
        name: String,
        text: &str,
        preset: Option<&'static presets::Preset>,
    ) -> bool {
        match Script::parse(text) {
            Ok(script) => {
                let declared = script.lines.iter().find_map(|l| match &l.stmt {
                    Stmt::Explore(s) => Some(s.clone()),
                    _ => None,
                });
                let mut player = Player::new(script);
                player.lang = self.ui.lang;
                // The first line is always `cluster`: run it so the new cluster shows at once.
                player.step();
                if let Some(tl) = player.timeline() {
                    self.sync_reset_form(tl.initial_size(), tl.initial_options().seed);
                }
                // The Explore tab can start from this scenario, with its `explore` line's
                // settings (presets 25-27) in the form.
                if let Some(spec) = &declared {
                    self.ui.explore.prefill(spec);
                }
                self.ui.explore.scenario = Some(text.to_string());
                self.ui.explore.from_scenario = true;
                self.drop_replay();
                self.scenario = Some(Lesson::new(player, name, preset, text.to_string()));
                self.start_compare(text, &[]);
                self.ui.script_error = None;
                self.ui.selected_node = None;
                self.ui.selected_msg = None;
                self.ui.history.clear();
                self.ui.tab = Tab::Scenario;
                self.ui.welcome = false;
                self.seen_violations = 0;
                self.set_playing(false);
                true
            }
            Err(e) => {
                self.ui.script_error = Some(
                    Text::new("ui.note.script_error")
                        .arg("name", name.as_str())
                        .arg("line", e.line)
                        .arg("col", e.col)
                        .arg("error", e.message.clone()),
                );
                self.ui.tab = Tab::Scenario;
                false
            }
        }
    }

    /// Opens preset `id` as a lesson, then does what `then` says; its text is fetched first
    /// when this page has not fetched it yet, so the lesson may open a moment later.
    pub(super) fn open_preset(&mut self, id: &str, then: Then) {
        let Some(p) = presets::find(id) else {
            self.ui.notice = Some(Text::new("ui.note.no_preset").arg("id", id));
            return;
        };
        self.ui.forms.preset = p.id.to_string();
        let kept = self.preset_texts.iter().find(|(k, _)| *k == p.id);
        if let Some(text) = kept.map(|(_, t)| t.clone()) {
            self.preset_pending = None;
            self.preset_ready(p, then, &text);
            return;
        }
        self.preset_pending = Some(p.id);
        let dispatch = self.dispatch.clone();
        lazy_text::preset(p, move |r| dispatch.emit(Msg::PresetText(p.id, then, r)));
    }

    /// Preset `p`'s text is at hand: open it.
    fn preset_ready(&mut self, p: &'static presets::Preset, then: Then, text: &str) {
        let name = p.title_in(self.ui.lang).to_string();
        if self.load_script(name, text, Some(p)) {
            if let Then::Compare(with) = then {
                self.start_compare(text, &with);
            }
        }
    }

    /// Preset `id`'s text arrived, or could not be had (the app goes on as it was, with a
    /// notice saying why).
    fn preset_arrived(&mut self, id: &'static str, then: Then, r: Result<String, Text>) {
        let wanted = self.preset_pending == Some(id);
        match r {
            Ok(text) => {
                if !self.preset_texts.iter().any(|(k, _)| *k == id) {
                    self.preset_texts.push((id, text.clone()));
                }
                if let (true, Some(p)) = (wanted, presets::find(id)) {
                    self.preset_pending = None;
                    self.preset_ready(p, then, &text);
                }
            }
            Err(e) => {
                if wanted {
                    self.preset_pending = None;
                    self.ui.notice = Some(
                        Text::new("ui.note.preset_unavailable")
                            .arg("id", id)
                            .arg("why", e),
                    );
                }
            }
        }
    }

    /// Handles the lesson and scenario messages.
    pub(super) fn lesson_update(&mut self, msg: Msg) {
        match msg {
            Msg::LoadScript(name, text) => {
                self.load_script(name, &text, None);
            }
            Msg::LoadPreset => {
                let id = self.ui.forms.preset.clone();
                if presets::find(&id).is_some() {
                    self.open_preset(&id, Then::Lesson);
                } else {
                    self.ui.script_error = Some(Text::new("ui.note.choose_preset"));
                }
            }
            Msg::LoadPasted => {
                let text = self.ui.forms.paste.clone();
                let name = crate::tr!(self.ui.lang, "ui.note.pasted").to_string();
                self.load_script(name, &text, None);
            }
            Msg::ScriptError(e) => {
                self.ui.script_error = Some(Text::new("ui.note.file_unreadable").arg("error", e))
            }
            Msg::PlayerStep => {
                self.set_playing(false);
                if let Some(l) = self.scenario.as_mut() {
                    let next = l.player.next_line().map_or(usize::MAX, |n| n + 1);
                    l.run_lines_now(next);
                }
            }
            Msg::PlayerRunTo(line) => {
                self.set_playing(false);
                if let Some(l) = self.scenario.as_mut() {
                    l.run_lines_now(line);
                }
            }
            Msg::PlayerContinue => {
                self.set_playing(false);
                if let Some(l) = self.scenario.as_mut() {
                    l.run_to_narration_now();
                }
            }
            Msg::PlayerClose => {
                if let Some(s) = self.scenario.take() {
                    if let Some(tl) = s.player.into_timeline() {
                        self.tl = tl;
                    }
                }
                self.sync_clock();
            }
            Msg::StartLesson(id) => self.open_preset(id, Then::Lesson),
            Msg::PresetText(id, then, r) => self.preset_arrived(id, then, r),
            Msg::LessonPlay(on) => self.set_lesson_playing(on),
            Msg::LessonBack => {
                if let Some(l) = self.scenario.as_mut() {
                    let k = l.step().saturating_sub(1);
                    l.back_to(k);
                }
                self.seen_violations = self.tl().sim().violations.len();
                self.sync_clock();
            }
            Msg::LessonReplay => {
                if let Some(l) = self.scenario.as_mut() {
                    l.replay_step();
                }
                self.seen_violations = self.tl().sim().violations.len();
                self.ui.playing = false;
                self.sync_clock();
            }
            Msg::LessonSpeed(s) => {
                if let Some(l) = self.scenario.as_mut() {
                    if s.is_finite() && s > 0.0 {
                        l.speed = s;
                    }
                }
            }
            _ => {}
        }
    }
}
