// Issue 15, compare in the browser: a compare lesson shows run A and run B in two panes that
// advance in lockstep with the lesson, labelled with what differs, and the first divergence
// is marked on both and described in words. Every wait polls the page; nothing sleeps.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withApp } from './harness.mjs';
import { lessonState, pageScroll, visibility, waitStep } from './lessons.mjs';
import { playLesson } from './first-visit.mjs';

const RUN_NOW = 'button[aria-label="run to next pause"]';

/** Both panes' clocks and captions, and the lesson's own clock. */
function panes(page) {
  return page.evaluate(() => {
    const p = (s) => {
      const el = document.querySelector(`[data-pane="${s}"]`);
      return el
        ? {
            now: Number(el.dataset.compareNow),
            label: el.querySelector('.cmp-label').textContent,
            marks: el.querySelectorAll('[data-divergence-mark]').length,
          }
        : null;
    };
    const d = document.querySelector('[data-divergence]');
    return {
      a: p('a'),
      b: p('b'),
      lessonNow: Number(document.querySelector('.sim-state').dataset.now),
      divergence: d ? d.textContent : null,
      none: document.querySelector('.cmp-divergence.none')?.textContent ?? null,
    };
  });
}

/** Runs the lesson narration by narration, checking lockstep at every pause. */
async function playToDivergence(page) {
  let last = await panes(page);
  let advanced = 0;
  for (let i = 0; i < 20 && !last.divergence; i++) {
    const before = (await lessonState(page)).step;
    await page.click(RUN_NOW);
    await page.waitForFunction(
      (k) => Number(document.querySelector('[data-lesson-step]').dataset.lessonStep) > k,
      before,
    );
    const now = await panes(page);
    assert.equal(now.a.now, now.b.now, `pane clocks together at narration ${before + 1}`);
    assert.equal(now.a.now, now.lessonNow, 'the panes stand where the lesson stands');
    assert.ok(now.a.now >= last.a.now, 'time only moves forward');
    if (now.a.now > last.a.now) advanced++;
    last = now;
  }
  return { last, advanced };
}

test('preset 21 shows runs A and B side by side, in lockstep, with the first divergence in words', { timeout: 180_000 }, () =>
  withApp(
    'compare-21',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-pane="a"]');
      let s = await panes(page);
      assert.equal(s.a.label, 'A: prevote=on');
      assert.equal(s.b.label, 'B: prevote=off');
      assert.match(s.none, /No divergence yet/);
      await app.screenshot('compare-21-start-1280');
      const { last, advanced } = await playToDivergence(page);
      assert.ok(advanced >= 2, `both panes advanced together over ${advanced} narrations`);
      assert.match(last.divergence, /First divergence @ tick 24\.5/);
      assert.match(last.divergence, /with prevote=off: n1 is candidate \(A: precandidate\)/);
      assert.equal(last.a.marks, 1, 'marked on A');
      assert.equal(last.b.marks, 1, 'marked on B');
      // The drawings are the app's own cluster view, one per run.
      assert.equal(await page.locator('[data-pane] svg.cluster').count(), 2);
      const vis = await visibility(page, ['[data-pane="a"] svg.cluster', '[data-pane="b"] svg.cluster', '[data-divergence]']);
      for (const [k, v] of Object.entries(vis)) assert.ok(v.visible, `${k} in view at 1280x720: ${JSON.stringify(v)}`);
      const a = await page.locator('[data-pane="a"]').boundingBox();
      const b = await page.locator('[data-pane="b"]').boundingBox();
      assert.ok(b.x >= a.x + a.width - 1, 'side by side');
      await app.screenshot('compare-21-diverged-1280');
      await app.assertNoErrors();
      app.assertNoOffsiteRequests();
    },
    { path: '?preset=21-compare-prevote-rejoin', viewport: { width: 1280, height: 720 } },
  ),
);

test('during a paced stretch both panes follow the lesson clock frame by frame', { timeout: 180_000 }, () =>
  withApp(
    'compare-21-paced',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-pane="b"]');
      await page.click(RUN_NOW);
      await page.waitForSelector('[data-lesson-step="1"][data-lesson-playing="false"]');
      // Step 2 is `isolate n1` then `tick 50`: sample both panes at every animation frame.
      const trace = page.evaluate(
        () =>
          new Promise((resolve) => {
            const frames = [];
            const tick = () => {
              const n = (s) => Number(document.querySelector(`[data-pane="${s}"]`).dataset.compareNow);
              const lesson = Number(document.querySelector('.sim-state').dataset.now);
              frames.push({ a: n('a'), b: n('b'), lesson });
              const dock = document.querySelector('[data-lesson-step]');
              if ((dock.dataset.lessonStep === '2' && dock.dataset.lessonPlaying === 'false') || frames.length > 20000) {
                resolve(frames);
              } else {
                requestAnimationFrame(tick);
              }
            };
            requestAnimationFrame(tick);
          }),
      );
      await page.click('button[aria-label="continue the scenario"], button[aria-label="start the lesson"]');
      const frames = await trace;
      for (const f of frames) {
        assert.equal(f.a, f.b, `A and B on the same clock: ${JSON.stringify(f)}`);
        assert.ok(f.a <= f.lesson, `the panes never run ahead of the lesson: ${JSON.stringify(f)}`);
      }
      const distinct = new Set(frames.map((f) => f.a)).size;
      assert.ok(distinct >= 10, `the panes moved through ${distinct} moments during the stretch, not in one jump`);
      const last = frames[frames.length - 1];
      assert.equal(last.a, last.lesson, 'and stand where the lesson stands at the pause');
    },
    { path: '?preset=21-compare-prevote-rejoin', viewport: { width: 1280, height: 720 } },
  ),
);

/** Samples both panes' clocks and the lesson's at every animation frame until lesson step `k`
 *  is reached and paused. */
function traceUntilStep(page, k) {
  return page.evaluate(
    (k) =>
      new Promise((resolve) => {
        const frames = [];
        const tick = () => {
          const n = (s) => Number(document.querySelector(`[data-pane="${s}"]`).dataset.compareNow);
          const lesson = Number(document.querySelector('.sim-state').dataset.now);
          frames.push({ a: n('a'), b: n('b'), lesson });
          const dock = document.querySelector('[data-lesson-step]');
          if ((dock.dataset.lessonStep === String(k) && dock.dataset.lessonPlaying === 'false') || frames.length > 20000) {
            resolve(frames);
          } else {
            requestAnimationFrame(tick);
          }
        };
        requestAnimationFrame(tick);
      }),
    k,
  );
}

test('inside await lines the panes follow the lesson clock too, not in one jump at the line end', { timeout: 180_000 }, () =>
  withApp(
    'compare-21-await',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-pane="b"]');
      // Step 1's stretch is `await leader = n2 within 40`, a write, `await n1.value x = 1`.
      const trace = traceUntilStep(page, 1);
      await page.click('button[aria-label="continue the scenario"], button[aria-label="start the lesson"]');
      const frames = await trace;
      for (const f of frames) {
        assert.equal(f.a, f.b, `A and B on the same clock: ${JSON.stringify(f)}`);
        assert.ok(f.a <= f.lesson, `never ahead of the lesson: ${JSON.stringify(f)}`);
      }
      const distinct = new Set(frames.map((f) => f.a)).size;
      assert.ok(distinct >= 8, `the panes moved through ${distinct} moments during two await lines`);
      const last = frames[frames.length - 1];
      assert.equal(last.a, last.lesson, 'at the pause they stand where the lesson stands');
    },
    { path: '?preset=21-compare-prevote-rejoin', viewport: { width: 1280, height: 720 } },
  ),
);

test('scrubbing back in time moves both panes to the moment viewed', { timeout: 180_000 }, () =>
  withApp(
    'compare-21-scrub',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-pane="b"]');
      const { last } = await playToDivergence(page);
      const head = last.a.now;
      for (let i = 0; i < 15; i++) await page.click('button[aria-label="step back one tick"]');
      let s = await panes(page);
      assert.ok(s.lessonNow < head, `the view went back: ${s.lessonNow} < ${head}`);
      assert.equal(s.a.now, s.b.now, 'A and B together');
      assert.ok(s.a.now <= s.lessonNow && s.lessonNow - s.a.now < 100, `panes at the moment viewed: ${s.a.now} vs ${s.lessonNow}`);
      // Before the fork: B is not forked yet and nothing has diverged.
      await page.fill('[data-scrubber]', '1000');
      await page.waitForFunction(() => Number(document.querySelector('.sim-state').dataset.now) <= 1000);
      s = await panes(page);
      assert.ok(s.a.now <= s.lessonNow && s.lessonNow - s.a.now < 100, `panes at ${s.lessonNow}: ${s.a.now}`);
      assert.match(s.none, /No divergence yet/);
      assert.equal(s.a.marks + s.b.marks, 0, 'no divergence marked before it happened');
    },
    { path: '?preset=21-compare-prevote-rejoin', viewport: { width: 1280, height: 720 } },
  ),
);

for (const [w, h] of [
  [1024, 768],
  [390, 844],
]) {
  test(`a compare lesson fits ${w}x${h}`, { timeout: 180_000 }, () =>
    withApp(
      `compare-21-${w}`,
      async (app) => {
        const { page } = app;
        await page.waitForSelector('[data-pane="b"]');
        const { last } = await playToDivergence(page);
        assert.ok(last.divergence, 'the divergence is described');
        const a = await page.locator('[data-pane="a"]').boundingBox();
        const b = await page.locator('[data-pane="b"]').boundingBox();
        if (w < 700) {
          assert.ok(b.y >= a.y + a.height - 1, 'stacked on a phone');
          const sc = await pageScroll(page);
          assert.ok(sc.scrollWidth <= sc.innerWidth + 1, `no sideways scroll (${sc.scrollWidth})`);
        } else {
          assert.ok(b.x >= a.x + a.width - 1, 'side by side');
          const vis = await visibility(page, ['[data-pane="a"] svg.cluster', '[data-pane="b"] svg.cluster', '[data-divergence]']);
          for (const [k, v] of Object.entries(vis)) assert.ok(v.visible, `${k} in view: ${JSON.stringify(v)}`);
        }
        await app.screenshot(`compare-21-diverged-${w}`);
        await app.assertNoErrors();
      },
      { path: '?preset=21-compare-prevote-rejoin', viewport: { width: w, height: h } },
    ),
  );
}

test('compare= in the address compares any preset; a bad value is a notice', { timeout: 120_000 }, async () => {
  await withApp(
    'compare-link',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-pane="b"]');
      const s = await panes(page);
      assert.equal(s.a.label, 'A: checkquorum=on');
      assert.equal(s.b.label, 'B: checkquorum=off');
    },
    { path: '?preset=04-leader-isolated&compare=checkquorum=off', viewport: { width: 1280, height: 720 } },
  );
  await withApp(
    'compare-link-bad',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-notice]');
      assert.match(await page.textContent('[data-notice]'), /compare=prevote=maybe/);
      assert.equal(await page.locator('[data-pane]').count(), 0);
      assert.equal(await app.fatalText(), null);
    },
    { path: '?preset=04-leader-isolated&compare=prevote=maybe', viewport: { width: 1280, height: 720 } },
  );
});

/** The newest entries each pane shows on a node's line: "term" or "term?" when uncommitted. */
function miniLogs(page) {
  return page.evaluate(() => {
    const out = {};
    for (const pane of document.querySelectorAll('[data-pane]')) {
      const rows = {};
      for (const li of pane.querySelectorAll('.cmp-node')) {
        rows[li.dataset.node] = [...li.querySelectorAll('.cmp-e')]
          .map((e) => e.dataset.term + (e.classList.contains('uncommitted') ? '?' : ''))
          .join(' ');
      }
      out[pane.dataset.pane] = rows;
    }
    return out;
  });
}

// Lesson 24 narrates Figure 8 in both runs: which entry of which term sits on which node, and
// that B commits x=1 where A does not. The panes have no log rows, so each node's line shows
// its newest entries; without them the narration speaks of logs the screen does not show.
test('preset 24: each pane shows the logs its narration speaks of, and where B commits x=1', { timeout: 180_000 }, () =>
  withApp(
    'compare-24-logs',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-pane="a"]');
      const narrationAt = async (re) => {
        for (let i = 0; i < 12; i++) {
          const text = await page.textContent('[data-lesson-step]');
          if (re.test(text)) return;
          const before = (await lessonState(page)).step;
          await page.click(RUN_NOW);
          await page.waitForFunction(
            (k) => Number(document.querySelector('[data-lesson-step]').dataset.lessonStep) > k,
            before,
          );
        }
        assert.fail(`no narration matching ${re}`);
      };
      await narrationAt(/^\s*\(a\)|\(a\) In both runs/);
      let m = await miniLogs(page);
      for (const s of ['a', 'b']) {
        assert.equal(m[s]['1'], '1 1?', `${s}: n1 appended x=1 at index 2, term 1`);
        assert.equal(m[s]['2'], '1 1?', `${s}: n2 received it`);
        assert.equal(m[s]['3'], '1', `${s}: n3 did not`);
      }
      await narrationAt(/\(b\) n5 wins term 2/);
      m = await miniLogs(page);
      for (const s of ['a', 'b']) assert.equal(m[s]['5'], '1 2?', `${s}: n5's own entry at index 2, term 2`);
      await narrationAt(/n1 leads term 3/);
      m = await miniLogs(page);
      assert.equal(m.a['1'], '1 1? 3?', 'A: x=1 on a majority, not committed');
      assert.equal(m.a['3'], '1 1?', 'A: n3 holds x=1');
      assert.match(m.b['1'], /^1 1 3/, 'B: n1 commits x=1 by counting replicas');
      const vis = await visibility(page, ['[data-pane="a"] .cmp-node[data-node="5"] .cmp-log', '[data-pane="b"] .cmp-node[data-node="5"] .cmp-log']);
      for (const [k, v] of Object.entries(vis)) assert.ok(v.visible, `${k} in view at 1280x720: ${JSON.stringify(v)}`);
      await app.screenshot('compare-24-logs-1280');
      await app.assertNoErrors();
    },
    { path: '?preset=24-compare-figure-8-rule', viewport: { width: 1280, height: 720 } },
  ),
);

// Lesson 22's third narration compares the two runs' quorums ("in A 2 of the 3 voters ... in
// B four voters need 3") and the leaders that follow from them: each pane has its own quorum
// line, and the side column one progress table per run, headed A and B. There was one
// table, run A's, unlabelled, beside a B whose leader had stepped down.
test('preset 22: each run has its own quorum line and its own leader progress table', { timeout: 180_000 }, () =>
  withApp(
    'compare-quorum-progress',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-lesson-step="0"]');
      // The lesson's own Continue, as a lecturer goes on (the Scenario tab's button is
      // further down the side column, and clicking it scrolls the column to it).
      for (let k = 1; k <= 4; k++) {
        await page.click('.lesson-dock button.go');
        await waitStep(page, k);
      }
      const r = await page.evaluate(() => {
        const q = (s) => document.querySelector(`[data-pane="${s}"] .quorum`)?.textContent ?? null;
        return {
          narration: document.querySelector('[data-narration]').textContent,
          a: q('a'),
          b: q('b'),
          tables: [...document.querySelectorAll('.side .progress h2')].map((h) => h.textContent),
          rowsA: [...document.querySelectorAll('.side .progress')][0]?.querySelectorAll('[data-progress-node]').length,
        };
      });
      assert.match(r.narration, /A keeps taking writes/);
      assert.match(r.a ?? '', /quorum 2 of 3 voters/, JSON.stringify(r));
      assert.match(r.a ?? '', /leader n2/, JSON.stringify(r));
      assert.match(r.b ?? '', /quorum 3 of 4 voters/, JSON.stringify(r));
      assert.match(r.b ?? '', /no leader/, JSON.stringify(r));
      assert.equal(r.tables.length, 2, JSON.stringify(r));
      assert.match(r.tables[0], /^A: Leader n2's progress/, JSON.stringify(r));
      assert.match(r.tables[1], /^B: Leader's progress/, JSON.stringify(r));
      assert.equal(r.rowsA, 3, JSON.stringify(r));
      const seen = await visibility(page, ['[data-pane="a"] .quorum', '[data-pane="b"] .quorum', '[data-narration]']);
      for (const [sel, v] of Object.entries(seen)) assert.ok(v.visible, `${sel} is not in view: ${JSON.stringify(v)}`);
      await app.screenshot('compare-22-quorum-progress-1280');
    },
    { path: '?preset=22-compare-learner-vs-voter', viewport: { width: 1280, height: 720 } },
  ),
);

// Presenter mode on a 1280x720 projector: the side column held the narration, the end card and
// both runs' progress tables, 60-180 px more than the screen (B's table cut, no scrollbar on a
// projector). Each pane now ends with its own run's table, and everything is on screen.
test('presenter mode at 1280x720: lesson 24 ends with each run\'s progress table under its pane, all in view', { timeout: 180_000 }, () =>
  withApp(
    'compare-presenter-fits',
    async (app) => {
      const { page } = app;
      await playLesson(page);
      const r = await page.evaluate(() => ({
        side: [document.querySelector('.side').scrollHeight, document.querySelector('.side').clientHeight],
        inSide: document.querySelectorAll('.side .progress').length,
        a: document.querySelector('[data-pane="a"] .progress h2')?.textContent ?? null,
        b: document.querySelector('[data-pane="b"] .progress h2')?.textContent ?? null,
      }));
      assert.ok(r.side[0] <= r.side[1], `the side column holds ${r.side[0]} px in ${r.side[1]} px`);
      assert.equal(r.inSide, 0, JSON.stringify(r));
      assert.match(r.a ?? '', /^A: Leader n5's progress/, JSON.stringify(r));
      assert.match(r.b ?? '', /^B: Leader n5's progress/, JSON.stringify(r));
      const rows = ['[data-pane="a"] .progress tr:last-child', '[data-pane="b"] .progress tr:last-child', '[data-pane="a"] g.node', '[data-pane="b"] .quorum', '[data-lesson-end]', '[data-narration]'];
      const seen = await visibility(page, rows);
      for (const [sel, v] of Object.entries(seen)) assert.ok(v.visible, `${sel} is not in view: ${JSON.stringify(v)}`);
      await app.screenshot('compare-24-presenter-end-1280');
    },
    { path: '?preset=24-compare-figure-8-rule&present=1', viewport: { width: 1280, height: 720 } },
  ),
);
