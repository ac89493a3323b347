//! The app's explore messages: starting a search in a Web Worker (the `explore_worker`
//! binary, a wasm file of its own fetched only now), following its progress, stopping it
//! (the worker is terminated), and opening, downloading or sharing a counterexample.
//!
//! The page sends `sim::explore_job`'s `ToWorker` as plain text (`ToWorker::to_text`) and
//! reads `FromWorker` from arrays of strings (no JSON library in the page's wasm). Messages posted before the worker
//! listens are lost, so the request waits for the worker's `Ready`.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::i18n::Msg as Text;
use crate::sim::explore_job::{FromWorker, ToWorker};
use crate::sim::share;

use super::app::{App, Msg};
use super::dom;
use super::explore_panel::{ExField, ExploreMsg, Status};

/// The worker's loader (worker/explore_worker_loader.js: it imports the worker's wasm-bindgen
/// glue and starts its wasm), next to index.html.
const WORKER_URL: &str = "explore_worker_loader.js";

/// A running explore worker and the request it has not been sent yet.
pub struct ExploreWorker {
    worker: web_sys::Worker,
    pending: Option<String>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

impl ExploreWorker {
    fn spawn(dispatch: yew::Callback<Msg>) -> Result<ExploreWorker, String> {
        let worker = web_sys::Worker::new(WORKER_URL).map_err(|e| format!("{e:?}"))?;
        let d = dispatch.clone();
        let on_message =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                let fields: Vec<String> = js_sys::Array::from(&e.data())
                    .iter()
                    .map(|f| f.as_string().unwrap_or_default())
                    .collect();
                d.emit(Msg::Explore(match FromWorker::from_fields(&fields) {
                    Some(m) => ExploreMsg::Worker(Box::new(m)),
                    None => ExploreMsg::WorkerFailed(format!("unreadable message: {fields:?}")),
                }));
            });
        let on_error =
            Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |e: web_sys::ErrorEvent| {
                e.prevent_default();
                let m = e.message();
                // Chromium words an error thrown in the worker "Uncaught Error: WHAT"; the
                // panel says WHAT.
                let m = m.strip_prefix("Uncaught ").unwrap_or(&m);
                let m = m.strip_prefix("Error: ").unwrap_or(m);
                dispatch.emit(Msg::Explore(ExploreMsg::WorkerFailed(if m.is_empty() {
                    "the worker could not be loaded".into()
                } else {
                    m.to_string()
                })));
            });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(ExploreWorker {
            worker,
            pending: None,
            _on_message: on_message,
            _on_error: on_error,
        })
    }

    fn send(&mut self, text: String, ready: bool) {
        if ready {
            let _ = self.worker.post_message(&JsValue::from_str(&text));
        } else {
            self.pending = Some(text);
        }
    }
}

impl Drop for ExploreWorker {
    fn drop(&mut self) {
        // A search cannot be interrupted from inside (it never yields): ending it is ending
        // the worker.
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

impl App {
    /// Handles the Explore tab's messages.
    // Not inlined into its one caller, so that scripts/split-wasm.mjs can move it, rarely needed,
    // to the wasm's second part.
    #[inline(never)]
    pub(super) fn explore_update(&mut self, m: ExploreMsg) {
        let e = &mut self.ui.explore;
        match m {
            ExploreMsg::Allow(f) => {
                toggle(&mut e.allow, f);
                // Schedules are drawn from the list in this order (as `allow` parses it).
                crate::sim::small_sort::sort_small_by(&mut e.allow, |a, b| a.cmp(b));
            }
            ExploreMsg::Check(k) => toggle(&mut e.check, k),
            ExploreMsg::Field(f, v) => match f {
                ExField::Until => e.until = v,
                ExField::Horizon => e.horizon = v,
                ExField::Schedules => e.schedules = v,
                ExField::Seconds => e.seconds = v,
                ExField::Seed => e.seed = v,
                ExField::Actions => e.actions = v,
                ExField::Liveness => e.liveness = v,
            },
            ExploreMsg::FromScenario(on) => e.from_scenario = on,
            ExploreMsg::Start => self.explore_start(),
            ExploreMsg::Stop => {
                self.explore_worker = None;
                let e = &mut self.ui.explore;
                let tried = match &e.status {
                    Status::Running { tried, .. } | Status::Shrinking { tried, .. } => *tried,
                    _ => 0,
                };
                e.status = Status::Stopped { tried };
            }
            ExploreMsg::Worker(w) => self.explore_heard(*w),
            ExploreMsg::WorkerFailed(err) => {
                self.explore_worker = None;
                let e = &mut self.ui.explore;
                e.status = Status::Idle;
                e.error = Some(Text::new("ui.explore.worker_failed").arg("error", err));
            }
            ExploreMsg::Open => {
                if let Status::Found { scn, found, .. } = &self.ui.explore.status {
                    let name = crate::tr!(
                        self.ui.lang,
                        "ui.explore.hit_name",
                        kind = super::explore_panel::kind_name(self.ui.lang, found.kind)
                    );
                    let scn = scn.clone();
                    self.load_script(name, &scn, None);
                }
            }
            ExploreMsg::Download => {
                if let Status::Found { scn, .. } = &self.ui.explore.status {
                    if let Err(err) = dom::download("raftlab-counterexample.scn", "text/plain", scn)
                    {
                        self.ui.notice = Some(Text::verbatim(err));
                    }
                }
            }
            ExploreMsg::Share => {
                if let Status::Found { scn, .. } = &self.ui.explore.status {
                    let url = format!(
                        "{}?lang={}#run={}",
                        dom::base_url(),
                        self.ui.lang.code(),
                        share::encode(scn)
                    );
                    dom::copy_to_clipboard(&url);
                    self.ui.explore.share_link = Some(url);
                }
            }
        }
    }

    fn explore_start(&mut self) {
        let e = &mut self.ui.explore;
        e.error = None;
        e.share_link = None;
        let (spec, seconds) = match (e.spec(), e.seconds()) {
            (Ok(s), Ok(t)) => (s, t),
            (Err(err), _) | (_, Err(err)) => {
                e.error = Some(err);
                return;
            }
        };
        let scenario = match (&e.scenario, e.from_scenario) {
            (Some(text), true) => text.clone(),
            _ => self.tl().export_scn(),
        };
        let req = ToWorker {
            scenario,
            spec,
            seconds,
        };
        let text = req.to_text();
        // A fresh worker per search: the last one may still be busy, and a new one loads
        // from the cache.
        self.explore_worker = None;
        match ExploreWorker::spawn(self.dispatch.clone()) {
            Ok(mut w) => {
                w.send(text, false);
                self.explore_worker = Some(w);
                self.ui.explore.status = Status::Starting;
            }
            Err(err) => {
                self.ui.explore.error =
                    Some(Text::new("ui.explore.worker_failed").arg("error", err));
            }
        }
    }

    fn explore_heard(&mut self, m: FromWorker) {
        let e = &mut self.ui.explore;
        match m {
            FromWorker::Ready => {
                if let Some(w) = self.explore_worker.as_mut() {
                    if let Some(text) = w.pending.take() {
                        w.send(text, true);
                    }
                }
                e.status = Status::Running { tried: 0, ms: 0.0 };
            }
            FromWorker::Progress { tried, ms } => e.status = Status::Running { tried, ms },
            FromWorker::Shrinking {
                index,
                tried,
                ms,
                detail,
            } => {
                e.status = Status::Shrinking {
                    index,
                    tried,
                    ms,
                    detail,
                }
            }
            FromWorker::Found {
                tried,
                ms,
                found,
                scn,
            } => {
                e.status = Status::Found {
                    tried,
                    ms,
                    found: Box::new(found),
                    scn,
                };
                self.explore_worker = None;
            }
            FromWorker::Nothing {
                tried,
                ms,
                out_of_time,
            } => {
                e.status = Status::Nothing {
                    tried,
                    ms,
                    out_of_time,
                };
                self.explore_worker = None;
            }
            FromWorker::Error { message } => {
                e.status = Status::Idle;
                e.error = Some(Text::new("ui.explore.cannot_start").arg("error", message));
                self.explore_worker = None;
            }
        }
    }
}

fn toggle<T: PartialEq>(list: &mut Vec<T>, x: T) {
    if let Some(i) = list.iter().position(|y| *y == x) {
        list.remove(i);
    } else {
        list.push(x);
    }
}
