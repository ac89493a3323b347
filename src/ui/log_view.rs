//! The logs: one row per node, entries as boxes aligned by index (term number and colour,
//! label), committed solid and uncommitted dashed, the applied point marked, a compacted
//! prefix as a snapshot block. The rows scroll sideways together, following the tail: the
//! newest entry is always in view, older ones by scrolling or "earlier". Membership entries
//! say what they do (`+n4 learner`, `promote n4`, `joint +n4 -n1`, `leave joint`).

use super::h;
use crate::el;
use crate::raft::vec_map::VecSet;
use crate::text;
use yew::prelude::*;

use crate::raft::{ConfChangeSingle, Entry, EntryData, NodeId, Raft, Role};
use crate::sim::{SimNode, Status};

use super::app::{Msg, View};
use super::cluster_view::status_class;
use super::h::send;
use crate::i18n::Lang;
use crate::sim::labels;
use crate::tr;

use super::glossary::tip_in as tip;
use super::style::{node_name, term_style};

/// Column width in pixels.
const COL: u64 = 48;
/// An entry box's width (the rest of the column is the gap), as in the CSS.
const BOX: u64 = 44;
/// Columns drawn at first (the newest); "show earlier" adds more.
pub const DEFAULT_COLS: u64 = 48;
/// Indexes per paint run of a row (see `LogRow`): smaller runs repaint less per change but
/// give the browser more clip nodes to place every frame.
const CHUNK: u64 = 16;
/// Room a run keeps on each side of its boxes, px: a diverged box's ring is 2 px wide.
const RUN_PAD: i64 = 2;

/// The panel.
pub fn render(v: &View) -> Html {
    let sim = v.sim;
    let l = v.ui.lang;
    let max_last = sim
        .nodes
        .values()
        .map(|n| n.raft.log.last_index())
        .max()
        .unwrap_or(0);
    let hi = max_last.max(1);
    // The window starts at a run's start (`CHUNK`), and the shifted layer reaches the end of
    // the newest run, so the layer moves and widens once per CHUNK appends, not at each one:
    // moving it made the browser revisit and repaint every box of every row (about 6 ms of a
    // write's frame at 9 nodes), and widening it repainted every row. The scroller's position
    // follows the newest entry instead (`dom::follow_tail`), which repaints nothing.
    let want = hi.saturating_sub(v.ui.log_cols.max(1) - 1).max(1);
    let lo = (want - 1) / CHUNK * CHUNK + 1;
    let end = hi.div_ceil(CHUNK) * CHUNK;
    let hidden = lo - 1;
    // The grid ends at the newest column (it clips the layer's empty columns after it): the
    // scroller keeps its end in view while the reader has not scrolled away. Its width alone
    // changing moves and repaints no box.
    let width = (hi - lo + 1) * COL + 8;
    // The shifted layer spans every column up to the end of the newest run, so no row clips
    // its own boxes.
    let full = end * COL + 8;
    let leader = sim
        .leader()
        .and_then(|l| sim.nodes.get(&l))
        .map(|n| &n.raft);
    // A learner by the configuration in force, as the drawing names it: a new learner's own
    // raft learns it is one only when it applies that entry, and until then its row said
    // "follower" beside a drawing that said "learner".
    let learners = sim.config().learners;
    let labels = sim
        .nodes
        .values()
        .map(|n| label(v, n, n.is_learner(&learners)))
        .collect::<Html>();
    let rows = sim
        .nodes
        .values()
        .map(|n| row(l, n, lo, leader))
        .collect::<Html>();
    let ruler = (lo..=hi)
        .filter(|i| (*i == lo && hidden == 0) || i % 5 == 0 || *i == hi)
        .map(|i| {
            el!(
                "span",
                "class" = "tick",
                "style" = format!("left:{}px", (i - 1) * COL)
            )
            .c(i.to_string())
            .done()
        })
        .collect::<Html>();
    el!(
        "section",
        "class" = classes!("logs", "panel", (sim.nodes.len() > 5).then_some("dense")),
        "aria-label" = text!(l, "ui.log.aria"),
    )
    .c(el!("h2")
        .c(text!(l, "ui.log.title"))
        .c(el!("span", "class" = "legend")
            .c(
                el!("span", "class" = "lg solid", "title" = tip(l, "commit"))
                    .c(text!(l, "ui.log.committed")),
            )
            .c(
                el!("span", "class" = "lg dashed", "title" = tip(l, "commit"))
                    .c(text!(l, "ui.log.not_committed")),
            )
            .c(
                el!("span", "class" = "lg applied", "title" = tip(l, "applied"))
                    .c(text!(l, "ui.log.applied")),
            )
            .c(
                el!("span", "class" = "lg snap", "title" = tip(l, "snapshot"))
                    .c(text!(l, "ui.log.snapshot")),
            )))
    .c(if max_last == 0 {
        el!("p", "class" = "hint")
            .c(text!(l, "ui.log.empty"))
            .done()
    } else {
        Html::default()
    })
    .c(el!("div", "class" = "log-body")
        .c(el!("div", "class" = "log-labels")
            .c(el!("div", "class" = "log-label head").c(text!(l, "ui.log.index")))
            .c(labels))
        .c(el!(
            "div",
            "class" = "log-scroll",
            "tabindex" = "0",
            "role" = "region",
            "aria-label" = crate::tr!(l, "ui.log.scroll_aria"),
        )
        .c(el!(
            "div",
            "class" = "log-grid",
            "style" = format!("width:{width}px")
        )
        .c(if hidden > 0 {
            el!(
                "button",
                "class" = "link-btn earlier",
                "aria-label" = text!(l, "ui.log.earlier_aria"),
            )
            .on_click(send(v.link, Msg::MoreLog))
            .c(tr!(l, "ui.log.earlier", n = hidden))
            .done()
        } else {
            Html::default()
        })
        .c(el!(
            "div",
            "class" = "log-shift",
            "style" = format!("width:{full}px;transform:translateX(-{}px)", (lo - 1) * COL),
        )
        .c(el!("div", "class" = "ruler").c(ruler))
        .c(rows)))))
    .done()
}

fn label(v: &View, n: &SimNode, learner: bool) -> Html {
    let r = &n.raft;
    let id = r.id;
    let lead = n.status == Status::Running && r.role == Role::Leader;
    let onclick = send(v.link, Msg::SelectNode(Some(id)));
    let l = v.ui.lang;
    let role = if n.status != Status::Running {
        labels::status(n.status).render(l)
    } else if learner {
        tr!(l, "role.learner").to_string()
    } else {
        labels::role(r.role).render(l)
    };
    el!(
        "div",
        "class" = classes!("log-label", format!("status-{}", status_class(n.status)))
    )
    .c(el!(
        "button",
        "class" = "link-btn",
        "aria-label" = tr!(l, "ui.node.select", node = node_name(id)),
    )
    .on_click(onclick)
    .c(node_name(id))
    .c(if lead { " ♛" } else { "" }))
    .c(el!("span", "class" = "role").c(role))
    .c(el!(
        "span",
        "class" = "ca",
        "title" = format!("{} {}", tip(l, "commit"), tip(l, "applied"))
    )
    .c(tr!(
        l,
        "ui.log.commit_applied",
        commit = r.log.committed,
        applied = r.log.applied
    )))
    .done()
}

fn entry_label(e: &Entry) -> String {
    match &e.data {
        EntryData::Empty => String::new(),
        _ => e.label(),
    }
}

/// A membership entry in words that cannot be misread: whether it adds a voter or a learner,
/// promotes a learner, or enters or leaves a joint configuration. `learners` are the
/// learners before this entry; it is updated.
fn conf_label(e: &Entry, learners: &mut VecSet<NodeId>) -> Option<String> {
    let EntryData::Conf { cc, .. } = &e.data else {
        return None;
    };
    if cc.is_leave_joint() {
        return Some("leave joint".to_string());
    }
    let voter_changes = cc
        .changes
        .iter()
        .filter(|c| !matches!(c, ConfChangeSingle::AddLearner(_)))
        .count();
    let parts: Vec<String> = cc
        .changes
        .iter()
        .map(|c| match c {
            ConfChangeSingle::AddNode(n) if learners.remove(n) => format!("promote n{n}"),
            ConfChangeSingle::AddNode(n) => format!("+n{n} voter"),
            ConfChangeSingle::AddLearner(n) => {
                learners.insert(*n);
                format!("+n{n} learner")
            }
            ConfChangeSingle::RemoveNode(n) => {
                learners.remove(n);
                format!("-n{n}")
            }
        })
        .collect();
    let text = parts.join(" ");
    Some(if voter_changes > 1 {
        format!("joint {text}")
    } else {
        text
    })
}

/// A label cut to fit a box (the full text is in the title).
fn short(label: &str) -> String {
    if label.chars().count() <= 6 {
        label.to_string()
    } else {
        let mut s: String = label.chars().take(5).collect();
        s.push('…');
        s
    }
}

/// Room for a label inside an entry box, in px: the box's width less its borders.
const LABEL_ROOM: f64 = (BOX - 4) as f64;

/// The widest a character of a label can be drawn, in em, in the sans-serif fonts the page
/// asks for (system-ui, Segoe UI, Roboto, Helvetica, Arial, DejaVu Sans: the widest of them
/// for each character, rounded up); `None` for a character outside this table.
fn glyph_em(c: char) -> Option<f64> {
    Some(match c {
        'm' | 'M' | '@' | 'W' | '…' => 1.0,
        '%' => 0.95,
        'w' => 0.85,
        '=' | '+' | '<' | '>' | '~' | '^' | '#' => 0.84,
        'A'..='Z' => 0.8,
        'f' | 'i' | 'j' | 'l' | 'r' | 't' => 0.42,
        'c' | 'k' | 's' | 'z' => 0.6,
        '0'..='9' | 'a'..='z' => 0.64,
        ' '..='~' => 0.8,
        _ => return None,
    })
}

/// The font size (px) at which `label` surely fits an entry box on one line: 10 (the
/// normal size), 9, 8 or 7; `None` when no size is sure (a character outside the table, or
/// too long), and the box then clips its content. Boxes that need no clip draw without one,
/// which spares the browser a clip per box in every frame it paints the logs.
fn label_px(label: &str) -> Option<u8> {
    let em = label.chars().map(glyph_em).sum::<Option<f64>>()?;
    [10u8, 9, 8, 7]
        .into_iter()
        .find(|px| em * f64::from(*px) <= LABEL_ROOM)
}

/// A term as drawn in a box (13 px bold, or 9 px in the dense layout) fits on one line up to
/// this many digits.
const TERM_DIGITS: usize = 4;

/// A membership label as two short lines for a box: what ("learner", "voter", "promote",
/// "remove", "joint", "leave"), and whom.
fn conf_lines(label: &str) -> (String, String) {
    let words: Vec<&str> = label.split_whitespace().collect();
    match words.as_slice() {
        ["joint", rest @ ..] => ("joint".to_string(), joint_whom(rest)),
        ["promote", rest @ ..] | ["leave", rest @ ..] => {
            (words[0].to_string(), short(&rest.join(" ")))
        }
        [node, kind] if node.starts_with('+') => (kind.to_string(), node.to_string()),
        [node] if node.starts_with('-') => ("remove".to_string(), node[1..].to_string()),
        _ => (short(label), String::new()),
    }
}

/// Whom a joint change concerns, in a box's few characters: its nodes when they fit
/// (`+n4 -n1`), else how many it adds and removes (`+2 -2`). Cut to "+n4 v…", the box of a
/// change that swaps two voters named one of them and not what happens to the others.
fn joint_whom(rest: &[&str]) -> String {
    let mut names = Vec::new();
    let (mut added, mut removed) = (0, 0);
    let mut words = rest.iter();
    while let Some(w) = words.next() {
        if *w == "promote" {
            if let Some(n) = words.next() {
                names.push(format!("+{n}"));
                added += 1;
            }
        } else if w.starts_with('+') {
            names.push(w.to_string());
            added += 1;
        } else if w.starts_with('-') {
            names.push(w.to_string());
            removed += 1;
        }
    }
    let names = names.join(" ");
    if names.chars().count() <= 7 {
        return names;
    }
    match (added, removed) {
        (a, 0) => format!("+{a}"),
        (0, r) => format!("-{r}"),
        (a, r) => format!("+{a} -{r}"),
    }
}

/// A word of a membership label in `l` ("promote", "+learner", "joint" …); node ids and
/// anything else stay as they are.
fn conf_word(l: Lang, w: &str) -> String {
    let key = match w {
        "promote" => "ui.log.conf_promote",
        "joint" => "ui.log.conf_joint",
        "leave" => "ui.log.conf_leave",
        "learner" | "+learner" => "ui.log.conf_learner",
        "voter" | "+voter" => "ui.log.conf_voter",
        "remove" => "ui.log.conf_remove",
        _ => return w.to_string(),
    };
    crate::i18n::text(l, key).to_string()
}

/// One entry box, as drawn.
#[derive(Clone, Debug, PartialEq)]
struct EntryBox {
    index: u64,
    term: u64,
    committed: bool,
    applied: bool,
    label: String,
    /// For a membership entry, the unambiguous description.
    conf_label: Option<String>,
    conf: bool,
    empty: bool,
    diverged: bool,
}

/// What a log row shows. Rows are components, so yew skips a row whose data did not change
/// (most rows, most frames).
#[derive(Clone, Debug, PartialEq, Properties)]
struct RowProps {
    name: AttrValue,
    status: &'static str,
    lo: u64,
    snapshot: (u64, u64),
    applied: u64,
    entries: Vec<EntryBox>,
    lang: Lang,
}

fn row(lang: Lang, n: &SimNode, lo: u64, leader: Option<&Raft>) -> Html {
    let r = &n.raft;
    let log = &r.log;
    let mut learners: VecSet<NodeId> = log.snapshot.conf.learners.clone();
    let entries: Vec<EntryBox> = log
        .entries
        .iter()
        .map(|e| (e, conf_label(e, &mut learners)))
        .filter(|(e, _)| e.index >= lo)
        .map(|(e, conf_label)| EntryBox {
            index: e.index,
            term: e.term,
            committed: e.index <= log.committed,
            applied: e.index <= log.applied,
            label: entry_label(e),
            conf_label,
            conf: e.is_conf(),
            empty: matches!(e.data, EntryData::Empty),
            diverged: leader
                .filter(|l| l.id != r.id)
                .and_then(|l| l.log.term(e.index))
                .is_some_and(|t| t != e.term),
        })
        .collect();
    html! {
        <LogRow key={r.id.to_string()} name={AttrValue::from(node_name(r.id))} status={status_class(n.status)} {lo}
            snapshot={(log.snapshot.index, log.snapshot.term)} applied={log.applied} {entries} {lang} />
    }
}

#[component]
fn LogRow(p: &RowProps) -> Html {
    let name = &p.name;
    let l = p.lang;
    let lo = p.lo;
    let (snap_index, snap_term) = p.snapshot;
    let snapshot = if snap_index >= lo {
        let w = (snap_index - lo + 1) * COL - (COL - BOX);
        el!(
            "div",
            "class" = "snapshot",
            "style" = format!("left:{}px;width:{w}px", (lo - 1) * COL),
            "title" = tr!(
                l,
                "ui.log.snapshot_tip",
                index = snap_index,
                term = snap_term,
                tip = tip(l, "snapshot")
            ),
            "data-snapshot-index" = snap_index.to_string(),
        )
        .c(tr!(l, "ui.log.snapshot_upto", index = snap_index))
        .done()
    } else {
        html! {}
    };
    // Boxes go in runs of CHUNK indexes, each painted on its own (`.chunk`: paint containment,
    // at a fixed place and size): a box appended, committed or applied, or the oldest one
    // dropped, repaints its run rather than the row's ~48 boxes (about 0.3 ms a row, several
    // times per write), and nothing in a run moves when the window shifts.
    let entries = p
        .entries
        .chunk_by(|a, b| (a.index - 1) / CHUNK == (b.index - 1) / CHUNK)
        .map(|run| {
            let first = (run[0].index - 1) / CHUNK * CHUNK;
            let cells = run
                .iter()
                .map(|e| {
                    html! {
                        <EntryCell key={e.index.to_string()} name={name.clone()} lang={l} entry={e.clone()} />
                    }
                })
                .collect::<Html>();
            // RUN_PAD px of room on each side, for a box's outline (a diverged box's ring).
            let style = format!(
                "left:{}px;width:{}px",
                (first * COL) as i64 - RUN_PAD,
                CHUNK * COL + 2 * RUN_PAD as u64
            );
            el!("div", "class" = "chunk", "style" = style)
                .key(first.to_string().into())
                .c(cells)
                .done()
        })
        .collect::<Html>();
    let applied = if p.applied >= lo && p.applied > 0 {
        el!(
            "span",
            "class" = "applied-mark",
            "style" = format!("left:{}px", (p.applied - 1) * COL + BOX / 2 - 8),
            "title" = tr!(l, "ui.log.applied_upto", name = name, index = p.applied),
        )
        .c("▲")
        .done()
    } else {
        html! {}
    };
    el!(
        "div",
        "class" = classes!("log-row", format!("status-{}", p.status)),
        "data-log-node" = name.clone(),
    )
    .c(snapshot)
    .c(el!("div", "class" = "entries").c(entries))
    .c(applied)
    .done()
}

/// What one entry box shows. Boxes are components, so when a row changes (an entry appended,
/// committed or applied, the window shifted by one column) only the boxes whose data changed
/// are built again; the others keep their title and attributes without being worded anew.
#[derive(Clone, Debug, PartialEq, Properties)]
struct CellProps {
    name: AttrValue,
    lang: Lang,
    entry: EntryBox,
}

#[component]
fn EntryCell(p: &CellProps) -> Html {
    super::memo::item_built(super::memo::Item::LogBox);
    let e = &p.entry;
    let name = &p.name;
    let l = p.lang;
    let class = classes!(
        "entry",
        if e.committed {
            "committed"
        } else {
            "uncommitted"
        },
        e.conf.then_some("conf"),
        e.empty.then_some("empty"),
        e.diverged.then_some("diverged"),
    );
    let label = short(&e.label);
    let px = label_px(&label);
    // Membership boxes (a term over two lines) and boxes whose label or term might not
    // fit keep the clip; the others have none (see `label_px`).
    let clip = e.conf_label.is_some() || px.is_none() || e.term.to_string().len() > TERM_DIGITS;
    let class = classes!(class, clip.then_some("clip"));
    let size = match px {
        Some(9) => Some("f9"),
        Some(8) => Some("f8"),
        Some(7) => Some("f7"),
        _ => None,
    };
    let shown = e.conf_label.as_deref().unwrap_or(e.label.as_str());
    let title = tr!(
        l,
        "ui.log.entry",
        name = name,
        index = e.index,
        term = e.term,
        what = if shown.is_empty() {
            tr!(l, "ui.log.empty_entry").to_string()
        } else {
            shown
                .split(' ')
                .map(|w| conf_word(l, w))
                .collect::<Vec<_>>()
                .join(" ")
        },
        committed = if e.committed {
            tr!(l, "ui.log.entry_committed")
        } else {
            tr!(l, "ui.log.entry_uncommitted")
        },
        applied = if e.applied {
            tr!(l, "ui.log.entry_applied")
        } else {
            ""
        },
        diverged = if e.diverged {
            tr!(l, "ui.log.entry_diverged")
        } else {
            ""
        }
    );
    el!(
        "div",
        "class" = class,
        "style" = format!(
            "left:{}px;{}",
            ((e.index - 1) % CHUNK * COL) as i64 + RUN_PAD,
            term_style(e.term)
        ),
        "data-node" = name.clone(),
        "data-index" = e.index.to_string(),
        "data-term" = e.term.to_string(),
        "data-committed" = e.committed.to_string(),
        "data-label" = e.label.clone(),
        "data-conf-label" = e.conf_label.clone(),
        "title" = title,
    )
    .c(if let Some(c) = &e.conf_label {
        h::frag()
            .c(el!("span", "class" = "t small").c(e.term.to_string()))
            .c(el!("span", "class" = "l c1").c(conf_word(l, &conf_lines(c).0)))
            .c(el!("span", "class" = "l c2").c(conf_word(l, &conf_lines(c).1)))
            .done()
    } else {
        h::frag()
            .c(el!("span", "class" = "t").c(e.term.to_string()))
            .c(el!("span", "class" = classes!("l", size)).c(label))
            .done()
    })
    .done()
}
