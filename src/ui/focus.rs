//! Focus that a render took away: when the element that had focus leaves the page because of
//! what it did (the welcome's "start lesson 1", a lesson's last Continue, "again", the next
//! lesson, a panel's button that its own action removes), focus would fall back to the
//! page's body and a keyboard user would start again from the top. It goes instead where the
//! action led: the lesson's end card or its go button, else the panel the element was in,
//! else the play button.

use web_sys::Element;

use super::dom;

/// Where a lost focus goes, in this order: the first that is in the page.
const LESSON_TARGETS: [&str; 2] = ["[data-lesson-end]", ".lesson-dock button.go"];
const PANEL: &str = ".tab-body[role=tabpanel]";
const PLAY: &str = ".toolbar button[data-playing]";

/// What had focus after the last render, and where it was.
#[derive(Default)]
pub struct Keeper {
    last: Option<Element>,
    in_panel: bool,
    /// Focus was lost while a lesson's text was still on its way: it goes to the lesson once
    /// the lesson is drawn.
    waiting: bool,
}

impl Keeper {
    /// Forgets what had focus: its leaving the page (a closed dialog's button) is not a loss
    /// to make good.
    pub fn forget(&mut self) {
        self.last = None;
        self.waiting = false;
    }

    /// Called after each render. `lesson_pending`: a lesson has been asked for and is not
    /// drawn yet.
    pub fn after_render(&mut self, lesson_pending: bool) {
        let now = dom::focused();
        if let Some(el) = now {
            if self.last.as_ref() != Some(&el) {
                self.in_panel = el.closest(PANEL).ok().flatten().is_some();
                self.last = Some(el);
            }
            self.waiting = false;
            return;
        }
        let lost = self.last.take().is_some_and(|el| !el.is_connected());
        if !lost && !self.waiting {
            return;
        }
        // A lesson being opened (from the welcome, a lesson list or an end card) wins: its
        // go button is what comes next. A panel's button whose own action removed it leaves
        // focus in its panel.
        let to_lesson = lesson_pending || self.waiting || !self.in_panel;
        if to_lesson && LESSON_TARGETS.iter().any(|s| dom::focus(s)) {
            self.waiting = false;
        } else if lesson_pending {
            self.waiting = true;
        } else {
            self.waiting = false;
            if !(self.in_panel && dom::focus(PANEL)) {
                dom::focus(PLAY);
            }
        }
    }
}
