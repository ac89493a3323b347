//! The network: partition by choosing groups, cut a link, loss, latency, heal.

use super::h;
use crate::el;
use crate::text;
use yew::prelude::*;

use crate::raft::NodeId;
use crate::sim::{Action, Status};

use super::app::{Msg, View};
use super::forms::{node_select, parse_node, Field};
use super::h::send;
use crate::i18n::Lang;
use crate::tr;

use super::glossary::tip_in as tip;
use super::keys;
use super::style::{group_letter, node_name};

fn partition_action(v: &View) -> Option<Action> {
    let mut groups: Vec<Vec<NodeId>> = vec![Vec::new(); 3];
    for (id, g) in &v.ui.forms.groups {
        if (1..=3).contains(g) && v.sim.nodes.contains_key(id) {
            groups[(*g - 1) as usize].push(*id);
        }
    }
    let groups: Vec<Vec<NodeId>> = groups.into_iter().filter(|g| !g.is_empty()).collect();
    (!groups.is_empty()).then_some(Action::Partition(groups))
}

fn current(v: &View, l: Lang) -> String {
    let net = &v.sim.net;
    let mut parts = Vec::new();
    if !net.groups.is_empty() {
        let g: Vec<String> = net
            .groups
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let ids: Vec<String> = g.iter().map(|i| node_name(*i)).collect();
                format!("{} = {}", group_letter(i), ids.join(" "))
            })
            .collect();
        parts.push(tr!(l, "ui.net.partitioned", groups = g.join(" | ")));
    }
    if !net.cuts.is_empty() {
        let c: Vec<String> = net
            .cuts
            .iter()
            .map(|(a, b)| format!("{}–{}", node_name(*a), node_name(*b)))
            .collect();
        parts.push(tr!(l, "ui.net.cut_links", links = c.join(", ")));
    }
    if net.loss > 0 {
        parts.push(tr!(l, "ui.net.loss", percent = net.loss));
    }
    let o = &v.sim.opts;
    parts.push(tr!(
        l,
        "ui.net.latency",
        min = o.latency_min,
        max = o.latency_max
    ));
    if !net.is_faulty() {
        parts.insert(0, tr!(l, "ui.net.healthy").into());
    }
    parts.join(" · ")
}

/// The panel.
pub fn render(v: &View) -> Html {
    let f = &v.ui.forms;
    let link = v.link;
    let l = v.ui.lang;
    let group_rows = v
        .sim
        .nodes
        .iter()
        .filter(|(_, n)| n.status != Status::Removed)
        .map(|(id, _)| {
            let id = *id;
            let chosen = f.group(id);
            let radios = (0u8..=3)
                .map(|g| {
                    let pick = send(link, Msg::PartitionGroup(id, g));
                    let label = if g == 0 {
                        tr!(l, "ui.net.group_none").to_string()
                    } else {
                        group_letter((g - 1) as usize).to_string()
                    };
                    el!("label", "class" = "radio")
                        .c(el!(
                            "input",
                            "type" = "radio",
                            "name" = format!("group-n{id}"),
                            "aria-label" =
                                tr!(l, "ui.net.in_group", node = node_name(id), group = label),
                        )
                        .on_change(pick)
                        .checked(chosen == g)
                        .done())
                        .c(label.clone())
                        .done()
                })
                .collect::<Html>();
            el!("div", "class" = "group-row")
                .c(el!("span", "class" = "who").c(node_name(id)))
                .c(radios)
                .done()
        })
        .collect::<Html>();
    let part = partition_action(v);
    let part_btn = match part {
        Some(a) => {
            let title = a.to_scn();
            let title = format!("{title}{}", keys::hint(l, "s"));
            el!(
                "button",
                "title" = title,
                "aria-label" = text!(l, "ui.net.partition_aria")
            )
            .on_click(send(link, Msg::Act(a.clone())))
            .c(text!(l, "ui.net.partition"))
            .done()
        }
        None => el!(
            "button",
            "disabled" = true,
            "aria-label" = text!(l, "ui.net.partition_aria"),
            "title" = text!(l, "ui.net.partition_hint"),
        )
        .c(text!(l, "ui.net.partition"))
        .done(),
    };
    let cut = match (parse_node(&f.cut_a), parse_node(&f.cut_b)) {
        (Some(a), Some(b)) => Some(Action::Cut(a, b)),
        _ => None,
    };
    let cut_btn = match cut {
        Some(a) => el!("button", "aria-label" = text!(l, "ui.net.cut_aria"))
            .on_click(send(link, Msg::Act(a.clone())))
            .c(text!(l, "ui.net.cut"))
            .done(),
        None => el!(
            "button",
            "disabled" = true,
            "aria-label" = text!(l, "ui.net.cut_aria"),
            "title" = text!(l, "ui.net.cut_hint"),
        )
        .c(text!(l, "ui.net.cut"))
        .done(),
    };
    let loss_in = h::field(link, Field::Loss);
    let loss_val = f.loss.trim().parse::<u32>().ok().filter(|p| *p <= 100);
    let loss_btn = match loss_val {
        Some(p) => el!("button", "aria-label" = text!(l, "ui.net.loss_aria"))
            .on_click(send(link, Msg::Act(Action::Loss(p))))
            .c(text!(l, "ui.apply"))
            .done(),
        None => el!(
            "button",
            "disabled" = true,
            "aria-label" = text!(l, "ui.net.loss_aria"),
            "title" = text!(l, "ui.net.loss_hint"),
        )
        .c(text!(l, "ui.apply"))
        .done(),
    };
    let lat_min = h::field(link, Field::LatMin);
    let lat_max = h::field(link, Field::LatMax);
    let latency = format!("{}-{}", f.lat_min.trim(), f.lat_max.trim());
    let lat_btn = send(link, Msg::Set("latency", latency.clone()));
    let heal = send(link, Msg::Act(Action::Heal));
    el!("div", "class" = "network-panel")
        .c(el!("p", "class" = "net-state").c(current(v, l)))
        .c(el!("fieldset")
            .c(el!("legend", "title" = tip(l, "partition")).c(text!(l, "ui.net.partition_legend")))
            .c(group_rows)
            .c(el!("div", "class" = "row").c(part_btn).c(el!(
                "button",
                "title" = format!("{}{}", tr!(l, "ui.net.heal_tip"), keys::hint(l, "h")),
            )
            .on_click(heal.clone())
            .c(text!(l, "ui.net.heal")))))
        .c(el!("fieldset")
            .c(el!("legend", "title" = tip(l, "cut link")).c(text!(l, "ui.net.cut_legend")))
            .c(el!("div", "class" = "row")
                .c(node_select(
                    v,
                    Field::CutA,
                    &f.cut_a,
                    tr!(l, "ui.net.end_a"),
                    "—",
                    "",
                ))
                .c("—")
                .c(node_select(
                    v,
                    Field::CutB,
                    &f.cut_b,
                    tr!(l, "ui.net.end_b"),
                    "—",
                    "",
                ))
                .c(cut_btn)))
        .c(el!("fieldset")
            .c(el!("legend", "title" = tip(l, "loss")).c(text!(l, "ui.net.loss_legend")))
            .c(el!("div", "class" = "row")
                .c(el!(
                    "input",
                    "class" = "num",
                    "type" = "number",
                    "min" = "0",
                    "max" = "100",
                    "aria-label" = text!(l, "ui.net.loss_percent"),
                )
                .on_input(loss_in)
                .value(f.loss.clone())
                .done())
                .c("% ")
                .c(loss_btn)))
        .c(el!("fieldset")
            .c(el!("legend", "title" = tip(l, "latency")).c(text!(l, "ui.net.latency_legend")))
            .c(el!("div", "class" = "row")
                .c(el!(
                    "input",
                    "class" = "num",
                    "type" = "number",
                    "min" = "0",
                    "aria-label" = text!(l, "ui.net.lat_min"),
                )
                .on_input(lat_min)
                .value(f.lat_min.clone())
                .done())
                .c(text!(l, "ui.net.to"))
                .c(el!(
                    "input",
                    "class" = "num",
                    "type" = "number",
                    "min" = "0",
                    "aria-label" = text!(l, "ui.net.lat_max"),
                )
                .on_input(lat_max)
                .value(f.lat_max.clone())
                .done())
                .c(el!("button", "aria-label" = text!(l, "ui.net.lat_aria"))
                    .on_click(lat_btn)
                    .c(text!(l, "ui.apply")))))
        .done()
}
