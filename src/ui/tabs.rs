//! The right-hand panel's tabs: node, network, membership, client, scenario, export/share.

use yew::prelude::*;

use super::app::{Msg, Tab, View};
use super::{client_panel, membership_panel, network_panel, node_panel, player_panel, share_panel};

const TABS: [(Tab, &str); 6] = [
    (Tab::Node, "Node"),
    (Tab::Network, "Network"),
    (Tab::Members, "Membership"),
    (Tab::Client, "Client"),
    (Tab::Scenario, "Scenario"),
    (Tab::Share, "Export / share"),
];

fn tab_name(t: Tab) -> String {
    TABS.iter()
        .find(|(x, _)| *x == t)
        .map(|(_, l)| format!("{l} panel"))
        .unwrap_or_default()
}

/// The tab bar and the chosen panel.
pub fn render(v: &View) -> Html {
    let bar = TABS
        .iter()
        .map(|(t, label)| {
            let t = *t;
            let on = v.ui.tab == t;
            let onclick = v.link.callback(move |_| Msg::Tab(t));
            html! {
                <button role="tab" class={classes!("tab", on.then_some("on"))} aria-selected={on.to_string()}
                    {onclick} data-tab={label.to_lowercase()}>{ *label }</button>
            }
        })
        .collect::<Html>();
    let body = match v.ui.tab {
        Tab::Node => node_panel::render(v),
        Tab::Network => network_panel::render(v),
        Tab::Members => membership_panel::render(v),
        Tab::Client => client_panel::render(v),
        Tab::Scenario => player_panel::render(v),
        Tab::Share => share_panel::render(v),
    };
    html! {
        <section class="tabs panel" aria-label="actions">
            <div class="tab-bar" role="tablist">{ bar }</div>
            <div class="tab-body" role="tabpanel" tabindex="0" aria-label={tab_name(v.ui.tab)}>{ body }</div>
        </section>
    }
}
