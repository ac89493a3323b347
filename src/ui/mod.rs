//! The Yew front end (wasm32 only). Placeholder until the UI lands.

use yew::prelude::*;

#[component]
fn App() -> Html {
    html! { <main><h1>{ "raftlab" }</h1></main> }
}

/// Mounts the app on the page body.
pub fn start() {
    yew::Renderer::<App>::new().render();
}
