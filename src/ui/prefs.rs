//! What a returning visitor expects the page to remember in this browser (localStorage): the
//! colour theme they chose, and that they already closed the welcome card. An address that
//! says otherwise (`?theme=`, a shared run, a lesson) still wins for that page load. Nothing
//! here can fail loudly: without storage (private mode, a sandboxed frame) nothing is
//! remembered.

use super::state::Theme;

/// The localStorage key holding "light", "dark" or "auto".
const THEME_KEY: &str = "raftlab.theme";
/// The localStorage key set once the welcome card was closed.
const WELCOME_KEY: &str = "raftlab.welcome";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn get(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

fn set(key: &str, value: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(key, value);
    }
}

/// The theme chosen on an earlier visit (the system's if none, or if storage holds nonsense).
pub fn theme() -> Theme {
    match get(THEME_KEY).as_deref() {
        Some("light") => Theme::Light,
        Some("dark") => Theme::Dark,
        _ => Theme::Auto,
    }
}

/// Remembers the theme chosen with the toolbar's button.
pub fn remember_theme(t: Theme) {
    let word = match t {
        Theme::Auto => "auto",
        Theme::Light => "light",
        Theme::Dark => "dark",
    };
    set(THEME_KEY, word);
}

/// Whether the welcome card is due: only until the visitor closes it once.
pub fn welcome_due() -> bool {
    get(WELCOME_KEY).is_none()
}

/// Remembers that the welcome card was closed.
pub fn welcome_closed() {
    set(WELCOME_KEY, "closed");
}
