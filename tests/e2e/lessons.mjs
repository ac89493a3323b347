// Helpers for the lesson and layout tests (issue 9): visibility checks that take scroll boxes
// into account, and driving a lesson.

/**
 * For each selector, whether its first match is wholly visible: inside the viewport and inside
 * every ancestor that clips (overflow other than visible, or paint containment), with 1 px of
 * tolerance.
 * Returns {selector: {visible, rect, clippedBy}}.
 */
export function visibility(page, selectors) {
  return page.evaluate((selectors) => {
    const out = {};
    for (const sel of selectors) {
      const el = document.querySelector(sel);
      if (!el) {
        out[sel] = { visible: false, missing: true };
        continue;
      }
      let r = el.getBoundingClientRect();
      // A log row's box reaches the end of its newest run of 16 columns, past its newest
      // entry, and the logs' grid clips the empty columns (log_view::render): what the row
      // draws ends at its newest box, so that is where it is measured.
      if (el.matches('.log-row')) {
        const right = Math.max(r.left, ...[...el.querySelectorAll('.entry, .snapshot, .applied-mark')].map((c) => c.getBoundingClientRect().right));
        r = { left: r.left, top: r.top, right, bottom: r.bottom, width: Math.max(1, right - r.left), height: r.height };
      }
      let clippedBy = null;
      if (r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1) clippedBy = 'viewport';
      for (let a = el.parentElement; a && !clippedBy; a = a.parentElement) {
        const cs = getComputedStyle(a);
        // Overflow clips, and so does paint containment (which sets no overflow).
        const paints = /paint|strict|content/.test(cs.contain);
        if (cs.overflowX === 'visible' && cs.overflowY === 'visible' && !paints) continue;
        const b = a.getBoundingClientRect();
        if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) {
          clippedBy = a.className || a.tagName;
        }
      }
      out[sel] = {
        visible: !clippedBy && r.width > 0 && r.height > 0,
        rect: [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)],
        clippedBy,
      };
    }
    return out;
  }, selectors);
}

/** The page's own scroll state: {scrollY, scrollHeight, innerHeight, scrollWidth, innerWidth}. */
export function pageScroll(page) {
  return page.evaluate(() => ({
    scrollY: window.scrollY,
    scrollHeight: document.documentElement.scrollHeight,
    innerHeight: window.innerHeight,
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
}

/** The lesson dock's data: {step, steps, playing, narration}. */
export function lessonState(page) {
  return page.evaluate(() => {
    const d = document.querySelector('[data-lesson-step]');
    const n = document.querySelector('[data-narration] p');
    return d
      ? {
          step: Number(d.dataset.lessonStep),
          steps: Number(d.dataset.lessonSteps),
          playing: d.dataset.lessonPlaying === 'true',
          narration: n ? n.textContent.trim() : null,
        }
      : null;
  });
}

/** Waits until the lesson dock shows step `k`, paused. */
export async function waitStep(page, k, timeout = 60_000) {
  await page.waitForSelector(`[data-lesson-step="${k}"][data-lesson-playing="false"]`, { timeout });
}
