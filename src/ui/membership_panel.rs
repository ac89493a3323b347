//! Membership: add a voter or learner (optionally misconfigured, optionally started now),
//! promote, remove, and joint-consensus changes. Each shows its etcdctl command.

use yew::prelude::*;
use yew::TargetCast;

use crate::sim::{Action, Status};

use super::app::{Msg, View};
use super::forms::{parse_node, parse_nodes, Field};
use super::glossary::tip;
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

fn checkbox(v: &View, field: Field, on: bool, label: &str, concept: &str, disabled: bool) -> Html {
    let onchange = v.link.callback(move |e: Event| {
        let i: web_sys::HtmlInputElement = e.target_unchecked_into();
        Msg::Field(field, i.checked().to_string())
    });
    html! {
        <label class="check" title={tip(concept).to_string()}>
            <input type="checkbox" checked={on} {onchange} {disabled} aria-label={label.to_string()} />{ label.to_string() }
        </label>
    }
}

/// The panel.
pub fn render(v: &View) -> Html {
    let f = &v.ui.forms;
    let link = v.link;
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
        .unwrap_or_else(|| "type a node id like n4".into());
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
            html! { <button class="primary" onclick={link.callback(move |_| Msg::Acts(list.clone()))} aria-label="add member">{ "Add member" }</button> }
        }
        _ => html! { <button disabled=true aria-label="add member">{ "Add member" }</button> },
    };
    let as_voter = link.callback(|_| Msg::Field(Field::AddAs, "voter".into()));
    let as_learner = link.callback(|_| Msg::Field(Field::AddAs, "learner".into()));
    let cfg = v.sim.config();
    let learners = cfg
        .learners
        .iter()
        .map(|id| {
            let id = *id;
            let a = Action::Promote(id);
            let title = a.etcdctl().unwrap_or_default();
            html! { <button onclick={link.callback(move |_| Msg::Act(Action::Promote(id)))} title={title}
                aria-label={format!("promote {}", node_name(id))}>{ format!("Promote {}", node_name(id)) }</button> }
        })
        .collect::<Html>();
    let removable = v
        .sim
        .nodes
        .iter()
        .filter(|(id, n)| n.status != Status::Removed && cfg.members().contains(id))
        .map(|(id, _)| {
            let id = *id;
            html! { <button class="danger" onclick={link.callback(move |_| Msg::Act(Action::Remove(id)))}
                title={format!("etcdctl member remove {}", node_name(id))}
                aria-label={format!("remove {}", node_name(id))}>{ format!("Remove {}", node_name(id)) }</button> }
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
        (Err(e), _) | (_, Err(e)) => Err(e),
        _ => Err("list voters to add and/or members to remove".to_string()),
    };
    let joint_btn = match joint {
        Ok(a) => {
            let scn = a.to_scn();
            html! { <button onclick={link.callback(move |_| Msg::Act(a.clone()))} title={scn} aria-label="change together">{ "Change together" }</button> }
        }
        Err(e) => {
            html! { <button disabled=true title={e} aria-label="change together">{ "Change together" }</button> }
        }
    };
    html! {
        <div class="membership-panel">
            <p class="cfg" title={tip("quorum")}>{ format!("configuration: {}", cfg.describe()) }</p>
            <fieldset>
                <legend>{ "Add a member" }</legend>
                <div class="row wrap">
                    <label class="field">{ "id " }{ text_input(v, Field::AddId, &f.add_id, "new member id", &format!("n{next_free}")) }</label>
                    <label class="radio" title={tip("quorum")}>
                        <input type="radio" name="add-as" checked={!f.add_learner} onchange={as_voter} aria-label="as voter" />{ "voter" }
                    </label>
                    <label class="radio" title={tip("learner")}>
                        <input type="radio" name="add-as" checked={f.add_learner} onchange={as_learner} aria-label="as learner" />{ "learner" }
                    </label>
                </div>
                <div class="row wrap">
                    { checkbox(v, Field::AddMisconfigured, f.add_misconfigured, "misconfigured peer URL", "misconfigured", false) }
                    { checkbox(v, Field::AddStart, start_now, "start its process now", "misconfigured", f.add_misconfigured) }
                </div>
                <div class="row">{ add_btn }</div>
                <code class="etcdctl preview" data-etcdctl-preview="">{ preview }</code>
            </fieldset>
            <fieldset>
                <legend title={tip("promote")}>{ "Promote a learner" }</legend>
                if cfg.learners.is_empty() {
                    <p class="hint">{ "No learners." }</p>
                } else {
                    <div class="row wrap">{ learners }</div>
                }
            </fieldset>
            <fieldset>
                <legend>{ "Remove a member" }</legend>
                <div class="row wrap">{ removable }</div>
            </fieldset>
            <fieldset>
                <legend title={tip("joint consensus")}>{ "Joint consensus: several changes at once" }</legend>
                <div class="row wrap">
                    <label class="field">{ "add voters " }{ text_input(v, Field::JointAdd, &f.joint_add, "voters to add", "n4 n5") }</label>
                    <label class="field">{ "remove " }{ text_input(v, Field::JointRemove, &f.joint_remove, "members to remove", "n1 n2") }</label>
                    { joint_btn }
                </div>
            </fieldset>
        </div>
    }
}
