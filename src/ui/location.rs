//! The page address: `?embed=1`, `?preset=ID`, `?n=`, `?seed=`, `?speed=`, `?paused=1`,
//! `?theme=`, `?present=1`, a shared run in `#run=...`, and `compare=OPT=V,...` (compare
//! mode for the preset or shared run). Bad values give a notice, never a
//! panic.

use crate::sim::player::Player;
use crate::sim::scenario::Script;
use crate::sim::{presets, share};

use super::app::{App, Theme};
use super::pace::Pace;
use super::{compare_view, dom};

fn truthy(v: &str) -> bool {
    v.is_empty() || v == "1" || v == "true"
}

impl App {
    /// Applies the page address's settings (query and hash both count).
    pub(super) fn apply_location(&mut self) {
        let (query, hash) = dom::location_parts();
        let mut params = dom::pairs(&query);
        params.extend(dom::pairs(&hash));
        for (k, v) in &params {
            match k.as_str() {
                "embed" => self.ui.embed = truthy(v),
                "speed" => match Pace::parse(v) {
                    Some(p) => self.ui.pace = p,
                    None => {
                        self.ui.notice = Some(format!(
                            "speed must be 'teach' or a positive number, not '{v}'"
                        ))
                    }
                },
                "paused" => self.ui.playing = !truthy(v),
                "present" => self.ui.presenter = truthy(v),
                "theme" => {
                    self.ui.theme = match v.as_str() {
                        "dark" => Theme::Dark,
                        "light" => Theme::Light,
                        _ => Theme::Auto,
                    }
                }
                _ => {}
            }
        }
        let get = |key: &str| {
            params
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
        };
        if get("n").is_some() || get("seed").is_some() {
            if let Some(n) = get("n") {
                self.ui.forms.reset_n = n;
            }
            if let Some(s) = get("seed") {
                self.ui.forms.reset_seed = s;
            }
            self.reset();
        }
        if self.ui.embed || self.ui.presenter {
            self.ui.welcome = false;
        }
        if self.ui.embed {
            // A small frame has no room for it; the reader of an embed can open it.
            self.ui.legend = false;
        }
        let compare_with = get("compare").map(|v| {
            compare_view::parse_with(
                &js_sys::decode_uri_component(&v)
                    .map(String::from)
                    .unwrap_or(v),
            )
        });
        if let Some(Err(e)) = &compare_with {
            self.ui.notice = Some(e.clone());
        }
        let compare_with = compare_with.and_then(Result::ok);
        if let Some(run) = get("run") {
            self.ui.welcome = false;
            match share::decode(&run) {
                Ok(text) => {
                    self.load_shared(&text);
                    if let Some(w) = &compare_with {
                        self.start_compare(&text, w, false);
                    }
                }
                Err(e) => {
                    self.ui.notice = Some(format!(
                        "The share link in the address could not be opened: {e}. A new cluster was started instead."
                    ));
                }
            }
        } else if let Some(id) = get("preset") {
            if self.load_preset(&id) {
                self.ui.playing = false;
                if let (Some(w), Some(p)) = (&compare_with, presets::find(&id)) {
                    self.start_compare(p.text, w, true);
                }
            }
        }
    }

    /// Replays a shared run to its end and keeps it as the free run.
    fn load_shared(&mut self, text: &str) {
        match Script::parse(text) {
            Ok(script) => {
                let mut player = Player::new(script);
                player.run_all();
                let failures = player.failures().len();
                match player.into_timeline() {
                    Some(tl) => {
                        self.sync_reset_form(tl.initial_size(), tl.initial_options().seed);
                        self.seen_violations_reset(tl.sim().violations.len());
                        self.tl = tl;
                        self.scenario = None;
                        self.ui.playing = false;
                        if failures > 0 {
                            self.ui.notice = Some(format!(
                                "The shared run was replayed, but {failures} of its lines failed."
                            ));
                        }
                    }
                    None => self.ui.notice = Some(
                        "The share link holds no cluster line. A new cluster was started instead."
                            .into(),
                    ),
                }
            }
            Err(e) => {
                self.ui.notice = Some(format!(
                    "The share link in the address is not a valid raftlab run (line {e}). A new cluster was started instead."
                ));
            }
        }
    }
}

/// This page without embed mode (keeping a shared run in the hash and the lesson).
pub fn full_app_url() -> String {
    let (query, hash) = dom::location_parts();
    let keep = |s: &str| -> Vec<String> {
        dom::pairs(s)
            .into_iter()
            .filter(|(k, _)| k != "embed")
            .map(|(k, v)| if v.is_empty() { k } else { format!("{k}={v}") })
            .collect()
    };
    let q = keep(&query);
    let h = keep(&hash);
    let mut url = dom::base_url();
    if !q.is_empty() {
        url.push('?');
        url.push_str(&q.join("&"));
    }
    if !h.is_empty() {
        url.push('#');
        url.push_str(&h.join("&"));
    }
    url
}
