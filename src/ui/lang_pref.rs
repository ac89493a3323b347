//! Which language the page shows: chosen once from `?lang=`, the choice remembered in
//! localStorage, or the browser's languages (`i18n::Lang::choose`); changed by the switch,
//! which remembers it and writes it into the address (so a copied address and the share and
//! embed links made from it keep the language). Nothing here can fail loudly: without storage
//! or history the choice simply is not remembered.

use crate::el;
use crate::i18n::Lang;

use super::dom;

/// The localStorage key holding "en" or "zh".
const STORAGE_KEY: &str = "raftlab.lang";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The language for this page load.
pub fn initial() -> Lang {
    let (query, hash) = dom::location_parts();
    let mut params = dom::pairs(&query);
    params.extend(dom::pairs(&hash));
    let address = params
        .iter()
        .rev()
        .find(|(k, _)| k == "lang")
        .map(|(_, v)| v.clone());
    let remembered = storage().and_then(|s| s.get_item(STORAGE_KEY).ok().flatten());
    let browser: Vec<String> = web_sys::window()
        .map(|w| {
            w.navigator()
                .languages()
                .iter()
                .filter_map(|v| v.as_string())
                .collect()
        })
        .unwrap_or_default();
    Lang::choose(
        address.as_deref(),
        remembered.as_deref(),
        browser.iter().map(String::as_str),
    )
}

/// Remembers `lang`, puts it in the address (replacing the entry, not adding one to the
/// back button's history) and sets the page's `lang` attribute (for fonts and screen
/// readers).
pub fn switch_to(lang: Lang) {
    if let Some(s) = storage() {
        let _ = s.set_item(STORAGE_KEY, lang.code());
    }
    set_address(lang);
    apply_document(lang);
}

/// Sets `<html lang>` to `lang`.
pub fn apply_document(lang: Lang) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = el.set_attribute("lang", lang.html_tag());
    }
}

/// The address with `?lang=` set to `lang` (other parameters and the hash kept).
pub fn address_with(lang: Lang) -> String {
    let (query, hash) = dom::location_parts();
    let mut params: Vec<String> = dom::pairs(&query)
        .into_iter()
        .filter(|(k, _)| k != "lang")
        .map(|(k, v)| if v.is_empty() { k } else { format!("{k}={v}") })
        .collect();
    params.push(format!("lang={}", lang.code()));
    let mut url = format!("{}?{}", dom::base_url(), params.join("&"));
    if !hash.is_empty() {
        url.push('#');
        url.push_str(&hash);
    }
    url
}

fn set_address(lang: Lang) {
    if let Some(h) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ =
            h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&address_with(lang)));
    }
}

/// Puts the switch back on `lang`, the language the page is in, after a choice that could not
/// be carried out (the Chinese catalog did not arrive). yew's diff cannot do it: the rendered
/// options did not change, and once a user has picked an option its `selected` attribute no
/// longer decides what the select shows.
pub fn show_current(lang: Lang) {
    use wasm_bindgen::JsCast;
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Some(s) = doc
        .query_selector("select.lang-switch")
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<web_sys::HtmlSelectElement>().ok())
    {
        s.set_value(lang.code());
    }
}

/// The switch: English / 简体中文, each named in its own language.
pub fn switch(v: &super::app::View) -> yew::Html {
    use yew::prelude::*;
    use yew::TargetCast;
    let onchange = v.link.callback(|e: Event| {
        let s: web_sys::HtmlSelectElement = e.target_unchecked_into();
        match Lang::parse(&s.value()) {
            Some(l) => super::app::Msg::Lang(l),
            None => super::app::Msg::None,
        }
    });
    let current = v.ui.lang;
    let options = Lang::ALL
        .iter()
        .map(|l| {
            el!(
                "option",
                "value" = l.code(),
                "selected" = *l == current,
                "lang" = l.html_tag()
            )
            .c(l.native_name())
            .done()
        })
        .collect::<Html>();
    el!(
        "select",
        "class" = "lang-switch",
        "data-lang" = current.code(),
        "aria-label" = crate::tr!(current, "ui.lang.switch"),
        "title" = crate::tr!(current, "ui.lang.switch"),
    )
    .on_change(onchange)
    .c(options)
    .done()
}
