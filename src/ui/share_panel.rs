//! Export and share: the run as a .scn file, the event trace as JSON, a link that replays the
//! run exactly, and the same link for embedding (cluster and logs only).

use yew::prelude::*;

use super::app::{Msg, View};

/// The panel.
pub fn render(v: &View) -> Html {
    let link = v.link;
    let scn = v.tl.export_scn();
    let actions = v.tl.actions().len();
    let embed = v.ui.share_link.as_ref().map(|l| match l.split_once('#') {
        Some((base, hash)) => format!("{base}?embed=1#{hash}"),
        None => format!("{l}?embed=1"),
    });
    html! {
        <div class="share-panel">
            <p class="hint">
                { format!("This run: {} recorded action{} — options, seed and every action with its time, so it replays identically here and in `raftlab run`.", actions, if actions == 1 { "" } else { "s" }) }
            </p>
            <div class="row wrap">
                <button onclick={link.callback(|_| Msg::ExportScn)} aria-label="export .scn" title="download the run as a scenario file">{ "⬇ Export .scn" }</button>
                <button onclick={link.callback(|_| Msg::ExportTrace)} aria-label="event trace JSON" title="download the event trace as JSON">{ "⬇ Event trace JSON" }</button>
                <button class="primary" onclick={link.callback(|_| Msg::ShareLink)} aria-label="share link" title="make a link that replays this run">{ "Share link" }</button>
            </div>
            if let Some(url) = &v.ui.share_link {
                <label class="field block">{ "share link (copied to the clipboard when allowed)" }
                    <input type="text" readonly=true value={url.clone()} aria-label="share link" data-share-link="" />
                </label>
            }
            if let Some(url) = embed {
                <label class="field block">{ "embed link (cluster and logs only)" }
                    <input type="text" readonly=true value={url} aria-label="embed link" />
                </label>
            }
            <details>
                <summary>{ "the run as a scenario" }</summary>
                <pre class="scn-preview" data-export-scn="" tabindex="0" aria-label="exported scenario">{ scn }</pre>
            </details>
        </div>
    }
}
