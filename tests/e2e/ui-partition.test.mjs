// Issue 5: the leader partitioned into a minority keeps its new entries dashed (uncommitted)
// while the majority elects a leader; after healing, its uncommitted entries are replaced.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withApp } from './harness.mjs';
import { entries, openTab, pause, play, propose, setSpeed, stepTicks, waitLeader } from './raftlab.mjs';

test('a leader in a minority partition cannot commit; healing replaces its entries', { timeout: 120_000 }, () =>
  withApp(
    'partition-leader',
    async (app) => {
      const { page } = app;
      await setSpeed(page, 5);
      const old = await waitLeader(page);
      const ids = ['n1', 'n2', 'n3', 'n4', 'n5'];
      const others = ids.filter((i) => i !== old.id);
      // Freeze time, then put the leader alone in group A and everyone else in group B.
      await pause(page);
      await openTab(page, 'network');
      await page.check(`input[aria-label="${old.id} in group A"]`);
      for (const o of others) await page.check(`input[aria-label="${o} in group B"]`);
      await page.click('button[aria-label="partition the network into these groups"]');
      await page.waitForSelector('.hull[data-group="A"]');
      await page.waitForSelector('.link.parted');
      // A client still talks to the old leader: it appends the write, which cannot commit.
      await propose(page, 'p', '1', old.id);
      await stepTicks(page, 2);
      const mine = (await entries(page, old.id)).find((e) => e.label === 'p=1');
      assert.ok(mine, 'the old leader appended p=1');
      assert.equal(mine.committed, false, 'p=1 is dashed (not committed)');
      await page.waitForSelector(`[data-log-node="${old.id}"] [data-index="${mine.index}"].uncommitted`);

      // The majority elects a new leader at a higher term; p=1 stays uncommitted meanwhile.
      await play(page);
      const next = await waitLeader(page, { minTerm: old.term + 1, among: others });
      const still = (await entries(page, old.id)).find((e) => e.index === mine.index);
      assert.equal(still.label, 'p=1');
      assert.equal(still.committed, false, 'still dashed while partitioned');
      // Something committed on the majority side, so the logs visibly diverge.
      await propose(page, 'q', '1');
      await page.waitForFunction(
        ([id]) => [...document.querySelectorAll(`[data-log-node="${id}"] [data-label="q=1"]`)].some((e) => e.dataset.committed === 'true'),
        [next.id],
        { polling: 50, timeout: 20_000 },
      );
      await pause(page);
      await app.screenshot('03-partition-minority-leader');

      // Heal: the old leader follows the new one and its uncommitted p=1 is overwritten.
      await openTab(page, 'network');
      await page.click('button:has-text("Heal all")');
      await play(page);
      await page.waitForFunction(
        ([id, index, term]) => {
          const e = document.querySelector(`[data-log-node="${id}"] [data-index="${index}"]`);
          return e && e.dataset.label !== 'p=1' && Number(e.dataset.term) >= term && e.dataset.committed === 'true';
        },
        [old.id, mine.index, next.term],
        { polling: 50, timeout: 30_000 },
      );
      const after = await entries(page, old.id);
      assert.ok(!after.some((e) => e.label === 'p=1'), 'p=1 is gone from the old leader');
      assert.ok(after.some((e) => e.label === 'q=1' && e.committed), 'the old leader has the committed q=1');
      await page.waitForSelector(`g.node[data-node="${old.id}"][data-role="follower"]`);
      assert.equal(await page.getAttribute('[data-violations]', 'data-violations'), '0');
      await pause(page);
      await app.screenshot('04-partition-healed');
    },
    { path: '?n=5' },
  ),
);
