// Keyboard: Enter/space on a focused node selects it (space does not toggle play there);
// letters write, kill/restart, isolate, partition, heal, campaign, step to the next change and
// continue a lesson; the help lists every shortcut and the buttons' tooltips name their key;
// Space presses a focused button, the tab bar takes the arrows, focus follows a lesson's
// controls and stays above a phone's lesson bar.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withApp } from './harness.mjs';
import { waitStep } from './lessons.mjs';
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

    // Opened by its key with nothing focused: closed by Escape, focus goes back to nowhere
    // (the page), where Space plays again; on the help button, Space would open the help.
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press('?');
    await page.waitForFunction(() => document.activeElement?.matches('[data-help-close]'));
    await page.keyboard.press('Escape');
    await page.waitForSelector('.overlay[role=dialog]', { state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement === document.body), true, `focus went to ${JSON.stringify(await focused())}`);
    await page.keyboard.press(' ');
    await page.waitForSelector('.toolbar button[data-playing="true"]');
    assert.equal(await page.$('.overlay[role=dialog]'), null, 'Space opened the help again');
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
    // Tab out of them folds them: unfolded, they covered the control focused next.
    await page.keyboard.press('Enter');
    assert.equal(await open(), true);
    for (let i = 0; i < 40 && (await page.evaluate(() => document.activeElement?.closest('.toolbar details.options') != null)); i++) {
      await page.keyboard.press('Tab');
    }
    assert.equal(await page.evaluate(() => document.activeElement?.closest('.toolbar details.options') == null), true, 'Tab never left the options');
    assert.equal(await open(), false, 'Tab out of the options left them open over the page');
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

// A keyboard user's controls: Space presses the focused button (play/pause is Space elsewhere),
// Enter in a form's field sends the form, the tab bar is one stop that the arrows move in,
// an empty event list is no stop.
test('Space presses the focused button; the tab bar takes the arrows; Enter sends a field\'s form', { timeout: 90_000 }, () =>
  withApp('keys-controls', async (app) => {
    const { page } = app;
    await waitLeader(page);
    await pause(page);
    const now = () => page.getAttribute('[data-now]', 'data-now');
    const focused = () => page.evaluate(() => ({ tab: document.activeElement?.dataset.tab ?? null, label: document.activeElement?.getAttribute('aria-label') ?? null }));
    const selected = () => page.getAttribute('[role=tab][aria-selected="true"]', 'data-tab');
    const t0 = await now();

    // One stop: only the chosen tab is in the Tab order.
    assert.deepEqual(await page.$$eval('[role=tab]', (ts) => ts.map((t) => t.tabIndex).filter((i) => i === 0).length), 1);
    await page.locator('[role=tab][data-tab="node"]').focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('[role=tab][data-tab="network"][aria-selected="true"]');
    assert.equal((await focused()).tab, 'network', 'focus stays with the chosen tab');
    await page.keyboard.press('End');
    await page.waitForSelector('[role=tab][data-tab="explore"][aria-selected="true"]');
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('[role=tab][data-tab="node"][aria-selected="true"]');
    await page.keyboard.press('ArrowLeft');
    await page.waitForSelector('[role=tab][data-tab="explore"][aria-selected="true"]');
    await page.keyboard.press('Home');
    await page.waitForSelector('[role=tab][data-tab="node"][aria-selected="true"]');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await page.waitForSelector('[role=tab][data-tab="client"][aria-selected="true"]');
    assert.equal(await selected(), 'client');
    assert.equal(await now(), t0, 'an arrow on the tab bar stepped the run');

    // Space on the focused Propose button writes, keeps focus there and does not play.
    const before = await requests(page);
    const propose = page.locator('button[aria-label="propose write"]');
    await propose.focus();
    await page.keyboard.press(' ');
    await page.waitForFunction((n) => document.querySelectorAll('[data-request]').length > n, before);
    assert.equal(await playing(page), 'false', 'Space on a button played');
    assert.equal((await focused()).label, 'propose write', 'focus left the button');

    // Enter in the value field sends the write.
    const field = page.locator('input[aria-label="value to write"]');
    await field.focus();
    await field.fill('42');
    const before2 = await requests(page);
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => document.querySelectorAll('[data-request]').length > n, before2);
    assert.match(await page.textContent('[data-request]'), /42/);

    // Every event kind hidden: the empty list is not a Tab stop.
    await page.locator('button[title="hide all event kinds"]').click();
    assert.equal(await page.getAttribute('ol.event-list', 'tabindex'), null);
    await page.locator('button[title="show all event kinds"]').click();
    assert.equal(await page.getAttribute('ol.event-list', 'tabindex'), '0');

    // The help, opened from a node of the drawing, gives focus back to that node.
    await page.locator('g.node[data-node="n1"]').focus();
    await page.keyboard.press('?');
    await page.waitForSelector('[data-help-close]');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-help-close]', { state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-node') === 'n1');

    // Away from any control, Space still plays.
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press(' ');
    await page.waitForSelector('.toolbar button[data-playing="true"]');
  }),
);

const activeIs = (page, selector) => page.evaluate((s) => document.activeElement === document.querySelector(s), selector);

// When the control that had focus goes away because of what it did, focus goes where that
// led, not back to the top of the page.
test('focus follows the lesson: its go button, its end card, the next lesson', { timeout: 180_000 }, () =>
  withApp('keys-lesson-focus', async (app) => {
    const { page } = app;
    // The welcome's start button: the lesson replaces it.
    await page.waitForSelector('button.primary.big');
    await page.locator('button.primary.big').focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('.lesson-dock button.go');
    await page.waitForFunction(() => document.activeElement === document.querySelector('.lesson-dock button.go'));
    await page.locator('.lesson-speed button:last-of-type').click();
    // Continue by Enter to the end: the end card takes the focus of the Continue it replaced.
    const steps = Number(await page.getAttribute('[data-lesson-step]', 'data-lesson-steps'));
    for (let k = 1; k <= steps && !(await page.$('[data-lesson-end]')); k++) {
      await page.locator('.lesson-dock button.go').focus();
      await page.keyboard.press('Enter');
      await waitStep(page, k, 120_000);
    }
    if (!(await page.$('[data-lesson-end]'))) {
      await page.locator('.lesson-dock button.go').focus();
      await page.keyboard.press('Enter');
    }
    await page.waitForSelector('[data-lesson-end]');
    await page.waitForFunction(() => document.activeElement === document.querySelector('[data-lesson-end]'));
    // Tab goes on into the card: its next-lesson button, which opens lesson 2 with focus on
    // its start.
    await page.keyboard.press('Tab');
    assert.ok(await activeIs(page, '[data-lesson-end] button.primary'), 'Tab from the end card did not reach the next lesson');
    const title = await page.getAttribute('.lesson-title', 'title');
    await page.keyboard.press('Enter');
    await page.waitForFunction((t) => document.querySelector('.lesson-title')?.getAttribute('title') !== t, title);
    await page.waitForFunction(() => document.activeElement === document.querySelector('.lesson-dock button.go'));
  }),
);

// On a phone the lesson is a bar fixed at the bottom: a control that Tab reaches is scrolled
// to above it, never left under it.
test('on a phone, Tab brings each control above the lesson bar', { timeout: 90_000 }, () =>
  withApp('keys-phone-dock', async (app) => {
    const { page } = app;
    await page.waitForSelector('[data-lesson-step]');
    await page.locator('.toolbar button[data-playing]').focus();
    const hidden = [];
    for (let i = 0; i < 45; i++) {
      await page.keyboard.press('Tab');
      const r = await page.evaluate(() => {
        const a = document.activeElement;
        const dock = document.querySelector('.lesson-dock');
        if (!a || a === document.body || dock.contains(a)) return null;
        const b = a.getBoundingClientRect();
        return b.height > 0 && b.bottom > dock.getBoundingClientRect().top + 1 ? `${a.tagName} "${a.getAttribute('aria-label') ?? a.textContent.slice(0, 30)}" ends at ${Math.round(b.bottom)}, the bar starts at ${Math.round(dock.getBoundingClientRect().top)}` : null;
      });
      if (r) hidden.push(r);
    }
    assert.deepEqual(hidden, [], 'focused controls under the lesson bar');
  }, { path: '?preset=11-add-learner', viewport: { width: 390, height: 844 } }),
);

// On a phone the legend sits under the drawing; its ✕ must sit on it, where Tab's focus ring
// shows, not in the drawing's corner under the presenter-mode button.
test('on a phone, the legend\'s close button is on the legend', { timeout: 60_000 }, () =>
  withApp('keys-phone-legend', async (app) => {
    const { page } = app;
    await page.waitForSelector('.legend-box .legend-close');
    const [box, close] = await page.$$eval(['.legend-box', '.legend-box .legend-close'].join(','), (els) => els.map((e) => e.getBoundingClientRect().toJSON()));
    assert.ok(close.left >= box.left && close.right <= box.right + 1 && close.top >= box.top && close.bottom <= box.bottom + 1, `the ✕ at ${JSON.stringify(close)} is outside the legend ${JSON.stringify(box)}`);
  }, { path: '?paused=1', viewport: { width: 390, height: 844 } }),
);
