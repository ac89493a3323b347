// Issue 6: a run made in the browser, exported as .scn, replays natively (`raftlab run`) to the
// very same state: the fingerprint of the page's run equals the CLI's fingerprint.
// Needs the native binary (built by `cargo test` / `cargo build`); RAFTLAB_BIN overrides.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { withApp } from './harness.mjs';
import { nodeAction, openTab, pause, play, propose, setSpeed, stepTicks, waitLeader, fingerprintOf } from './raftlab.mjs';

const BIN = process.env.RAFTLAB_BIN || fileURLToPath(new URL('../../target/debug/raftlab', import.meta.url));

test('a browser run exported as .scn replays natively to the same fingerprint', { timeout: 120_000 }, async (t) => {
  if (!existsSync(BIN)) {
    // scripts/test.sh runs `cargo test` first, which builds the binary: in CI a missing binary
    // is a broken pipeline, not a reason to skip.
    assert.ok(!process.env.CI, `no native binary at ${BIN}`);
    t.skip(`no native binary at ${BIN} (cargo build first)`);
    return;
  }
  await withApp(
    'determinism',
    async (app) => {
      const { page } = app;
      await setSpeed(page, 5);
      const l = await waitLeader(page);
      await propose(page, 'a', '1');
      await openTab(page, 'network');
      await page.check('input[aria-label="n1 in group A"]');
      await page.check('input[aria-label="n2 in group B"]');
      await page.click('button[aria-label="partition the network into these groups"]');
      await nodeAction(page, l.id, 'Kill', `kill ${l.id}`);
      await page.waitForFunction(() => Number(document.querySelector('[data-now]').dataset.now) > 0);
      await openTab(page, 'network');
      await page.click('button:has-text("Heal all")');
      await waitLeader(page, { minTerm: l.term + 1, not: l.id });
      await play(page);
      await pause(page);
      await stepTicks(page, 2);
      const fingerprint = await fingerprintOf(page);
      const now = Number(await page.getAttribute('[data-now]', 'data-now'));
      await openTab(page, 'export / share');
      const scn = await page.textContent('[data-export-scn]');
      const dir = mkdtempSync(join(tmpdir(), 'raftlab-'));
      const file = join(dir, 'run.scn');
      writeFileSync(file, scn);
      const out = JSON.parse(execFileSync(BIN, ['run', '--json', file], { encoding: 'utf8' }));
      assert.equal(out.time_ms, now);
      assert.equal(out.fingerprint, fingerprint, `browser and native differ for:\n${scn}`);
    },
    { path: '?n=5' },
  );
});
