//! Export and share: the run as a .scn file, the event trace as JSON, a link that replays the
//! run exactly, and the same link for embedding (cluster and logs only).

use yew::prelude::*;

use crate::tr;

use super::app::{Msg, View};
use super::h::send;

/// The panel.
pub fn render(v: &View) -> Html {
    let link = v.link;
    let l = v.ui.lang;
    let scn = v.tl.export_scn();
    let actions = v.tl.actions().len();
    let embed = v.ui.share_link.as_ref().map(|l| match l.split_once('#') {
        Some((base, hash)) => format!("{base}{}embed=1#{hash}", query_sep(base)),
        None => format!("{l}{}embed=1", query_sep(l)),
    });
    html! {
        <div class="share-panel">
            <p class="hint">
                { if actions == 1 { tr!(l, "ui.share.one_action").to_string() } else { tr!(l, "ui.share.actions", n = actions) } }
            </p>
            <div class="row wrap">
                <button onclick={send(link, Msg::ExportScn)} aria-label={tr!(l, "ui.share.export_scn_aria")} title={tr!(l, "ui.share.export_scn_tip")}>{ tr!(l, "ui.share.export_scn") }</button>
                <button onclick={send(link, Msg::ExportTrace)} aria-label={tr!(l, "ui.share.export_trace_aria")} title={tr!(l, "ui.share.export_trace_tip")}>{ tr!(l, "ui.share.export_trace") }</button>
                <button class="primary" onclick={send(link, Msg::ShareLink)} aria-label={tr!(l, "ui.share.make_link_aria")} title={tr!(l, "ui.share.make_link_tip")}>{ tr!(l, "ui.share.make_link") }</button>
            </div>
            if let Some(url) = &v.ui.share_link {
                <label class="field block">{ tr!(l, "ui.share.link_label") }
                    <input type="text" readonly=true value={url.clone()} aria-label={tr!(l, "ui.share.link_aria")} data-share-link="" />
                </label>
            }
            if let Some(url) = embed {
                <label class="field block">{ tr!(l, "ui.share.embed_label") }
                    <input type="text" readonly=true value={url} aria-label={tr!(l, "ui.share.embed_aria")} />
                </label>
            }
            <details>
                <summary>{ tr!(l, "ui.share.as_scenario") }</summary>
                <pre class="scn-preview" data-export-scn="" tabindex="0" aria-label={tr!(l, "ui.share.exported_aria")}>{ scn }</pre>
            </details>
        </div>
    }
}

/// `&` when `url` already has a query, else `?`.
fn query_sep(url: &str) -> char {
    if url.contains('?') {
        '&'
    } else {
        '?'
    }
}
