//! The Yew front end (wasm32 only): it renders the simulator's state and sends it actions.
//!
//! [`app`] owns the run and the animation clock and is the one reducer of [`state::Msg`];
//! [`page`] lays the page out; every other module renders one part of it from a
//! [`state::View`] (the run at the moment viewed, plus view state). Parts that change often
//! (nodes, messages, log rows, events) are components with compared inputs; the panels that
//! do not move with the clock keep their last build until what they show changes ([`memo`]).

mod action_bar;
mod app;
mod client_panel;
mod cluster_view;
mod compare_view;
mod config_view;
mod dom;
mod event_log;
mod explore_ctl;
mod explore_panel;
mod focus;
mod forms;
mod geometry;
mod glossary;
mod glyph_pool;
mod h;
mod help;
mod keys;
mod lang_pref;
pub mod lazy_text;
mod lesson;
mod lesson_ctl;
mod lesson_view;
mod location;
mod log_view;
mod membership_panel;
mod memo;
mod message_view;
mod network_panel;
mod node_glyph;
mod node_panel;
mod pace;
mod page;
mod player_panel;
mod prefs;
pub mod probe;
mod progress_view;
mod share_panel;
mod state;
mod style;
mod tabs;
mod timeline_bar;
mod toolbar;

/// Mounts the app (in `#app`, created if missing), with a panic hook that shows any panic
/// in the page's `#fatal` box.
pub fn start() {
    dom::install_panic_hook();
    crate::i18n::set_loader(lazy_text::load_part, Some(report_part_failure));
    // The first part of the page's catalog is fetched before the app mounts, so the first
    // paint has its texts, a Chinese reader's already Chinese. Should Chinese fail, the app
    // opens in English and says so (`App::create`); without English texts it cannot open.
    let lang = lang_pref::initial();
    lazy_text::catalog(lang, move |_| {
        if crate::i18n::has_catalog(lang) {
            return mount();
        }
        // Without English the page stays unmounted; `report_part_failure` has said why.
        if crate::i18n::ensure(crate::i18n::Lang::En).is_ok() {
            mount();
        }
    });
}

/// Says in the page's error box why a catalog part cannot be had (as for the wasm's second
/// part): the texts it holds would stay empty.
fn report_part_failure(why: &str) {
    dom::show_fatal(&if why.ends_with(crate::i18n::parts::OTHER_VERSION) {
        format!(
            "raftlab was updated on the server while this page was open ({why}). Reload the page to use the new version."
        )
    } else {
        format!(
            "raftlab could not fetch part of its texts ({why}). Reload the page when the network is back."
        )
    });
}

fn mount() {
    match dom::mount_point() {
        Some(root) => {
            yew::Renderer::<app::App>::with_root(root).render();
        }
        None => dom::show_fatal("raftlab could not find or create its #app element"),
    }
}
