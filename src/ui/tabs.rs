//! The right-hand panel's tabs: node, network, membership, client, scenario, export/share,
//! explore.

use crate::el;
use yew::prelude::*;

use super::app::{Msg, Tab, View};
use super::h::send;
use super::{
    client_panel, explore_panel, membership_panel, network_panel, node_panel, player_panel,
    share_panel,
};

/// (tab, its English name for `data-tab`, its catalog key).
const TABS: [(Tab, &str, &str); 7] = [
    (Tab::Node, "Node", "ui.tab.node"),
    (Tab::Network, "Network", "ui.tab.network"),
    (Tab::Members, "Membership", "ui.tab.membership"),
    (Tab::Client, "Client", "ui.tab.client"),
    (Tab::Scenario, "Scenario", "ui.tab.scenario"),
    (Tab::Share, "Export / share", "ui.tab.share"),
    (Tab::Explore, "Explore", "ui.tab.explore"),
];

fn tab_name(lang: crate::i18n::Lang, t: Tab) -> String {
    TABS.iter()
        .find(|(x, _, _)| *x == t)
        .map(|(_, _, key)| crate::tr!(lang, "ui.tab.panel", name = crate::i18n::text(lang, key)))
        .unwrap_or_default()
}

/// The tab `key` moves to from `from` (ArrowRight/ArrowLeft wrap around, Home and End go to
/// the first and last), as the WAI-ARIA tabs pattern has it; `None` for any other key.
fn tab_after(from: Tab, key: &str) -> Option<usize> {
    let at = TABS.iter().position(|(t, _, _)| *t == from)?;
    let n = TABS.len();
    Some(match key {
        "ArrowRight" => (at + 1) % n,
        "ArrowLeft" => (at + n - 1) % n,
        "Home" => 0,
        "End" => n - 1,
        _ => return None,
    })
}

/// The tab bar's keys: an arrow, Home or End chooses that tab and moves focus to it. The
/// event is marked handled, so the page's own arrows (step the run) leave it alone.
fn arrow_keys(link: &yew::html::Scope<super::app::App>, from: Tab) -> Callback<KeyboardEvent> {
    let link = link.clone();
    Callback::from(move |e: KeyboardEvent| {
        if e.alt_key() || e.ctrl_key() || e.meta_key() || e.shift_key() {
            return;
        }
        let Some(i) = tab_after(from, &e.key()) else {
            return;
        };
        e.prevent_default();
        let (t, name, _) = TABS[i];
        super::dom::focus(&format!(
            "[role=tab][data-tab=\"{}\"]",
            name.to_ascii_lowercase()
        ));
        link.send_message(Msg::Tab(t));
    })
}

/// The tab bar and the chosen panel.
pub fn render(v: &View) -> Html {
    let bar = TABS
        .iter()
        .map(|(t, name, key)| {
            let t = *t;
            let on = v.ui.tab == t;
            let onclick = send(v.link, Msg::Tab(t));
            // One stop in the page's Tab order, the chosen tab's; the arrows move between
            // the tabs (the tablist's keydown below).
            el!(
                "button",
                "role" = "tab",
                "class" = classes!("tab", on.then_some("on")),
                "aria-selected" = on.to_string(),
                "tabindex" = if on { "0" } else { "-1" },
                "data-tab" = name.to_ascii_lowercase(),
            )
            .on_click(onclick)
            .c(crate::i18n::text(v.ui.lang, key))
            .done()
        })
        .collect::<Html>();
    let body = match v.ui.tab {
        Tab::Node => node_panel::render(v),
        Tab::Network => network_panel::render(v),
        Tab::Members => membership_panel::render(v),
        Tab::Client => client_panel::render(v),
        Tab::Scenario => player_panel::render(v),
        Tab::Share => share_panel::render(v),
        Tab::Explore => explore_panel::render(v),
    };
    el!(
        "section",
        "class" = "tabs panel",
        "aria-label" = crate::tr!(v.ui.lang, "ui.tab.aria")
    )
    .c(el!("div", "class" = "tab-bar", "role" = "tablist")
        .on_keydown(arrow_keys(v.link, v.ui.tab))
        .c(bar))
    .c(el!(
        "div",
        "class" = "tab-body",
        "role" = "tabpanel",
        "tabindex" = "0",
        "aria-label" = tab_name(v.ui.lang, v.ui.tab),
    )
    .c(body))
    .done()
}
