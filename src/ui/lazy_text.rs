//! Texts the browser build fetches when they are needed instead of carrying them in the wasm:
//! a preset's text when its lesson starts (the build keeps only the presets' index, see
//! `sim::presets`) and the Chinese catalog when Chinese is chosen (`i18n`). Each is checked
//! against the digest this build was made with. The service worker keeps them all for
//! offline use (`static/sw.js`, `lazy.txt`). The explore worker (`src/bin/explore_worker.rs`)
//! fetches the Chinese catalog too: the counterexamples it writes carry `say.zh` lines.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use crate::i18n::{Lang, Msg as Text};
use crate::sim::presets::Preset;

/// What to do with a preset's text once it has arrived.
#[derive(Clone, Debug, PartialEq)]
pub enum Then {
    /// Open it as a lesson (its start card).
    Lesson,
    /// Open it as a lesson and compare it with these option changes (`?compare=`).
    Compare(Vec<(String, String)>),
}

/// Where the browser finds preset `id`, relative to the page.
pub fn path(id: &str) -> String {
    format!("presets/{id}.scn")
}

/// Fetches `p`'s text, then calls `done` once: with the text, or with why it could not be
/// had (no network and no offline copy, a server error, or text of another version of the
/// app, told apart by its digest).
pub fn preset(p: &'static Preset, done: impl FnOnce(Result<String, Text>) + 'static) {
    fetch(&path(p.id), Some(p.digest), done);
}

/// Where the browser finds the catalog of `lang` (English is compiled in).
pub fn catalog_path(lang: Lang) -> String {
    format!("i18n/{}.txt", lang.code())
}

/// Where the browser finds the presets' titles and descriptions in `lang`
/// (`sim::preset_heads`; a Trunk hook writes it).
pub fn preset_heads_path(lang: Lang) -> String {
    format!("i18n/presets.{}.txt", lang.code())
}

/// Fetches the catalog of `lang` and the presets' titles and descriptions in it, both at
/// once, then, when both are in, installs them (`preset_heads::provide`, `i18n::provide`)
/// and calls `done` once. Chinese needs both: when either cannot be had, neither is installed
/// and `done` gets the first error. At once when the catalog is already there.
pub fn catalog(lang: Lang, done: impl FnOnce(Result<(), Text>) + 'static) {
    if crate::i18n::has_catalog(lang) {
        return done(Ok(()));
    }
    let Some(digest) = crate::i18n::catalog_digest(lang) else {
        return done(Ok(()));
    };
    // The catalog's text and the heads' text, each once it has arrived.
    type Both = (Option<Result<String, Text>>, Option<Result<String, Text>>);
    let both: Rc<RefCell<Both>> = Rc::new(RefCell::new((None, None)));
    let done: Once<()> = Rc::new(RefCell::new(Some(Box::new(done))));
    let arrived = move |both: &Rc<RefCell<Both>>| {
        let (catalog, heads) = {
            let mut b = both.borrow_mut();
            if b.0.is_none() || b.1.is_none() {
                return;
            }
            (b.0.take(), b.1.take())
        };
        let (Some(catalog), Some(heads)) = (catalog, heads) else {
            return;
        };
        let installed = catalog
            .and_then(|c| heads.map(|h| (c, h)))
            .and_then(|(c, h)| {
                crate::sim::preset_heads::provide(lang, h)
                    .and_then(|()| crate::i18n::provide(lang, c))
                    .map_err(|e| Text::new("ui.note.lazy_fetch_failed").arg("error", e))
            });
        let f = done.borrow_mut().take();
        if let Some(f) = f {
            f(installed);
        }
    };
    {
        let (both, arrived) = (both.clone(), arrived.clone());
        fetch(&catalog_path(lang), Some(digest), move |r| {
            both.borrow_mut().0 = Some(r);
            arrived(&both);
        });
    }
    // Each preset's lines are checked against this build's digest (`preset_heads::provide`).
    fetch(&preset_heads_path(lang), None, move |r| {
        both.borrow_mut().1 = Some(r);
        arrived(&both);
    });
}

/// Fetches `url` (relative to the page), then calls `done` once: with its text when its
/// digest is `digest` (or when none is given: the caller checks the text), else with why not.
fn fetch(url: &str, digest: Option<u32>, done: impl FnOnce(Result<String, Text>) + 'static) {
    let done: Once<String> = Rc::new(RefCell::new(Some(Box::new(done))));
    let finish = move |r: Result<String, Text>| {
        let f = done.borrow_mut().take();
        if let Some(f) = f {
            f(r);
        }
    };
    let fail = {
        let finish = finish.clone();
        move |e: JsValue| finish(Err(failed(&js_text(&e))))
    };
    // The page's window, or the explore worker's scope: both have `fetch`.
    let global: JsValue = js_sys::global().into();
    let response = match call(&global, "fetch", &[JsValue::from_str(url)]) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let on_response = {
        let finish = finish.clone();
        let fail = fail.clone();
        move |res: JsValue| {
            let ok = js_sys::Reflect::get(&res, &JsValue::from_str("ok"))
                .map(|v| v.is_truthy())
                .unwrap_or(false);
            if !ok {
                let status = js_sys::Reflect::get(&res, &JsValue::from_str("status"))
                    .ok()
                    .and_then(|v| v.as_f64())
                    .unwrap_or(0.0);
                // As an integer: formatting an f64 would link the core's float printing.
                return finish(Err(failed(&format!("HTTP {}", status as u32))));
            }
            let text = match call(&res, "text", &[]) {
                Ok(t) => t,
                Err(e) => return fail(e),
            };
            let on_text = {
                let finish = finish.clone();
                move |t: JsValue| match t.as_string() {
                    Some(t) if digest.is_none_or(|d| crate::digest::digest(&t) == d) => {
                        finish(Ok(t))
                    }
                    Some(_) => finish(Err(Text::new("ui.note.lazy_other_version"))),
                    None => finish(Err(failed("not text"))),
                }
            };
            settle(&text, on_text, fail);
        }
    };
    settle(&response, on_response, fail);
}

/// The caller's callback, taken by whichever way the fetch ends first.
type Once<T> = Rc<RefCell<Option<Box<dyn FnOnce(Result<T, Text>)>>>>;

fn failed(why: &str) -> Text {
    Text::new("ui.note.lazy_fetch_failed").arg("error", why)
}

/// Calls method `name` of `target` with `args`.
fn call(target: &JsValue, name: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let f: js_sys::Function = js_sys::Reflect::get(target, &JsValue::from_str(name))?.dyn_into()?;
    match args {
        [] => f.call0(target),
        [a] => f.call1(target, a),
        _ => Err(JsValue::from_str("too many arguments")),
    }
}

/// Runs `ok` with the value of promise `p`, or `err` with its rejection.
fn settle(p: &JsValue, ok: impl FnOnce(JsValue) + 'static, err: impl FnOnce(JsValue) + 'static) {
    let ok = Closure::once_into_js(ok);
    let err_js = Closure::once_into_js(err);
    let then = js_sys::Reflect::get(p, &JsValue::from_str("then"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    if let Some(then) = then {
        let _ = then.call2(p, &ok, &err_js);
    }
}

/// An error value as text (a TypeError's message, say).
fn js_text(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| {
            js_sys::Reflect::get(e, &JsValue::from_str("message"))
                .ok()
                .and_then(|m| m.as_string())
        })
        .unwrap_or_else(|| "unknown error".to_string())
}
