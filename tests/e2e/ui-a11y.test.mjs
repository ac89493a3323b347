// Accessibility: axe-core (run inside the page) finds no serious or critical violation on
// the main views; the polite live region announces a new leader; nodes are named by what
// they show ("n2, leader, term 3, voted n2"); Enter on a focused node selects it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withApp } from './harness.mjs';
import { assertAccessible } from './axe.mjs';
import { openTab, pause, waitLeader } from './raftlab.mjs';

/** The views checked, each reached from a fresh page by `open(page)`. */
const VIEWS = [
  ['default view', async () => {}],
  ['node tab with a node selected', async (page) => {
    await page.locator('g.node[data-node="n1"]').focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-panel-node="n1"]');
  }],
  ['network tab', (page) => openTab(page, 'network')],
  ['membership tab', (page) => openTab(page, 'membership')],
  ['client tab', (page) => openTab(page, 'client')],
  ['scenario tab', (page) => openTab(page, 'scenario')],
  ['export / share tab', (page) => openTab(page, 'export / share')],
  ['explore tab', (page) => openTab(page, 'explore')],
  ['explore tab with a counterexample', async (page) => {
    await openTab(page, 'scenario');
    await page.selectOption('select[aria-label="preset"]', '26-explore-disruptive-rejoin');
    await page.click('button[aria-label="load preset"]');
    await openTab(page, 'explore');
    await page.click('[data-explore-start]');
    await page.waitForSelector('[data-explore-state="found"]', { timeout: 120_000 });
  }],
  ['a running lesson', async (page) => {
    await openTab(page, 'scenario');
    await page.selectOption('select[aria-label="preset"]', { index: 1 });
    await page.click('button[aria-label="load preset"]');
    await page.click('button[aria-label="run to next pause"]');
    await page.waitForSelector('.script[data-scenario]');
  }],
  ['help', async (page) => {
    await page.keyboard.press('?');
    await page.waitForSelector('.overlay[role=dialog]');
  }],
  ['dark theme', async (page) => {
    await page.goto(new URL('?theme=dark', page.url()).href);
    await page.waitForSelector('.app.theme-dark svg.cluster');
  }],
];

for (const [name, open] of VIEWS) {
  test(`axe-core: no serious or critical violation on the ${name}`, { timeout: 120_000 }, () =>
    withApp(`a11y-${name.replace(/[^a-z]+/g, '-')}`, async (app) => {
      const { page } = app;
      await page.waitForSelector('svg.cluster');
      await waitLeader(page);
      await pause(page);
      await open(page);
      await assertAccessible(page, name);
    }),
  );
}

test('the live region announces a new leader, and nodes are named by what they show', { timeout: 120_000 }, () =>
  withApp('a11y-live-region', async (app) => {
    const { page } = app;
    const region = page.locator('[role=status][aria-live=polite]');
    assert.equal(await region.count(), 1, 'exactly one polite live region');
    const leader = await waitLeader(page);
    await page.waitForFunction(
      (id) => document.querySelector('[role=status][aria-live=polite]').textContent.includes(`${id} became leader`),
      leader.id,
      { timeout: 10_000, polling: 100 },
    );
    await pause(page);
    const label = await page.locator(`g.node[data-node="${leader.id}"]`).getAttribute('aria-label');
    assert.match(label, new RegExp(`^${leader.id}, leader, term ${leader.term}, `));
    // The drawing is a group of buttons, not an image with buttons inside.
    assert.equal(await page.locator('svg.cluster').getAttribute('role'), 'group');
  }),
);

// The default theme follows the system: on a dark system it must be the dark theme exactly,
// not a copy of it that drifts (the Start button once stayed white on light blue there).
test('on a dark system the automatic theme is the dark theme, colour for colour', { timeout: 120_000 }, () =>
  withApp('auto-dark', async (app) => {
    const { page } = app;
    await page.emulateMedia({ colorScheme: 'dark' });
    const colours = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('.app, .app *')].map((e) => {
          const s = getComputedStyle(e);
          const cls = (e.getAttribute('class') || '').replace(/\btheme-\w+/, '');
          return `${e.tagName}.${cls}: ${s.color} ${s.backgroundColor} ${s.borderTopColor} ${s.fill} ${s.stroke}`;
        }),
      );
    await page.waitForSelector('.app.theme-auto [data-lesson-step="0"]');
    const auto = await colours();
    await page.goto(new URL('?preset=01-election&theme=dark', page.url()).href);
    await page.waitForSelector('.app.theme-dark [data-lesson-step="0"]');
    const dark = await colours();
    assert.equal(auto.length, dark.length, 'the same page');
    const differ = auto.map((a, i) => [a, dark[i]]).filter(([a, d]) => a !== d);
    assert.deepEqual(differ.slice(0, 5), [], `${differ.length} elements coloured differently (automatic vs dark)`);
  }, { path: '?preset=01-election' }),
);

// On a phone the close buttons drawn as a bare ✕ are big enough to tap (WCAG 2.2's 24 px
// minimum): the legend's and the welcome card's were 19 px wide.
test('390x844: the ✕ buttons are at least 24 px each way', { timeout: 60_000 }, () =>
  withApp(
    'a11y-close-targets',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('g.node[data-node]');
      for (const sel of ['.legend-close', '.welcome .link-btn']) {
        const r = await page.$eval(sel, (b) => b.getBoundingClientRect().toJSON());
        assert.ok(r.width >= 24 && r.height >= 24, `${sel} is ${r.width}x${r.height}`);
      }
    },
    { viewport: { width: 390, height: 844 } },
  ),
);

// The event log's filters are labels around a checkbox: the whole label toggles its kind, and
// it was 21 px tall (the checkbox alone 13 px), under WCAG 2.2's 24 px minimum; "all" and
// "none" beside them likewise. On a phone they are as tall as the other buttons there.
for (const [viewport, min] of [[{ width: 1280, height: 720 }, 24], [{ width: 390, height: 844 }, 32]]) {
  test(`${viewport.width}x${viewport.height}: the event filters are at least ${min} px tall`, { timeout: 60_000 }, () =>
    withApp(
      `a11y-filter-targets-${viewport.width}`,
      async (app) => {
        const { page } = app;
        await page.waitForSelector('.events .chips label');
        const sizes = await page.$$eval('.events .chips label, .events .chips button', (els) =>
          els.map((e) => [e.textContent.trim(), Math.round(e.getBoundingClientRect().width), Math.round(e.getBoundingClientRect().height)]));
        assert.equal(sizes.length, 13, JSON.stringify(sizes));
        const small = sizes.filter(([, w, h]) => h < min || w < 24);
        assert.deepEqual(small, [], 'targets under the minimum');
        // A click on the label's text toggles its kind.
        const was = await page.$eval('.events .chips label.k-vote input', (i) => i.checked);
        await page.click('.events .chips label.k-vote');
        assert.equal(await page.$eval('.events .chips label.k-vote input', (i) => i.checked), !was);
      },
      { viewport },
    ),
  );
}
