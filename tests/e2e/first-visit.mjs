// A first visit, as tests/e2e/split-profile.mjs records it and ui-split.test.mjs replays it:
// what the page's own wasm module must hold without fetching the second one
// (scripts/split-wasm.mjs). The pauses let the run go on between the steps of the visit.
import { waitStep } from './lessons.mjs';

const CONTINUE = 'button[aria-label="continue the scenario"], button[aria-label="start the lesson"]';
/** The side panel's everyday tabs, as a visitor trying the lab opens them. */
export const FIRST_VISIT_TABS = ['network', 'membership', 'client', 'node'];

/**
 * On a freshly opened app (the landing page): the free run at the teaching pace until a
 * leader is elected; lesson 1 from the landing page's button to its recap, at 4x; the free
 * run's everyday faults from the keyboard on the first node (select, kill, restart, isolate,
 * heal, write); the everyday tabs. Returns the lesson's steps and the last one shown.
 */
export async function firstVisit(page) {
  await page.waitForSelector('g.node[data-role="leader"]', { timeout: 60_000 });
  await page.waitForTimeout(4000);
  await page.click('button.primary.big');
  await page.waitForSelector('[data-lesson-step="0"]');
  await page.click('button[aria-label$="(lesson speed 4 times the teaching pace)"]');
  const steps = Number(await page.getAttribute('[data-lesson-step]', 'data-lesson-steps'));
  let shown = 0;
  for (let step = 0; step < steps; step++) {
    await waitStep(page, step, 120_000);
    shown = step;
    if (!(await page.$(CONTINUE))) break;
    await page.click(CONTINUE);
  }
  await page.waitForTimeout(1000);
  await page.focus('[data-node]');
  for (const key of ['Enter', 'k', 'k', 'i', 'h', 'w']) {
    await page.keyboard.press(key);
    await page.waitForTimeout(700);
  }
  await page.waitForTimeout(2000);
  for (const tab of FIRST_VISIT_TABS) {
    await page.click(`[role="tab"][data-tab="${tab}"]`);
    await page.waitForTimeout(500);
  }
  return { steps, shown };
}
