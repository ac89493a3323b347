// Keyboard: Enter/space on a focused node selects it (space does not toggle play there);
// letters write, kill/restart, isolate, partition, heal, campaign, step to the next change and
// continue a lesson; the help lists every shortcut and the buttons' tooltips name their key.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withApp } from './harness.mjs';
import { openTab, pause, waitLeader } from './raftlab.mjs';

const playing = (page) => page.getAttribute('.toolbar button[data-playing]', 'data-playing');
const status = (page, id) => page.getAttribute(`g.node[data-node="${id}"]`, 'data-status');
const requests = (page) => page.locator('[data-request]').count();

test('keys act on the focused and selected node and on the cluster', { timeout: 120_000 }, () =>
  withApp('keys', async (app) => {
    const { page } = app;
    const leader = await waitLeader(page);
    await pause(page);
    const follower = ['n1', 'n2', 'n3'].find((id) => id !== leader.id);

    // Enter on a focused node opens it; space on a focused node selects it, not play.
    await page.locator(`g.node[data-node="${follower}"]`).focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector(`[data-panel-node="${follower}"]`);
    await page.locator(`g.node[data-node="${leader.id}"]`).focus();
    await page.keyboard.press(' ');
    await page.waitForSelector(`[data-panel-node="${leader.id}"]`);
    assert.equal(await playing(page), 'false', 'space on a node toggled play');
    assert.equal(await page.getAttribute(`g.node[data-node="${leader.id}"]`, 'aria-pressed'), 'true');
    await page.locator('body').focus();

    // k kills the selected node, k again restarts it.
    await page.keyboard.press('k');
    await page.waitForSelector(`g.node[data-node="${leader.id}"][data-status="killed"]`);
    await page.keyboard.press('k');
    await page.waitForSelector(`g.node[data-node="${leader.id}"][data-status="running"]`);

    // i isolates it, h heals.
    await page.keyboard.press('i');
    await page.waitForSelector('.link.parted, .link.cut');
    await page.keyboard.press('h');
    await page.waitForFunction(() => !document.querySelector('.link.parted, .link.cut'));

    // s partitions (the leader into a minority), h heals.
    await page.keyboard.press('s');
    await page.waitForSelector('.hull[data-group="A"]');
    await page.keyboard.press('h');
    await page.waitForFunction(() => !document.querySelector('.hull[data-group]'));

    // c: the selected node campaigns at once.
    await page.locator(`g.node[data-node="${follower}"]`).focus();
    await page.keyboard.press('Enter');
    await page.locator('body').focus();
    const term = Number(await page.getAttribute(`g.node[data-node="${follower}"]`, 'data-term'));
    await page.keyboard.press('c');
    await page.waitForFunction(
      ([id, term]) => {
        const n = document.querySelector(`g.node[data-node="${id}"]`);
        return n.dataset.role !== 'follower' || Number(n.dataset.term) > term;
      },
      [follower, term],
    );

    // w writes with the Client tab's key and value.
    const before = await requests(page);
    await page.keyboard.press('w');
    await page.waitForFunction((n) => document.querySelectorAll('[data-request]').length > n, before);

    // n steps to the next change and names it.
    await page.keyboard.press('n');
    await page.waitForSelector('[data-step-line]');

    // Keys do nothing while typing in a field.
    await openTab(page, 'client');
    const killedBefore = await page.locator('g.node[data-status="killed"]').count();
    await page.fill('input[aria-label="key to write"]', '');
    await page.type('input[aria-label="key to write"]', 'kw');
    assert.equal(await page.inputValue('input[aria-label="key to write"]'), 'kw');
    assert.equal(await page.locator('g.node[data-status="killed"]').count(), killedBefore);
    assert.equal(await status(page, leader.id), 'running');
  }),
);

test('l continues a lesson to its next pause', { timeout: 120_000 }, () =>
  withApp('keys-lesson', async (app) => {
    const { page } = app;
    await openTab(page, 'scenario');
    await page.selectOption('select[aria-label="preset"]', { index: 1 });
    await page.click('button[aria-label="load preset"]');
    await page.waitForSelector('.script[data-next-line]');
    const line = await page.getAttribute('.script', 'data-next-line');
    await page.locator('body').focus();
    await page.keyboard.press('l');
    await page.waitForFunction((l) => document.querySelector('.script').dataset.nextLine !== l, line);
  }),
);

test('the help lists every shortcut and tooltips name the keys', { timeout: 60_000 }, () =>
  withApp('keys-help', async (app) => {
    const { page } = app;
    // Keys are bound once the app has mounted: wait for the drawing before pressing.
    await page.waitForSelector('g.node[data-node]');
    await page.keyboard.press('?');
    await page.waitForSelector('.overlay[role=dialog]');
    const listed = await page.$$eval('[data-shortcut]', (rows) => rows.map((r) => r.dataset.shortcut));
    for (const k of ['enter', 'n', 'w', 'k', 'i', 's', 'h', 'c', 'l', 'p', 'space']) {
      assert.ok(listed.includes(k), `help lists ${k}: ${listed}`);
    }
    await page.keyboard.press('Escape');
    assert.match(await page.getAttribute('[data-next-change]', 'title'), /\(key N\)/);
    await openTab(page, 'client');
    assert.match(await page.getAttribute('button[aria-label="propose write"]', 'title'), /\(key W\)/);
    await openTab(page, 'network');
    assert.match(await page.getAttribute('button:has-text("Heal all")', 'title'), /\(key H\)/);
  }),
);
