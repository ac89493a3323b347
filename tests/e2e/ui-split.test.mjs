// The page's wasm comes in two parts (scripts/split-wasm.mjs): a first visit runs on the first
// alone, the code it never needs arrives, once, when a rarer panel first calls it, and a first
// visit cut off from the network before that says so in the page's error box. (Offline after
// one visit, the service worker's copy serves: ui-offline.test.mjs.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openApp, withApp } from './harness.mjs';
import { VISITS, playVisit } from './first-visit.mjs';

const SPLIT = /\/split-[0-9a-f]{16}\.wasm$/;

// A sample of the visits the profile recorded (all of them take ~15 minutes).
const REPLAYED = VISITS.filter(
  (v, i) => i === 0 || v.path === '?lang=zh' || v.path.startsWith('?embed=1') || v.path === '?preset=15-probe-replicate-snapshot',
);

for (const visit of REPLAYED) {
  test(`a first visit never fetches the second part: ${visit.kind} ${visit.path || '/'} at ${visit.viewport.width}x${visit.viewport.height}`, { timeout: 240_000 }, () =>
    withApp(
      `split-visit-${REPLAYED.indexOf(visit)}`,
      async (app) => {
        const { page } = app;
        const { steps, shown } = await playVisit(page, visit);
        assert.equal(shown, steps, `the lesson reached its last step (${shown} of ${steps})`);
        await page.waitForSelector('[data-lesson-end]');
        const fetched = app.requests.filter((u) => SPLIT.test(u));
        assert.deepEqual(
          fetched,
          [],
          'the visit fetched the second part: refresh scripts/split-cold.txt with `node tests/e2e/split-profile.mjs`',
        );
      },
      { path: visit.path, viewport: visit.viewport, colorScheme: visit.colorScheme ?? 'light' },
    ));
}

test('the rarer panels fetch the second part once and work', { timeout: 120_000 }, () =>
  withApp('split-rare-panels', async (app) => {
    const { page } = app;
    await page.waitForSelector('g.node[data-role="leader"]', { timeout: 60_000 });
    const name = await page.getAttribute('meta[name="raftlab-split"]', 'content');
    assert.match(name, /^split-[0-9a-f]{16}\.wasm$/);
    assert.equal(app.requests.filter((u) => SPLIT.test(u)).length, 0, 'fetched before it was needed');
    await page.click('[role="tab"][data-tab="scenario"]');
    await page.waitForSelector('[role="tabpanel"] textarea');
    await page.click('[role="tab"][data-tab="export / share"]');
    await page.click('[role="tab"][data-tab="explore"]');
    await page.waitForSelector('[data-explore-start]');
    assert.deepEqual(
      app.requests.filter((u) => SPLIT.test(u)).map((u) => new URL(u).pathname),
      [`/${name}`],
      'the second part was fetched exactly once',
    );
    // The run goes on after the load: the clock moves.
    const now = Number(await page.getAttribute('[data-now]', 'data-now'));
    await page.waitForFunction((t) => Number(document.querySelector('[data-now]').dataset.now) > t, now);
  }));

test('a first visit cut off from the network says the part it needs could not be fetched', { timeout: 120_000 }, async () => {
  const app = await openApp();
  try {
    const { page, context } = app;
    await page.waitForSelector('g.node[data-role="leader"]', { timeout: 60_000 });
    await context.setOffline(true);
    // The Explore tab's panel lives in the second part.
    await page.click('[role="tab"][data-tab="explore"]');
    await page.waitForSelector('#fatal:not([hidden])');
    assert.match(
      await page.textContent('#fatal-message'),
      /raftlab could not fetch part of the app \(http:\/\/[^)]*\/split-[0-9a-f]{16}\.wasm\): the network is unreachable/,
    );
  } finally {
    await app.close();
  }
});
