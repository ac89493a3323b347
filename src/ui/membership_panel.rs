//! Membership: add a voter or learner (optionally misconfigured, optionally started now),
//! promote, remove, and joint-consensus changes. Each shows its etcdctl command.

use yew::prelude::*;
use yew::TargetCast;

use crate::sim::{Action, Status};

use super::app::{Msg, View};
use super::forms::{parse_node, parse_nodes, Field};
use super::h::send;
use crate::i18n::Lang;
use crate::tr;

use super::glossary::tip_in as tip;
use super::style::node_name;

fn text_input(v: &View, field: Field, value: &str, label: &str, placeholder: &str) -> Html {
    let oninput = v.link.callback(move |e: InputEvent| {
        let i: web_sys::HtmlInputElement = e.target_unchecked_into();
        Msg::Field(field, i.value())
    });
    html! {
        <input type="text" value={value.to_string()} {oninput} aria-label={label.to_string()}
            placeholder={placeholder.to_string()} size="8" />
    }
}

fn checkbox(
    v: &View,
    l: Lang,
    field: Field,
    on: bool,
    label: &str,
    concept: &str,
    disabled: bool,
) -> Html {
    let onchange = v.link.callback(move |e: Event| {
        let i: web_sys::HtmlInputElement = e.target_unchecked_into();
        Msg::Field(field, i.checked().to_string())
    });
    html! {
        <label class="check" title={tip(l, concept).to_string()}>
            <input type="checkbox" checked={on} {onchange} {disabled} aria-label={label.to_string()} />{ label.to_string() }
        </label>
    }
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
            html! { <button class="primary" onclick={send(link, Msg::Acts(list.clone()))} aria-label={tr!(l, "ui.mem.add_aria")}>{ tr!(l, "ui.mem.add") }</button> }
        }
        _ => {
            html! { <button disabled=true aria-label={tr!(l, "ui.mem.add_aria")}>{ tr!(l, "ui.mem.add") }</button> }
        }
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
            html! { <button onclick={send(link, Msg::Act(Action::Promote(id)))} title={title}
                aria-label={tr!(l, "ui.mem.promote_aria", node = node_name(id))}>{ tr!(l, "ui.mem.promote", node = node_name(id)) }</button> }
        })
        .collect::<Html>();
    let removable = v
        .sim
        .nodes
        .iter()
        .filter(|(id, n)| n.status != Status::Removed && cfg.members().contains(id))
        .map(|(id, _)| {
            let id = *id;
            html! { <button class="danger" onclick={send(link, Msg::Act(Action::Remove(id)))}
                title={format!("etcdctl member remove {}", node_name(id))}
                aria-label={tr!(l, "ui.mem.remove_aria", node = node_name(id))}>{ tr!(l, "ui.mem.remove", node = node_name(id)) }</button> }
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
            html! { <button onclick={send(link, Msg::Act(a.clone()))} title={scn} aria-label={tr!(l, "ui.mem.joint_aria")}>{ tr!(l, "ui.mem.joint") }</button> }
        }
        Err(e) => {
            html! { <button disabled=true title={e} aria-label={tr!(l, "ui.mem.joint_aria")}>{ tr!(l, "ui.mem.joint") }</button> }
        }
    };
    html! {
        <div class="membership-panel">
            <p class="cfg" title={tip(l, "quorum")}>{ tr!(l, "ui.mem.configuration", config = cfg.describe()) }</p>
            <fieldset>
                <legend>{ tr!(l, "ui.mem.add_legend") }</legend>
                <div class="row wrap">
                    <label class="field">{ tr!(l, "ui.mem.id") }{ text_input(v, Field::AddId, &f.add_id, tr!(l, "ui.mem.id_aria"), &format!("n{next_free}")) }</label>
                    <label class="radio" title={tip(l, "quorum")}>
                        <input type="radio" name="add-as" checked={!f.add_learner} onchange={as_voter} aria-label={tr!(l, "ui.mem.as_voter")} />{ tr!(l, "ui.mem.voter") }
                    </label>
                    <label class="radio" title={tip(l, "learner")}>
                        <input type="radio" name="add-as" checked={f.add_learner} onchange={as_learner} aria-label={tr!(l, "ui.mem.as_learner")} />{ tr!(l, "ui.mem.learner") }
                    </label>
                </div>
                <div class="row wrap">
                    { checkbox(v, l, Field::AddMisconfigured, f.add_misconfigured, tr!(l, "ui.mem.misconfigured"), "misconfigured", false) }
                    { checkbox(v, l, Field::AddStart, start_now, tr!(l, "ui.mem.start_now"), "misconfigured", f.add_misconfigured) }
                </div>
                <div class="row">{ add_btn }</div>
                <code class="etcdctl preview" data-etcdctl-preview="">{ preview }</code>
            </fieldset>
            <fieldset>
                <legend title={tip(l, "promote")}>{ tr!(l, "ui.mem.promote_legend") }</legend>
                if cfg.learners.is_empty() {
                    <p class="hint">{ tr!(l, "ui.mem.no_learners") }</p>
                } else {
                    <div class="row wrap">{ learners }</div>
                }
            </fieldset>
            <fieldset>
                <legend>{ tr!(l, "ui.mem.remove_legend") }</legend>
                <div class="row wrap">{ removable }</div>
            </fieldset>
            <fieldset>
                <legend title={tip(l, "joint consensus")}>{ tr!(l, "ui.mem.joint_legend") }</legend>
                <div class="row wrap">
                    <label class="field">{ tr!(l, "ui.mem.add_voters") }{ text_input(v, Field::JointAdd, &f.joint_add, tr!(l, "ui.mem.add_voters_aria"), "n4 n5") }</label>
                    <label class="field">{ tr!(l, "ui.mem.remove_members") }{ text_input(v, Field::JointRemove, &f.joint_remove, tr!(l, "ui.mem.remove_members_aria"), "n1 n2") }</label>
                    { joint_btn }
                </div>
            </fieldset>
        </div>
    }
}
