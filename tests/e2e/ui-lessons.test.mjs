// Issue 9: lessons that animate, a layout that fits a projector and a phone, logs that keep
// their tail in view, embeds that play lessons. Every wait polls the page; nothing sleeps.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withApp } from './harness.mjs';
import { lessonState, pageScroll, visibility, waitStep } from './lessons.mjs';
import { playLesson } from './first-visit.mjs';
import { openTab, showScript, simNow, fingerprintOf } from './raftlab.mjs';

const CONTINUE = 'button[aria-label="continue the scenario"], button[aria-label="start the lesson"]';
const RUN_NOW = 'button[aria-label="run to next pause"]';

test('a lesson stretch plays over many animation frames, with messages in flight, then pauses', { timeout: 120_000 }, () =>
  withApp(
    'lesson-animates',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-lesson-step="0"]');
      assert.equal(await page.getAttribute('.toolbar button[data-playing]', 'data-playing'), 'false');
      await page.click(CONTINUE);
      await waitStep(page, 1);
      const t1 = await simNow(page);
      // Record the simulated clock and the messages drawn at every animation frame until
      // the lesson pauses on its next narration.
      const trace = page.evaluate(
        () =>
          new Promise((resolve) => {
            const frames = [];
            const tick = () => {
              const now = Number(document.querySelector('[data-now]').dataset.now);
              const msgs = [...document.querySelectorAll('.msgs .msg[data-msg-id]')].map((m) => m.dataset.msgType);
              const dock = document.querySelector('[data-lesson-step]');
              frames.push({ now, msgs });
              if ((dock.dataset.lessonStep === '2' && dock.dataset.lessonPlaying === 'false') || frames.length > 20000) {
                resolve(frames);
              } else {
                requestAnimationFrame(tick);
              }
            };
            requestAnimationFrame(tick);
          }),
      );
      await page.click(CONTINUE);
      const frames = await trace;
      const times = [...new Set(frames.map((f) => f.now))];
      const t2 = frames[frames.length - 1].now;
      assert.ok(t2 > t1 + 500, `the election stretch took simulated time (${t1} → ${t2})`);
      assert.ok(times.length >= 40, `simulated time advanced over ${times.length} distinct frames, not in one jump`);
      const jumps = times.slice(1).map((t, i) => t - times[i]);
      assert.ok(Math.max(...jumps) <= 250, `largest step between frames ${Math.max(...jumps)} ms`);
      const voteFrames = frames.filter((f) => f.msgs.some((m) => /vote/.test(m))).length;
      assert.ok(voteFrames >= 20, `(pre-)vote messages were drawn in ${voteFrames} frames`);
      const s = await lessonState(page);
      assert.equal(s.step, 2);
      assert.match(s.narration, /A leader was elected/);
      await page.waitForSelector('g.node[data-role="leader"]');
      await app.screenshot('lesson-01-step2');
    },
    { path: '?preset=01-election', viewport: { width: 1280, height: 720 } },
  ),
);

test('lesson: back, replay this step, the toolbar play continues the lesson, end card', { timeout: 180_000 }, () =>
  withApp(
    'lesson-back-replay',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-lesson-step="0"]');
      // Fast lesson speed; the toolbar's play button plays the lesson.
      await page.click('button[aria-label$="(lesson speed 4 times the teaching pace)"]');
      await page.click('.toolbar button[data-playing]');
      await waitStep(page, 1);
      await page.click('.toolbar button[data-playing]');
      await waitStep(page, 2);
      const at2 = { now: await simNow(page), fp: await fingerprintOf(page) };
      // Replay: the stretch from narration 1 to narration 2 plays again and ends in the same state.
      await page.click('button[aria-label="replay this step"]');
      await page.waitForSelector('[data-lesson-step="1"][data-lesson-playing="true"]');
      await waitStep(page, 2);
      assert.deepEqual(
        { now: await simNow(page), fp: await fingerprintOf(page) },
        at2,
        'the replayed step ends in the same state',
      );
      // Back: narration 1 again, at its moment.
      await page.click('button[aria-label="back to the previous step"]');
      await waitStep(page, 1);
      assert.ok((await simNow(page)) < at2.now, 'back went back in time');
      assert.match((await lessonState(page)).narration, /Three followers/);
      await page.click(CONTINUE);
      await waitStep(page, 2);
      for (let k = 3; k <= 4; k++) {
        await page.click(CONTINUE);
        await waitStep(page, k);
      }
      await page.click(CONTINUE);
      await page.waitForSelector('[data-lesson-end]');
      assert.match(await page.textContent('[data-lesson-end]'), /Remember:/);
      await showScript(page);
      assert.equal(await page.locator('[data-expect="fail"]').count(), 0);
      await app.screenshot('lesson-01-end-card');
      await page.click('button[title="next lesson"]');
      await page.waitForSelector('[data-lesson-step="0"]');
      assert.match(await page.textContent('.lesson-title'), /Leader killed/);
    },
    { path: '?preset=01-election' },
  ),
);

/**
 * Scrolled to the page's end: where its content ends (the root's bottom less the room kept
 * for the bar) and where the fixed lesson bar starts, px.
 */
function pageEndBesideDock(page) {
  return page.evaluate(() => {
    window.scrollTo(0, document.documentElement.scrollHeight);
    const root = document.querySelector('.app');
    const end = root.getBoundingClientRect().bottom - parseFloat(getComputedStyle(root).paddingBottom);
    const dock = document.querySelector('.lesson-dock').getBoundingClientRect();
    return { end: Math.round(end), dockTop: Math.round(dock.top), dockHeight: Math.round(dock.height) };
  });
}

/**
 * On a phone the lesson bar is fixed to the bottom: asserts that, without scrolling, every log
 * row is in view above it. Returns what was measured.
 */
async function assertLogRowsAboveDock(page, label) {
  const r = await page.evaluate(() => {
    const dock = document.querySelector('.lesson-dock').getBoundingClientRect();
    const rows = [...document.querySelectorAll('.log-row')].map((e) => e.getBoundingClientRect());
    return { scrollY, dockTop: Math.round(dock.top), rows: rows.map((x) => [Math.round(x.top), Math.round(x.bottom)]) };
  });
  assert.equal(r.scrollY, 0, label);
  for (const [top, bottom] of r.rows) {
    assert.ok(top >= 0 && bottom <= r.dockTop, `${label}: a log row at ${top}..${bottom}px, the lesson bar from ${r.dockTop}px: ${JSON.stringify(r)}`);
  }
  return r;
}

/** Every node, the narration, and what the narration names (nodes, an index, a key=value). */
async function assertNarratedSceneVisible(page, label) {
  const text = (await lessonState(page)).narration;
  const scroll = await pageScroll(page);
  assert.equal(scroll.scrollY, 0, `${label}: the page scrolled`);
  assert.ok(scroll.scrollHeight <= scroll.innerHeight + 1, `${label}: page taller than the window (${scroll.scrollHeight})`);
  const nodes = await page.$$eval('g.node[data-node]', (els) => els.map((e) => e.dataset.node));
  const sels = ['[data-narration] p', ...nodes.map((n) => `g.node[data-node="${n}"]`), ...nodes.map((n) => `[data-log-node="${n}"]`)];
  for (const idx of text.matchAll(/index (\d+)/g)) {
    const named = [...text.matchAll(/\b(n\d+)\b/g)].map((m) => m[1]).filter((n) => nodes.includes(n));
    for (const n of named.length ? named : nodes) {
      const sel = `[data-log-node="${n}"] [data-index="${idx[1]}"]`;
      if (await page.locator(sel).count()) sels.push(sel);
    }
  }
  for (const kv of text.matchAll(/\b([a-z]+=\d+)\b/g)) {
    const sel = `[data-label="${kv[1]}"]`;
    if (await page.locator(sel).count()) sels.push(sel);
  }
  const vis = await visibility(page, sels);
  const hidden = Object.entries(vis).filter(([, v]) => !v.visible);
  assert.deepEqual(hidden, [], `${label}: not wholly visible at "${text.slice(0, 60)}…"`);
}

for (const [w, h] of [
  [1024, 768],
  [1280, 720],
]) {
  test(`at ${w}x${h} each narration of presets 01, 04, 08 shows the whole cluster and what it names`, { timeout: 240_000 }, async () => {
    for (const id of ['01-election', '04-leader-isolated', '08-add-to-single-node']) {
      await withApp(
        `fit-${id}-${w}x${h}`,
        async (app) => {
          const { page } = app;
          await page.waitForSelector('[data-lesson-step="0"]');
          const steps = (await lessonState(page)).steps;
          for (let k = 1; k <= steps; k++) {
            await page.click(RUN_NOW);
            await page.waitForSelector(`[data-lesson-step="${k}"]`);
            await assertNarratedSceneVisible(page, `${id} step ${k} at ${w}x${h}`);
            if (k === 2) await app.screenshot(`fit-${id}-${w}x${h}`);
          }
        },
        { path: `?preset=${id}`, viewport: { width: w, height: h } },
      );
    }
  });
}

async function writesThenCheckTail(page, n, label) {
  const lines = ['cluster 3 seed=1', 'await leader != none within 40'];
  for (let i = 1; i <= n; i++) lines.push(`propose k${i}=${i}`);
  lines.push('tick 40');
  await openTab(page, 'scenario');
  // With a scenario loaded, the loaders fold away under "Open a scenario".
  if (!(await page.isVisible('textarea[aria-label="scenario text"]'))) {
    await page.click('summary:has-text("Open a scenario")');
  }
  // Typed in one go (as a paste would): set the value and fire one input event.
  await page.$eval(
    'textarea[aria-label="scenario text"]',
    (el, text) => {
      el.value = text;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    },
    lines.join('\n'),
  );
  await page.click('button[aria-label="load pasted scenario"]');
  await page.click('button[aria-label="run all lines"]');
  await page.waitForSelector('[data-scenario][data-done="true"]', { timeout: 60_000 });
  const last = Math.max(...(await page.$$eval('g.node[data-last-index]', (els) => els.map((e) => Number(e.dataset.lastIndex)))));
  assert.equal(last, n + 1, `${label}: the leader's empty entry plus ${n} writes`);
  for (const node of ['n1', 'n2', 'n3']) {
    const sel = `[data-log-node="${node}"] [data-index="${last}"]`;
    const vis = await visibility(page, [sel]);
    assert.ok(vis[sel].visible, `${label}: ${node}'s newest entry ${last} is not wholly visible: ${JSON.stringify(vis[sel])}`);
    assert.equal(await page.getAttribute(sel, 'data-committed'), 'true');
  }
  // The ruler's number for the newest index sits over that index's boxes.
  const aligned = await page.evaluate((last) => {
    const tick = [...document.querySelectorAll('.ruler .tick')].find((t) => t.textContent.trim() === String(last));
    const box = document.querySelector(`[data-log-node="n1"] [data-index="${last}"]`);
    if (!tick || !box) return null;
    const a = tick.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    return Math.abs(a.left + a.width / 2 - (b.left + b.width / 2));
  }, last);
  assert.ok(aligned !== null && aligned < 3, `${label}: ruler off its boxes by ${aligned}px`);
}

test('the newest log entry stays visible after 60 and after 1,000 writes', { timeout: 180_000 }, () =>
  withApp(
    'log-tail',
    async (app) => {
      const { page } = app;
      await writesThenCheckTail(page, 60, '60 writes');
      await app.screenshot('log-tail-60');
      await writesThenCheckTail(page, 1000, '1000 writes');
      // Scrolling back on demand: "earlier" draws older columns.
      const earlier = page.locator('button[aria-label="show earlier log entries"]');
      assert.equal(await earlier.count(), 1);
      await app.screenshot('log-tail-1000');
    },
    { viewport: { width: 1280, height: 720 } },
  ),
);

test('at 390x844 no control extends past the screen; the lesson bar stays at the bottom', { timeout: 120_000 }, () =>
  withApp(
    'phone',
    async (app) => {
      const { page } = app;
      const check = async (label) => {
        const bad = await page.evaluate(() => {
          const out = [];
          for (const el of document.querySelectorAll('button, select, input, textarea, summary, a, [role="button"]')) {
            if (el.closest('.log-scroll')) continue; // scrolls sideways by design
            const r = el.getBoundingClientRect();
            if (r.width === 0 || r.height === 0) continue;
            if (r.left < -0.5 || r.right > innerWidth + 0.5) out.push(`${el.tagName} "${(el.getAttribute('aria-label') || el.textContent).trim().slice(0, 30)}" ${Math.round(r.left)}..${Math.round(r.right)}`);
          }
          return out;
        });
        assert.deepEqual(bad, [], `${label}: controls cut off`);
        const s = await pageScroll(page);
        assert.ok(s.scrollWidth <= s.innerWidth, `${label}: the page scrolls sideways (${s.scrollWidth})`);
      };
      await page.waitForSelector('[data-lesson-step="0"]');
      await check('lesson start');
      await page.click(CONTINUE);
      await waitStep(page, 1);
      const vis = await visibility(page, ['[data-narration] p', CONTINUE, 'svg.cluster']);
      assert.ok(vis['[data-narration] p'].visible && vis[CONTINUE].visible, `narration and Continue in view: ${JSON.stringify(vis)}`);
      assert.ok(vis['svg.cluster'].rect[1] < 200, 'the drawing comes first');
      await check('lesson step 1');
      await app.screenshot('phone-lesson-390x844');
      await page.click('button[aria-label="keep playing freely"]').catch(() => {});
    },
    { path: '?preset=01-election', viewport: { width: 390, height: 844 } },
  ),
);

// Lesson 01's third step speaks of the logs ("the entry stays dashed until a majority holds
// it"): on a phone, without scrolling, every node's log row must be on screen above the
// lesson bar, or the student reads about a picture they cannot see.
test('at 390x844 the step about the log shows every log row above the lesson bar', { timeout: 120_000 }, () =>
  withApp(
    'phone-lesson-logs',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-lesson-step="0"]');
      for (let k = 1; k <= 3; k++) {
        await page.click(CONTINUE);
        await waitStep(page, k);
      }
      const r = await assertLogRowsAboveDock(page, 'lesson 01');
      assert.equal(r.rows.length, 3, JSON.stringify(r));
      await app.screenshot('phone-lesson-logs-390x844');
    },
    { path: '?preset=01-election', viewport: { width: 390, height: 844 } },
  ),
);

// Lesson 17 has five nodes, a joint-configuration quorum line of three lines and a
// narration of five: at every step, without scrolling, every log row must be above the bar
// (the narration scrolls inside a capped height; the logs come right after the drawing).
test('at 390x844 every step of lesson 17 (five nodes) shows every log row above the lesson bar', { timeout: 120_000 }, () =>
  withApp(
    'phone-lesson-17-logs',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-lesson-step="0"]');
      const steps = Number(await page.getAttribute('[data-lesson-steps]', 'data-lesson-steps'));
      assert.ok(steps >= 5, `lesson 17 has ${steps} steps`);
      for (let k = 0; k <= steps; k++) {
        if (k > 0) {
          await page.click(CONTINUE);
          await waitStep(page, k);
        }
        const r = await assertLogRowsAboveDock(page, `step ${k}`);
        assert.ok(r.rows.length >= 3, JSON.stringify(r));
        if (k === 2) await app.screenshot('phone-lesson-17-logs-390x844');
      }
    },
    { path: '?preset=17-joint-consensus', viewport: { width: 390, height: 844 } },
  ),
);

// The phone's lesson bar is fixed to the bottom and grows with the step's narration: scrolled
// to the end, the page's last content (the event log) must sit above it, never under it.
test('at 390x844 the lesson bar never covers the end of the page', { timeout: 90_000 }, () =>
  withApp(
    'phone-lesson-end',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-lesson-step="0"]');
      for (let k = 0; k < 3; k++) {
        const r = await pageEndBesideDock(page);
        assert.ok(r.end <= r.dockTop, `step ${k}: the page's content ends at ${r.end}px, under the lesson bar from ${r.dockTop}px (${r.dockHeight}px tall)`);
        await page.click(CONTINUE);
        await waitStep(page, k + 1);
      }
    },
    { path: '?preset=07-partition-then-add', viewport: { width: 390, height: 844 } },
  ),
);

// A finished lesson's bar holds the last narration and the end card, taller than a step's
// bar: scrolled to the end, the page's last content must still sit above it.
test('at 390x844 a finished lesson\'s end card never covers the end of the page', { timeout: 120_000 }, () =>
  withApp(
    'phone-lesson-done-end',
    async (app) => {
      const { page } = app;
      await playLesson(page);
      const r = await pageEndBesideDock(page);
      assert.ok(r.end <= r.dockTop, `the page's content ends at ${r.end}px, under the finished lesson's bar from ${r.dockTop}px (${r.dockHeight}px tall)`);
      await app.screenshot('phone-lesson-done-end-390x844');
    },
    { path: '?preset=01-election', viewport: { width: 390, height: 844 } },
  ),
);

test('at 390x844 free play: no control cut off', { timeout: 60_000 }, () =>
  withApp(
    'phone-free',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('g.node');
      // Controls on screen only: a closed <details> still lays out what it hides (Chromium
      // gives its content boxes), which no one can see or reach, so checkVisibility() decides.
      const cutOff = () =>
        page.evaluate(() =>
          [...document.querySelectorAll('button, select, input, textarea, summary, a, [role="button"]')]
            .filter((el) => !el.closest('.log-scroll') && el.checkVisibility())
            .map((el) => [el, el.getBoundingClientRect()])
            .filter(([, r]) => r.width > 0 && (r.left < -0.5 || r.right > innerWidth + 0.5))
            .map(([el, r]) => `${(el.getAttribute('aria-label') || el.textContent).trim().slice(0, 30)} ${Math.round(r.left)}..${Math.round(r.right)}`),
        );
      assert.deepEqual(await cutOff(), []);
      // The folded cluster options (nodes, seed, the dice, Reset, the switches), open.
      await page.click('summary[aria-label="cluster options"]');
      await page.waitForSelector('button[aria-label="reset the cluster"]', { state: 'visible' });
      assert.deepEqual(await cutOff(), []);
      await page.click('summary[aria-label="cluster options"]');
      // Each node's two captions (name and role; whom it voted for) are enlarged on a phone:
      // they must not run into each other. Text boxes include the font's ascent and descent,
      // so boxes that touch (within 2px) read as two clear lines.
      const captions = await page.evaluate(() =>
        [...document.querySelectorAll('g.node')].map((g) => [
          g.querySelector('text.nid').getBoundingClientRect().bottom,
          g.querySelector('text.nvote').getBoundingClientRect().top,
        ]),
      );
      for (const [nameBottom, voteTop] of captions) {
        assert.ok(nameBottom <= voteTop + 2, `a node's vote line (top ${voteTop}) runs into its name (bottom ${nameBottom})`);
      }
      await app.screenshot('phone-free-390x844');
    },
    { viewport: { width: 390, height: 844 } },
  ),
);

test('an embed plays the lesson: narration and Continue, the drawing fills the frame', { timeout: 60_000 }, () =>
  withApp(
    'embed-lesson',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('.app.embed [data-lesson-step="0"]');
      await page.click(CONTINUE);
      await waitStep(page, 1);
      const vis = await visibility(page, ['[data-narration] p', CONTINUE, 'svg.cluster']);
      assert.ok(vis['[data-narration] p'].visible, 'narration shown');
      assert.ok(vis[CONTINUE].visible, 'Continue shown');
      const box = await page.$eval('.cluster-wrap', (e) => e.getBoundingClientRect().height);
      assert.ok(box > 0.4 * 500, `the drawing is ${box}px of a 500px frame`);
      const s = await pageScroll(page);
      assert.ok(s.scrollHeight <= s.innerHeight + 1, 'the embed fits its frame');
      await app.screenshot('embed-lesson');
    },
    { path: '?embed=1&preset=01-election', viewport: { width: 800, height: 500 } },
  ),
);

test('presenter mode (key p): only the picture, the narration, the step controls and the progress table', { timeout: 60_000 }, () =>
  withApp(
    'presenter',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-lesson-step="0"]');
      await page.click(RUN_NOW);
      await waitStep(page, 1);
      await page.keyboard.press('p');
      await page.waitForSelector('.app.presenter');
      assert.equal(await page.locator('.toolbar').count(), 0);
      assert.equal(await page.locator('.tabs').count(), 0);
      assert.equal(await page.locator('.events').count(), 0);
      await assertNarratedSceneVisible(page, 'presenter');
      await app.screenshot('presenter-1024x768');
      await page.keyboard.press('Escape');
      await page.waitForSelector('.toolbar');
    },
    { path: '?preset=01-election', viewport: { width: 1024, height: 768 } },
  ),
);

// Lesson 13's second narration sends the class to "the request line under the drawing" for
// etcd's refusal, and its third to watch that line commit: presenter mode, which drops the
// controls and the last action, must keep that line in view.
for (const viewport of [{ width: 1280, height: 720 }, { width: 1024, height: 768 }]) {
  test(`presenter mode at ${viewport.width}x${viewport.height} shows the request line a lesson points at`, { timeout: 90_000 }, () =>
    withApp(
      `presenter-request-${viewport.width}`,
      async (app) => {
        const { page } = app;
        await page.waitForSelector('.app.presenter [data-lesson-step="0"]');
        assert.equal(await page.locator('[data-latest-request]').count(), 0, 'a request line before any request');
        for (let k = 1; k <= 2; k++) {
          await page.click(CONTINUE);
          await waitStep(page, k);
        }
        assert.match((await lessonState(page)).narration, /request line under the drawing/);
        const line = '[data-latest-request] [data-etcd-error]';
        const seen = await visibility(page, ['[data-narration]', line, 'g.node[data-node="n4"]', '[data-log-node="n2"]']);
        for (const [sel, r] of Object.entries(seen)) assert.ok(r.visible, `${sel} is not in view: ${JSON.stringify(r)}`);
        assert.equal(await page.textContent(line), 'etcdserver: can only promote a learner member which is in sync with leader');
        assert.match(await page.textContent('[data-latest-request] .req-what'), /promote n4/);
        const scroll = await pageScroll(page);
        assert.ok(scroll.scrollHeight <= scroll.innerHeight + 1, `the page is taller than the window: ${JSON.stringify(scroll)}`);
        await app.screenshot(`presenter-request-${viewport.width}`);
      },
      { path: '?preset=13-promotion-refused&present=1', viewport },
    ),
  );
}

// Lesson 12's first narration is about the leader's record of the learner's match index and
// its catch-up: the progress table must be on screen with it. Below the tabs its catch-up row
// was under the side column's fold at 1280x720 and 1024x768, and presenter mode had no table.
for (const viewport of [{ width: 1024, height: 768 }, { width: 1280, height: 720 }]) {
  test(`${viewport.width}x${viewport.height}: a lesson's narration about the leader's progress has the table in view, also in presenter mode`, { timeout: 90_000 }, () =>
    withApp(
      `lesson-progress-${viewport.width}`,
      async (app) => {
        const { page } = app;
        await page.waitForSelector('[data-lesson-step="0"]');
        await page.click(RUN_NOW);
        await waitStep(page, 1);
        assert.match((await lessonState(page)).narration, /match index/);
        const rows = ['[data-narration]', '[data-progress-node="n4"]', '[data-progress-catchup="n4"] [data-ready="true"]'];
        for (const mode of ['controls', 'presenter']) {
          if (mode === 'presenter') {
            await page.keyboard.press('p');
            await page.waitForSelector('.app.presenter');
          }
          const seen = await visibility(page, rows);
          for (const sel of rows) assert.ok(seen[sel].visible, `${mode}: ${sel} is not in view: ${JSON.stringify(seen[sel])}`);
          const fit = await page.$eval('.progress .table-wrap', (w) => ({ scroll: w.scrollWidth, client: w.clientWidth }));
          assert.ok(fit.scroll <= fit.client, `${mode}: the table is ${fit.scroll} px wide in ${fit.client} px`);
          await app.screenshot(`lesson-progress-${mode}-${viewport.width}`);
        }
      },
      { path: '?preset=12-promote-learner', viewport },
    ),
  );
}

// Presenter mode on a 1280x720 projector: the side column (narration, end card, the leader's
// progress table) fits without scrolling, as a projector shows no scrollbar. At 19 px the
// narration pushed the table 111 px past the bottom at lesson 07's second step and 116 px at
// lesson 04's end.
for (const [preset, at] of [['07-partition-then-add', 2], ['04-leader-isolated', 'end']]) {
  test(`presenter mode at 1280x720: lesson ${preset.slice(0, 2)}'s side column fits at ${at === 'end' ? 'the end' : `step ${at}`}`, { timeout: 180_000 }, () =>
    withApp(
      `presenter-fits-${preset.slice(0, 2)}`,
      async (app) => {
        const { page } = app;
        if (at === 'end') await playLesson(page);
        else {
          await page.click('.lesson-speed button:last-of-type');
          for (let k = 1; k <= at; k++) {
            await page.click(CONTINUE);
            await waitStep(page, k, 120_000);
          }
        }
        const side = await page.$eval('.side', (s) => ({ scroll: s.scrollHeight, client: s.clientHeight }));
        assert.ok(side.scroll <= side.client, `the side column holds ${side.scroll} px in ${side.client} px`);
        assert.ok((await visibility(page, ['.progress tr:last-child']))['.progress tr:last-child'].visible, 'the table\'s last row is not in view');
        await app.screenshot(`presenter-fits-${preset.slice(0, 2)}`);
      },
      { path: `?preset=${preset}&present=1`, viewport: { width: 1280, height: 720 } },
    ),
  );
}

test('the first visit offers lesson 1 and the grouped lesson list beside a live cluster', { timeout: 60_000 }, () =>
  withApp(
    'welcome',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-welcome]');
      await page.waitForSelector('g.node');
      await page.click('[data-welcome] summary');
      const groups = await page.$$eval('[data-welcome] .lesson-group h3', (els) => els.map((e) => e.textContent));
      assert.deepEqual(groups, ['basics', 'failures', 'membership & learners', 'etcd internals']);
      await app.screenshot('welcome-1280x720');
      // No scroll creep: tabbing through the controls and acting never scrolls the page.
      for (let i = 0; i < 25; i++) await page.keyboard.press('Tab');
      await page.click('[data-tab="network"]');
      await page.click('[data-tab="node"]');
      assert.equal((await pageScroll(page)).scrollY, 0, 'the page scrolled by itself');
      await page.click('button:has-text("Start lesson 1")');
      await page.waitForSelector('[data-lesson-step="0"]');
      assert.equal(await page.locator('[data-welcome]').count(), 0);
    },
    { viewport: { width: 1280, height: 720 } },
  ),
);

test('a lesson whose text cannot be fetched says why, and the app goes on working', { timeout: 60_000 }, () =>
  withApp(
    'lesson-fetch-fails',
    async (app) => {
      const { page } = app;
      // The browser build fetches a lesson's text when it starts (src/ui/preset_fetch.rs).
      await page.route('**/presets/02-leader-killed.scn', (r) => r.abort('failed'));
      await page.route('**/presets/03-follower-isolated.scn', (r) =>
        r.fulfill({ status: 200, contentType: 'text/plain', body: '# title: another version\ncluster 3\n' }),
      );
      await page.waitForSelector('[data-welcome]');
      await page.waitForSelector('g.node');
      await page.click('[data-welcome] summary');
      const notice = (re) =>
        page.waitForFunction((src) => new RegExp(src).test(document.querySelector('[data-notice]')?.textContent || ''), re.source);
      await page.click('[data-welcome] [data-lesson="02-leader-killed"]');
      await notice(/Lesson 02-leader-killed could not be opened: its text could not be fetched \(.+\)\. Everything else still works/);
      await app.screenshot('lesson-fetch-failed');
      await page.click('[data-welcome] [data-lesson="03-follower-isolated"]');
      await notice(/Lesson 03-follower-isolated could not be opened: the server has its text from another version/);
      assert.equal(await page.locator('[data-lesson-step]').count(), 0, 'a lesson opened without its text');
      // The free cluster still runs, and another lesson opens.
      const t = await simNow(page);
      await page.waitForFunction((t0) => Number(document.querySelector('[data-now]').dataset.now) > t0, t);
      await page.click('button:has-text("Start lesson 1")');
      await page.waitForSelector('[data-lesson-step="0"]');
      assert.ok((await lessonState(page)).steps > 3, 'lesson 1 has its narrations');
    },
    // The aborted request is logged by Chromium as a console error, on purpose.
    { viewport: { width: 1280, height: 720 }, console: false },
  ),
);

test('a returning visitor keeps the theme they chose and is not welcomed again once they closed the card', { timeout: 60_000 }, () =>
  withApp(
    'remembered-prefs',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-welcome]');
      await page.waitForSelector('g.node');
      // The theme button cycles system → dark; the choice outlives a reload.
      await page.click('button[aria-label="theme: system"]');
      await page.waitForSelector('.app.theme-dark');
      await page.click('[data-welcome] button[aria-label="close the welcome card"]');
      await page.waitForSelector('[data-welcome]', { state: 'detached' });
      await page.reload();
      await page.waitForSelector('g.node');
      await page.waitForSelector('.app.theme-dark');
      assert.equal(await page.locator('[data-welcome]').count(), 0, 'the closed welcome card came back');
      // An address that names a theme still wins for that load.
      await page.goto(new URL('?theme=light', page.url()).href);
      await page.waitForSelector('g.node');
      await page.waitForSelector('.app.theme-light');
    },
    { viewport: { width: 1280, height: 720 } },
  ),
);

test('with no leader, the quorum line names a voter that is still cut off, and says "no leader" once', { timeout: 120_000 }, () =>
  withApp(
    'lesson-07-no-leader-line',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-lesson-step="0"]');
      for (let k = 1; k <= 4; k++) {
        await page.click(RUN_NOW);
        await page.waitForSelector(`[data-lesson-step="${k}"]`);
      }
      // Step 4 of lesson 07: n2 stepped down, n1 is still partitioned from n2 and n3, n4 never ran.
      await page.waitForSelector('.quorum[data-has-quorum="false"]');
      const line = await page.textContent('.quorum');
      assert.match(line, /n1 cut off/, line);
      assert.match(line, /n4 not started/, line);
      assert.equal(line.match(/no leader/g)?.length, 1, line);
      await app.screenshot('lesson-07-no-leader-line');
    },
    { path: '?preset=07-partition-then-add', viewport: { width: 1024, height: 768 } },
  ),
);

// Lesson 25's next lesson has a long title: at 1280x720 its button ran ~150 px past the end
// card's right edge, off the panel. Every button of the card must lie inside the card.
test('lesson: a long next-lesson title stays inside the end card (lesson 25, 1280x720)', { timeout: 180_000 }, () =>
  withApp(
    'lesson-end-card-fit',
    async (app) => {
      const { page } = app;
      await playLesson(page);
      const fit = await page.evaluate(() => {
        const card = document.querySelector('[data-lesson-end]').getBoundingClientRect();
        return {
          card: [Math.round(card.left), Math.round(card.right)],
          buttons: [...document.querySelectorAll('[data-lesson-end] button')].map((b) => {
            const r = b.getBoundingClientRect();
            return { text: b.textContent.trim(), left: Math.round(r.left), right: Math.round(r.right) };
          }),
        };
      });
      assert.match(fit.buttons[0].text, /^Next: Explore: a disruptive rejoin/);
      for (const b of fit.buttons) {
        assert.ok(b.left >= fit.card[0] && b.right <= fit.card[1], `"${b.text}" at ${b.left}..${b.right}px, the card ${fit.card[0]}..${fit.card[1]}px`);
      }
      await app.screenshot('lesson-25-end-card');
    },
    { path: '?preset=25-explore-figure-8-unsafe', viewport: { width: 1280, height: 720 } },
  ),
);

test('at 390x844 a finished lesson shows its last narration whole above the end card', { timeout: 120_000 }, () =>
  withApp(
    'phone-end-card',
    async (app) => {
      const { page } = app;
      await playLesson(page);
      const r = await page.evaluate(() => {
        const box = (sel) => document.querySelector(sel).getBoundingClientRect();
        const say = document.querySelector('.lesson-dock .narration');
        const dock = document.querySelector('.lesson-dock');
        const next = box('[data-lesson-end] button');
        return {
          say: { shown: say.clientHeight, needs: say.scrollHeight, top: Math.round(say.getBoundingClientRect().top) },
          dock: { top: Math.round(dock.getBoundingClientRect().top), shown: dock.clientHeight, needs: dock.scrollHeight },
          next: Math.round(next.bottom),
          screen: innerHeight,
        };
      });
      // Lesson 1's last narration is four lines here: all of it is shown, not a line and a
      // half of it squeezed between the bar's top and the end card.
      assert.ok(r.say.shown >= r.say.needs - 1, `the last narration shows ${r.say.shown}px of its ${r.say.needs}px`);
      assert.ok(r.say.top >= r.dock.top, `the narration starts at ${r.say.top}px, above the bar's top ${r.dock.top}px`);
      assert.ok(r.dock.needs <= r.dock.shown + 1, `the bar needs ${r.dock.needs}px and shows ${r.dock.shown}px: the end card is scrolled out`);
      assert.ok(r.next <= r.screen, `the end card's Next button ends at ${r.next}px, below the screen (${r.screen}px)`);
      await app.screenshot('phone-end-card');
    },
    { path: '?preset=01-election', viewport: { width: 390, height: 844 } },
  ),
);

test('at 390x844 a narration longer than its four lines shades the edge with more text beyond', { timeout: 120_000 }, () =>
  withApp(
    'phone-narration-shade',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-lesson-step="0"]');
      // Lesson 7's intro is six lines on a phone: its box shows four and scrolls.
      const r = await page.evaluate(() => {
        const n = document.querySelector('.lesson-dock .narration');
        const cs = getComputedStyle(n);
        return { shown: n.clientHeight, needs: n.scrollHeight, image: cs.backgroundImage, attach: cs.backgroundAttachment };
      });
      assert.ok(r.needs > r.shown + 10, `the intro fits (${r.needs}px in ${r.shown}px): the test needs a longer one`);
      // Two shades fixed at the box's edges, two covers that scroll with the text and hide a
      // shade once the text's end on that side is reached.
      assert.equal((r.image.match(/radial-gradient/g) ?? []).length, 2, `background: ${r.image}`);
      assert.deepEqual(r.attach.split(', '), ['local', 'local', 'scroll', 'scroll', 'scroll']);
      await app.screenshot('phone-narration-shade');
    },
    { path: '?preset=07-partition-then-add', viewport: { width: 390, height: 844 } },
  ),
);
