//! Membership: add a voter or learner (optionally misconfigured, optionally started now),
//! promote, remove, and joint-consensus changes. Each shows its etcdctl command.

use super::h;
use crate::el;
use crate::text;
use yew::prelude::*;
use yew::TargetCast;

use crate::sim::client::ReqKind;
use crate::sim::{Action, Status};

use super::app::{Msg, View};
use super::forms::{parse_node, parse_nodes, Field};
use super::h::send;
use crate::tr;

use super::glossary::tip_in as tip;
use super::style::node_name;

fn text_input(v: &View, field: Field, value: &str, label: &str, placeholder: &str) -> Html {
    let oninput = h::field(v.link, field);
    el!(
        "input",
        "type" = "text",
        "aria-label" = label.to_string(),
        "placeholder" = placeholder.to_string(),
        "size" = "8",
    )
    .on_input(oninput)
    .value(value.to_string())
    .done()
}

fn checkbox(v: &View, field: Field, on: bool, label: &str, title: &str, disabled: bool) -> Html {
    let onchange = v.link.callback(move |e: Event| {
        let i: web_sys::HtmlInputElement = e.target_unchecked_into();
        Msg::Field(field, i.checked().to_string())
    });
    el!("label", "class" = "check", "title" = title.to_string())
        .c(el!(
            "input",
            "type" = "checkbox",
            "disabled" = disabled,
            "aria-label" = label.to_string()
        )
        .on_change(onchange)
        .checked(on)
        .done())
        .c(label.to_string())
        .done()
}

/// The panel.
pub fn render(v: &View) -> Html {
    let f = &v.ui.forms;
    let link = v.link;
    let l = v.ui.lang;
    let next_free = v.sim.nodes.keys().max().copied().unwrap_or(0) + 1;
    let id = if f.add_id.trim().is_empty() {
        Some(next_free)
    } else {
        parse_node(&f.add_id)
    };
    let add = id.map(|node| Action::MemberAdd {
        node,
        learner: f.add_learner,
        misconfigured: f.add_misconfigured,
    });
    let preview = add
        .as_ref()
        .and_then(|a| a.etcdctl())
        .unwrap_or_else(|| tr!(l, "ui.mem.type_id").into());
    // A member added with a wrong peer URL never comes up, so starting it would only add a
    // doomed line to the run: the box is off and disabled while "misconfigured" is ticked.
    let start_now = f.add_start && !f.add_misconfigured;
    let add_btn = match (add, id) {
        (Some(a), Some(node)) => {
            let list = if start_now {
                vec![a, Action::Start(node)]
            } else {
                vec![a]
            };
            el!(
                "button",
                "class" = "primary",
                "aria-label" = text!(l, "ui.mem.add_aria")
            )
            .on_click(send(link, Msg::Acts(list.clone())))
            .c(text!(l, "ui.mem.add"))
            .done()
        }
        _ => el!(
            "button",
            "disabled" = true,
            "aria-label" = text!(l, "ui.mem.add_aria")
        )
        .c(text!(l, "ui.mem.add"))
        .done(),
    };
    let as_voter = send(link, Msg::Field(Field::AddAs, "voter".into()));
    let as_learner = send(link, Msg::Field(Field::AddAs, "learner".into()));
    let cfg = v.sim.config();
    let learners = cfg
        .learners
        .iter()
        .map(|id| {
            let id = *id;
            let a = Action::Promote(id);
            let title = a.etcdctl().unwrap_or_default();
            el!(
                "button",
                "title" = title,
                "aria-label" = tr!(l, "ui.mem.promote_aria", node = node_name(id)),
            )
            .on_click(send(link, Msg::Act(Action::Promote(id))))
            .c(tr!(l, "ui.mem.promote", node = node_name(id)))
            .done()
        })
        .collect::<Html>();
    let removable = v
        .sim
        .nodes
        .iter()
        .filter(|(id, n)| n.status != Status::Removed && cfg.members().contains(id))
        .map(|(id, _)| {
            let id = *id;
            el!(
                "button",
                "class" = "danger",
                "title" = format!("etcdctl member remove {}", node_name(id)),
                "aria-label" = tr!(l, "ui.mem.remove_aria", node = node_name(id)),
            )
            .on_click(send(link, Msg::Act(Action::Remove(id))))
            .c(tr!(l, "ui.mem.remove", node = node_name(id)))
            .done()
        })
        .collect::<Html>();
    let joint = match (parse_nodes(&f.joint_add), parse_nodes(&f.joint_remove)) {
        (Ok(add), Ok(remove)) if !(add.is_empty() && remove.is_empty()) => {
            Ok(Action::MemberChange {
                add,
                learners: Vec::new(),
                remove,
            })
        }
        (Err(w), _) | (_, Err(w)) => Err(tr!(l, "ui.mem.not_a_node", word = w)),
        _ => Err(tr!(l, "ui.mem.joint_hint").to_string()),
    };
    let joint_btn = match joint {
        Ok(a) => {
            let scn = a.to_scn();
            el!(
                "button",
                "title" = scn,
                "aria-label" = text!(l, "ui.mem.joint_aria")
            )
            .on_click(send(link, Msg::Act(a.clone())))
            .c(text!(l, "ui.mem.joint"))
            .done()
        }
        Err(e) => el!(
            "button",
            "disabled" = true,
            "title" = e,
            "aria-label" = text!(l, "ui.mem.joint_aria"),
        )
        .c(text!(l, "ui.mem.joint"))
        .done(),
    };
    el!("div", "class" = "membership-panel")
        .c(el!("p", "class" = "cfg", "title" = tip(l, "quorum")).c(tr!(
            l,
            "ui.mem.configuration",
            config = cfg.describe()
        )))
        .c(el!("fieldset")
            .c(el!("legend").c(text!(l, "ui.mem.add_legend")))
            .c(el!("div", "class" = "row wrap")
                .c(el!("label", "class" = "field")
                    .c(text!(l, "ui.mem.id"))
                    .c(text_input(
                        v,
                        Field::AddId,
                        &f.add_id,
                        tr!(l, "ui.mem.id_aria"),
                        &format!("n{next_free}"),
                    )))
                .c(el!("label", "class" = "radio", "title" = tip(l, "quorum"))
                    .c(el!(
                        "input",
                        "type" = "radio",
                        "name" = "add-as",
                        "aria-label" = text!(l, "ui.mem.as_voter"),
                    )
                    .on_change(as_voter)
                    .checked(!f.add_learner)
                    .done())
                    .c(text!(l, "ui.mem.voter")))
                .c(el!("label", "class" = "radio", "title" = tip(l, "learner"))
                    .c(el!(
                        "input",
                        "type" = "radio",
                        "name" = "add-as",
                        "aria-label" = text!(l, "ui.mem.as_learner"),
                    )
                    .on_change(as_learner)
                    .checked(f.add_learner)
                    .done())
                    .c(text!(l, "ui.mem.learner"))))
            .c(el!("div", "class" = "row wrap")
                .c(checkbox(
                    v,
                    Field::AddMisconfigured,
                    f.add_misconfigured,
                    tr!(l, "ui.mem.misconfigured"),
                    tip(l, "misconfigured"),
                    false,
                ))
                .c(checkbox(
                    v,
                    Field::AddStart,
                    start_now,
                    tr!(l, "ui.mem.start_now"),
                    tr!(l, "ui.mem.start_now_tip"),
                    f.add_misconfigured,
                )))
            .c(el!("div", "class" = "row").c(add_btn))
            .c(h::command_words(
                el!(
                    "code",
                    "class" = "etcdctl preview",
                    "data-etcdctl-preview" = ""
                ),
                &preview,
            )))
        .c(latest_change(v))
        .c(el!("fieldset")
            .c(el!("legend", "title" = tip(l, "promote")).c(text!(l, "ui.mem.promote_legend")))
            .c(if cfg.learners.is_empty() {
                el!("p", "class" = "hint")
                    .c(text!(l, "ui.mem.no_learners"))
                    .done()
            } else {
                el!("div", "class" = "row wrap").c(learners).done()
            }))
        .c(el!("fieldset")
            .c(el!("legend").c(text!(l, "ui.mem.remove_legend")))
            .c(el!("div", "class" = "row wrap").c(removable)))
        .c(el!("fieldset")
            .c(el!("legend", "title" = tip(l, "joint consensus"))
                .c(text!(l, "ui.mem.joint_legend")))
            .c(el!("div", "class" = "row wrap")
                .c(el!("label", "class" = "field")
                    .c(text!(l, "ui.mem.add_voters"))
                    .c(text_input(
                        v,
                        Field::JointAdd,
                        &f.joint_add,
                        tr!(l, "ui.mem.add_voters_aria"),
                        "n4 n5",
                    )))
                .c(el!("label", "class" = "field")
                    .c(text!(l, "ui.mem.remove_members"))
                    .c(text_input(
                        v,
                        Field::JointRemove,
                        &f.joint_remove,
                        tr!(l, "ui.mem.remove_members_aria"),
                        "n1 n2",
                    )))
                .c(joint_btn)))
        .done()
}

/// The newest membership request and its outcome, beside the forms that make them: etcd's
/// refusals ("unhealthy cluster", a promotion refused) were only on the request line under
/// the drawing, off screen on a phone while the operator looks at this tab.
fn latest_change(v: &View) -> Html {
    let Some(r) = v
        .sim
        .requests
        .values()
        .next_back()
        .filter(|r| matches!(r.kind, ReqKind::Member { .. }))
    else {
        return Html::default();
    };
    el!("div", "data-latest-change" = "")
        .c(super::action_bar::latest_box(v.ui.lang, r))
        .done()
}
