//! The help overlay: keyboard shortcuts, how to read the drawing, and the glossary.

use yew::prelude::*;

use super::app::{Msg, View};
use super::glossary::CONCEPTS;
use super::keys::SHORTCUTS;

const LEGEND: &[(&str, &str)] = &[
    ("♛ thick double ring", "leader"),
    ("dashed ring", "candidate"),
    ("dotted ring", "pre-candidate"),
    ("thin ring", "follower"),
    ("hollow ring, \"learner\"", "learner (does not vote)"),
    ("grey with ✕", "killed or removed"),
    ("red dashed, \"unreachable\"", "misconfigured member"),
    ("big number in a node", "its term"),
    ("thick arc around a node", "its election timer"),
    (
        "✓ / ✕ / ○ beside a candidate",
        "a vote granted / refused / not answered yet",
    ),
    ("red dashed link with ✕", "cut link"),
    ("shaded areas A, B, C", "partition groups"),
    (
        "labelled pills with an arrowhead",
        "messages: PreVote, Vote, App (+n: entries), HB (heartbeat), Snap, TimeoutNow, ReadIndex",
    ),
    (
        "✓ / ✕ after the label",
        "a reply: granted or acknowledged / rejected",
    ),
    ("solid / dashed log entry", "committed / not yet committed"),
];

/// The overlay.
pub fn render(v: &View) -> Html {
    let close = v.link.callback(|_| Msg::Help(Some(false)));
    let keys = SHORTCUTS
        .iter()
        .map(|k| html! { <tr data-shortcut={k.key}><th scope="row"><kbd>{ k.key }</kbd></th><td>{ k.what }</td></tr> })
        .collect::<Html>();
    let legend = LEGEND
        .iter()
        .map(|(k, d)| html! { <tr><th scope="row">{ *k }</th><td>{ *d }</td></tr> })
        .collect::<Html>();
    let concepts = CONCEPTS
        .iter()
        .map(|(c, d)| html! { <><dt>{ *c }</dt><dd>{ *d }</dd></> })
        .collect::<Html>();
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-label="help">
            <div class="overlay-box">
                <div class="row spread">
                    <h2>{ "raftlab help" }</h2>
                    <button onclick={close} aria-label="close help">{ "✕" }</button>
                </div>
                <div class="help-cols">
                    <div>
                        <h3>{ "Keys" }</h3>
                        <table class="kv">{ keys }</table>
                        <h3>{ "Reading the drawing" }</h3>
                        <table class="kv">{ legend }</table>
                    </div>
                    <div>
                        <h3>{ "Concepts" }</h3>
                        <dl class="glossary">{ concepts }</dl>
                    </div>
                </div>
            </div>
        </div>
    }
}
