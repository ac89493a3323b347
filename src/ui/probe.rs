//! The page's answer to tests asking for the fingerprint of the run it shows
//! (`wasmBindings.raftlab_fingerprint()`, in `main.rs`).
//!
//! The fingerprint hashes the whole state's `Debug` text (`Sim::fingerprint`). It is computed
//! only when asked, never by a render: formatting every node's log took a paused render
//! milliseconds for a long run, and kept the `Debug` code of every type in what a first visit
//! loads (~4.7 KB gzipped; `scripts/split-wasm.mjs` moves code no first visit runs out of it).
//! A question reaches the app as a message (yew handles messages in a later microtask), so
//! the answer is a promise.

use std::cell::RefCell;

use wasm_bindgen::JsValue;
use yew::Callback;

use super::state::Msg;

thread_local! {
    /// How to reach the mounted app (none before it mounts).
    static APP: RefCell<Option<Callback<Msg>>> = const { RefCell::new(None) };
    /// The resolve functions of the promises not answered yet.
    static WAITING: RefCell<Vec<js_sys::Function>> = const { RefCell::new(Vec::new()) };
}

/// Lets [`fingerprint`] reach the app through `dispatch` (the app calls it when it mounts).
pub(super) fn register(dispatch: Callback<Msg>) {
    APP.with(|a| *a.borrow_mut() = Some(dispatch));
}

/// A promise of the fingerprint of the run at the moment shown (16 hex digits), resolved once
/// the app has handled [`Msg::Fingerprint`]; `""` if no app is mounted.
pub fn fingerprint() -> js_sys::Promise {
    let Some(dispatch) = APP.with(|a| a.borrow().clone()) else {
        return js_sys::Promise::resolve(&JsValue::from_str(""));
    };
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        WAITING.with(|w| w.borrow_mut().push(resolve));
    });
    dispatch.emit(Msg::Fingerprint);
    promise
}

/// Answers every waiting promise with `fingerprint` (the app, handling [`Msg::Fingerprint`]).
pub(super) fn answer(fingerprint: u64) {
    let text = JsValue::from_str(&format!("{fingerprint:016x}"));
    for resolve in WAITING.with(|w| std::mem::take(&mut *w.borrow_mut())) {
        // A resolve function does not throw.
        let _ = resolve.call1(&JsValue::UNDEFINED, &text);
    }
}
