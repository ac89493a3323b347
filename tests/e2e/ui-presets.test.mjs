// Every narrated preset, played to its end in the browser's scenario player: no expect or await
// fails, and the final state is the very state `raftlab run` reaches natively (same fingerprint,
// same simulated time). This checks the wasm build against the native one on every lesson.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { withApp } from './harness.mjs';
import { openTab, showScript, waitLeader, fingerprintOf } from './raftlab.mjs';

const BIN = process.env.RAFTLAB_BIN || fileURLToPath(new URL('../../target/debug/raftlab', import.meta.url));
const PRESETS = readdirSync(new URL('../../scenarios/presets/', import.meta.url))
  .filter((f) => f.endsWith('.scn'))
  .map((f) => f.replace(/\.scn$/, ''))
  .sort();

test('every preset plays to its end in the browser and matches the native run', { timeout: 600_000 }, async (t) => {
  if (!existsSync(BIN)) {
    assert.ok(!process.env.CI, `no native binary at ${BIN}`);
    t.skip(`no native binary at ${BIN} (cargo build first)`);
    return;
  }
  assert.ok(PRESETS.length >= 19, `presets found: ${PRESETS.length}`);
  await withApp('presets', async (app) => {
    const { page } = app;
    await waitLeader(page);
    await openTab(page, 'scenario');
    for (const id of PRESETS) {
      // With a scenario loaded, the picker folds away under "Open a scenario".
      if (!(await page.isVisible('select[aria-label="preset"]'))) {
        await page.click('summary:has-text("Open a scenario")');
      }
      await page.selectOption('select[aria-label="preset"]', id);
      await page.click('button[aria-label="load preset"]');
      await page.waitForSelector('[data-scenario][data-next-line="1"]');
      for (let i = 0; i < 40; i++) {
        if ((await page.getAttribute('[data-scenario]', 'data-done')) === 'true') break;
        await page.click('button[aria-label="run to next pause"]');
      }
      await page.waitForSelector('[data-scenario][data-done="true"]', { timeout: 30_000 });
      await showScript(page);
      assert.equal(await page.locator('[data-expect="fail"]').count(), 0, `${id}: an expect failed in the browser`);
      await page.waitForSelector('[data-now][data-playing="false"]', { state: 'attached', timeout: 10_000 });
      const browser = {
        fingerprint: await fingerprintOf(page),
        time_ms: Number(await page.getAttribute('[data-now]', 'data-now')),
      };
      const native = JSON.parse(execFileSync(BIN, ['run', '--json', `preset:${id}`], { encoding: 'utf8' }));
      assert.deepEqual(browser, { fingerprint: native.fingerprint, time_ms: native.time_ms }, `${id}: browser and native differ`);
    }
  });
});
