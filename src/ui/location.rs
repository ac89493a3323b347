//! The page address: `?embed=1`, `?preset=ID`, `?n=`, `?seed=`, `?speed=`, `?paused=1`,
//! `?theme=`, `?present=1`, a shared run in `#run=...`, and `compare=OPT=V,...` (compare
//! mode for the preset or shared run), validated by `sim::launch`. Bad values give one
//! notice, never a panic, and the controls show the values in force.

use crate::i18n::Msg as Text;
use crate::sim::launch::{self, Source, ThemeChoice};
use crate::sim::player::Player;
use crate::sim::scenario::Script;

use super::app::{App, Theme};
use super::compare_view;
use super::dom;
use super::lazy_text::Then;
use super::pace::{Pace, FIXED};

impl App {
    /// Applies the page address's settings (query and hash both count), validated once by
    /// [`launch::parse`]: every control shows the value in force, and every bad parameter is
    /// named in one notice.
    pub(super) fn apply_location(&mut self) {
        let (query, hash) = dom::location_parts();
        // The speed selector's values: "teach" and the fixed speeds.
        let mut offered = vec!["teach".to_string()];
        offered.extend(FIXED.iter().map(|s| crate::sim::decimal::shortest(*s)));
        let offered: Vec<&str> = offered.iter().map(String::as_str).collect();
        let l = launch::parse(&query, &hash, &offered);
        self.ui.embed = l.embed;
        self.ui.presenter = l.present;
        if let Some(p) = l.speed.as_deref().and_then(Pace::parse) {
            self.ui.pace = p;
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
        if self.ui.embed || self.ui.presenter {
            self.ui.welcome = false;
        }
        if self.ui.embed {
            // A small frame has no room for it; the reader of an embed can open it.
            self.ui.legend = false;
        }
        let mut problems = l.problems.clone();
        let compare_with = l.compare.as_deref().map(compare_view::parse_with);
        if let Some(Err(e)) = &compare_with {
            problems.push(e.clone());
        }
        let compare_with = compare_with.and_then(Result::ok);
        match &l.source {
            Source::Fresh => {}
            Source::Shared(text) => {
                self.ui.welcome = false;
                self.load_shared(text);
                if let Some(w) = &compare_with {
                    self.start_compare(text, w, false);
                }
            }
            Source::Preset(id) => {
                // The lesson opens paused at its start card once its text is here; until
                // then the fresh cluster waits, and no welcome box comes and goes.
                self.ui.playing = false;
                self.ui.welcome = false;
                let then = compare_with.map_or(Then::Lesson, Then::Compare);
                self.open_preset(id, then);
            }
        }
        if let Some(mine) = launch::joined(problems) {
            self.ui.notice =
                launch::joined([Some(mine), self.ui.notice.take()].into_iter().flatten());
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
                        self.seen_violations_reset(tl.sim().violations.len());
                        self.tl = tl;
                        self.scenario = None;
                        self.ui.playing = false;
                        if failures > 0 {
                            self.ui.notice =
                                Some(Text::new("ui.note.share_failures").arg("n", failures));
                        }
                    }
                    None => self.ui.notice = Some(Text::new("ui.note.share_no_cluster")),
                }
            }
            Err(e) => {
                self.ui.notice =
                    Some(Text::new("ui.note.share_invalid").arg("error", e.to_string()));
            }
        }
    }
}

/// This page without embed mode (keeping a shared run in the hash and the lesson).
pub fn full_app_url() -> String {
    let (query, hash) = dom::location_parts();
    let keep = |s: &str| -> Vec<String> {
        dom::pairs(s)
            .into_iter()
            .filter(|(k, _)| k != "embed")
            .map(|(k, v)| if v.is_empty() { k } else { format!("{k}={v}") })
            .collect()
    };
    let q = keep(&query);
    let h = keep(&hash);
    let mut url = dom::base_url();
    if !q.is_empty() {
        url.push('?');
        url.push_str(&q.join("&"));
    }
    if !h.is_empty() {
        url.push('#');
        url.push_str(&h.join("&"));
    }
    url
}
