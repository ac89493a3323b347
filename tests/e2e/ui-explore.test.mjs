// Issue 15, explore in the browser: the Explore tab runs the search in a Web Worker (a wasm
// file of its own, fetched only when a search starts), shows its progress while the page keeps
// drawing and answering clicks, and turns a hit into a scenario that reproduces it. Every wait
// polls the page; nothing sleeps for a fixed time to pass.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withApp } from './harness.mjs';
import { showScript } from './raftlab.mjs';

// The worker's wasm: LZMA-packed in release builds (scripts/pack-wasm.mjs), plain in debug ones.
const WORKER_WASM = /explore_worker_bg\.(wasm|lzma)$/;

/** The search's state as the panel shows it. */
function explore(page) {
  return page.evaluate(() => {
    const s = document.querySelector('[data-explore-state]');
    const e = document.querySelector('[data-explore-error]');
    return {
      state: s ? s.dataset.exploreState : null,
      tried: s ? Number(s.dataset.exploreTried) : 0,
      ms: s ? Number(s.dataset.exploreMs) : 0,
      text: s ? s.textContent : null,
      error: e ? e.textContent : null,
    };
  });
}

async function openExplore(page) {
  await page.click('[data-tab="explore"]');
  await page.waitForSelector('[data-explore]');
}

/** Frames the page draws in `ms` of wall time (requestAnimationFrame callbacks). */
function framesIn(page, ms) {
  return page.evaluate(
    (ms) =>
      new Promise((done) => {
        let n = 0;
        const t0 = performance.now();
        const tick = (t) => {
          if (t - t0 >= ms) return done({ frames: n, ms: t - t0 });
          n++;
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    ms,
  );
}

test('a search runs in a worker: progress rises, the page keeps drawing and answering clicks, stop ends it', { timeout: 180_000 }, () =>
  withApp(
    'explore-progress',
    async (app) => {
      const { page } = app;
      await openExplore(page);
      assert.equal(app.requests.filter((u) => WORKER_WASM.test(u)).length, 0, 'the worker is not part of the first load');
      // Preset 27's search (etcd's defaults) finds nothing in its budget: it runs long
      // enough to watch. Start it from the scenario, with its explore line's settings.
      assert.ok(await page.isChecked('[data-explore-from="scenario"]'), 'a loaded scenario is the default start');
      assert.equal(await page.inputValue('[data-explore-field="schedules"]'), '1000');
      await page.fill('[data-explore-field="schedules"]', '100000');
      await page.fill('[data-explore-field="seconds"]', '');
      await page.click('[data-explore-start]');
      await page.waitForFunction(() => Number(document.querySelector('[data-explore-state]')?.dataset.exploreTried) > 0, null, { timeout: 60_000 });
      assert.equal(page.workers().length, 1, 'one Web Worker runs the search');
      assert.match(page.workers()[0].url(), /explore_worker_loader\.js$/);
      const first = await explore(page);
      assert.equal(first.state, 'running');
      assert.match(first.text, /schedules tried, \d+ per second/);

      // While it runs: frames keep coming, and a click is handled at once.
      const f = await framesIn(page, 2000);
      const fps = (f.frames * 1000) / f.ms;
      console.log(`explore: ${fps.toFixed(1)} frames per second on the page while the worker searches (${f.frames} frames in ${f.ms.toFixed(0)} ms)`);
      assert.ok(f.frames >= 20, `the page keeps drawing while the search runs: ${f.frames} frames in 2 s`);
      const t0 = Date.now();
      await page.click('[data-tab="network"]');
      await page.waitForSelector('[data-tab="network"][aria-selected="true"]', { timeout: 5_000 });
      const clickMs = Date.now() - t0;
      console.log(`explore: a tab click was handled in ${clickMs} ms while the worker searched`);
      await openExplore(page);

      // Progress rises.
      await page.waitForFunction((n) => Number(document.querySelector('[data-explore-state]').dataset.exploreTried) > n, first.tried, { timeout: 60_000 });
      const later = await explore(page);
      assert.equal(later.state, 'running');
      assert.ok(later.tried > first.tried, `progress rose: ${first.tried} -> ${later.tried}`);
      console.log(`explore: ${later.tried} schedules in ${(later.ms / 1000).toFixed(1)} s (${((later.tried * 1000) / later.ms).toFixed(0)} per second) in the worker`);

      const closed = new Promise((done) => page.workers()[0].once('close', done));
      await page.click('[data-explore-stop]');
      await page.waitForSelector('[data-explore-state="stopped"]');
      await closed; // stopping ends the worker (the test times out otherwise)
      assert.ok(await page.isVisible('[data-explore-start]'));
      await app.screenshot('explore-progress-1280');
    },
    { path: '?preset=27-explore-defaults-hold', viewport: { width: 1280, height: 720 } },
  ));

test("a worker whose wasm cannot be fetched: the Explore tab says so, and the next search starts", { timeout: 180_000 }, () =>
  withApp(
    'explore-worker-unfetched',
    async (app) => {
      const { page, context } = app;
      await openExplore(page);
      const refuse = (route) => route.fulfill({ status: 404, body: 'gone' });
      await context.route(WORKER_WASM, refuse);
      await page.click('[data-explore-start]');
      await page.waitForSelector('[data-explore-error]', { timeout: 60_000 });
      const failed = await explore(page);
      // The fetch's integrity check turns the 404 into a network error ("Failed to fetch").
      assert.match(failed.error, /^The search stopped: raftlab could not fetch part of the app \(.*explore_worker_bg\.(wasm|lzma)\): /);
      assert.notEqual(failed.state, 'starting', 'the search is not left waiting for a worker that never starts');
      assert.ok(await page.isVisible('[data-explore-start]'), 'Start is offered again');
      await app.screenshot('explore-worker-unfetched-1280');

      // The network is back: Start runs a search, and the error is gone. (A budget the search
      // cannot finish before Stop: its default, 1,000 schedules, takes under a second.)
      await context.unroute(WORKER_WASM, refuse);
      await page.fill('[data-explore-field="schedules"]', '100000');
      await page.click('[data-explore-start]');
      await page.waitForFunction(() => Number(document.querySelector('[data-explore-state]')?.dataset.exploreTried) > 0, null, { timeout: 60_000 });
      assert.equal((await explore(page)).error, null);
      await page.click('[data-explore-stop]');
      await page.waitForSelector('[data-explore-state="stopped"]');
    },
    { path: '?preset=27-explore-defaults-hold', viewport: { width: 1280, height: 720 } },
  ));

test('preset 26: the search finds the disruptive rejoin, and the hit loads as a scenario that reproduces it', { timeout: 180_000 }, async () => {
  for (const [w, h] of [
    [1280, 720],
    [390, 844],
  ]) {
    await withApp(
      `explore-hit-${w}`,
      async (app) => {
        const { page } = app;
        await openExplore(page);
        assert.equal(await page.inputValue('[data-explore-field="until"]'), 'disruptions >= 1');
        await page.click('[data-explore-start]');
        await page.waitForSelector('[data-explore-state="found"]', { timeout: 120_000 });
        const s = await explore(page);
        // The CLI's search with the same settings: schedule 59, 60 tried (tests/explore_job.rs
        // pins the browser's sliced search to the CLI's).
        assert.match(s.text, /Found: your condition, in schedule 59 after 60 schedules/);
        assert.equal(s.tried, 60);
        const scn = await page.textContent('[data-explore-scn]');
        assert.match(scn, /expect disruptions < 1\s*$/);
        const hitAt = Number(/\nat (\d+)\nsay /.exec(scn)[1]);
        if (w === 390) {
          const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          assert.ok(wide <= 1, `no sideways scroll at 390 px: ${wide}`);
        }
        await page.locator('[data-explore-hit]').scrollIntoViewIfNeeded();
        await app.screenshot(`explore-hit-${w}`);

        await page.click('[data-explore-share]');
        const link = await page.inputValue('[data-explore-link]');
        assert.match(link, /#run=/);

        // Open it as a scenario and run it: the last line, the expect that states the
        // failure's absence, fails: the disruption is reproduced.
        await page.click('[data-explore-open]');
        await page.waitForSelector('.script[data-scenario^="Counterexample"]');
        await page.click('.script button[aria-label="run all lines"]');
        await page.waitForSelector('.script[data-done="true"]');
        assert.equal(await page.getAttribute('.script', 'data-failures'), '1');
        await showScript(page);
        const failed = page.locator('.script li[data-expect="fail"] code.src');
        assert.equal(await failed.count(), 1);
        assert.equal(await failed.textContent(), 'expect disruptions < 1');
        await app.screenshot(`explore-hit-loaded-${w}`);

        // The share link replays the counterexample to its end: the moment of the hit.
        await page.goto(link);
        await page.waitForSelector('.sim-state', { state: 'attached' });
        await page.waitForFunction((t) => document.querySelector('.sim-state').dataset.now === String(t), hitAt);
      },
      { path: '?preset=26-explore-disruptive-rejoin', viewport: { width: w, height: h } },
    );
  }
});

test('preset 25: the form shows every setting of the explore line (actions 12), so the search finds what raftlab explore finds', { timeout: 180_000 }, () =>
  withApp(
    'explore-preset-25',
    async (app) => {
      const { page } = app;
      await openExplore(page);
      // The line: explore allow crash,restart,campaign horizon 300 actions 12 check invariant
      // schedules 3000 seed 2 (the liveness setting is the default, 10).
      for (const [field, value] of [
        ['horizon', '300'],
        ['schedules', '3000'],
        ['seed', '2'],
        ['actions', '12'],
        ['liveness', '10'],
      ]) {
        assert.equal(await page.inputValue(`[data-explore-field="${field}"]`), value, field);
      }
      await page.click('[data-explore-start]');
      await page.waitForSelector('[data-explore-state="found"]', { timeout: 120_000 });
      const s = await explore(page);
      // `raftlab explore preset:25-explore-figure-8-unsafe`: schedule 560, 561 tried
      // (tests/compare_explore.rs replays schedule 560). With the form's old default of 8
      // actions the page searched other schedules and found nothing in its budget.
      assert.match(s.text, /Found: invariant violation, in schedule 560 after 561 schedules/);
      await page.locator('[data-explore-hit]').scrollIntoViewIfNeeded();
      await app.screenshot('explore-preset-25');
    },
    { path: '?preset=25-explore-figure-8-unsafe', viewport: { width: 1280, height: 720 } },
  ));

test('in Chinese, the finding and the counterexample it loads are worded in Chinese', { timeout: 180_000 }, () =>
  withApp(
    'explore-hit-zh',
    async (app) => {
      const { page } = app;
      await openExplore(page);
      await page.click('[data-explore-start]');
      await page.waitForSelector('[data-explore-state="found"]', { timeout: 120_000 });
      // The condition stays as written (scenario syntax); the sentence around it is Chinese.
      assert.equal((await page.textContent('[data-explore-detail]')).trim(), 'disruptions >= 1（实际为 1）');
      const scn = await page.textContent('[data-explore-scn]');
      assert.match(scn, /\nsay\.zh 你给出的条件：disruptions >= 1（实际为 1）\n/);
      await page.click('[data-explore-open]');
      await page.waitForSelector('.script[data-scenario^="反例"]');
      await app.screenshot('explore-hit-loaded-zh');
    },
    { path: '?preset=26-explore-disruptive-rejoin&lang=zh', viewport: { width: 1280, height: 720 } },
  ));

test('bad input gets a clear message, no search and no panic', { timeout: 120_000 }, () =>
  withApp(
    'explore-bad-input',
    async (app) => {
      const { page } = app;
      await openExplore(page);
      await page.fill('[data-explore-field="until"]', 'n1.term >');
      await page.click('[data-explore-start]');
      const s = await explore(page);
      assert.match(s.error, /Cannot start the search: /);
      assert.equal(s.state, null, 'no search started');
      assert.equal(page.workers().length, 0);
      await page.fill('[data-explore-field="until"]', 'n1.term > 5');
      await page.fill('[data-explore-field="seconds"]', 'soon');
      await page.click('[data-explore-start]');
      assert.match((await explore(page)).error, /Time limit: expected a number of seconds/);
      // Nothing allowed.
      await page.fill('[data-explore-field="seconds"]', '5');
      for (const f of await page.locator('[data-explore-allow]').all()) if (await f.isChecked()) await f.uncheck();
      await page.click('[data-explore-start]');
      assert.match((await explore(page)).error, /Choose at least one fault/);
    },
    { viewport: { width: 1280, height: 720 } },
  ));
