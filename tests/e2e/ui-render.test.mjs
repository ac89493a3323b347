// Issue 12, item 1: render only what changed. While only messages move, the nodes, logs and
// events are not touched; while paused, no animation frame is even requested.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withApp } from './harness.mjs';
import { pause, waitLeader, waitSimTime } from './raftlab.mjs';

test('steady state: messages move every frame, logs and events untouched, nodes only on ticks', { timeout: 90_000 }, () =>
  withApp('render-regions', async (app) => {
    const { page } = app;
    const l = await waitLeader(page);
    // Let the election's appends settle: from here only heartbeats fly.
    await page.waitForFunction(() => [...document.querySelectorAll('g.node')].every((n) => n.dataset.commit === '1'));
    await waitSimTime(page, (await page.evaluate(() => Number(document.querySelector('[data-now]').dataset.now))) + 300);
    const counts = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const regions = { msgs: '.cluster .msgs', nodes: '.cluster .nodes', logs: '.logs .log-body', events: '.event-list' };
          const touched = Object.fromEntries(Object.keys(regions).map((k) => [k, 0]));
          touched.msgsOnly = 0;
          const dirty = {};
          const observers = Object.entries(regions).map(([k, sel]) => {
            const o = new MutationObserver(() => (dirty[k] = true));
            o.observe(document.querySelector(sel), { subtree: true, childList: true, attributes: true, characterData: true });
            return o;
          });
          let frames = 0;
          const tick = () => {
            for (const k of Object.keys(dirty)) touched[k]++;
            if (dirty.msgs && !dirty.nodes && !dirty.logs && !dirty.events) touched.msgsOnly++;
            for (const k of Object.keys(dirty)) delete dirty[k];
            if (++frames >= 90) {
              observers.forEach((o) => o.disconnect());
              resolve({ frames, ...touched });
            } else requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        }),
    );
    const report = JSON.stringify(counts);
    assert.ok(counts.msgsOnly >= 10, `frames touching only the messages layer: ${report}`);
    assert.equal(counts.logs, 0, `no log row touched while the logs did not change: ${report}`);
    assert.equal(counts.events, 0, `the event list untouched while no event happened: ${report}`);
    assert.ok(counts.nodes < counts.frames / 2, `nodes redrawn only when a timer moves: ${report}`);
    assert.ok(l.id);
  }),
);

test('paused: no animation frame is requested and nothing is redrawn', { timeout: 60_000 }, () =>
  withApp('render-paused', async (app) => {
    const { page } = app;
    await waitLeader(page);
    await page.evaluate(() => {
      window.__raf = 0;
      const orig = window.requestAnimationFrame.bind(window);
      window.requestAnimationFrame = (cb) => {
        window.__raf++;
        return orig(cb);
      };
      window.__mutations = 0;
      new MutationObserver((m) => (window.__mutations += m.length)).observe(document.querySelector('.app'), {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
    });
    assert.ok(await page.evaluate(() => new Promise((r) => setTimeout(() => r(window.__raf), 300))) > 0, 'frames while playing');
    await pause(page);
    const before = await page.evaluate(() => ({ raf: window.__raf, m: window.__mutations }));
    // A negative check: over a second of wall time, nothing at all happens.
    const after = await page.evaluate(() => new Promise((r) => setTimeout(() => r({ raf: window.__raf, m: window.__mutations }), 1000)));
    assert.deepEqual(after, before);
  }),
);
