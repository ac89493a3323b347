//! A client: write key=value (to the leader or via a chosen node), read linearizably or
//! serializably from a chosen node, and every request's outcome.

use super::h;
use crate::el;
use crate::text;
use yew::prelude::*;

use crate::sim::Action;

use super::action_bar::request_line;
use super::app::{Msg, View};
use super::forms::{node_select, parse_node, Field};
use super::h::send;
use crate::tr;

use super::glossary::tip_in as tip;
use super::keys;

/// A text field of the form; Enter in it does what its fieldset's button does (`on_enter`),
/// as in any form.
fn input(v: &View, field: Field, value: &str, label: &str, on_enter: Msg) -> Html {
    let oninput = h::field(v.link, field);
    let link = v.link.clone();
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter" && !e.is_composing() {
            e.prevent_default();
            link.send_message(on_enter.clone());
        }
    });
    el!(
        "input",
        "type" = "text",
        "size" = "6",
        "aria-label" = label.to_string()
    )
    .on_input(oninput)
    .on_keydown(onkeydown)
    .value(value.to_string())
    .done()
}

/// The write the form describes.
pub fn put_action(f: &super::forms::Forms) -> Action {
    Action::Propose {
        key: f.put_key.trim().to_string(),
        value: f.put_value.trim().to_string(),
        via: parse_node(&f.put_via),
    }
}

/// The read the form describes.
pub fn read_action(f: &super::forms::Forms) -> Action {
    Action::Read {
        key: f.read_key.trim().to_string(),
        via: parse_node(&f.read_via),
        linearizable: f.read_linearizable,
    }
}

/// How many of the newest requests the panel lists.
pub const RECENT: usize = 12;

/// The panel. It reads the forms, the node names and the newest requests only (the tabs'
/// kept build in `page.rs` relies on that).
pub fn render(v: &View) -> Html {
    let f = &v.ui.forms;
    let link = v.link;
    let l = v.ui.lang;
    let put_etcd = put_action(f).etcdctl().unwrap_or_default();
    // The write is read from the form when the click is handled, not when the button was
    // drawn: while playing, a click is drawn by the next frame (`App::update`), and a second
    // click before it must write the next value, not the same one again.
    let put_btn = send(link, Msg::ProposeForm);
    let read_etcd = read_action(f).etcdctl().unwrap_or_default();
    // Read from the form when handled, like the write (above).
    let read_btn = send(link, Msg::ReadForm);
    let lin = send(link, Msg::Field(Field::ReadMode, "linearizable".into()));
    let ser = send(link, Msg::Field(Field::ReadMode, "serializable".into()));
    let recent = v
        .sim
        .requests
        .values()
        .rev()
        .take(RECENT)
        // Keyed: a new request is one line added at the top and one dropped at the end,
        // not every line rewritten one place down.
        .map(|r| {
            el!("li")
                .key(r.id.to_string().into())
                .c(request_line(l, r))
                .done()
        })
        .collect::<Html>();
    el!("div", "class" = "client-panel")
        .c(el!("fieldset")
            .c(el!("legend", "title" = tip(l, "commit")).c(text!(l, "ui.cli.write")))
            .c(el!("div", "class" = "row wrap")
                .c(input(
                    v,
                    Field::PutKey,
                    &f.put_key,
                    tr!(l, "ui.cli.key_to_write"),
                    Msg::ProposeForm,
                ))
                .c("=")
                .c(input(
                    v,
                    Field::PutValue,
                    &f.put_value,
                    tr!(l, "ui.cli.value_to_write"),
                    Msg::ProposeForm,
                ))
                .c(node_select(
                    v,
                    Field::PutVia,
                    &f.put_via,
                    tr!(l, "ui.cli.write_goes_to"),
                    tr!(l, "ui.cli.to_leader"),
                    tr!(l, "ui.cli.via"),
                ))
                .c(el!(
                    "button",
                    "class" = "primary",
                    "aria-label" = text!(l, "ui.cli.propose_aria"),
                    "title" = format!("{put_etcd}{}", keys::hint(l, "w")),
                )
                .on_click(put_btn)
                .c(text!(l, "ui.cli.propose"))))
            .c(h::command_words(
                el!("code", "class" = "etcdctl preview"),
                &put_etcd,
            )))
        .c(el!("fieldset")
            .c(el!("legend").c(text!(l, "ui.cli.read")))
            .c(el!("div", "class" = "row wrap")
                .c(input(
                    v,
                    Field::ReadKey,
                    &f.read_key,
                    tr!(l, "ui.cli.key_to_read"),
                    Msg::ReadForm,
                ))
                .c(node_select(
                    v,
                    Field::ReadVia,
                    &f.read_via,
                    tr!(l, "ui.cli.read_from"),
                    tr!(l, "ui.cli.to_leader"),
                    tr!(l, "ui.cli.via"),
                ))
                .c(el!(
                    "label",
                    "class" = "radio",
                    "title" = tip(l, "linearizable read")
                )
                .c(el!(
                    "input",
                    "type" = "radio",
                    "name" = "read-mode",
                    "aria-label" = text!(l, "ui.cli.linearizable"),
                )
                .on_change(lin)
                .checked(f.read_linearizable)
                .done())
                .c(text!(l, "ui.cli.linearizable")))
                .c(el!(
                    "label",
                    "class" = "radio",
                    "title" = tip(l, "serializable read")
                )
                .c(el!(
                    "input",
                    "type" = "radio",
                    "name" = "read-mode",
                    "aria-label" = text!(l, "ui.cli.serializable"),
                )
                .on_change(ser)
                .checked(!f.read_linearizable)
                .done())
                .c(text!(l, "ui.cli.serializable")))
                .c(el!(
                    "button",
                    "class" = "primary",
                    "aria-label" = text!(l, "ui.cli.read_aria"),
                    "title" = read_etcd.clone(),
                )
                .on_click(read_btn)
                .c(text!(l, "ui.cli.read"))))
            .c(h::command_words(
                el!("code", "class" = "etcdctl preview"),
                &read_etcd,
            )))
        .c(el!("h3").c(text!(l, "ui.cli.requests")))
        .c(if v.sim.requests.is_empty() {
            el!("p", "class" = "hint")
                .c(text!(l, "ui.cli.no_requests"))
                .done()
        } else {
            Html::default()
        })
        .c(el!("ul", "class" = "requests", "data-requests" = "").c(recent))
        .done()
}
