//! A lesson being played: a scenario [`Player`] whose stretches between two narrations play
//! over many animation frames at a teaching pace, with the narration shown, "step k of n",
//! back / replay of a step, and an end card. No yew in here: the app drives it per frame.

use crate::sim::player::{LineStatus, PacedStop, Player};
use crate::sim::presets::Preset;
use crate::sim::scenario::Stmt;

/// Lesson speeds: multiples of the teaching pace.
pub const LESSON_SPEEDS: [f64; 4] = [0.5, 1.0, 2.0, 4.0];

/// A scenario loaded as a lesson.
pub struct Lesson {
    /// The run, line by line.
    pub player: Player,
    /// What the lesson is called.
    pub name: String,
    /// The preset it came from (for the recap and "next lesson"), if any.
    pub preset: Option<&'static Preset>,
    /// The scenario text (the recap is one of its header lines).
    source: String,
    /// The narration being shown: (line index, text).
    pub narration: Option<(usize, String)>,
    /// Whether a stretch is playing (frames advance it).
    pub playing: bool,
    /// Multiple of the teaching pace.
    pub speed: f64,
    /// The player as it was when each narration was reached (index k: narration k, 1-based;
    /// index 0: before the first line after `cluster`). Back and replay restore these; a
    /// lesson's run is short, so a copy per narration is cheap.
    marks: Vec<Player>,
    /// Simulated ms owed from earlier frames (a frame's budget is rarely a whole ms).
    carry: f64,
}

impl Lesson {
    /// A lesson from a player whose `cluster` line has run.
    pub fn new(
        player: Player,
        name: String,
        preset: Option<&'static Preset>,
        source: String,
    ) -> Lesson {
        Lesson {
            marks: vec![player.clone()],
            player,
            name,
            preset,
            source,
            narration: None,
            playing: false,
            speed: 1.0,
            carry: 0.0,
        }
    }

    /// How many narrations the script has.
    pub fn steps(&self) -> usize {
        self.player
            .script
            .lines
            .iter()
            .filter(|l| matches!(l.stmt, Stmt::Say(_)))
            .count()
    }

    /// How many narrations have been reached (0 before the first).
    pub fn step(&self) -> usize {
        self.marks.len() - 1
    }

    /// Whether every line has run.
    pub fn done(&self) -> bool {
        self.player.done()
    }

    /// Whether nothing has been played yet.
    pub fn at_start(&self) -> bool {
        self.marks.len() == 1 && self.player.results().len() <= 1 && !self.playing
    }

    /// Plays (or pauses) the stretch up to the next narration.
    pub fn set_playing(&mut self, on: bool) {
        self.playing = on && !self.done();
        self.carry = 0.0;
    }

    /// Advances by `sim_ms` of simulated time (fractions carry over). Returns true when the
    /// lesson stopped on a narration or at its end in this call.
    pub fn advance(&mut self, sim_ms: f64) -> bool {
        if !self.playing {
            return false;
        }
        self.carry += sim_ms.max(0.0);
        let budget = self.carry.floor();
        self.carry -= budget;
        let r = self.player.run_for(budget as u64);
        for f in &r.finished {
            if let LineStatus::Narration(text) = &f.status {
                self.narration = Some((f.line, text.clone()));
            }
        }
        match r.stop {
            PacedStop::Budget => false,
            PacedStop::Narration => {
                self.playing = false;
                self.marks.push(self.player.clone());
                true
            }
            PacedStop::End => {
                self.playing = false;
                true
            }
        }
    }

    /// Runs every line up to the next narration (or the end) at once, as the script panel's
    /// "run to next pause" does.
    pub fn run_to_narration_now(&mut self) {
        self.playing = true;
        while self.playing {
            self.advance(1e12);
        }
    }

    /// Runs lines at once until line `stop` is next (narrations reached on the way count as
    /// steps).
    pub fn run_lines_now(&mut self, stop: usize) {
        while self.player.next_line().is_some_and(|n| n < stop) {
            let Some(r) = self.player.step() else { break };
            if let LineStatus::Narration(text) = r.status {
                self.narration = Some((r.line, text));
                self.marks.push(self.player.clone());
            }
        }
        self.playing = false;
    }

    /// Reports narration in `lang` from now on, and rewords the narration shown. The run,
    /// the position and the marks stay as they are.
    pub fn set_lang(&mut self, lang: crate::i18n::Lang) {
        self.player.lang = lang;
        for m in &mut self.marks {
            m.lang = lang;
        }
        if let Some((idx, text)) = self.narration.as_mut() {
            if let Some(t) = self
                .player
                .script
                .lines
                .get(*idx)
                .and_then(|l| l.narration(lang))
            {
                *text = t.to_string();
            }
        }
    }

    /// Back to narration `k` (0: the start), paused there.
    pub fn back_to(&mut self, k: usize) {
        let k = k.min(self.step());
        self.marks.truncate(k + 1);
        self.player = self.marks[k].clone();
        self.narration = if k == 0 {
            None
        } else {
            self.player
                .results()
                .iter()
                .rev()
                .find_map(|r| match &r.status {
                    LineStatus::Narration(t) => Some((r.line, t.clone())),
                    _ => None,
                })
        };
        self.playing = false;
        self.carry = 0.0;
    }

    /// Plays the stretch that led to the narration shown once more.
    pub fn replay_step(&mut self) {
        let k = self.step();
        if k == 0 {
            return;
        }
        self.back_to(k - 1);
        self.set_playing(true);
    }

    /// The next preset in teaching order, when this lesson is a preset.
    pub fn next_preset(&self) -> Option<&'static Preset> {
        self.preset.and_then(|p| p.next())
    }

    /// What to remember, for the end card.
    pub fn recap(&self, lang: crate::i18n::Lang) -> &str {
        match self.preset {
            Some(_) => crate::sim::presets::recap_in(&self.source, lang),
            None => "",
        }
    }
}
