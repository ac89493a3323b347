// The app shell: loads from 127.0.0.1 only, renders a cluster, elects a leader, no errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withApp } from './harness.mjs';

test('app shell loads, shows >= 3 nodes and elects a leader', { timeout: 90_000 }, () =>
  withApp('shell', async (app) => {
    const { page } = app;
    // The wasm app renders the nodes once it has started.
    await page.locator('[data-node]').first().waitFor({ state: 'attached', timeout: 30_000 });
    const nodes = await page.locator('[data-node]').count();
    assert.ok(nodes >= 3, `expected at least 3 [data-node] elements, found ${nodes}`);

    // Then one of them becomes leader. At the teaching pace that is ~3.8 s of wall time after
    // the nodes appear on this machine's kind; the wait leaves room for a loaded machine (the
    // wall time a stretch of model time takes at that pace is pinned natively, tests/lesson_pace.rs).
    await page
      .locator('[data-node][data-role="leader"]')
      .first()
      .waitFor({ state: 'attached', timeout: 20_000 });

    const file = await app.screenshot('shell');
    assert.ok(file.endsWith('shell.png'));
  }),
);
