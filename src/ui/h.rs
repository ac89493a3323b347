//! Small non-generic helpers for building the view. `html!` inlines yew's element
//! construction and a closure type per callback at each of hundreds of sites; what is built
//! the same way everywhere is built here once, to keep the wasm small.

use yew::html::Scope;
use yew::Callback;

use super::app::{App, Msg};

/// A callback that sends the app (a copy of) `msg` whatever the event. One closure type for
/// every button that ignores its event, where `link.callback(move |_| ..)` made one per site.
#[inline(never)]
pub fn send<E: 'static>(link: &Scope<App>, msg: Msg) -> Callback<E> {
    let link = link.clone();
    Callback::from(move |_: E| link.send_message(msg.clone()))
}
