// Debugging ergonomics: "next change" skips quiet timer ticks (from t=0 one press reaches the
// first message), a line names the event just applied and what it changed, deliveries show
// in the events list while stepping; an overwritten write says "lost"; heal resets the
// network form; bad address parameters are validated once, with the controls agreeing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withApp } from './harness.mjs';
import { openTab, pause, play, propose, setSpeed, waitLeader } from './raftlab.mjs';

const processed = async (page) => Number(await page.getAttribute('[data-processed]', 'data-processed'));
const inFlight = (page) => page.locator('svg.cluster [data-msg-id]').count();

test('from t=0, one "next change" press reaches the first message', { timeout: 60_000 }, () =>
  withApp(
    'next-change',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('svg.cluster');
      assert.equal(await processed(page), 0);
      assert.equal(await inFlight(page), 0);
      await page.click('[data-next-change]');
      await page.waitForSelector('[data-step-line]');
      assert.ok((await inFlight(page)) > 0, 'a message is on the wire');
      assert.ok((await processed(page)) > 5, 'quiet ticks were skipped');
      const line = await page.textContent('[data-step-line]');
      assert.match(line, /timer tick: .*election timeout.* sent pre-vote to /);
      assert.match(line, /after \d+ quiet events/);

      // The next press delivers one of them; the vote event shows in the events list even
      // though vote events are filtered out while playing.
      await page.click('[data-next-change]');
      await page.waitForFunction(() => /pre-vote n\d→n\d \(term 1\) delivered/.test(document.querySelector('[data-step-line]').textContent));
      await page.waitForSelector('.event-list li[data-kind="vote"]');
      await app.screenshot('next-change');

      // One event step names even a quiet one.
      await page.click('button[aria-label="step one event"]');
      await page.waitForFunction(() => /^t=/.test(document.querySelector('[data-step-line]').textContent));
    },
    { path: '?paused=1&n=5' },
  ),
);

test('a write overwritten by a new leader says lost; heal resets the network form', { timeout: 120_000 }, () =>
  withApp('lost-write', async (app) => {
    const { page } = app;
    await setSpeed(page, 5);
    const old = await waitLeader(page);
    await pause(page);
    const others = ['n1', 'n2', 'n3'].filter((i) => i !== old.id);
    await openTab(page, 'network');
    await page.check(`input[aria-label="${old.id} in group A"]`);
    for (const o of others) await page.check(`input[aria-label="${o} in group B"]`);
    await page.click('button[aria-label="partition the network into these groups"]');
    await page.waitForSelector('.hull[data-group="A"]');
    // The old leader still takes a write it can never commit.
    await propose(page, 'x', '9', old.id);
    await play(page);
    const line = page.locator('[data-request][data-outcome="lost"]').first();
    await line.waitFor({ timeout: 30_000 });
    const text = await line.textContent();
    assert.match(text, /put x=9 via n\d → lost: overwritten by term \d+ at index \d+ \(.+\)/);
    await pause(page);
    await app.screenshot('lost-write');

    // Healing leaves no stale group choices behind.
    await openTab(page, 'network');
    await page.click('button:has-text("Heal all")');
    await page.waitForFunction(() => !document.querySelector('.hull[data-group]'));
    for (const id of ['n1', 'n2', 'n3']) {
      assert.equal(await page.isChecked(`input[aria-label="${id} in group none"]`), true, `${id} back to none`);
    }
  }),
);

for (const [query, check] of [
  [
    '?seed=-3',
    async (page) => {
      assert.equal(await page.inputValue('input[aria-label="seed"]'), '1');
      // -3 is a whole number: the message names what a seed must be.
      assert.match(await page.textContent('[data-notice]'), /seed=-3 is not a whole number from 0 up/);
    },
  ],
  [
    '?n=0',
    async (page) => {
      assert.equal(await page.inputValue('select[aria-label="number of nodes"]'), '3');
      assert.equal(await page.locator('g.node').count(), 3);
      assert.match(await page.textContent('[data-notice]'), /n=0 is not a number of nodes/);
    },
  ],
  [
    '?preset=nope',
    async (page) => {
      await openTab(page, 'scenario');
      assert.equal(await page.inputValue('select[aria-label="preset"]'), '');
      assert.equal(await page.locator('g.node').count(), 3);
      assert.match(await page.textContent('[data-notice]'), /no preset called 'nope'/);
    },
  ],
]) {
  test(`the address ${query} is validated once and the controls agree with the drawing`, { timeout: 60_000 }, () =>
    withApp(`url-${query.replace(/\W+/g, '-')}`, async (app) => {
      const { page } = app;
      await page.waitForSelector('svg.cluster');
      // Let it run for a second of simulated time: many frames, so a per-frame warning shows.
      await page.waitForFunction(() => Number(document.querySelector('[data-now]').dataset.now) >= 1000);
      await check(page);
      assert.equal(await page.locator('[data-notice]').count(), 1);
      // Every page gets these two from Chromium (trunk's preload integrity, the harness
      // blocking the service worker); anything else, like an input that cannot show its
      // value warning at every frame, fails.
      const warnings = app.console.filter(
        (l) =>
          l.startsWith('[warning]') &&
          !l.includes('`integrity` attribute is currently ignored') &&
          !l.includes('Service Worker registration blocked'),
      );
      assert.deepEqual(warnings, [], 'console warnings');
    }, { path: query }),
  );
}
