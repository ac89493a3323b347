//! Small browser helpers: the error box, the mount point, the page address, downloads, files,
//! the clipboard and the animation-frame clock. Nothing here knows about raft.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Element, Window};

fn window() -> Option<Window> {
    web_sys::window()
}

fn document() -> Option<Document> {
    window().and_then(|w| w.document())
}

/// Shows `message` in the page's `#fatal` box (through `window.raftlabFatal` when the page
/// defines it, else by creating or filling `#fatal` directly).
pub fn show_fatal(message: &str) {
    let Some(w) = window() else { return };
    if let Ok(f) = js_sys::Reflect::get(&w, &JsValue::from_str("raftlabFatal")) {
        if let Some(f) = f.dyn_ref::<js_sys::Function>() {
            if f.call1(&JsValue::NULL, &JsValue::from_str(message)).is_ok() {
                return;
            }
        }
    }
    let Some(doc) = w.document() else { return };
    let boxed = match doc.get_element_by_id("fatal") {
        Some(el) => el,
        None => {
            let Ok(el) = doc.create_element("div") else {
                return;
            };
            el.set_id("fatal");
            let _ = el.set_attribute("role", "alert");
            if let Some(body) = doc.body() {
                let _ = body.append_child(&el);
            }
            el
        }
    };
    let target: Element = doc
        .get_element_by_id("fatal-message")
        .unwrap_or_else(|| boxed.clone());
    let old = target.text_content().unwrap_or_default();
    let text = if old.is_empty() {
        message.to_string()
    } else {
        format!("{old}\n\n{message}")
    };
    target.set_text_content(Some(&text));
    let _ = boxed.remove_attribute("hidden");
}

/// Makes every Rust panic visible in the page.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        show_fatal(&format!("raftlab panicked: {info}"));
    }));
}

/// The element the app is mounted in: `#app`, created at the end of the body if missing.
pub fn mount_point() -> Option<Element> {
    let doc = document()?;
    if let Some(el) = doc.get_element_by_id("app") {
        return Some(el);
    }
    let el = doc.create_element("div").ok()?;
    el.set_id("app");
    doc.body()?.append_child(&el).ok()?;
    Some(el)
}

/// The page address's query string without `?`, and its hash without `#`.
pub fn location_parts() -> (String, String) {
    let Some(loc) = window().map(|w| w.location()) else {
        return (String::new(), String::new());
    };
    let search = loc.search().unwrap_or_default();
    let hash = loc.hash().unwrap_or_default();
    (
        search.trim_start_matches('?').to_string(),
        hash.trim_start_matches('#').to_string(),
    )
}

/// The page address without query and hash.
pub fn base_url() -> String {
    let Some(loc) = window().map(|w| w.location()) else {
        return String::new();
    };
    format!(
        "{}{}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default()
    )
}

/// Splits `a=1&b&c=x` into pairs (a missing value is "").
pub fn pairs(s: &str) -> Vec<(String, String)> {
    s.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| match p.split_once('=') {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => (p.to_string(), String::new()),
        })
        .collect()
}

/// Offers `text` as a file download named `name`.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let err = |e: JsValue| format!("download failed: {e:?}");
    let doc = document().ok_or("no document")?;
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(err)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(err)?;
    let a: web_sys::HtmlAnchorElement = doc
        .create_element("a")
        .map_err(err)?
        .dyn_into()
        .map_err(|_| "not an anchor".to_string())?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// Reads the first file chosen in a file input as text, then calls `done` with it (or with
/// an error message).
pub fn read_file(
    input: &web_sys::HtmlInputElement,
    done: impl FnOnce(Result<String, crate::i18n::Msg>) + 'static,
) {
    let Some(file) = input.files().and_then(|f| f.get(0)) else {
        done(Err(crate::i18n::Msg::new("ui.file.none")));
        return;
    };
    let reader = match web_sys::FileReader::new() {
        Ok(r) => r,
        Err(_) => {
            done(Err(crate::i18n::Msg::new("ui.file.no_reader")));
            return;
        }
    };
    let r2 = reader.clone();
    let onload = Closure::once_into_js(move |_e: JsValue| {
        let text = r2.result().ok().and_then(|v| v.as_string());
        match text {
            Some(t) => done(Ok(t)),
            None => done(Err(crate::i18n::Msg::new("ui.file.not_text"))),
        }
    });
    reader.set_onload(Some(onload.unchecked_ref()));
    let _ = reader.read_as_text(&file);
}

/// Copies `text` to the clipboard when the page may (errors are ignored: the text is shown
/// on the page anyway).
pub fn copy_to_clipboard(text: &str) {
    let Some(w) = window() else { return };
    let promise = w.navigator().clipboard().write_text(text);
    let ignore = Closure::once_into_js(|_e: JsValue| {});
    if let Ok(catch) = js_sys::Reflect::get(&promise, &JsValue::from_str("catch")) {
        if let Some(catch) = catch.dyn_ref::<js_sys::Function>() {
            let _ = catch.call1(&promise, &ignore);
        }
    }
}

/// A requestAnimationFrame callback that the app re-arms each frame while playing.
pub struct FrameClock {
    closure: Closure<dyn FnMut(f64)>,
    pending: Option<i32>,
}

impl FrameClock {
    /// A clock calling `on_frame(timestamp_ms)` for each requested frame.
    pub fn new(on_frame: impl Fn(f64) + 'static) -> FrameClock {
        FrameClock {
            closure: Closure::new(on_frame),
            pending: None,
        }
    }

    /// Asks for the next frame unless one is already requested.
    pub fn request(&mut self) {
        if self.pending.is_some() {
            return;
        }
        if let Some(w) = window() {
            if let Ok(id) = w.request_animation_frame(self.closure.as_ref().unchecked_ref()) {
                self.pending = Some(id);
            }
        }
    }

    /// Called when a frame arrived.
    pub fn arrived(&mut self) {
        self.pending = None;
    }

    /// Cancels a requested frame.
    pub fn cancel(&mut self) {
        if let (Some(id), Some(w)) = (self.pending.take(), window()) {
            let _ = w.cancel_animation_frame(id);
        }
    }
}

/// A document-level keydown listener, removed when dropped.
pub struct KeyListener {
    closure: Closure<dyn FnMut(web_sys::KeyboardEvent)>,
}

impl KeyListener {
    /// Listens for keydown on the document.
    pub fn new(on_key: impl Fn(web_sys::KeyboardEvent) + 'static) -> Option<KeyListener> {
        let doc = document()?;
        let closure: Closure<dyn FnMut(web_sys::KeyboardEvent)> = Closure::new(on_key);
        doc.add_event_listener_with_callback("keydown", closure.as_ref().unchecked_ref())
            .ok()?;
        Some(KeyListener { closure })
    }
}

impl Drop for KeyListener {
    fn drop(&mut self) {
        if let Some(doc) = document() {
            let _ = doc.remove_event_listener_with_callback(
                "keydown",
                self.closure.as_ref().unchecked_ref(),
            );
        }
    }
}

/// Whether a key event comes from an element matching `selector`.
fn target_is(e: &web_sys::KeyboardEvent, selector: &str) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<Element>().ok())
        .is_some_and(|el| el.matches(selector).unwrap_or(false))
}

/// Whether a key event comes from a text field, where keys must type, not control the app.
pub fn from_text_field(e: &web_sys::KeyboardEvent) -> bool {
    target_is(
        e,
        "textarea,select,input:not([type=checkbox],[type=radio],[type=range],[type=button])",
    )
}

/// Whether the key goes to a focused checkbox or radio button, whose own keys are Space
/// (tick it) and the arrows (choose in its group): without them a keyboard cannot use it.
pub fn on_choice(e: &web_sys::KeyboardEvent) -> bool {
    target_is(e, "input[type=checkbox],input[type=radio]")
}

thread_local! {
    /// The hidden status element and the two values it holds, as last read or written: the
    /// status is written after every render, so neither the element nor its values are
    /// looked up in the page again while it stays in it.
    static STATUS: std::cell::RefCell<Option<(Element, [Option<String>; 2])>> =
        const { std::cell::RefCell::new(None) };
}

/// Writes the hidden status element's `data-frame-ms` (when `frame_ms` is given) and
/// `data-builds`, each only when its text differs: a write of the same text would still be
/// a DOM mutation, and a paused page must not change at all.
pub fn set_status(frame_ms: Option<&str>, builds: &str) {
    const NAMES: [&str; 2] = ["data-frame-ms", "data-builds"];
    STATUS.with(|cell| {
        let mut cell = cell.borrow_mut();
        // A new status element (the page was built anew) starts from what it holds.
        if !cell.as_ref().is_some_and(|(el, _)| el.is_connected()) {
            *cell = document()
                .and_then(|d| d.query_selector(".sim-state").ok().flatten())
                .map(|el| {
                    let held = NAMES.map(|n| el.get_attribute(n));
                    (el, held)
                });
        }
        let Some((el, held)) = cell.as_mut() else {
            return;
        };
        for ((name, value), held) in NAMES.iter().zip([frame_ms, Some(builds)]).zip(held) {
            if let Some(value) = value {
                if held.as_deref() != Some(value) {
                    let _ = el.set_attribute(name, value);
                    *held = Some(value.to_string());
                }
            }
        }
    });
}

/// A seed for a new run, picked at random: at most nine digits, so it is easy to read out
/// and type again. Randomness enters here only; the run it seeds is as repeatable as any
/// other, since the seed is recorded with it (the event log, the exported scenario).
pub fn random_seed() -> u64 {
    // Math.random is in [0, 1): the product is below 1e9 and fits a u64 exactly.
    (js_sys::Math::random() * 1e9) as u64
}

/// Calls `f` once after `ms` milliseconds. There is no handle to cancel it: the callback
/// frees itself when it runs, so it can safely cause any update, including one that would
/// otherwise drop the timer it runs in. Returns false when no timer could be set.
pub fn after(ms: u32, f: impl FnOnce() + 'static) -> bool {
    let Some(w) = window() else { return false };
    let cb = Closure::once_into_js(f);
    w.set_timeout_with_callback_and_timeout_and_arguments_0(cb.unchecked_ref(), ms as i32)
        .is_ok()
}

/// The node a key event's target belongs to (a focused node of the drawing), if any.
pub fn focused_node(e: &web_sys::KeyboardEvent) -> Option<crate::raft::NodeId> {
    let el = e.target()?.dyn_into::<Element>().ok()?;
    let node = el.closest("[data-node]").ok()??;
    node.get_attribute("data-node")?
        .trim_start_matches('n')
        .parse()
        .ok()
}

/// Whether the key goes to a focused control that Space or Enter presses (a button, a link,
/// a summary, a tab): there Space is the control's own key, as a keyboard user expects, not
/// play/pause.
pub fn on_control(e: &web_sys::KeyboardEvent) -> bool {
    target_is(
        e,
        "button,a,summary,[role=button],[role=tab],[role=link],[role=switch]",
    )
}

/// Whether an element matches `selector`.
pub fn exists(selector: &str) -> bool {
    document().is_some_and(|d| d.query_selector(selector).ok().flatten().is_some())
}

/// What a `query_selector` found, as an HTML element (None for no match, an error, or an
/// element that is not HTML, such as an SVG one).
fn html_found(found: Result<Option<Element>, JsValue>) -> Option<web_sys::HtmlElement> {
    found.ok().flatten()?.dyn_into().ok()
}

/// Moves focus to the first element matching `selector` (HTML or SVG); false when none
/// matches.
pub fn focus(selector: &str) -> bool {
    let Some(el) = find(selector) else {
        return false;
    };
    focus_element(&el);
    true
}

/// Folds the open `<details>` matching `selector` and focuses its summary; false when none
/// matches.
pub fn fold(selector: &str) -> bool {
    let Some(d) = document().and_then(|d| d.query_selector(selector).ok().flatten()) else {
        return false;
    };
    let _ = d.remove_attribute("open");
    if let Some(s) = d.query_selector("summary").ok().flatten() {
        focus_element(&s);
    }
    true
}

/// Gives focus back to `el` if it is still in the page, else to the element matching
/// `fallback` (a dialog's opener may have been redrawn away while it was open).
pub fn focus_back(el: Option<Element>, fallback: &str) {
    match el.filter(|e| e.is_connected()) {
        Some(e) => focus_element(&e),
        None => {
            focus(fallback);
        }
    }
}

/// The element that has focus, HTML or SVG (a node of the drawing), if it is not the page's
/// body.
pub fn focused() -> Option<Element> {
    let el = document()?.active_element()?;
    (!el.tag_name().eq_ignore_ascii_case("body")).then_some(el)
}

/// The first element matching `selector`, HTML or SVG.
fn find(selector: &str) -> Option<Element> {
    document()?.query_selector(selector).ok().flatten()
}

/// Focuses `el`, an HTML or an SVG element (both have `focus()`; web-sys offers it on
/// HTML elements only).
fn focus_element(el: &Element) {
    if let Ok(f) = js_sys::Reflect::get(el, &JsValue::from_str("focus")) {
        if let Some(f) = f.dyn_ref::<js_sys::Function>() {
            let _ = f.call0(el);
        }
    }
}

/// Scrolls the container matching `container` so that its child matching `item` is visible
/// (the container must be positioned, so it is the item's offset parent).
pub fn reveal_in(container: &str, item: &str) {
    let Some(doc) = document() else { return };
    let Some(c) = doc.query_selector(container).ok().flatten() else {
        return;
    };
    let Some(el) = html_found(c.query_selector(item)) else {
        return;
    };
    let (top, h) = (el.offset_top(), el.offset_height());
    let (st, ch) = (c.scroll_top(), c.client_height());
    if top < st || top + h > st + ch {
        c.set_scroll_top((top - ch / 3).max(0));
    }
}

/// Keeps the sideways scroller matching `selector` (the logs) scrolled to its end, their
/// newest column, unless the reader scrolled away from it (to older entries): then it stays
/// where they left it until they scroll back to the end. Run after every render, and when the
/// window's size changes, since both can move the end out of view.
pub fn follow_tail(selector: &str) {
    let Some(c) = find(selector) else {
        return;
    };
    let end = (c.scroll_width() - c.client_width()).max(0);
    let now = c.scroll_left();
    // Where this function last left it: unmoved since, the reader is still following.
    let placed = c
        .get_attribute("data-followed")
        .and_then(|t| t.parse::<i32>().ok());
    let following = placed.is_none_or(|p| (now - p).abs() <= 1) || now >= end - 1;
    if !following {
        return;
    }
    // The first time, placed whether or not it is there already. Read back when set: the
    // browser may round or clamp it.
    let at = if placed.is_none() || now != end {
        c.set_scroll_left(end);
        c.scroll_left()
    } else {
        now
    };
    if placed != Some(at) {
        let _ = c.set_attribute("data-followed", &at.to_string());
    }
}

/// A listener on the window, removed when dropped.
pub struct WindowListener {
    event: &'static str,
    closure: Closure<dyn FnMut()>,
}

impl WindowListener {
    /// Calls `f` on each `event` (such as "resize") on the window.
    pub fn new(event: &'static str, f: impl Fn() + 'static) -> Option<WindowListener> {
        let closure: Closure<dyn FnMut()> = Closure::new(f);
        window()?
            .add_event_listener_with_callback(event, closure.as_ref().unchecked_ref())
            .ok()?;
        Some(WindowListener { event, closure })
    }
}

impl Drop for WindowListener {
    fn drop(&mut self) {
        if let Some(w) = window() {
            let _ = w.remove_event_listener_with_callback(
                self.event,
                self.closure.as_ref().unchecked_ref(),
            );
        }
    }
}

/// Asks the browser to show the page full screen (or to leave full screen). Browsers allow
/// it only after a key press or click, and may refuse: the presenter layout works either way.
pub fn fullscreen(on: bool) {
    let Some(doc) = document() else { return };
    let call = |target: &JsValue, name: &str| {
        if let Ok(f) = js_sys::Reflect::get(target, &JsValue::from_str(name)) {
            if let Some(f) = f.dyn_ref::<js_sys::Function>() {
                if let Ok(p) = f.call0(target) {
                    // A refused request rejects its promise: swallow it, nothing is wrong.
                    if let Ok(catch) = js_sys::Reflect::get(&p, &JsValue::from_str("catch")) {
                        if let Some(catch) = catch.dyn_ref::<js_sys::Function>() {
                            let ignore = Closure::once_into_js(|_e: JsValue| {});
                            let _ = catch.call1(&p, &ignore);
                        }
                    }
                }
            }
        }
    };
    let is_full = js_sys::Reflect::get(&doc, &JsValue::from_str("fullscreenElement"))
        .map(|v| !v.is_null() && !v.is_undefined())
        .unwrap_or(false);
    if on && !is_full {
        if let Some(el) = doc.document_element() {
            call(&el.into(), "requestFullscreen");
        }
    } else if !on && is_full {
        call(&doc.into(), "exitFullscreen");
    }
}
