// First visits, as tests/e2e/split-profile.mjs records them and ui-split.test.mjs replays
// them: what the page's own wasm module must hold without fetching its second part
// (scripts/split-wasm.mjs). The pauses let the run go on between the steps of a visit.
import { readdirSync } from 'node:fs';
import { waitStep } from './lessons.mjs';

// Language-independent: the lesson dock's go button (start / continue), its fastest speed.
const CONTINUE = '.lesson-dock button.go';
const FASTEST = '.lesson-speed button:last-of-type';
/** The side panel's everyday tabs, as a visitor trying the lab opens them. */
export const FIRST_VISIT_TABS = ['network', 'membership', 'client', 'node'];

/** The narrated lessons (not the compare and explore presets, which open rarer panels). */
export const LESSONS = readdirSync(new URL('../../scenarios/presets/', import.meta.url))
  .filter((f) => f.endsWith('.scn') && !/-(compare|explore)-/.test(f))
  .map((f) => f.replace(/\.scn$/, ''))
  .sort();

/**
 * The visits the first part must serve alone: the landing page's full visit (firstVisit) at
 * the three sizes the lab is made for, in the dark theme, in Chinese; every lesson opened by
 * its link and played to its end card, as a lecturer does; a lesson in presenter mode and
 * embedded. `kind` is "first" or "lesson".
 */
export const VISITS = [
  { kind: 'first', path: '', viewport: { width: 1280, height: 720 } },
  { kind: 'first', path: '?theme=dark', viewport: { width: 1024, height: 768 }, colorScheme: 'dark' },
  { kind: 'first', path: '', viewport: { width: 390, height: 844 } },
  { kind: 'first', path: '?lang=zh', viewport: { width: 1280, height: 720 } },
  { kind: 'lesson', path: '?preset=04-leader-isolated&present=1', viewport: { width: 1280, height: 720 } },
  { kind: 'lesson', path: '?embed=1&preset=08-add-to-single-node', viewport: { width: 900, height: 560 } },
  ...LESSONS.map((id) => ({ kind: 'lesson', path: `?preset=${id}`, viewport: { width: 1280, height: 720 } })),
];

/** Plays the open lesson from its current step to its end card, at 4x. Returns its steps. */
export async function playLesson(page) {
  await page.waitForSelector('[data-lesson-step]');
  // An embedded lesson has no speed buttons: it plays at the teaching pace.
  const fast = await page.$(FASTEST);
  if (fast) await fast.click();
  const steps = Number(await page.getAttribute('[data-lesson-step]', 'data-lesson-steps'));
  let shown = Number(await page.getAttribute('[data-lesson-step]', 'data-lesson-step'));
  // The dock counts the narrations passed: 0 before the first, `steps` at the last.
  for (let step = shown; step <= steps; step++) {
    await waitStep(page, step, 120_000);
    shown = step;
    // A lesson whose last line is its last narration ends there: the end card comes with it.
    if (step === steps && (await page.$('[data-lesson-end]'))) break;
    await page.click(CONTINUE);
  }
  await page.waitForSelector('[data-lesson-end]', { timeout: 120_000 });
  return { steps, shown };
}

/**
 * On a freshly opened app (the landing page): the free run at the teaching pace until a
 * leader is elected; lesson 1 from the landing page's button to its end card, at 4x; the free
 * run's everyday faults from the keyboard on the first node (select, kill, restart, isolate,
 * heal, write); the everyday tabs. Returns the lesson's steps and the last one shown.
 */
export async function firstVisit(page) {
  await page.waitForSelector('g.node[data-role="leader"]', { timeout: 60_000 });
  await page.waitForTimeout(4000);
  await page.click('button.primary.big');
  const lesson = await playLesson(page);
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
  return lesson;
}

/** Plays `visit` on `page`, freshly opened at the visit's path. */
export async function playVisit(page, visit) {
  await page.waitForSelector('[data-node][data-role]');
  return visit.kind === 'first' ? firstVisit(page) : playLesson(page);
}
