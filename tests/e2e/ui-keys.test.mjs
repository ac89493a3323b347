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

// The help is a modal dialog: opening it moves focus into it, Tab stays inside it, the page
// behind it takes no keys, and closing it gives focus back to where it was (the help button
// when it was opened by its key from nowhere). Focus stayed on the page and Tab walked the
// controls hidden behind it (52 Tabs to reach its close button).
test('the help dialog holds the focus while open and gives it back', { timeout: 60_000 }, () =>
  withApp('keys-help-focus', async (app) => {
    const { page } = app;
    await page.waitForSelector('g.node[data-node]');
    await pause(page);
    const focused = () => page.evaluate(() => {
      const a = document.activeElement;
      return { inDialog: !!a?.closest('.overlay[role=dialog]'), label: a?.getAttribute('aria-label') ?? a?.tagName };
    });
    const now = () => page.getAttribute('[data-now]', 'data-now');

    // Opened from the help button: focus goes in, stays in, and comes back to the button.
    await page.locator('[data-help-open]').focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('.overlay[role=dialog]');
    await page.waitForFunction(() => document.activeElement?.matches('[data-help-close]'));
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press(i % 2 ? 'Shift+Tab' : 'Tab');
      assert.ok((await focused()).inDialog, `Tab ${i + 1} left the dialog: ${JSON.stringify(await focused())}`);
    }
    // Keys meant for the page do nothing behind the dialog: a step, a shortcut letter.
    const before = await now();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('n');
    assert.equal(await now(), before, 'a key stepped the run behind the dialog');
    assert.ok(await page.isVisible('.overlay[role=dialog]'));
    await page.keyboard.press('Enter'); // on the close button
    await page.waitForSelector('.overlay[role=dialog]', { state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.matches('[data-help-open]'));

    // Opened by its key with nothing focused: closed by Escape, focus lands on the help button.
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press('?');
    await page.waitForFunction(() => document.activeElement?.matches('[data-help-close]'));
    await page.keyboard.press('Escape');
    await page.waitForSelector('.overlay[role=dialog]', { state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.matches('[data-help-open]'));
  }),
);

// The dialog lies over everything: on a phone the toolbar (two rows high there) covered its
// title and close button.
for (const viewport of [{ width: 390, height: 844 }, { width: 1024, height: 768 }]) {
  test(`${viewport.width}x${viewport.height}: nothing covers the help dialog's close button`, { timeout: 60_000 }, () =>
    withApp(
      `help-on-top-${viewport.width}`,
      async (app) => {
        const { page } = app;
        await page.waitForSelector('g.node[data-node]');
        await page.keyboard.press('?');
        await page.waitForSelector('.overlay[role=dialog]');
        const top = await page.$eval('.overlay [aria-label]', (b) => {
          const r = b.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return { ok: hit === b || b.contains(hit), hit: hit?.outerHTML.slice(0, 80) };
        });
        assert.ok(top.ok, `the close button is under ${top.hit}`);
        await app.screenshot(`help-on-top-${viewport.width}`);
      },
      { viewport },
    ),
  );
}

// Escape folds the cluster options, a drop-down over the page, from inside them too (they
// stayed open).
test('Escape folds the cluster options and leaves focus on them', { timeout: 60_000 }, () =>
  withApp('keys-options-escape', async (app) => {
    const { page } = app;
    await page.waitForSelector('g.node[data-node]');
    const open = () => page.$eval('.toolbar details.options', (d) => d.open);
    const summary = page.locator('.toolbar details.options > summary');
    await summary.focus();
    await page.keyboard.press('Enter');
    assert.equal(await open(), true);
    await page.keyboard.press('Escape');
    assert.equal(await open(), false, 'Escape on the summary left them open');
    await page.keyboard.press('Enter');
    await page.locator('.toolbar details.options input.seed').focus();
    await page.keyboard.press('Escape');
    assert.equal(await open(), false, 'Escape in the seed field left them open');
    assert.ok(await page.evaluate(() => document.activeElement?.matches('.toolbar details.options > summary')));
  }),
);

// A form's checkboxes and radio buttons keep their own keys: Space ticks a checkbox and the
// arrows choose in a radio group. The app's shortcuts took them (Space played or paused,
// the arrows stepped a tick), so a keyboard could not add a learner or a misconfigured
// member. Space and the arrows elsewhere still play and step.
test('Space and the arrows work the membership form\'s radio buttons and checkboxes', { timeout: 60_000 }, () =>
  withApp('keys-form-controls', async (app) => {
    const { page } = app;
    await page.waitForSelector('g.node[data-node]');
    await pause(page);
    const now = () => page.getAttribute('[data-now]', 'data-now');
    await openTab(page, 'membership');
    const voter = page.locator('input[aria-label="as voter"]');
    const learner = page.locator('input[aria-label="as learner"]');
    const misconfigured = page.locator('input[type=checkbox][aria-label="misconfigured peer URL"]');
    const t0 = await now();
    await voter.focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('input[aria-label="as learner"]').checked);
    assert.equal(await voter.isChecked(), false);
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => document.querySelector('input[aria-label="as voter"]').checked);
    await misconfigured.focus();
    await page.keyboard.press(' ');
    await page.waitForFunction(() => document.querySelector('input[type=checkbox][aria-label="misconfigured peer URL"]').checked);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'misconfigured peer URL', 'focus stays on the checkbox');
    assert.equal(await playing(page), 'false', 'Space on the checkbox played');
    assert.equal(await now(), t0, 'an arrow on the radio buttons stepped the run');
    // Ticked as a learner through the keyboard, then added with Enter on the button.
    await page.keyboard.press(' ');
    await learner.focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('input[aria-label="as voter"]').checked);
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => document.querySelector('input[aria-label="as learner"]').checked);
    assert.match(await page.textContent('[data-etcdctl-preview]'), /--learner/);
    // The start checkbox's tooltip is its own, not the misconfigured one's.
    const startTip = await page.getAttribute('label.check:has(input[aria-label="start its process now"])', 'title');
    assert.match(startTip, /process/);
    assert.doesNotMatch(startTip, /wrong peer URL can never be reached/);
    // Away from the form, Space still plays and an arrow still steps.
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((t) => document.querySelector('[data-now]').dataset.now !== t, t0);
    await page.keyboard.press(' ');
    await page.waitForFunction(() => document.querySelector('.toolbar button[data-playing]').dataset.playing === 'true');
  }),
);
