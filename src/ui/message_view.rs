//! Messages in flight: each a labelled pill (PreVote, Vote, App, HB, Snap, TimeoutNow,
//! ReadIndex; replies marked ✓ or ✕) with an arrowhead and a tail showing its direction,
//! moving along its link at its simulated timing; and the detail card of the one clicked,
//! with a button to drop it. The layer is its own component, the only part of the drawing
//! redrawn in a frame where nothing but messages moved, drawn in a pool of reused slots; each
//! pill's shapes are kept per slot, built once per message and moved by its group's transform.

use crate::el;
use crate::raft::vec_map::VecMap;
use crate::text;

use yew::prelude::*;
use yew::TargetCast;

use crate::i18n::Lang;
use crate::raft::{Message, MsgType, NodeId};
use crate::sim::{labels, Action};
use crate::tr;

use super::app::{Msg, View};
use super::cluster_view::{fmt, Layout};
use super::geometry::{self, Pt};
use super::glyph_pool::Pool;
use super::h::send;
use super::memo;
use super::style::node_name;

/// One message as drawn: where it is and what it is (its tooltip is worded only when a slot
/// starts showing it, see [`MessageLayer`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Glyph {
    id: u64,
    at: Pt,
    /// Unit vector of its travel.
    dir: (f64, f64),
    kind: &'static str,
    label: AttrValue,
    outcome: &'static str,
    /// Will not arrive as things stand (`Sim::undelivered`): drawn faded.
    lost: bool,
    selected: bool,
    msg_type: MsgType,
    from: NodeId,
    to: NodeId,
    term: u64,
    entries: usize,
}

/// Half the height of a pill, SVG units.
const PILL_H: f64 = 11.0;
/// Sideways offset, so the two directions of a link do not overlap.
const SIDE: f64 = 12.0;

/// A short label readable without colour. Every label but "App +n" is a literal, so a frame's
/// glyphs allocate no text for them.
fn label(m: &Message) -> AttrValue {
    let t = m.msg_type;
    let base = match t {
        MsgType::PreVote | MsgType::PreVoteResp => "PreVote",
        MsgType::Vote | MsgType::VoteResp => "Vote",
        MsgType::App | MsgType::AppResp => "App",
        MsgType::Heartbeat | MsgType::HeartbeatResp => "HB",
        MsgType::Snap => "Snap",
        MsgType::TimeoutNow => "TimeoutNow",
        MsgType::TransferLeader => "Transfer",
        MsgType::ReadIndex | MsgType::ReadIndexResp => "ReadIndex",
        MsgType::Prop => "Prop",
        _ => t.name(),
    };
    if t.is_response() {
        return AttrValue::Static(match (base, m.reject) {
            ("PreVote", false) => "PreVote ✓",
            ("PreVote", true) => "PreVote ✕",
            ("Vote", false) => "Vote ✓",
            ("Vote", true) => "Vote ✕",
            ("App", false) => "App ✓",
            ("App", true) => "App ✕",
            ("HB", false) => "HB ✓",
            ("HB", true) => "HB ✕",
            ("ReadIndex", false) => "ReadIndex ✓",
            ("ReadIndex", true) => "ReadIndex ✕",
            _ => return AttrValue::from(format!("{base} {}", if m.reject { "✕" } else { "✓" })),
        });
    }
    if t == MsgType::App && !m.entries.is_empty() {
        return AttrValue::from(format!("App +{}", m.entries.len()));
    }
    AttrValue::Static(base)
}

/// Every message in flight, placed.
pub fn glyphs(v: &View, lay: &Layout) -> Vec<Glyph> {
    let now = v.sim.now;
    v.sim
        .net
        .in_flight
        .values()
        .filter(|f| !f.msg.msg_type.is_local())
        .filter_map(|f| {
            let a = *lay.pos.get(&f.msg.from)?;
            let b = *lay.pos.get(&f.msg.to)?;
            let span = f.deliver_at.saturating_sub(f.sent_at);
            let frac = if span == 0 {
                1.0
            } else {
                now.saturating_sub(f.sent_at) as f64 / span as f64
            };
            // From the edge of one node to the edge of the other, on its own side of the link.
            let margin = lay.frame.r + 26.0;
            let a2 = geometry::towards(a, b, margin);
            let b2 = geometry::towards(b, a, margin);
            let m = &f.msg;
            Some(Glyph {
                id: f.id,
                at: geometry::along(a2, b2, frac, SIDE),
                dir: geometry::direction(a, b),
                kind: m.msg_type.name(),
                label: label(m),
                outcome: outcome(m),
                // Faded when it will not arrive as things stand: lost, or on a link cut or
                // partitioned since it was sent, or to a node that is down (a heal or a restart
                // before it arrives brings it back).
                lost: v.sim.undelivered(f).is_some(),
                selected: v.ui.selected_msg == Some(f.id),
                msg_type: m.msg_type,
                from: m.from,
                to: m.to,
                term: m.term,
                entries: m.entries.len(),
            })
        })
        .collect()
}

/// The message type's name: raftlab's short one in English, etcd's (MsgApp) otherwise.
fn type_name(l: Lang, t: MsgType) -> String {
    match l {
        Lang::En => t.name().to_string(),
        _ => labels::etcd_msg(t),
    }
}

/// "granted", "rejected", "ok" or "" for a message.
fn outcome(m: &Message) -> &'static str {
    if !m.msg_type.is_response() {
        return "";
    }
    if m.reject {
        "rejected"
    } else {
        match m.msg_type {
            MsgType::VoteResp | MsgType::PreVoteResp => "granted",
            _ => "ok",
        }
    }
}

/// The tooltip of a message.
fn title(l: Lang, g: &Glyph) -> String {
    tr!(
        l,
        "ui.msg.tip",
        kind = type_name(l, g.msg_type),
        from = node_name(g.from),
        to = node_name(g.to),
        term = g.term,
        entries = if g.entries == 0 {
            String::new()
        } else {
            tr!(l, "ui.msg.entries", n = g.entries)
        },
        outcome = match g.outcome {
            "" => "",
            "rejected" => tr!(l, "ui.msg.rejected"),
            "granted" => tr!(l, "ui.msg.granted"),
            _ => tr!(l, "ui.msg.ok"),
        }
    )
}

/// How much of a slot's drawing can stay when it goes from showing `a` to showing `b`: the
/// same label and direction leave all but the position and id; the same label leaves the
/// pill; the same kind, its colours.
fn alike(a: &Shown, b: &Shown) -> u8 {
    let (a, b) = (&a.glyph, &b.glyph);
    match (a.label == b.label, a.dir == b.dir, a.kind == b.kind) {
        (true, true, _) => 3,
        (true, false, _) => 2,
        (false, _, true) => 1,
        _ => 0,
    }
}

/// A message with its tooltip, as a slot shows it.
#[derive(Clone)]
struct Shown {
    glyph: Glyph,
    title: AttrValue,
    /// The language of the title.
    lang: Lang,
}

/// The messages layer's inputs.
#[derive(Clone, Debug, PartialEq, Properties)]
pub struct LayerProps {
    pub msgs: Vec<Glyph>,
    pub lang: Lang,
    pub dispatch: Callback<Msg>,
}

/// The messages in flight, drawn in a pool of slots ([`glyph_pool`]): a tick that delivers
/// some messages and sends as many new ones changes a few attributes of existing elements
/// instead of removing and creating groups of shapes. Idle slots stay hidden, without the
/// `data-msg-*` attributes, so only messages in flight match `[data-msg-id]`.
#[component]
pub fn MessageLayer(p: &LayerProps) -> Html {
    let pool = use_mut_ref(Pool::<Shown>::default);
    // One listener for the layer: the clicked message is the slot's data-msg-id.
    let onclick = use_callback(p.dispatch.clone(), |e: MouseEvent, dispatch| {
        let Some(el) = e.target_dyn_into::<web_sys::Element>() else {
            return;
        };
        let id = el
            .closest("[data-msg-id]")
            .ok()
            .flatten()
            .and_then(|g| g.get_attribute("data-msg-id"))
            .and_then(|id| id.parse::<u64>().ok());
        if let Some(id) = id {
            e.stop_propagation();
            dispatch.emit(Msg::SelectMessage(Some(id)));
        }
    });
    let pills = use_mut_ref(Pills::default);
    let l = p.lang;
    let mut pool = pool.borrow_mut();
    let mut pills = pills.borrow_mut();
    // The tooltip is worded once per message (a slot keeps it while the message travels).
    let kept: VecMap<u64, AttrValue> = pool
        .slots()
        .iter()
        .filter(|s| s.item.lang == l)
        .filter_map(|s| Some((s.id?, s.item.title.clone())))
        .collect();
    let shown: Vec<Shown> = p
        .msgs
        .iter()
        .map(|g| Shown {
            title: kept
                .get(&g.id)
                .cloned()
                .unwrap_or_else(|| AttrValue::from(title(l, g))),
            lang: l,
            glyph: g.clone(),
        })
        .collect();
    let slots = pool.place(shown.iter().map(|s| (s.glyph.id, s)), alike);
    pills.kept.truncate(slots.len());
    let items = slots
        .iter()
        .enumerate()
        .map(|(i, slot)| {
            let live = slot.id.is_some();
            glyph(i, live, &slot.item, pills.pill(i, live, &slot.item))
        })
        .collect::<Html>();
    el!("g", "class" = "msgs").on_click(onclick).c(items).done()
}

fn glyph(key: usize, live: bool, s: &Shown, pill: Html) -> Html {
    let g = &s.glyph;
    let mut class = classes!("msg", format!("m-{}", g.kind));
    if !g.outcome.is_empty() {
        class.push(format!("out-{}", g.outcome));
    }
    if g.lost {
        class.push("lost");
    }
    if g.entries > 0 {
        class.push("has-entries");
    }
    if live && g.selected {
        class.push("selected");
    }
    if !live {
        class.push("idle");
    }
    let p = g.at;
    // An idle slot keeps its last drawing, hidden (not removed from the layout, so showing
    // it again lays nothing out anew), and loses its data-msg-* hooks.
    el!(
        "g",
        "class" = class,
        "data-msg-type" = live.then_some(g.kind),
        "data-msg-id" = live.then(|| g.id.to_string()),
        "data-outcome" = live.then_some(g.outcome),
        "data-label" = live.then(|| g.label.clone()),
        "visibility" = (!live).then_some("hidden"),
        "transform" = format!("translate({},{})", fmt(p.x), fmt(p.y)),
    )
    .key(key.to_string().into())
    .c(pill)
    .done()
}

/// What a pill's shapes depend on. A travelling message changes none of it, only its group's
/// position, so its pill is not built again while it moves.
#[derive(Clone, PartialEq)]
struct PillKey {
    title: AttrValue,
    label: AttrValue,
    /// Unit vector of the message's travel.
    dir: (f64, f64),
    selected: bool,
}

/// Each slot's pill as last built, with the stamp under which [`memo::frozen`] keeps it: at 64
/// nodes, building and comparing every pill's shapes and numbers at every frame was the
/// largest part of a frame's script. A slot's pill is built again only when the slot starts
/// showing a message that looks different, or the message is selected.
#[derive(Default)]
struct Pills {
    kept: Vec<Option<(PillKey, u64, Html)>>,
    /// The last stamp given out; each build gets a new one.
    stamp: u64,
}

impl Pills {
    /// Slot `i`'s pill for `s`: the kept build if it was made for what `s` shows.
    fn pill(&mut self, i: usize, live: bool, s: &Shown) -> Html {
        let key = PillKey {
            title: s.title.clone(),
            label: s.glyph.label.clone(),
            dir: s.glyph.dir,
            selected: live && s.glyph.selected,
        };
        if self.kept.len() <= i {
            self.kept.resize_with(i + 1, || None);
        }
        let (stamp, view) = match &self.kept[i] {
            Some((k, stamp, view)) if *k == key => (*stamp, view.clone()),
            _ => {
                self.stamp += 1;
                let view = pill_view(&key);
                self.kept[i] = Some((key, self.stamp, view.clone()));
                (self.stamp, view)
            }
        };
        memo::frozen(stamp, view)
    }
}

/// A pill sized to its label, an arrowhead ahead of it and a tail behind it, drawn around the
/// origin (the group's transform places it), with the message's tooltip.
fn pill_view(p: &PillKey) -> Html {
    memo::item_built(memo::Item::MessagePill);
    let half_w = 6.0 + 3.7 * p.label.chars().count() as f64;
    let (dx, dy) = p.dir;
    let edge = (half_w / dx.abs().max(1e-6)).min(PILL_H / dy.abs().max(1e-6));
    let (nx, ny) = (-dy, dx);
    let (tip, base) = (edge + 9.0, edge + 1.0);
    let arrow = format!(
        "{},{} {},{} {},{}",
        fmt(dx * tip),
        fmt(dy * tip),
        fmt(dx * base + nx * 6.0),
        fmt(dy * base + ny * 6.0),
        fmt(dx * base - nx * 6.0),
        fmt(dy * base - ny * 6.0)
    );
    let (tail0, tail1) = (edge + 16.0, edge);
    super::h::frag()
        .c(el!("title").c(p.title.clone()))
        .c(el!(
            "line",
            "class" = "tail",
            "x1" = fmt(-dx * tail0),
            "y1" = fmt(-dy * tail0),
            "x2" = fmt(-dx * tail1),
            "y2" = fmt(-dy * tail1),
        ))
        .c(if p.selected {
            el!(
                "rect",
                "class" = "msg-sel",
                "x" = fmt(-half_w - 4.0),
                "y" = fmt(-PILL_H - 4.0),
                "width" = fmt(2.0 * half_w + 8.0),
                "height" = fmt(2.0 * PILL_H + 8.0),
                "rx" = "14",
            )
            .done()
        } else {
            Html::default()
        })
        .c(el!(
            "rect",
            "class" = "shape",
            "x" = fmt(-half_w),
            "y" = fmt(-PILL_H),
            "width" = fmt(2.0 * half_w),
            "height" = fmt(2.0 * PILL_H),
            "rx" = fmt(PILL_H),
        ))
        .c(el!("polygon", "class" = "arrow", "points" = arrow))
        .c(el!(
            "text",
            "class" = "mlabel",
            "y" = "4.5",
            "text-anchor" = "middle"
        )
        .c(p.label.clone()))
        .done()
}

/// The card of the selected message: its fields and a drop button.
pub fn detail(v: &View) -> Html {
    let Some(id) = v.ui.selected_msg else {
        return html! {};
    };
    let close = send(v.link, Msg::SelectMessage(None));
    let l = v.ui.lang;
    let Some(f) = v.sim.net.in_flight.get(&id) else {
        return el!(
            "div",
            "class" = "msg-card",
            "role" = "dialog",
            "aria-label" = text!(l, "ui.msg.card_aria"),
        )
        .c(el!("p").c(tr!(l, "ui.msg.gone", id = id)))
        .c(el!("button", "aria-label" = text!(l, "ui.msg.close_aria"))
            .on_click(close)
            .c(text!(l, "ui.msg.close")))
        .done();
    };
    let m = &f.msg;
    let drop = send(v.link, Msg::Act(Action::Drop(id)));
    let entries = if m.entries.is_empty() {
        tr!(l, "word.none").to_string()
    } else {
        m.entries
            .iter()
            .map(|e| {
                let label = e.label();
                if label.is_empty() {
                    tr!(l, "ui.msg.empty_entry", index = e.index, term = e.term)
                } else {
                    format!("{}@t{} {label}", e.index, e.term)
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let row = |k: &str, val: String| {
        el!("span", "class" = "field")
            .c(el!("span", "class" = "k").c(k.to_string()))
            .c(" ")
            .c(el!("span", "class" = "v").c(val))
            .done()
    };
    el!(
        "div",
        "class" = "msg-card",
        "role" = "dialog",
        "aria-label" = text!(l, "ui.msg.card_aria"),
        "data-msg-card" = id.to_string(),
    )
    .c(el!("h3").c(format!(
        "{} {} → {}",
        type_name(l, m.msg_type),
        node_name(m.from),
        node_name(m.to)
    )))
    .c(el!("div", "class" = "fields")
        .c(row("id", id.to_string()))
        .c(row(tr!(l, "ui.msg.term"), m.term.to_string()))
        .c(row(tr!(l, "ui.msg.log_term"), m.log_term.to_string()))
        .c(row(tr!(l, "ui.msg.index"), m.index.to_string()))
        .c(row(tr!(l, "ui.msg.commit"), m.commit.to_string()))
        .c(row(tr!(l, "ui.msg.entries_k"), entries))
        .c(if m.msg_type.is_response() {
            row(
                tr!(l, "ui.msg.reject"),
                if m.reject {
                    tr!(l, "ui.yes")
                } else {
                    tr!(l, "ui.no")
                }
                .to_string(),
            )
        } else {
            Html::default()
        })
        .c(if m.reject {
            row(tr!(l, "ui.msg.reject_hint"), m.reject_hint.to_string())
        } else {
            Html::default()
        })
        .c(if let Some(s) = &m.snapshot {
            row(
                tr!(l, "ui.msg.snapshot"),
                tr!(l, "ui.msg.snapshot_upto", index = s.index, term = s.term),
            )
        } else {
            Html::default()
        })
        .c(if m.context != 0 {
            row(tr!(l, "ui.msg.context"), m.context.to_string())
        } else {
            Html::default()
        })
        .c(row(
            tr!(l, "ui.msg.sent"),
            tr!(l, "ui.msg.ms", ms = f.sent_at),
        ))
        .c(row(
            tr!(l, "ui.msg.arrives"),
            tr!(l, "ui.msg.ms", ms = f.deliver_at),
        ))
        .c(match v.sim.drop_why(f) {
            Some(why) => row(
                tr!(l, "ui.msg.fate"),
                tr!(l, "ui.msg.will_be_dropped", why = why.render(l)),
            ),
            None => Html::default(),
        }))
    .c(el!("div", "class" = "buttons")
        .c(el!(
            "button",
            "class" = "danger",
            "aria-label" = text!(l, "ui.msg.drop_aria")
        )
        .on_click(drop)
        .c(text!(l, "ui.msg.drop")))
        .c(el!("button", "aria-label" = text!(l, "ui.msg.close_aria"))
            .on_click(close)
            .c(text!(l, "ui.msg.close"))))
    .done()
}
