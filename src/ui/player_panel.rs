//! The scenario tab: open a lesson or a .scn (lesson list, presets menu, file picker or
//! paste); for a loaded scenario, instant controls (a line, to the next pause, all) and,
//! behind "show script", its lines with the current one highlighted, each expect passed or
//! failed, and "run to here". The narration itself is in the lesson dock (`lesson_view`).

use super::h;
use yew::prelude::*;
use yew::TargetCast;

use crate::sim::player::LineStatus;
use crate::sim::presets::PRESETS;
use crate::sim::scenario::Stmt;

use crate::{el, text, tr};

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
    let choose = h::field(link, Field::Preset);
    let options = PRESETS
        .iter()
        .map(|p| {
            el!(
                "option",
                "value" = p.id,
                "selected" = f.preset == p.id,
                "title" = p.description_in(l),
            )
            .c(format!("{} — {}", p.id, p.title_in(l)))
            .done()
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
    let paste = h::field(link, Field::Paste);
    let load_paste = send(link, Msg::LoadPasted);
    let presets = el!("fieldset")
        .c(el!("legend").c(text!(l, "ui.pl.presets")))
        .c(el!("div", "class" = "row wrap")
            .c(el!("select", "aria-label" = text!(l, "ui.pl.preset_aria"))
                .on_change(choose)
                .c(
                    el!("option", "value" = "", "selected" = f.preset.is_empty())
                        .c(text!(l, "ui.pl.choose")),
                )
                .c(options)
                .done())
            .c(el!(
                "button",
                "class" = "primary",
                "aria-label" = text!(l, "ui.pl.load_aria")
            )
            .on_click(load_preset)
            .c(text!(l, "ui.pl.load"))))
        .c((!description.is_empty()).then(|| el!("p", "class" = "hint").c(description).done()));
    let file = el!("fieldset")
        .c(el!("legend").c(text!(l, "ui.pl.open_file")))
        .c(el!(
            "input",
            "type" = "file",
            "accept" = ".scn,text/plain",
            "aria-label" = text!(l, "ui.pl.open_file_aria"),
        )
        .on_change(on_file)
        .done());
    let pasted = el!("fieldset")
        .c(el!("legend").c(text!(l, "ui.pl.paste")))
        .c(el!(
            "textarea",
            "rows" = "4",
            "aria-label" = text!(l, "ui.pl.paste_aria"),
            "placeholder" = "cluster 3 seed=1\nawait leader != none within 40\nsay A leader!",
        )
        .on_input(paste)
        .value(f.paste.clone())
        .done())
        .c(
            el!("button", "aria-label" = text!(l, "ui.pl.load_pasted_aria"))
                .on_click(load_paste)
                .c(text!(l, "ui.pl.load_pasted")),
        );
    el!("div", "class" = "loaders")
        .c(presets)
        .c(file)
        .c(pasted)
        .done()
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
            let can_run_to = next.is_some_and(|n| n < i);
            let li = el!(
                "li",
                "class" = classes!("line", format!("s-{state}"), current.then_some("current")),
                "data-line" = i.to_string(),
                "data-lineno" = line.lineno.to_string(),
                "data-current-line" = current.then(|| i.to_string()),
                "data-expect" = expect,
                "aria-current" = current.then_some("step")
            )
            .c(el!("span", "class" = "lno").c(line.lineno.to_string()))
            .c(el!("span", "class" = "mark").c(mark))
            .c(el!("code", "class" = "src").c(line.text.clone()));
            let li = if can_run_to {
                li.c(el!(
                    "button",
                    "class" = "link-btn run-to",
                    "aria-label" = tr!(l, "ui.pl.run_to_aria", line = line.lineno)
                )
                .on_click(send(link, Msg::PlayerRunTo(i)))
                .c(text!(l, "ui.pl.run_to")))
            } else {
                li
            };
            li.c(why.map(|w| el!("div", "class" = "why").c(w).done()))
                .done()
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
    let head = el!("div", "class" = "row spread")
        .c(el!("h3").c(s.name.clone()))
        .c(el!(
            "button",
            "class" = "link-btn",
            "aria-label" = text!(l, "ui.pl.close_aria")
        )
        .on_click(send(link, Msg::PlayerClose))
        .c(text!(l, "ui.close")));
    let verdict = if failures > 0 {
        Some(
            el!("span", "class" = "error")
                .c(tr!(l, "ui.pl.failed", n = failures))
                .done(),
        )
    } else if done {
        Some(
            el!("span", "class" = "ok")
                .c(text!(l, "ui.pl.all_passed"))
                .done(),
        )
    } else {
        None
    };
    let controls = el!("div", "class" = "row wrap")
        .c(el!(
            "button",
            "disabled" = done,
            "title" = text!(l, "ui.pl.step_tip")
        )
        .on_click(send(link, Msg::PlayerStep))
        .c(text!(l, "ui.pl.step")))
        .c(el!(
            "button",
            "disabled" = done,
            "aria-label" = text!(l, "ui.pl.next_pause_aria"),
            "title" = text!(l, "ui.pl.next_pause_tip")
        )
        .on_click(send(link, Msg::PlayerContinue))
        .c(text!(l, "ui.pl.next_pause")))
        .c(el!(
            "button",
            "disabled" = done,
            "aria-label" = text!(l, "ui.pl.run_all_aria")
        )
        .on_click(send(link, Msg::PlayerRunTo(usize::MAX)))
        .c(text!(l, "ui.pl.run_all")))
        .c(el!("span", "class" = "progress-text")
            .c(tr!(l, "ui.pl.lines_run", at = at, total = total))
            .c(verdict));
    let lines = el!("details", "class" = "show-script", "open" = shown)
        .on_toggle(ontoggle)
        .c(el!("summary").c(text!(l, "ui.pl.show_script")))
        .c(shown.then(|| {
            el!(
                "ol",
                "class" = "lines",
                "tabindex" = "0",
                "aria-label" = text!(l, "ui.pl.lines_aria")
            )
            .c(script_lines(v, s))
            .done()
        }));
    el!(
        "div",
        "class" = "script",
        "data-scenario" = s.name.clone(),
        "data-done" = done.to_string(),
        "data-failures" = failures.to_string(),
        "data-next-line" = next.map(|n| n.to_string())
    )
    .c(head)
    .c(controls)
    .c(lines)
    .done()
}

/// The panel.
// Not inlined into its one caller, so that scripts/split-wasm.mjs can move it, rarely needed,
// to the wasm's second part.
#[inline(never)]
pub fn render(v: &View) -> Html {
    let l = v.ui.lang;
    let error = v.ui.script_error.as_ref().map(|e| {
        el!(
            "p",
            "class" = "error",
            "role" = "alert",
            "data-script-error" = ""
        )
        .c(e.render(l))
        .done()
    });
    el!("div", "class" = "player-panel")
        .c(error)
        .c(v.scenario.map(|s| script(v, s)))
        .c(v.scenario.is_none().then(|| lesson_view::lesson_list(v)))
        .c(el!("details", "open" = v.scenario.is_none())
            .c(el!("summary").c(text!(l, "ui.pl.open")))
            .c(loaders(v)))
        .done()
}
