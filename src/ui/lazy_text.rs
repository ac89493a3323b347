//! Texts the browser build fetches when they are needed instead of carrying them in the wasm:
//! a preset's text when its lesson starts (the build keeps only the presets' index, see
//! `sim::presets`), and the catalogs, in two parts each (`i18n::parts`): the first part of the
//! page's language before it mounts and of another when it is chosen, the rest the first time
//! one of its texts is asked for ([`load_part`], synchronous). Each is checked against the
//! digest this build was made with. The service worker keeps them all for offline use
//! (`static/sw.js`, `lazy.txt`). The explore worker (`src/bin/explore_worker.rs`) reads its
//! texts through the same loader.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use crate::i18n::parts::Part;
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
    fetch(&path(p.id), Check::Whole(p.digest), done);
}

/// Where the browser finds part `part` of the catalog of `lang`.
pub fn part_path(lang: Lang, part: Part) -> String {
    format!("i18n/{}.{}.txt", lang.code(), part.number())
}

/// Fetches part `part` of `lang`'s catalog at once, blocking (as the wasm's second part is
/// fetched): `i18n`'s loader, for a text whose part has not arrived. The page's window and
/// the explore worker's scope both have `XMLHttpRequest`. The text is checked when it is
/// installed (`i18n::parts`).
pub fn load_part(lang: Lang, part: Part) -> Result<String, String> {
    let path = part_path(lang, part);
    let sync = || -> Result<JsValue, JsValue> {
        let global: JsValue = js_sys::global().into();
        let class: js_sys::Function =
            js_sys::Reflect::get(&global, &JsValue::from_str("XMLHttpRequest"))?.dyn_into()?;
        let xhr = js_sys::Reflect::construct(&class, &js_sys::Array::new())?;
        let open: js_sys::Function =
            js_sys::Reflect::get(&xhr, &JsValue::from_str("open"))?.dyn_into()?;
        open.call3(
            &xhr,
            &JsValue::from_str("GET"),
            &JsValue::from_str(&path),
            &JsValue::FALSE,
        )?;
        call(&xhr, "send", &[])?;
        Ok(xhr)
    };
    let xhr = sync().map_err(|e| format!("{path}: {}", request_failure(&e)))?;
    let get = |name: &str| js_sys::Reflect::get(&xhr, &JsValue::from_str(name)).ok();
    let status = get("status").and_then(|v| v.as_f64()).unwrap_or(0.0);
    if status != 200.0 {
        // As an integer: formatting an f64 would link the core's float printing.
        return Err(format!("{path}: HTTP {}", status as u32));
    }
    get("responseText")
        .and_then(|t| t.as_string())
        .ok_or_else(|| format!("{path}: not text"))
}

/// Where the browser finds the presets' titles and descriptions in `lang`
/// (`sim::preset_heads`; a Trunk hook writes it).
pub fn preset_heads_path(lang: Lang) -> String {
    format!("i18n/presets.{}.txt", lang.code())
}

/// Fetches the first part of `lang`'s catalog and, for Chinese, the presets' titles and
/// descriptions in it (English ones are compiled in), all at once, then, when all are in,
/// installs them (`preset_heads::provide`, `i18n::provide`) and calls `done` once. When one
/// cannot be had, none is installed and `done` gets the first error. At once when the
/// catalog is already there.
pub fn catalog(lang: Lang, done: impl FnOnce(Result<(), Text>) + 'static) {
    if crate::i18n::has_catalog(lang) {
        return done(Ok(()));
    }
    let digest = crate::i18n::catalog_digest(lang);
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
            // The rest from the service worker's store, when it has it: see `stored_part`.
            // Only a page the worker controls can have it (an offline page always is one), so
            // a first visit does not wait for a look into an empty store before mounting.
            if controlled() {
                stored_part(lang, Part::Rest, move || f(installed));
            } else {
                f(installed);
            }
        }
    };
    if lang == Lang::En {
        // English heads are compiled in (`preset_heads::provide` takes nothing for them).
        both.borrow_mut().1 = Some(Ok(String::new()));
    }
    {
        let (both, arrived) = (both.clone(), arrived.clone());
        fetch(
            &part_path(lang, Part::First),
            Check::Head(digest),
            move |r| {
                both.borrow_mut().0 = Some(r);
                arrived(&both);
            },
        );
    }
    if lang != Lang::En {
        // Each preset's lines are checked against this build's digest (`preset_heads::provide`).
        fetch(&preset_heads_path(lang), Check::None, move |r| {
            both.borrow_mut().1 = Some(r);
            arrived(&both);
        });
    }
}

/// Installs part `part` of `lang`'s catalog from the service worker's store (the Cache
/// Storage the worker fills, `static/sw.js`), if it is there and of this build, then calls
/// `then`; nothing goes to the network. Chromium does not pass [`load_part`]'s synchronous
/// request through the worker, so offline it would fail: an offline page is always one the
/// worker controls, and has the part in its store (as the wasm's second part is loaded,
/// scripts/split-wasm.mjs). On a first visit the store is empty and this does nothing.
pub fn stored_part(lang: Lang, part: Part, then: impl FnOnce() + 'static) {
    let then: Later = Rc::new(RefCell::new(Some(Box::new(then))));
    let finish = move || {
        let f = then.borrow_mut().take();
        if let Some(f) = f {
            f();
        }
    };
    let global: JsValue = js_sys::global().into();
    let caches = js_sys::Reflect::get(&global, &JsValue::from_str("caches"))
        .ok()
        .filter(|c| c.is_object());
    let Some(caches) = caches else {
        return finish();
    };
    let found = match call(
        &caches,
        "match",
        &[JsValue::from_str(&part_path(lang, part))],
    ) {
        Ok(p) => p,
        Err(_) => return finish(),
    };
    let (f1, f2) = (finish.clone(), finish.clone());
    settle(
        &found,
        move |res: JsValue| {
            if !res.is_object() {
                return f1();
            }
            let Ok(text) = call(&res, "text", &[]) else {
                return f1();
            };
            let (g1, g2) = (f1.clone(), f1);
            settle(
                &text,
                move |t: JsValue| {
                    if let Some(t) = t.as_string() {
                        // Another version's copy is refused, and the request remains.
                        let _ = crate::i18n::provide_part(lang, part, t);
                    }
                    g1();
                },
                move |_| g2(),
            );
        },
        move |_| f2(),
    );
}

/// [`stored_part`] for each of `parts` in turn, then `then`.
pub fn stored_parts(parts: &'static [(Lang, Part)], then: impl FnOnce() + 'static) {
    match parts.split_first() {
        None => then(),
        Some((&(lang, part), rest)) => stored_part(lang, part, move || stored_parts(rest, then)),
    }
}

/// Whether a service worker controls this page (`navigator.serviceWorker.controller`).
fn controlled() -> bool {
    let get = |v: &JsValue, name: &str| js_sys::Reflect::get(v, &JsValue::from_str(name)).ok();
    get(&js_sys::global().into(), "navigator")
        .and_then(|n| get(&n, "serviceWorker"))
        .and_then(|c| get(&c, "controller"))
        .is_some_and(|c| c.is_object())
}

/// How a fetched text shows that it is the one this build was made with.
#[derive(Clone, Copy)]
enum Check {
    /// The caller checks it.
    None,
    /// Its digest is this.
    Whole(u32),
    /// Its first line is `# ` and this digest in eight hex digits (a catalog part,
    /// `scripts/split-catalog.mjs`).
    Head(u32),
}

impl Check {
    fn holds(self, text: &str) -> bool {
        match self {
            Check::None => true,
            Check::Whole(d) => crate::digest::digest(text) == d,
            Check::Head(d) => crate::i18n::parts::headed(text, d),
        }
    }
}

/// Fetches `url` (relative to the page), then calls `done` once: with its text when it passes
/// `check`, else with why not.
fn fetch(url: &str, check: Check, done: impl FnOnce(Result<String, Text>) + 'static) {
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
                    Some(t) if check.holds(&t) => finish(Ok(t)),
                    Some(_) => finish(Err(Text::new("ui.note.lazy_other_version"))),
                    None => finish(Err(failed("not text"))),
                }
            };
            settle(&text, on_text, fail);
        }
    };
    settle(&response, on_response, fail);
}

/// What to do next, taken by whichever way a lookup in the store ends first.
type Later = Rc<RefCell<Option<Box<dyn FnOnce()>>>>;

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

/// Why a synchronous request threw, in a reader's words: a `NetworkError` (no connection, the
/// server gone) says so, as the wasm's second part's loader does; anything else is quoted.
fn request_failure(e: &JsValue) -> String {
    let name = js_sys::Reflect::get(e, &JsValue::from_str("name"))
        .ok()
        .and_then(|n| n.as_string());
    match name.as_deref() {
        Some("NetworkError") => "the network is unreachable".to_string(),
        _ => js_text(e),
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
