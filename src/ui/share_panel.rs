//! Export and share: the run as a .scn file, the event trace as JSON, a link that replays the
//! run exactly, and the same link for embedding (cluster and logs only).

use crate::el;
use crate::text;
use yew::prelude::*;

use crate::tr;

use super::app::{Msg, View};
use super::h::send;

/// The panel.
// Not inlined into its one caller, so that scripts/split-wasm.mjs can move it, rarely needed,
// to the wasm's second part.
#[inline(never)]
pub fn render(v: &View) -> Html {
    let link = v.link;
    let l = v.ui.lang;
    let scn = v.tl.export_scn();
    let actions = v.tl.actions().len();
    let embed = v.ui.share_link.as_ref().map(|l| match l.split_once('#') {
        Some((base, hash)) => format!("{base}{}embed=1#{hash}", query_sep(base)),
        None => format!("{l}{}embed=1", query_sep(l)),
    });
    el!("div", "class" = "share-panel")
        .c(el!("p", "class" = "hint").c(if actions == 1 {
            tr!(l, "ui.share.one_action").to_string()
        } else {
            tr!(l, "ui.share.actions", n = actions)
        }))
        .c(el!("div", "class" = "row wrap")
            .c(el!(
                "button",
                "aria-label" = text!(l, "ui.share.export_scn_aria"),
                "title" = text!(l, "ui.share.export_scn_tip"),
            )
            .on_click(send(link, Msg::ExportScn))
            .c(text!(l, "ui.share.export_scn")))
            .c(el!(
                "button",
                "aria-label" = text!(l, "ui.share.export_trace_aria"),
                "title" = text!(l, "ui.share.export_trace_tip"),
            )
            .on_click(send(link, Msg::ExportTrace))
            .c(text!(l, "ui.share.export_trace")))
            .c(el!(
                "button",
                "class" = "primary",
                "aria-label" = text!(l, "ui.share.make_link_aria"),
                "title" = text!(l, "ui.share.make_link_tip"),
            )
            .on_click(send(link, Msg::ShareLink))
            .c(text!(l, "ui.share.make_link"))))
        .c(if let Some(url) = &v.ui.share_link {
            el!("label", "class" = "field block")
                .c(text!(l, "ui.share.link_label"))
                .c(el!(
                    "input",
                    "type" = "text",
                    "readonly" = true,
                    "aria-label" = text!(l, "ui.share.link_aria"),
                    "data-share-link" = "",
                )
                .value(url.clone())
                .done())
                .done()
        } else {
            Html::default()
        })
        .c(if let Some(url) = embed {
            el!("label", "class" = "field block")
                .c(text!(l, "ui.share.embed_label"))
                .c(el!(
                    "input",
                    "type" = "text",
                    "readonly" = true,
                    "aria-label" = text!(l, "ui.share.embed_aria"),
                )
                .value(url)
                .done())
                .done()
        } else {
            Html::default()
        })
        .c(el!("details")
            .c(el!("summary").c(text!(l, "ui.share.as_scenario")))
            .c(el!(
                "pre",
                "class" = "scn-preview",
                "data-export-scn" = "",
                "tabindex" = "0",
                "aria-label" = text!(l, "ui.share.exported_aria"),
            )
            .c(scn)))
        .done()
}

/// `&` when `url` already has a query, else `?`.
fn query_sep(url: &str) -> char {
    if url.contains('?') {
        '&'
    } else {
        '?'
    }
}
