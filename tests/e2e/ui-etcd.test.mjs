// Issue 11: the etcd release and the request timeout are toolbar options, and etcd's own error
// is shown apart from raftlab's reason, in the requests list and the event log.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withApp } from './harness.mjs';
import { nodeAction, propose, waitLeader } from './raftlab.mjs';

const prevoteOn = (page) => page.isChecked('input[aria-label="pre-vote"]');

test('etcd 3.4 from the toolbar runs the cluster with pre-vote off; a timed-out write shows etcd error apart', { timeout: 120_000 }, () =>
  withApp('etcd-release', async (app) => {
    const { page } = app;
    const lead = await waitLeader(page);
    await page.click('summary[aria-label="cluster options"]');
    assert.equal(await page.inputValue('select[aria-label="etcd release"]'), '3.6');
    assert.equal(await prevoteOn(page), true, 'etcd 3.6 has pre-vote on by default');
    // The release brings its defaults: the simulator's pre-vote option follows, so the switch does.
    await page.selectOption('select[aria-label="etcd release"]', '3.4');
    await page.waitForFunction(() => /etcd=3\.4/.test(document.querySelector('[data-last-action]')?.textContent ?? ''));
    assert.equal(await prevoteOn(page), false, 'etcd 3.4 has pre-vote off by default');
    await page.selectOption('select[aria-label="request timeout"]', '1000');
    await page.waitForFunction(() => /request-timeout=1000/.test(document.querySelector('[data-last-action]')?.textContent ?? ''));

    // Without a quorum the write waits for the request timeout, then fails with etcd's error.
    const others = ['n1', 'n2', 'n3'].filter((id) => id !== lead.id);
    for (const id of others) await nodeAction(page, id, 'Kill', `kill ${id}`);
    await propose(page, 'x', '1');
    const line = page.locator('[data-request][data-outcome="timed-out"]').first();
    await line.waitFor({ timeout: 30_000 });
    assert.equal(await line.locator('code[data-etcd-error]').textContent(), 'context deadline exceeded');
    assert.doesNotMatch(await line.locator('.req-outcome').textContent(), /context deadline exceeded/);
    const ev = page.locator('.event-list li:has(code[data-etcd-error])').first();
    await ev.waitFor();
    assert.equal(await ev.locator('code[data-etcd-error]').textContent(), 'context deadline exceeded');
    assert.doesNotMatch(await ev.locator('.ev-text').textContent(), /deadline exceeded/);

    await page.click('[data-tab="export / share"]');
    const scn = await page.textContent('[data-export-scn]');
    assert.match(scn, /set etcd=3\.4/);
    assert.match(scn, /set request-timeout=1000/);
    // The release's own default is not written out as a separate change.
    assert.doesNotMatch(scn, /set prevote=/);
  }),
);
