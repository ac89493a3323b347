// The page's wasm comes in two parts (scripts/split-wasm.mjs): a first visit runs on the first
// alone, and the code it never needs arrives, once, when a rarer panel first calls it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withApp } from './harness.mjs';
import { firstVisit } from './first-visit.mjs';

const SPLIT = /\/split-[0-9a-f]{16}\.wasm$/;

test('a first visit (lesson 1, the everyday faults and tabs) never fetches the second part', { timeout: 240_000 }, () =>
  withApp(
    'split-first-visit',
    async (app) => {
      const { page } = app;
      const { steps, shown } = await firstVisit(page);
      assert.equal(shown, steps - 1, `lesson 1 reached its last step (${shown} of ${steps - 1})`);
      const fetched = app.requests.filter((u) => SPLIT.test(u));
      assert.deepEqual(
        fetched,
        [],
        'the first visit fetched the second part: refresh scripts/split-cold.txt with `node tests/e2e/split-profile.mjs`',
      );
    },
    { viewport: { width: 1280, height: 720 } },
  ));

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
