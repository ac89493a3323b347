//! The explore worker: runs `raftlab explore`'s search inside a Web Worker, so the page stays
//! responsive while schedules run. It answers each [`ToWorker`] request (its plain text form) with
//! [`FromWorker`] messages (arrays of strings): `Ready` once listening, `Progress` about every
//! 100 ms, then `Shrinking` and `Found`, or `Nothing`, or `Error`. Stopping a search is the
//! page's `worker.terminate()`: nothing here needs to poll for it.
//!
//! [`ToWorker`]: raftlab::sim::explore_job::ToWorker
//! [`FromWorker`]: raftlab::sim::explore_job::FromWorker

#[cfg(target_arch = "wasm32")]
fn main() {
    // The counterexample it writes is narrated in both languages (`say` and `say.zh`), and the
    // browser build carries no catalog: its texts' parts are fetched when first needed, or
    // taken from the service worker's store first (offline the request would fail). A part
    // that cannot be had leaves its lines empty, and the search still runs.
    use raftlab::i18n::{parts::Part, Lang};
    raftlab::i18n::set_loader(raftlab::ui::lazy_text::load_part, None);
    raftlab::ui::lazy_text::stored_parts(
        &[
            (Lang::En, Part::First),
            (Lang::En, Part::Rest),
            (Lang::Zh, Part::First),
            (Lang::Zh, Part::Rest),
        ],
        listen,
    );
}

/// Answers search requests, then says Ready.
#[cfg(target_arch = "wasm32")]
fn listen() {
    use raftlab::sim::explore_job::{self, FromWorker, ToWorker};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    fn post(scope: &DedicatedWorkerGlobalScope, msg: &FromWorker) {
        let fields = js_sys::Array::new();
        for f in msg.to_fields() {
            fields.push(&JsValue::from_str(&f));
        }
        // Posting strings cannot fail for a live worker; a closed one has no one to tell.
        let _ = scope.post_message(&fields);
    }

    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        let text = e.data().as_string().unwrap_or_default();
        let req = match ToWorker::from_text(&text) {
            Ok(r) => r,
            Err(err) => {
                return post(
                    &reply,
                    &FromWorker::Error {
                        message: format!("not a search request: {err}"),
                    },
                )
            }
        };
        let start = js_sys::Date::now();
        explore_job::run(
            &req,
            u64::MAX,
            100.0,
            &mut || js_sys::Date::now() - start,
            &mut |m| post(&reply, &m),
        );
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The worker lives as long as the page keeps it; so does its handler.
    on_message.forget();
    post(&scope, &FromWorker::Ready);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("explore_worker is the browser's explore worker (wasm32 only); natively, run `raftlab explore`");
    std::process::exit(2);
}
