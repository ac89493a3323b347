//! The help overlay: keyboard shortcuts, how to read the drawing, and the glossary.

use yew::prelude::*;

use crate::i18n::{self, glossary};
use crate::tr;

use super::app::{Msg, View};
use super::glossary::CONCEPTS;
use super::h::send;
use super::keys::SHORTCUTS;

/// (catalog key of what you see, catalog key of what it means).
const LEGEND: &[(&str, &str)] = &[
    ("ui.help.see_leader", "ui.help.mean_leader"),
    ("ui.help.see_candidate", "ui.help.mean_candidate"),
    ("ui.help.see_precandidate", "ui.help.mean_precandidate"),
    ("ui.help.see_follower", "ui.help.mean_follower"),
    ("ui.help.see_learner", "ui.help.mean_learner"),
    ("ui.help.see_down", "ui.help.mean_down"),
    ("ui.help.see_misconfigured", "ui.help.mean_misconfigured"),
    ("ui.help.see_term", "ui.help.mean_term"),
    ("ui.help.see_arc", "ui.help.mean_arc"),
    ("ui.help.see_votes", "ui.help.mean_votes"),
    ("ui.help.see_cut", "ui.help.mean_cut"),
    ("ui.help.see_groups", "ui.help.mean_groups"),
    ("ui.help.see_msgs", "ui.help.mean_msgs"),
    ("ui.help.see_reply", "ui.help.mean_reply"),
    ("ui.help.see_entry", "ui.help.mean_entry"),
];

/// The overlay.
pub fn render(v: &View) -> Html {
    let l = v.ui.lang;
    let close = send(v.link, Msg::Help(Some(false)));
    let keys = SHORTCUTS
        .iter()
        .map(|k| html! { <tr data-shortcut={k.key}><th scope="row"><kbd>{ k.key }</kbd></th><td>{ i18n::text(l, k.what) }</td></tr> })
        .collect::<Html>();
    let legend = LEGEND
        .iter()
        .map(|(k, d)| html! { <tr><th scope="row">{ i18n::text(l, k) }</th><td>{ i18n::text(l, d) }</td></tr> })
        .collect::<Html>();
    let concepts = CONCEPTS
        .iter()
        .map(|(c, _)| html! { <><dt>{ glossary::name(l, c) }</dt><dd>{ glossary::tip(l, c) }</dd></> })
        .collect::<Html>();
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-label={tr!(l, "ui.help.aria")}>
            <div class="overlay-box">
                <div class="row spread">
                    <h2>{ tr!(l, "ui.help.title") }</h2>
                    <button onclick={close} aria-label={tr!(l, "ui.help.close")}>{ "✕" }</button>
                </div>
                <div class="help-cols">
                    <div>
                        <h3>{ tr!(l, "ui.help.keys") }</h3>
                        <table class="kv">{ keys }</table>
                        <h3>{ tr!(l, "ui.help.drawing") }</h3>
                        <table class="kv">{ legend }</table>
                    </div>
                    <div>
                        <h3>{ tr!(l, "ui.help.concepts") }</h3>
                        <dl class="glossary">{ concepts }</dl>
                    </div>
                </div>
            </div>
        </div>
    }
}
