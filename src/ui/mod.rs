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
    // The Chinese catalog is fetched before the app mounts, so a Chinese reader's first paint
    // is already Chinese (no English flashing by). Should it fail, the app opens in English
    // and says so (`App::create`).
    lazy_text::catalog(lang_pref::initial(), |_| mount());
}

fn mount() {
    match dom::mount_point() {
        Some(root) => {
            yew::Renderer::<app::App>::with_root(root).render();
        }
        None => dom::show_fatal("raftlab could not find or create its #app element"),
    }
}
