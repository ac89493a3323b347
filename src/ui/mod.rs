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
    crate::i18n::set_loader(load_part);
    // The first part of the page's catalog is fetched before the app mounts, so the first
    // paint has its texts, a Chinese reader's already Chinese. Should Chinese fail, the app
    // opens in English and says so (`App::create`); without English texts it cannot open.
    let lang = lang_pref::initial();
    lazy_text::catalog(lang, move |_| {
        if crate::i18n::has_catalog(lang) {
            return mount();
        }
        match crate::i18n::ensure(crate::i18n::Lang::En) {
            Ok(()) => mount(),
            // A failed fetch was already told by `load_part`; a part refused for another
            // reason (a copy of another version) is told here.
            Err(_) if dom::fatal_shown() => {}
            Err(why) => dom::show_fatal(&format!(
                "raftlab could not load its texts ({why}). Reload the page when the network is back."
            )),
        }
    });
}

/// [`lazy_text::load_part`], saying in the page's error box when a part cannot be had (as for
/// the wasm's second part): the texts it holds would stay empty.
fn load_part(lang: crate::i18n::Lang, part: crate::i18n::parts::Part) -> Result<String, String> {
    let r = lazy_text::load_part(lang, part);
    if let Err(why) = &r {
        dom::show_fatal(&format!(
            "raftlab could not fetch part of its texts ({why}). Reload the page when the network is back."
        ));
    }
    r
}

fn mount() {
    match dom::mount_point() {
        Some(root) => {
            yew::Renderer::<app::App>::with_root(root).render();
        }
        None => dom::show_fatal("raftlab could not find or create its #app element"),
    }
}
