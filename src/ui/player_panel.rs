//! The scenario tab: open a lesson or a .scn (lesson list, presets menu, file picker or
//! paste); for a loaded scenario, instant controls (a line, to the next pause, all) and,
//! behind "show script", its lines with the current one highlighted, each expect passed or
//! failed, and "run to here". The narration itself is in the lesson dock (`lesson_view`).

use yew::prelude::*;
use yew::TargetCast;

use crate::sim::player::LineStatus;
use crate::sim::presets::PRESETS;
use crate::sim::scenario::Stmt;

use crate::tr;

use super::app::{Msg, View};
use super::dom;
use super::forms::Field;
use super::h::send;
use super::lesson::Lesson;
use super::lesson_view;

fn loaders(v: &View) -> Html {
    let f = &v.ui.forms;
    let l = v.ui.lang;
    let link = v.link;
    let choose = link.callback(|e: Event| {
        let s: web_sys::HtmlSelectElement = e.target_unchecked_into();
        Msg::Field(Field::Preset, s.value())
    });
    let options = PRESETS
        .iter()
        .map(|p| {
            html! { <option value={p.id} selected={f.preset == p.id} title={p.description_in(l)}>{ format!("{} — {}", p.id, p.title_in(l)) }</option> }
        })
        .collect::<Html>();
    let description = PRESETS
        .iter()
        .find(|p| p.id == f.preset)
        .map(|p| p.description_in(l))
        .unwrap_or("");
    let load_preset = send(link, Msg::LoadPreset);
    let file_cb = link.callback(|r: Result<(String, String), crate::i18n::Msg>| match r {
        Ok((name, text)) => Msg::LoadScript(name, text),
        Err(e) => Msg::ScriptError(e),
    });
    let on_file = Callback::from(move |e: Event| {
        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
        let name = input
            .files()
            .and_then(|l| l.get(0))
            .map(|f| f.name())
            .unwrap_or_else(|| "file".into());
        let cb = file_cb.clone();
        dom::read_file(&input, move |r| cb.emit(r.map(|t| (name, t))));
        // Choosing the same file again must load it again.
        input.set_value("");
    });
    let paste = link.callback(|e: InputEvent| {
        let t: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
        Msg::Field(Field::Paste, t.value())
    });
    let load_paste = send(link, Msg::LoadPasted);
    html! {
        <div class="loaders">
            <fieldset>
                <legend>{ tr!(l, "ui.pl.presets") }</legend>
                <div class="row wrap">
                    <select onchange={choose} aria-label={tr!(l, "ui.pl.preset_aria")}>
                        <option value="" selected={f.preset.is_empty()}>{ tr!(l, "ui.pl.choose") }</option>
                        { options }
                    </select>
                    <button class="primary" onclick={load_preset} aria-label={tr!(l, "ui.pl.load_aria")}>{ tr!(l, "ui.pl.load") }</button>
                </div>
                if !description.is_empty() {
                    <p class="hint">{ description }</p>
                }
            </fieldset>
            <fieldset>
                <legend>{ tr!(l, "ui.pl.open_file") }</legend>
                <input type="file" accept=".scn,text/plain" onchange={on_file} aria-label={tr!(l, "ui.pl.open_file_aria")} />
            </fieldset>
            <fieldset>
                <legend>{ tr!(l, "ui.pl.paste") }</legend>
                <textarea rows="4" value={f.paste.clone()} oninput={paste} aria-label={tr!(l, "ui.pl.paste_aria")}
                    placeholder={"cluster 3 seed=1\nawait leader != none within 40\nsay A leader!"} />
                <button onclick={load_paste} aria-label={tr!(l, "ui.pl.load_pasted_aria")}>{ tr!(l, "ui.pl.load_pasted") }</button>
            </fieldset>
        </div>
    }
}

fn is_check(stmt: &Stmt) -> bool {
    match stmt {
        Stmt::Expect(_) | Stmt::Await { .. } => true,
        Stmt::At { then: Some(s), .. } => is_check(s),
        _ => false,
    }
}

/// The script's lines: the current one marked, each check passed or failed, "run to here".
/// Built only while the "show script" list is open: a scenario of thousands of lines would
/// otherwise be drawn again, unseen, at every step of the player.
fn script_lines(v: &View, s: &Lesson) -> Html {
    let p = &s.player;
    let l = v.ui.lang;
    let link = v.link;
    // Per line, its last result (a list by line number rather than a B-tree map, whose code
    // would be linked for this one key/value type).
    let mut results: Vec<Option<&LineStatus>> = vec![None; p.script.lines.len()];
    for r in p.results() {
        if let Some(slot) = results.get_mut(r.line) {
            *slot = Some(&r.status);
        }
    }
    let next = p.next_line();
    p.script
        .lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let status = results.get(i).copied().flatten();
            let current = next == Some(i);
            let check = is_check(&line.stmt);
            let (mark, state) = match status {
                None => ("", "todo"),
                Some(LineStatus::Ok) if check => ("✓", "pass"),
                Some(LineStatus::Ok) => ("·", "done"),
                Some(LineStatus::Failed(_)) => ("✕", "fail"),
                Some(LineStatus::Narration(_)) => ("»", "said"),
            };
            let expect = match (check, status) {
                (true, Some(LineStatus::Ok)) => Some("pass"),
                (_, Some(LineStatus::Failed(_))) => Some("fail"),
                _ => None,
            };
            let why = match status {
                Some(LineStatus::Failed(e)) => Some(e.render(l)),
                _ => None,
            };
            let run_to = send(link, Msg::PlayerRunTo(i));
            let can_run_to = next.is_some_and(|n| n < i);
            html! {
                <li class={classes!("line", format!("s-{state}"), current.then_some("current"))}
                    data-line={i.to_string()} data-lineno={line.lineno.to_string()}
                    data-current-line={current.then(|| i.to_string())}
                    data-expect={expect} aria-current={current.then_some("step")}>
                    <span class="lno">{ line.lineno.to_string() }</span>
                    <span class="mark">{ mark }</span>
                    <code class="src">{ line.text.clone() }</code>
                    if can_run_to {
                        <button class="link-btn run-to" onclick={run_to} aria-label={tr!(l, "ui.pl.run_to_aria", line = line.lineno)}>{ tr!(l, "ui.pl.run_to") }</button>
                    }
                    if let Some(w) = why {
                        <div class="why">{ w }</div>
                    }
                </li>
            }
        })
        .collect::<Html>()
}

fn script(v: &View, s: &Lesson) -> Html {
    let p = &s.player;
    let l = v.ui.lang;
    let link = v.link;
    let next = p.next_line();
    let failures = p.failures().len();
    let shown = v.ui.forms.script_shown;
    // The browser opens and closes the list itself; the app follows, to draw the lines.
    let ontoggle = link.callback(|e: Event| {
        let d: web_sys::Element = e.target_unchecked_into();
        Msg::Field(Field::ScriptShown, d.has_attribute("open").to_string())
    });
    let done = p.done();
    let total = p.script.lines.len();
    let at = next.map_or(total, |n| n);
    html! {
        <div class="script" data-scenario={s.name.clone()} data-done={done.to_string()}
            data-failures={failures.to_string()} data-next-line={next.map(|n| n.to_string())}>
            <div class="row spread">
                <h3>{ s.name.clone() }</h3>
                <button class="link-btn" onclick={send(link, Msg::PlayerClose)}
                    aria-label={tr!(l, "ui.pl.close_aria")}>{ tr!(l, "ui.close") }</button>
            </div>
            <div class="row wrap">
                <button onclick={send(link, Msg::PlayerStep)} disabled={done} title={tr!(l, "ui.pl.step_tip")}>{ tr!(l, "ui.pl.step") }</button>
                <button onclick={send(link, Msg::PlayerContinue)} disabled={done}
                    aria-label={tr!(l, "ui.pl.next_pause_aria")} title={tr!(l, "ui.pl.next_pause_tip")}>{ tr!(l, "ui.pl.next_pause") }</button>
                <button onclick={send(link, Msg::PlayerRunTo(usize::MAX))} disabled={done} aria-label={tr!(l, "ui.pl.run_all_aria")}>{ tr!(l, "ui.pl.run_all") }</button>
                <span class="progress-text">
                    { tr!(l, "ui.pl.lines_run", at = at, total = total) }
                    if failures > 0 {
                        <span class="error">{ tr!(l, "ui.pl.failed", n = failures) }</span>
                    } else if done {
                        <span class="ok">{ tr!(l, "ui.pl.all_passed") }</span>
                    }
                </span>
            </div>
            <details class="show-script" open={shown} {ontoggle}>
                <summary>{ tr!(l, "ui.pl.show_script") }</summary>
                if shown {
                    <ol class="lines" tabindex="0" aria-label={tr!(l, "ui.pl.lines_aria")}>{ script_lines(v, s) }</ol>
                }
            </details>
        </div>
    }
}

/// The panel.
pub fn render(v: &View) -> Html {
    let l = v.ui.lang;
    html! {
        <div class="player-panel">
            if let Some(e) = &v.ui.script_error {
                <p class="error" role="alert" data-script-error="">{ e.render(l) }</p>
            }
            if let Some(s) = v.scenario {
                { script(v, s) }
            }
            if v.scenario.is_none() {
                { lesson_view::lesson_list(v) }
            }
            <details open={v.scenario.is_none()}>
                <summary>{ tr!(l, "ui.pl.open") }</summary>
                { loaders(v) }
            </details>
        </div>
    }
}
