//! The help overlay: keyboard shortcuts, how to read the drawing, and the glossary.

use super::h;
use crate::el;
use crate::text;
use yew::prelude::*;

use crate::i18n::{self, glossary};

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
// Not inlined into its one caller, so that scripts/split-wasm.mjs can move it, rarely needed,
// to the wasm's second part.
#[inline(never)]
pub fn render(v: &View) -> Html {
    let l = v.ui.lang;
    let close = send(v.link, Msg::Help(Some(false)));
    let keys = SHORTCUTS
        .iter()
        .map(|k| {
            el!("tr", "data-shortcut" = k.key)
                .c(el!("th", "scope" = "row").c(el!("kbd").c(k.key)))
                .c(el!("td").c(i18n::text(l, k.what)))
                .done()
        })
        .collect::<Html>();
    let legend = LEGEND
        .iter()
        .map(|(k, d)| {
            el!("tr")
                .c(el!("th", "scope" = "row").c(i18n::text(l, k)))
                .c(el!("td").c(i18n::text(l, d)))
                .done()
        })
        .collect::<Html>();
    let concepts = CONCEPTS
        .iter()
        .map(|(c, _)| {
            h::frag()
                .c(el!("dt").c(glossary::name(l, c)))
                .c(el!("dd").c(glossary::tip(l, c)))
                .done()
        })
        .collect::<Html>();
    el!(
        "div",
        "class" = "overlay",
        "role" = "dialog",
        "aria-modal" = "true",
        "aria-label" = text!(l, "ui.help.aria"),
    )
    .c(el!("div", "class" = "overlay-box")
        .c(el!("div", "class" = "row spread")
            .c(el!("h2").c(text!(l, "ui.help.title")))
            .c(el!(
                "button",
                "aria-label" = text!(l, "ui.help.close"),
                "data-help-close" = ""
            )
            .on_click(close)
            .c("✕")))
        .c(el!("div", "class" = "help-cols")
            .c(el!("div")
                .c(el!("h3").c(text!(l, "ui.help.keys")))
                .c(el!("table", "class" = "kv").c(keys))
                .c(el!("h3").c(text!(l, "ui.help.drawing")))
                .c(el!("table", "class" = "kv").c(legend)))
            .c(el!("div")
                .c(el!("h3").c(text!(l, "ui.help.concepts")))
                .c(el!("dl", "class" = "glossary").c(concepts)))))
    .done()
}
