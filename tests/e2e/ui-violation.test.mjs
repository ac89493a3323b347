// Issue 5: "invariants badge: green while all hold; on a violation the run pauses and the
// panel says which and where". Preset 20 turns on the teaching-only unsafe commit switch and
// breaks Figure 8's rule on purpose, so a violation really happens in the browser.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withApp } from './harness.mjs';
import { openTab, showScript, waitLeader } from './raftlab.mjs';

const PRESET = '20-figure-8-unsafe';

test('a broken invariant turns the badge red, pauses the run and names what broke', { timeout: 120_000 }, () =>
  withApp('violation', async (app) => {
    const { page } = app;
    await waitLeader(page);
    assert.equal(await page.getAttribute('[data-violations]', 'data-violations'), '0');
    assert.equal(await page.locator('[data-violation-panel]').count(), 0);
    await openTab(page, 'scenario');
    await page.selectOption('select[aria-label="preset"]', PRESET);
    await page.click('button[aria-label="load preset"]');
    await page.waitForSelector('[data-scenario][data-next-line="1"]');
    await page.click('button[aria-label="run all lines"]');
    // Narration pauses the player; keep going until the script is done.
    for (let i = 0; i < 20; i++) {
      if ((await page.getAttribute('[data-scenario]', 'data-done')) === 'true') break;
      await page.click('button[aria-label="run to next pause"]');
      await page.waitForTimeout(0);
    }
    await page.waitForSelector('[data-scenario][data-done="true"]', { timeout: 30_000 });
    await showScript(page);
    assert.equal(await page.locator('[data-expect="fail"]').count(), 0, 'the preset asserts the violation');
    const n = Number(await page.getAttribute('[data-violations]', 'data-violations'));
    assert.ok(n >= 1, `violations: ${n}`);
    const panel = await page.textContent('[data-violation-panel]');
    assert.match(panel, /leader completeness|state machine safety/);
    assert.match(panel, /n5/);
    assert.match(panel, /index 2/);
    // The run is paused.
    await page.waitForSelector('.toolbar button[data-playing="false"]');
    await app.screenshot('17-invariant-violation');
  }),
);
