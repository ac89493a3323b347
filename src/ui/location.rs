//! The page address: `?embed=1`, `?preset=ID`, `?n=`, `?seed=`, `?speed=`, `?paused=1`,
//! `?theme=`, `?present=1`, a shared run in `#run=...`, and `compare=OPT=V,...` (compare
//! mode for the preset or shared run), validated by `sim::launch`. Bad values give one
//! notice, never a panic, and the controls show the values in force.

use crate::i18n::Msg as Text;
use crate::sim::launch::{self, Source, ThemeChoice};
use crate::sim::player::{PacedStop, Player};
use crate::sim::scenario::Script;

use super::app::{now_ms, App, Theme};
use super::compare_view::{self, Compare};
use super::dom;
use super::lazy_text::Then;
use super::pace::{Pace, FIXED};
use super::state::Replaying;

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
                self.load_shared(text, compare_with);
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

    /// Replays a shared run to its end and keeps it as the free run; with `compare`, then
    /// plays the `compare=` link's two runs and shows them. Both go a slice per animation
    /// frame ([`App::replay_slice`]): a short link can ask for hours of simulated time (64
    /// nodes, a million ticks: half a minute of work), and a page that ran it at once stayed
    /// blank and deaf until it was done. A usual run ends within the first slice, before the
    /// page is first drawn.
    fn load_shared(&mut self, text: &str, compare: Option<Vec<(String, String)>>) {
        match Script::parse(text) {
            Ok(script) => {
                let bound = script.time_bound_ms();
                self.replay = Some(Replay::Run {
                    player: Box::new(Player::new(script)),
                    then: compare.map(|w| (text.to_string(), w)),
                });
                self.ui.replaying = Some(Replaying {
                    done: 0,
                    bound,
                    comparing: false,
                });
                self.ui.playing = false;
                self.replay_slice();
                self.sync_clock();
            }
            Err(e) => {
                self.ui.notice =
                    Some(Text::new("ui.note.share_invalid").arg("error", e.to_string()));
            }
        }
    }

    /// Replays the shared run (or plays its comparison) for about one frame's worth of
    /// work, or to its end, then shows how far it got. At the run's end it becomes the free
    /// run; at the comparison's end compare mode shows it.
    pub(super) fn replay_slice(&mut self) {
        let (end, now) = match self.replay.as_mut() {
            None => return,
            Some(Replay::Run { player, .. }) => (
                within_frame(|| matches!(player.run_for(SLICE_MS).stop, PacedStop::End)),
                player.timeline().map_or(0, |tl| tl.sim().now),
            ),
            Some(Replay::Compare(c)) => (within_frame(|| c.play_for(SLICE_MS)), c.now()),
        };
        if !end {
            if let Some(r) = self.ui.replaying.as_mut() {
                r.done = now;
                r.bound = r.bound.max(now);
            }
            return;
        }
        match self.replay.take() {
            Some(Replay::Run { player, then }) => self.replayed(*player, then),
            Some(Replay::Compare(c)) => {
                self.ui.replaying = None;
                self.compare = Some(*c);
            }
            None => {}
        }
    }

    /// The shared run has been replayed: it becomes the free run, and its comparison, when
    /// the link asked for one, starts playing.
    fn replayed(&mut self, player: Player, then: Option<(String, Vec<(String, String)>)>) {
        // The comparison plays the same script: the same bound.
        let bound = self.ui.replaying.take().map_or(0, |r| r.bound);
        let failures = player.failures().len();
        match player.into_timeline() {
            Some(tl) => {
                self.sync_reset_form(tl.initial_size(), tl.initial_options().seed);
                self.seen_violations_reset(tl.sim().violations.len());
                self.tl = tl;
                self.scenario = None;
                self.ui.playing = false;
                if failures > 0 {
                    self.ui.notice = Some(Text::new("ui.note.share_failures").arg("n", failures));
                }
            }
            None => self.ui.notice = Some(Text::new("ui.note.share_no_cluster")),
        }
        let Some((text, with)) = then else {
            return;
        };
        if let Some(c) = self.compare_for_shared(&text, &with) {
            self.replay = Some(Replay::Compare(Box::new(c)));
            self.ui.replaying = Some(Replaying {
                done: 0,
                bound,
                comparing: true,
            });
            self.replay_slice();
        }
    }

    /// Stops a shared run's replay, or its comparison's; the fresh cluster (or the run
    /// replayed so far, when its comparison is stopped) stays, paused.
    pub(super) fn cancel_replay(&mut self) {
        let key = match self.replay {
            Some(Replay::Run { .. }) => "ui.note.replay_cancelled",
            Some(Replay::Compare(_)) => "ui.note.compare_cancelled",
            None => return,
        };
        self.drop_replay();
        self.ui.notice = Some(Text::new(key));
        self.sync_clock();
    }

    /// Forgets a shared run still replaying. Called wherever a new run replaces the free run
    /// (a reset, a lesson or scenario opened), so the replay cannot take the page over when
    /// it would have ended.
    pub(super) fn drop_replay(&mut self) {
        self.replay = None;
        self.ui.replaying = None;
    }
}

/// A shared run's replay in progress, played a slice per animation frame.
pub(super) enum Replay {
    /// The run itself; then, for a `compare=` link, its comparison (the run's text and the
    /// options to compare with).
    Run {
        player: Box<Player>,
        then: Option<(String, Vec<(String, String)>)>,
    },
    /// The comparison's two runs, shown once played to their end.
    Compare(Box<Compare>),
}

/// Runs `piece` (a slice of simulated time; true once the work is over) until the work is
/// over or the frame's share of wall time is spent; returns whether the work is over.
fn within_frame(mut piece: impl FnMut() -> bool) -> bool {
    let start = now_ms();
    loop {
        if piece() {
            return true;
        }
        if start.zip(now_ms()).map_or(0.0, |(s, e)| e - s) >= FRAME_WORK_MS {
            return false;
        }
    }
}

/// Simulated time per piece of a replay, ms: 10 ticks, a millisecond or two of work for 64
/// nodes in the browser.
const SLICE_MS: u64 = 1_000;

/// Wall time a replay may take from each frame, ms: the page still draws and answers.
const FRAME_WORK_MS: f64 = 30.0;

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
