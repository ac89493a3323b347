//! Compare mode: two side-by-side panes (stacked on a phone) showing runs A and B of a
//! comparison, advanced in lockstep by the native engine ([`CompareRun`]), each labelled with
//! what differs, with the first divergence marked on both time strips and described in words.
//!
//! The panes follow the lesson: after every message and animation frame the run is brought
//! to the line the lesson's player has reached, and part way through a `tick` line to the
//! player's clock (replayed from the start when the lesson went back), so the panes show
//! both runs at the lesson's scenario line and simulated time, inside `tick`, `await` and
//! `at` lines too. Scrubbed back, they show the moment viewed. No protocol logic here:
//! everything shown is read from the two `Sim`s and the engine's [`Divergence`].

use crate::el;
use crate::text;
use yew::prelude::*;

use crate::i18n::Lang;
use crate::sim::cluster::{SimNode, Status};
use crate::sim::compare::{CompareRun, Divergence, Variant};
use crate::sim::{labels, Sim, TICK_MS};
use crate::tr;

use super::app::{App, View};
use super::cluster_view;
use super::config_view;
use super::h;
use super::progress_view;
use super::style::term_style;

/// A comparison being shown: the scenario text and how B differs, and the run as far as the
/// lesson has got.
pub struct Compare {
    /// Whether the panes follow the lesson (false: a shared run, shown played to its end).
    follows_lesson: bool,
    text: String,
    variant: Variant,
    run: CompareRun,
    labels: (String, String),
    error: Option<String>,
}

impl Compare {
    /// A comparison of `text` when it declares one (a `compare` line or `A:`/`B:` lines) or
    /// when `with` gives options (a `compare=` share link). None when there is nothing to
    /// compare and none was asked for; an error in words when one was asked for and the
    /// scenario cannot be compared.
    pub fn for_script(text: &str, with: &[(String, String)]) -> Option<Result<Compare, String>> {
        // Most lessons compare nothing: they are not parsed a second time to learn it (and a
        // first visit does not run the comparison's setup at all).
        if with.is_empty() && !crate::sim::compare::may_compare(text) {
            return None;
        }
        let variant = Variant {
            options: with.to_vec(),
            ..Variant::default()
        };
        match CompareRun::new(text, &variant) {
            Ok(run) => {
                let labels = run.side_labels();
                Some(Ok(Compare {
                    follows_lesson: true,
                    text: text.to_string(),
                    variant,
                    run,
                    labels,
                    error: None,
                }))
            }
            Err(_) if with.is_empty() => None,
            Err(e) => Some(Err(e)),
        }
    }

    /// Brings both runs to the moment the lesson shows. At the lesson's head (`scrubbed`
    /// false): every line before index `target` (the player's next line), then the waiting
    /// of line `target` (`tick`, `await`, `at`) up to the player's clock `now`. Scrubbed
    /// back to `now`: only the lines whose waiting is over by `now`, and the next one's
    /// waiting up to it. Replays from the start when the lesson or the view went back.
    pub fn sync_to(&mut self, target: usize, now: u64, scrubbed: bool) {
        // At the head the runs may stand past the player's clock: an `await` that holds
        // later in B than in A keeps both runs ticking until it holds in B.
        if self.run.next_line() > target || (scrubbed && self.run.a().now > now) {
            match CompareRun::new(&self.text, &self.variant) {
                Ok(r) => self.run = r,
                Err(e) => {
                    self.error = Some(e);
                    return;
                }
            }
        }
        while self.run.next_line() <= target && self.error.is_none() {
            if scrubbed || self.run.next_line() == target {
                match self.run.tick_within(now) {
                    Ok(true) if self.run.next_line() < target => {}
                    Ok(_) => break,
                    Err(e) => {
                        self.error = Some(e);
                        break;
                    }
                }
            }
            match self.run.step() {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => self.error = Some(e),
            }
        }
    }

    /// Plays a shared run's comparison on by at most `ms` of simulated time; true once it
    /// is over (every line run, or an error, which the panes show).
    pub fn play_for(&mut self, ms: u64) -> bool {
        if self.error.is_some() {
            return true;
        }
        match self.run.run_for(ms) {
            Ok(done) => done,
            Err(e) => {
                self.error = Some(e);
                true
            }
        }
    }

    /// Run A's simulated time, ms.
    pub fn now(&self) -> u64 {
        self.run.a().now
    }
}

impl App {
    /// Starts compare mode over the lesson of scenario `text` when it declares a comparison
    /// or `with` asks for one (ends it otherwise); a scenario that cannot be compared gives
    /// a notice.
    pub(super) fn start_compare(&mut self, text: &str, with: &[(String, String)]) {
        self.compare = self.new_compare(text, with);
        self.sync_compare();
    }

    /// The comparison a `compare=` share link asks for, to be played to its end
    /// ([`Compare::play_for`]) and then shown; None, with a notice when it cannot be
    /// compared.
    pub(super) fn compare_for_shared(
        &mut self,
        text: &str,
        with: &[(String, String)],
    ) -> Option<Compare> {
        let mut c = self.new_compare(text, with)?;
        c.follows_lesson = false;
        Some(c)
    }

    fn new_compare(&mut self, text: &str, with: &[(String, String)]) -> Option<Compare> {
        match Compare::for_script(text, with)? {
            Ok(c) => Some(c),
            Err(e) => {
                self.ui.notice = Some(
                    crate::i18n::Msg::new("ui.note.cannot_compare").arg("error", e.to_string()),
                );
                None
            }
        }
    }

    /// Brings the panes to the line the lesson has reached; ends compare mode when the
    /// lesson it followed was closed.
    pub(super) fn sync_compare(&mut self) {
        let Some(c) = self.compare.as_mut() else {
            return;
        };
        if !c.follows_lesson {
            return;
        }
        match &self.scenario {
            Some(l) => {
                // The moment shown: the head while the lesson plays, earlier when scrubbed.
                let (now, scrubbed) = l
                    .player
                    .timeline()
                    .map_or((u64::MAX, false), |t| (t.sim().now, !t.at_head()));
                c.sync_to(l.player.next_line().unwrap_or(usize::MAX), now, scrubbed)
            }
            None => self.compare = None,
        }
    }
}

/// Parses a `compare=` address value: `OPT=VALUE` pairs separated by commas, `+` or spaces
/// (`prevote=off,checkquorum=off`); `1` or empty means "what the scenario declares".
pub fn parse_with(v: &str) -> Result<Vec<(String, String)>, crate::i18n::Msg> {
    let v = v.trim();
    if v.is_empty() || v == "1" || v == "true" {
        return Ok(Vec::new());
    }
    v.split([',', '+', ' '])
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, val) = p
                .split_once('=')
                .or_else(|| p.split_once(':'))
                .ok_or_else(|| crate::i18n::Msg::new("cmpw.not_pair").arg("p", p))?;
            let mut probe = crate::sim::Options::default();
            probe
                .set(k, val)
                .map_err(|e| crate::i18n::Msg::new("cmpw.bad").arg("p", p).arg("why", e))?;
            if k == "seed" {
                return Err(crate::i18n::Msg::new("cmpw.seed"));
            }
            Ok((k.to_string(), val.to_string()))
        })
        .collect()
}

fn ticks(ms: u64) -> String {
    crate::sim::decimal::fixed(ms as f64 / TICK_MS as f64, 1)
}

/// One pane's compact node table: role, term, commit and the newest entries; a node named in the first divergence
/// is highlighted.
fn node_rows(l: Lang, sim: &Sim, div: Option<&Divergence>) -> Html {
    sim.nodes
        .iter()
        .map(|(id, n)| {
            let differs = div.is_some_and(|d| d.diffs.iter().any(|x| x.node == Some(*id)));
            el!(
                "li",
                "class" = classes!("cmp-node", differs.then_some("differs")),
                "data-node" = id.to_string(),
            )
            .c(el!("b").c(format!("n{id}")))
            .c(" ")
            .c(tr!(
                l,
                "ui.cmp.node_row",
                role = role_word(l, n),
                term = n.raft.term,
                commit = n.raft.log.committed
            ))
            .c(mini_log(l, n))
            .done()
        })
        .collect()
}

/// How many of a node's newest entries a pane shows: enough for the paper's figures (Figure 8
/// has three), few enough to stay on the node's line.
const MINI_LOG: usize = 8;

/// A node's newest entries as small boxes, each with its term, in the term's colour, dashed
/// while uncommitted, as in the log rows of the single view: the narration of a comparison
/// speaks of which entry of which term sits on which node, and the panes have no log rows.
fn mini_log(l: Lang, n: &SimNode) -> Html {
    let log = &n.raft.log;
    let skip = log.entries.len().saturating_sub(MINI_LOG);
    let terms: Vec<String> = log
        .entries
        .iter()
        .skip(skip)
        .map(|e| e.term.to_string())
        .collect();
    el!(
        "span",
        "class" = "cmp-log",
        "role" = "img",
        "aria-label" = tr!(
            l,
            "ui.cmp.log_aria",
            terms = terms.join(" "),
            commit = log.committed
        ),
    )
    .c(if skip > 0 || log.snapshot.index > 0 {
        el!("span", "class" = "cmp-more", "aria-hidden" = "true")
            .c("…")
            .done()
    } else {
        Html::default()
    })
    .c(log
        .entries
        .iter()
        .skip(skip)
        .map(|e| {
            el!(
                "span",
                "class" = classes!("cmp-e", (e.index > log.committed).then_some("uncommitted")),
                "style" = term_style(e.term),
                "data-index" = e.index.to_string(),
                "data-term" = e.term.to_string(),
                "title" = tr!(l, "ui.cmp.entry_title", index = e.index, term = e.term),
            )
            .c(e.term.to_string())
            .done()
        })
        .collect::<Html>())
    .done()
}

/// A node's role (or why it is not running), in words.
fn role_word(l: Lang, n: &SimNode) -> String {
    match n.status {
        Status::Running => labels::role(n.raft.role).render(l),
        s => labels::status(s).render(l),
    }
}

fn pane(v: &View, side: &'static str, label: &str, sim: Option<&Sim>, c: &Compare) -> Html {
    let l = v.ui.lang;
    let first = c.run.first();
    let (name, class) = if side == "a" {
        ("A", "pane-a")
    } else {
        ("B", "pane-b")
    };
    let caption = if label.is_empty() {
        format!("{name}: {}", tr!(l, "ui.cmp.as_written"))
    } else {
        format!("{name}: {}", label_words(l, label))
    };
    // Before the fork, B is A (the engine forks B from A there).
    let shown = sim.unwrap_or(c.run.a());
    let now = shown.now;
    let pv = view_of(v, shown);
    let drawing = cluster_view::render(&pv);
    // The time strip: the run so far, with the first divergence marked.
    let span = now.max(first.map_or(0, |d| d.time)).max(1) as f64;
    let marker = first.map(|d| {
        let left = format!(
            "left:{}%",
            crate::sim::decimal::fixed(d.time as f64 / span * 100.0, 1)
        );
        el!(
            "span",
            "class" = "cmp-mark",
            "style" = left,
            "data-divergence-mark" = d.time.to_string(),
            "title" = tr!(l, "ui.cmp.diverged_here", tick = ticks(d.time)),
        )
        .c("◆")
        .done()
    });
    let failed = if side == "a" {
        c.run.failures_a().len()
    } else {
        c.run.failures_b().len()
    };
    el!(
        "section",
        "class" = classes!("cmp-pane", class),
        "data-pane" = side,
        "data-compare-now" = now.to_string(),
        "data-compare-line" = c.run.next_line().to_string(),
        "aria-label" = caption.clone(),
    )
    .c(el!("header", "class" = "cmp-head")
        .c(el!("span", "class" = "cmp-label").c(caption))
        .c(if sim.is_none() {
            el!("span", "class" = "cmp-note")
                .c(text!(l, "ui.cmp.before_fork"))
                .done()
        } else {
            Html::default()
        })
        .c(el!("span", "class" = "cmp-clock").c(tr!(l, "ui.cmp.clock", tick = ticks(now)))))
    .c(el!("div", "class" = "cmp-picture").c(drawing))
    // Each run's own quorum line: a comparison's narration speaks of each side's quorum
    // ("in A 2 of the 3 voters, in B four voters need 3").
    .c(config_view::render(&pv))
    .c(el!("div", "class" = "cmp-strip", "aria-hidden" = "true")
        .c(el!("span", "class" = "cmp-fill", "style" = "width:100%"))
        .c(marker))
    .c(el!("ul", "class" = "cmp-nodes").c(node_rows(l, shown, first)))
    // In presenter mode each run's progress table sits under its own pane. In the side column
    // the two tables and the narration ran 60-180 px past a 720 px projector's bottom
    // (lessons 22-24), cutting B's table, and a projector shows no scrollbar.
    .c(if v.ui.presenter {
        progress_view::render_side(&pv, Some(name))
    } else {
        Html::default()
    })
    .c(if failed > 0 {
        el!("p", "class" = "cmp-failed")
            .c(tr!(l, "ui.cmp.failed_lines", n = failed))
            .done()
    } else {
        Html::default()
    })
    .done()
}

/// `v` showing `sim` instead of its own run. Only for views that keep no panel of their own
/// (the drawing, the quorum line, the progress table built afresh): they share `v`'s memos.
fn view_of<'a>(v: &View<'a>, sim: &'a Sim) -> View<'a> {
    View {
        tl: v.tl,
        sim,
        ui: v.ui,
        scenario: v.scenario,
        link: v.link,
        dispatch: v.dispatch.clone(),
        compare: None,
        memos: v.memos,
        generation: v.generation,
    }
}

/// The leader's progress table of each run, headed "A: …" and "B: …", for the side column: its
/// one table followed the lesson's own run (A) without saying so, beside a B with another
/// leader or none. None in presenter mode, where each pane ends with its own (`pane`).
#[inline(never)]
pub fn progress(v: &View, c: &Compare) -> Html {
    if v.ui.presenter {
        return Html::default();
    }
    let a = c.run.a();
    let b = c.run.b().unwrap_or(a);
    h::frag()
        .c(progress_view::render_side(&view_of(v, a), Some("A")))
        .c(progress_view::render_side(&view_of(v, b), Some("B")))
        .done()
}

/// The two panes and the divergence box, in place of the single drawing.
// Not inlined into its one caller, so that scripts/split-wasm.mjs can move it, rarely needed,
// to the wasm's second part.
#[inline(never)]
pub fn render(v: &View, c: &Compare) -> Html {
    let l = v.ui.lang;
    let (la, lb) = &c.labels;
    let div = match (&c.error, c.run.first()) {
        (Some(e), _) => el!("p", "class" = "cmp-error", "role" = "alert")
            .c(e.clone())
            .done(),
        (None, Some(d)) => el!(
            "p",
            "class" = "cmp-divergence",
            "data-divergence" = d.time.to_string(),
            "aria-live" = "polite",
        )
        .c(el!("b")
            .c(tr!(l, "ui.cmp.first_divergence", tick = ticks(d.time)))
            .c(" "))
        .c(divergence_words(l, c.run.label(), d))
        .done(),
        (None, None) => el!("p", "class" = "cmp-divergence none", "aria-live" = "polite")
            .c(text!(l, "ui.cmp.no_divergence"))
            .done(),
    };
    el!(
        "div",
        "class" = "compare",
        "role" = "group",
        "aria-label" = text!(l, "ui.cmp.panes")
    )
    .c(el!("div", "class" = "cmp-panes")
        .c(pane(v, "a", la, Some(c.run.a()), c))
        .c(pane(v, "b", lb, c.run.b(), c)))
    .c(div)
    .done()
}

/// "with prevote=off: n1 is candidate (A: precandidate) (line 16: campaign n1)": the
/// engine's findings worded in `l`, without the time it already shows in bold.
fn divergence_words(l: Lang, label: &str, d: &Divergence) -> String {
    let diffs = d
        .diffs
        .iter()
        .map(crate::sim::compare::diff_words)
        .reduce(|a, b| crate::i18n::Msg::new("cmp.and").arg("a", a).arg("b", b))
        .map_or(String::new(), |m| m.render(l));
    tr!(
        l,
        "ui.cmp.words",
        label = label_words(l, label),
        diffs = diffs,
        line = d.lineno,
        text = d.line
    )
}

/// How B differs ("with prevote=off", "with 'kill n2' instead of 'kill n1'") in `l`: the
/// options and commands stay as written, the words around them are translated.
fn label_words(l: Lang, label: &str) -> String {
    let Some(what) = label.strip_prefix("with ") else {
        return label.to_string();
    };
    let parts: Vec<String> = what
        .split(", ")
        .map(|p| match p.split_once(" instead of ") {
            Some((new, old)) => tr!(l, "ui.cmp.instead_of", new = new, old = old),
            None => p.to_string(),
        })
        .collect();
    tr!(l, "ui.cmp.with", what = parts.join(tr!(l, "ui.cmp.sep")))
}
