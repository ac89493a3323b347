//! The cluster drawing: nodes on a ring (role by shape and weight, a big term number, a thick
//! election timer, the votes a candidate has collected), the links (with many nodes only
//! those that carried a message within an election timeout, or are cut), partition groups as
//! shaded hulls, and the messages in flight (their own layer, `message_view`), plus the
//! legend. Each node is drawn by `node_glyph`.
//!
//! Each part is a component whose inputs are plain values compared by yew: a node is redrawn
//! only when something it shows changed, so a frame in which only messages moved touches
//! only the message layer.

use crate::el;
use crate::text;
use yew::prelude::*;

use crate::i18n::Lang;
use crate::raft::vec_map::{VecMap, VecSet};
use crate::raft::NodeId;
use crate::sim::Status;
use crate::tr;

use super::app::{Msg, View};
use super::geometry::{self, Pt};
use super::message_view;
use super::node_glyph::{node_props, NodeGlyph};
use super::style::{group_letter, node_name};

/// Node positions, by id, and the drawing's frame (the node radius is `frame.r`).
pub struct Layout {
    pub pos: Positions,
    pub frame: geometry::Frame,
}

/// Where each node is drawn: pairs sorted by id. A handful of nodes, looked up by binary
/// search; a B-tree map would link its own copy of the B-tree code for this one type.
pub struct Positions(Vec<(NodeId, Pt)>);

impl Positions {
    /// The position of node `id`, if it is drawn.
    pub fn get(&self, id: &NodeId) -> Option<&Pt> {
        let i = self.0.binary_search_by_key(id, |(n, _)| *n).ok()?;
        Some(&self.0[i].1)
    }
}

/// Where every node is drawn.
pub fn layout(v: &View) -> Layout {
    let frame = geometry::frame(v.sim.nodes.len());
    // The node map iterates in id order, so the pairs come sorted.
    let pos = v
        .sim
        .nodes
        .keys()
        .enumerate()
        .map(|(i, id)| (*id, frame.node_pos(i)))
        .collect();
    Layout {
        pos: Positions(pos),
        frame,
    }
}

/// The partition groups to draw: the explicit ones, plus the unlisted nodes as one more
/// group (the network's rule); empty when there is no partition.
fn groups(v: &View) -> Vec<Vec<NodeId>> {
    let net = &v.sim.net;
    if net.groups.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<Vec<NodeId>> = net
        .groups
        .iter()
        .map(|g| {
            g.iter()
                .copied()
                .filter(|id| v.sim.nodes.contains_key(id))
                .collect::<Vec<_>>()
        })
        .collect();
    let mut listed = VecSet::new();
    listed.extend(net.groups.iter().flatten().copied());
    let rest: Vec<NodeId> = v
        .sim
        .nodes
        .iter()
        .filter(|(id, n)| !listed.contains(id) && n.status != Status::Removed)
        .map(|(id, _)| *id)
        .collect();
    if !rest.is_empty() {
        out.push(rest);
    }
    out
}

/// The SVG.
pub fn render(v: &View) -> Html {
    let lay = layout(v);
    let groups = groups(v);
    let mut group_of: VecMap<NodeId, usize> = VecMap::new();
    group_of.extend(
        groups
            .iter()
            .enumerate()
            .flat_map(|(g, ids)| ids.iter().map(move |id| (*id, g))),
    );
    let hulls: Vec<HullShape> = groups
        .iter()
        .enumerate()
        .filter_map(|(g, ids)| hull(v.ui.lang, g, ids, &lay))
        .collect();
    let links = links(v, &lay);
    let learners = v.sim.config().learners;
    let nodes = v
        .sim
        .nodes
        .iter()
        .filter_map(|(id, n)| {
            let p = *lay.pos.get(id)?;
            let props = node_props(v, n, p, &lay, group_of.get(id).copied(), &learners);
            Some(html! { <NodeGlyph key={id.to_string()} ..props /> })
        })
        .collect::<Html>();
    let msgs = message_view::glyphs(v, &lay);
    let lang = v.ui.lang;
    let label = tr!(
        lang,
        "ui.cv.aria",
        n = v.sim.nodes.len(),
        time = crate::sim::decimal::fixed(v.sim.now as f64 / 1000.0, 1),
        leader = match v.sim.leader() {
            Some(l) => tr!(lang, "ui.cv.aria_leader", node = node_name(l)),
            None => tr!(lang, "ui.cv.aria_no_leader").to_string(),
        }
    );
    let empty = v.sim.nodes.is_empty();
    let (w, h) = (
        crate::sim::decimal::shortest(lay.frame.width),
        crate::sim::decimal::shortest(lay.frame.height),
    );
    el!(
        "svg",
        "class" = "cluster",
        "role" = "group",
        "aria-label" = label,
        "viewBox" = format!("0 0 {w} {h}"),
        "preserveAspectRatio" = "xMidYMid meet",
        // The viewBox's size for styles/app.css, which places the drawing beside the legend.
        "style" = format!("--vb-w:{w};--vb-h:{h}"),
    )
        .c(html! { <Hulls hulls={hulls} /> })
        .c(html! { <Links {links} lang={v.ui.lang} /> })
        // Messages under the nodes: a pill that arrives, leaves or passes by slides under a
        // node's name, role and vote instead of covering them (the words a class reads).
        // Pills start and end outside the timer ring, so no pill ever hides a node's circle.
        .c(html! { <message_view::MessageLayer msgs={msgs} lang={v.ui.lang} dispatch={v.dispatch.clone()} /> })
        .c(el!("g", "class" = "nodes")
            .c(nodes))
        .c(if empty {
            el!(
                "text",
                "x" = fmt(lay.frame.width / 2.0),
                "y" = "220",
                "text-anchor" = "middle",
                "class" = "hint",
            )
                .c(text!(v.ui.lang, "ui.cv.no_nodes"))
                .done()
        } else {
            Html::default()
        })
        .done()
}

/// One partition group's shaded area, as drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct HullShape {
    group: usize,
    title: String,
    points: Vec<Pt>,
    pad: f64,
    label_at: Pt,
}

fn hull(l: Lang, g: usize, ids: &[NodeId], lay: &Layout) -> Option<HullShape> {
    let pts: Vec<Pt> = ids
        .iter()
        .filter_map(|id| lay.pos.get(id).copied())
        .collect();
    let first = *pts.first()?;
    let pad = lay.frame.r + 16.0;
    let members = ids
        .iter()
        .map(|i| node_name(*i))
        .collect::<Vec<_>>()
        .join(" ");
    // The group's letter, outside its first node.
    let label_at = geometry::towards(first, lay.frame.centre, -(pad + 10.0));
    Some(HullShape {
        group: g,
        title: tr!(l, "ui.cv.group", group = group_letter(g), members = members),
        points: if pts.len() == 1 {
            pts
        } else {
            geometry::hull(&pts)
        },
        pad,
        label_at,
    })
}

#[derive(Clone, Debug, PartialEq, Properties)]
struct HullsProps {
    hulls: Vec<HullShape>,
}

#[component]
fn Hulls(p: &HullsProps) -> Html {
    let shapes = p
        .hulls
        .iter()
        .map(|h| {
            let shape = if h.points.len() == 1 {
                el!(
                    "circle",
                    "cx" = fmt(h.points[0].x),
                    "cy" = fmt(h.points[0].y),
                    "r" = fmt(h.pad),
                )
                .done()
            } else {
                el!(
                    "polygon",
                    "points" = geometry::points_attr(&h.points),
                    "stroke-width" = fmt(2.0 * h.pad),
                    "stroke-linejoin" = "round",
                    "stroke-linecap" = "round",
                )
                .done()
            };
            let letter = group_letter(h.group).to_string();
            el!(
                "g",
                "class" = Classes::from(format!("hull g{}", h.group % 4)),
                "data-group" = letter.clone(),
            )
            .c(el!("title").c(h.title.clone()))
            .c(shape)
            .c(el!(
                "text",
                "class" = "hull-label",
                "x" = fmt(h.label_at.x),
                "y" = fmt(h.label_at.y + 5.0),
                "text-anchor" = "middle",
            )
            .c(letter))
            .done()
        })
        .collect::<Html>();
    el!("g", "class" = "hulls").c(shapes).done()
}

/// One link, as drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkLine {
    a: NodeId,
    b: NodeId,
    from: Pt,
    to: Pt,
    kind: LinkKind,
}

/// What a link's drawing says of it: its class, its tooltip and the cut mark follow from it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum LinkKind {
    Up,
    /// Cut by the user (`cut nA nB`).
    Cut,
    /// Across a partition.
    Parted,
    /// One end is a misconfigured member, which no message reaches.
    Unreachable,
}

impl LinkKind {
    fn class(self) -> &'static str {
        match self {
            LinkKind::Up => "link",
            LinkKind::Cut => "link cut",
            LinkKind::Parted => "link parted",
            LinkKind::Unreachable => "link unreachable",
        }
    }
}

/// With more than this many nodes only links that carried traffic lately (see `links`) or are
/// cut are drawn, so nine nodes do not make a hairball.
const ALL_LINKS_UP_TO: usize = 5;

fn links(v: &View, lay: &Layout) -> Vec<LinkLine> {
    let ids: Vec<NodeId> = v
        .sim
        .nodes
        .iter()
        .filter(|(_, n)| n.status != Status::Removed)
        .map(|(id, _)| *id)
        .collect();
    let net = &v.sim.net;
    let sparse = ids.len() > ALL_LINKS_UP_TO;
    let now = v.sim.now;
    // A link stays drawn for an election timeout after its last message arrived. The leader
    // heartbeats more often than that, so its links stay drawn between rounds instead of
    // blinking with each one, and a link silent for longer than a follower would wait fades.
    // Every message in flight went through `Network::send`, so a link carrying one has a
    // tail at or after now: this covers busy links too.
    let window = v.sim.opts.election.max(1) * crate::sim::TICK_MS;
    let recent = |a: NodeId, b: NodeId| {
        [(a, b), (b, a)]
            .iter()
            .filter_map(|&(f, t)| net.link_tail.last(f, t))
            .any(|at| at.saturating_add(window) >= now)
    };
    let mut out = Vec::new();
    for (i, &a) in ids.iter().enumerate() {
        for &b in &ids[i + 1..] {
            let (Some(&pa), Some(&pb)) = (lay.pos.get(&a), lay.pos.get(&b)) else {
                continue;
            };
            let cut = net.cuts.contains(&(a, b));
            let parted = !cut && !net.connected(a, b);
            if sparse && !cut && !parted && !recent(a, b) {
                continue;
            }
            let unreachable = [a, b].iter().any(|x| {
                v.sim
                    .nodes
                    .get(x)
                    .is_some_and(|n| n.status == Status::Misconfigured)
            });
            let kind = if cut {
                LinkKind::Cut
            } else if parted {
                LinkKind::Parted
            } else if unreachable {
                LinkKind::Unreachable
            } else {
                LinkKind::Up
            };
            out.push(LinkLine {
                a,
                b,
                from: pa,
                to: pb,
                kind,
            });
        }
    }
    out
}

/// A link's tooltip, worded only when the links are drawn again (not every frame).
fn link_title(l: Lang, line: &LinkLine) -> String {
    let (a, b) = (node_name(line.a), node_name(line.b));
    match line.kind {
        LinkKind::Cut => tr!(l, "ui.cv.link_cut", a = a, b = b),
        LinkKind::Parted => tr!(l, "ui.cv.link_parted", a = a, b = b),
        LinkKind::Up | LinkKind::Unreachable => tr!(l, "ui.cv.link", a = a, b = b),
    }
}

#[derive(Clone, Debug, PartialEq, Properties)]
struct LinksProps {
    links: Vec<LinkLine>,
    lang: Lang,
}

#[component]
fn Links(p: &LinksProps) -> Html {
    let lines = p
        .links
        .iter()
        .map(|l| {
            let mid = geometry::along(l.from, l.to, 0.5, 0.0);
            let cut = l.kind == LinkKind::Cut;
            el!(
                "g",
                "class" = Classes::from(l.kind.class()),
                "data-link" = format!("n{}-n{}", l.a, l.b),
            )
            .key(format!("{}-{}", l.a, l.b).into())
            .c(el!("title").c(link_title(p.lang, l)))
            .c(el!(
                "line",
                "x1" = fmt(l.from.x),
                "y1" = fmt(l.from.y),
                "x2" = fmt(l.to.x),
                "y2" = fmt(l.to.y),
            ))
            .c(if cut {
                el!(
                    "text",
                    "class" = "cut-mark",
                    "x" = fmt(mid.x),
                    "y" = fmt(mid.y + 6.0),
                    "text-anchor" = "middle",
                )
                .c("✕")
                .done()
            } else {
                Html::default()
            })
            .done()
        })
        .collect::<Html>();
    el!("g", "class" = "links").c(lines).done()
}

#[derive(Clone, Debug, PartialEq, Properties)]
struct LegendProps {
    shown: bool,
    dispatch: Callback<Msg>,
    lang: Lang,
}

/// The compact legend over the drawing's corner (hideable).
pub fn legend(v: &View) -> Html {
    html! { <Legend shown={v.ui.legend} dispatch={v.dispatch.clone()} lang={v.ui.lang} /> }
}

#[component]
fn Legend(p: &LegendProps) -> Html {
    let d = p.dispatch.clone();
    let toggle = Callback::from(move |_: MouseEvent| d.emit(Msg::Legend(None)));
    let l = p.lang;
    if !p.shown {
        return el!(
            "button",
            "class" = "legend-toggle",
            "aria-label" = text!(l, "ui.cv.legend_show")
        )
        .on_click(toggle)
        .c(text!(l, "ui.cv.legend"))
        .done();
    }
    let pill = |class: &str, text: &str| {
        el!("span", "class" = classes!("lg-msg", class.to_string()))
            .c(text.to_string())
            .done()
    };
    el!(
        "div",
        "class" = "legend-box",
        "role" = "note",
        "aria-label" = text!(l, "ui.cv.legend")
    )
    .c(el!(
        "button",
        "class" = "legend-close",
        "aria-label" = text!(l, "ui.cv.legend_hide")
    )
    .on_click(toggle)
    .c("✕"))
    .c(el!("div", "class" = "lg-row")
        .c(el!("span", "class" = "lg-node leader").c("♛"))
        .c(text!(l, "ui.cv.lg_leader"))
        .c(el!("span", "class" = "lg-node candidate"))
        .c(text!(l, "ui.cv.lg_candidate"))
        .c(el!("span", "class" = "lg-node follower"))
        .c(text!(l, "ui.cv.lg_follower")))
    .c(el!("div", "class" = "lg-row")
        .c(el!("span", "class" = "lg-timer"))
        .c(text!(l, "ui.cv.lg_timer")))
    .c(el!("div", "class" = "lg-row")
        .c(pill("m-pre-vote", "PreVote"))
        .c(pill("m-vote", "Vote"))
        .c(pill("m-append", "App"))
        .c(pill("m-heartbeat", "HB")))
    .c(el!("div", "class" = "lg-row")
        .c(pill("m-snapshot", "Snap"))
        .c(pill("m-timeout-now", "TimeoutNow"))
        .c(pill("m-read-index", "ReadIndex")))
    .c(el!("div", "class" = "lg-row")
        .c(text!(l, "ui.cv.lg_reply"))
        .c(pill("m-vote-resp out-granted", "Vote ✓"))
        .c(pill("m-append-resp out-rejected", "App ✕")))
    .c(el!("div", "class" = "lg-row")
        .c(el!("span", "class" = "lg-entry solid").c("3"))
        .c(text!(l, "ui.cv.lg_committed"))
        .c(el!("span", "class" = "lg-entry dashed").c("3"))
        .c(text!(l, "ui.cv.lg_not_yet")))
    .done()
}

/// The status as a CSS-friendly word.
pub fn status_class(s: Status) -> &'static str {
    match s {
        Status::Running => "running",
        Status::Killed => "killed",
        Status::NotStarted => "not-started",
        Status::Misconfigured => "misconfigured",
        Status::Removed => "removed",
    }
}

/// A coordinate as SVG text.
pub fn fmt(x: f64) -> String {
    crate::sim::decimal::fixed(x, 1)
}
