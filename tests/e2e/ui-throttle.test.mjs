// Issue 5: the simulation advances by simulated time, so slow frames never change what the
// protocol does. With the CPU throttled 8x, a fault-free cluster keeps its first leader's term,
// and the state at a given simulated moment is identical to the unthrottled run's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withApp } from './harness.mjs';
import { nodes, pause, scrubTo, waitLeader, waitSimTime, fingerprintOf } from './raftlab.mjs';

const MOMENT = 8000;

async function runTo(app, throttle) {
  const { page } = app;
  if (throttle > 1) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  }
  const first = await waitLeader(page, { timeout: 60_000 });
  // 10 s of simulated time at 1x (under throttle this may take longer on the wall clock).
  await waitSimTime(page, 10_000, 90_000);
  await pause(page);
  const all = await nodes(page);
  assert.equal(Math.max(...all.map((n) => n.term)), first.term, `throttle ${throttle}x: the term never moved`);
  assert.equal(all.filter((n) => n.role === 'leader').length, 1);
  // The state at a fixed simulated moment, for comparison between runs.
  await scrubTo(page, MOMENT);
  await page.waitForFunction((t) => Number(document.querySelector('[data-now]').dataset.now) === t, MOMENT);
  return { term: first.term, leader: first.id, fingerprint: await fingerprintOf(page) };
}

test('CPU throttled 8x: the first leader keeps its term; same state as unthrottled', { timeout: 240_000 }, async () => {
  let normal;
  let slow;
  await withApp('throttle-1x', async (app) => {
    normal = await runTo(app, 1);
  });
  await withApp('throttle-8x', async (app) => {
    slow = await runTo(app, 8);
    await app.screenshot('15-cpu-throttled-8x');
  });
  assert.deepEqual(slow, normal);
});
