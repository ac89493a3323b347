// Issue 6: a narrated preset played to its end in the scenario player; share links (a good one
// reproduces the run exactly, a corrupt or foreign one shows a message and the app keeps
// working); embed mode; time travel; the dark theme.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { withApp } from './harness.mjs';
import { nodeAction, openTab, showScript, pause, play, scrubTo, setSpeed, simNow, stepTicks, waitLeader, waitSimTime, fingerprintOf } from './raftlab.mjs';

const PRESET = '04-leader-isolated';
const presetText = readFileSync(new URL(`../../scenarios/presets/${PRESET}.scn`, import.meta.url), 'utf8');
const lines = presetText
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const says = lines.filter((l) => l.startsWith('say ')).map((l) => l.slice(4).trim());
const checks = lines.filter((l) => l.startsWith('expect ') || l.startsWith('await ')).length;

test(`preset ${PRESET} plays to its end, pausing at each narration`, { timeout: 120_000 }, () =>
  withApp('preset', async (app) => {
    const { page } = app;
    await waitLeader(page);
    await openTab(page, 'scenario');
    await page.selectOption('select[aria-label="preset"]', PRESET);
    await page.click('button[aria-label="load preset"]');
    await page.waitForSelector('[data-scenario][data-next-line="1"]');
    // The cluster line ran: a fresh 3-node cluster, paused.
    await page.waitForSelector('.toolbar button[data-playing="false"]');
    await showScript(page);
    assert.equal(await page.locator('[data-current-line]').count(), 1);

    const seen = [];
    for (let i = 0; i < says.length; i++) {
      await page.click('button[aria-label="run to next pause"]');
      await page.waitForFunction(
        (n) => document.querySelector('[data-narration]') !== null &&
          document.querySelectorAll('.line.s-said').length === n,
        i + 1,
        { polling: 50, timeout: 20_000 },
      );
      const text = (await page.textContent('[data-narration] p')).trim();
      seen.push(text);
      assert.equal(text, says[i], `narration ${i + 1}`);
      assert.equal(await page.locator('[data-expect="fail"]').count(), 0, 'no expect failed so far');
      if (i === 1) await app.screenshot('08-scenario-narration');
    }
    // Run the rest.
    if ((await page.getAttribute('[data-scenario]', 'data-done')) !== 'true') {
      await page.click('button[aria-label="run to next pause"]');
    }
    await page.waitForSelector('[data-scenario][data-done="true"]');
    assert.deepEqual(seen, says);
    assert.equal(await page.locator('[data-expect="fail"]').count(), 0);
    assert.equal(await page.locator('[data-expect="pass"]').count(), checks, 'every expect/await passed');
    assert.equal(await page.locator('[data-current-line]').count(), 0, 'no current line at the end');
    // Final view: n3 leads term 2; n2 follows with x=3 committed and x=2 gone.
    await page.waitForSelector('g.node[data-node="n3"][data-role="leader"][data-term="2"]');
    await page.waitForSelector('g.node[data-node="n2"][data-role="follower"][data-term="2"]');
    assert.equal(await page.locator('[data-log-node="n2"] [data-label="x=2"]').count(), 0);
    assert.ok(await page.locator('[data-log-node="n2"] [data-label="x=3"][data-committed="true"]').count() === 1);
    assert.equal(await page.getAttribute('[data-violations]', 'data-violations'), '0');
    await app.screenshot('09-scenario-done');
  }),
);

test('a corrupt or foreign share link shows a message and the app keeps working', { timeout: 120_000 }, async () => {
  for (const [name, hash] of [
    ['share-corrupt', '#run=v1.Y2x1c3Rlcg.deadbeef'],
    ['share-foreign', '#run=hello-from-elsewhere'],
    ['share-bad-chars', '#run=v1.!!!.00000000'],
  ]) {
    await withApp(
      name,
      async (app) => {
        const { page } = app;
        await page.waitForSelector('[data-notice]');
        const msg = await page.textContent('[data-notice]');
        assert.match(msg, /share link .*could not be opened/i);
        assert.match(msg, /damaged|not made by raftlab/);
        // The app works: a default cluster elects a leader and takes actions.
        await setSpeed(page, 5);
        const l = await waitLeader(page);
        await nodeAction(page, l.id, 'Kill', `kill ${l.id}`);
        await waitLeader(page, { minTerm: l.term + 1, not: l.id });
        if (name === 'share-corrupt') await app.screenshot('10-share-link-corrupt');
        await page.click('[data-notice] button');
        assert.equal(await page.locator('[data-notice]').count(), 0);
      },
      { path: hash },
    );
  }
});

test('a share link reproduces the run exactly (same fingerprint), also embedded', { timeout: 150_000 }, async () => {
  let url;
  let fingerprint;
  let now;
  await withApp('share-make', async (app) => {
    const { page } = app;
    await setSpeed(page, 5);
    const l = await waitLeader(page);
    await nodeAction(page, l.id, 'Kill', `kill ${l.id}`);
    await waitLeader(page, { minTerm: l.term + 1, not: l.id });
    await pause(page);
    await stepTicks(page, 1);
    fingerprint = await fingerprintOf(page);
    now = await simNow(page);
    assert.match(fingerprint, /^[0-9a-f]{16}$/);
    await openTab(page, 'export / share');
    await page.click('button[aria-label="share link"]');
    url = await page.inputValue('[data-share-link]');
    // Export downloads: the run as .scn and the event trace as JSON.
    const [scnFile] = await Promise.all([
      page.waitForEvent('download'),
      page.click('button[aria-label="export .scn"]'),
    ]);
    assert.equal(scnFile.suggestedFilename(), 'raftlab-run.scn');
    const scnText = readFileSync(await scnFile.path(), 'utf8');
    assert.match(scnText, /^# exported from raftlab\ncluster 3 seed=1/);
    const [traceFile] = await Promise.all([
      page.waitForEvent('download'),
      page.click('button[aria-label="event trace JSON"]'),
    ]);
    const trace = JSON.parse(readFileSync(await traceFile.path(), 'utf8'));
    assert.ok(Array.isArray(trace) && trace.some((e) => /crashed/.test(e.text)));
    assert.match(url, /#run=v1\./);
    // Exported scenario text carries the kill at its time.
    assert.match(await page.textContent('[data-export-scn]'), new RegExp(`at \\d+ kill ${l.id}`));
  });
  const hash = url.slice(url.indexOf('#'));
  await withApp(
    'share-open',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('.toolbar button[data-playing="false"]');
      await page.waitForFunction((now) => Number(document.querySelector('[data-now]').dataset.now) === now, now);
      assert.equal(await fingerprintOf(page), fingerprint);
      assert.equal(await page.locator('[data-notice]').count(), 0);
    },
    { path: hash },
  );
  await withApp(
    'share-embed',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('.app.embed');
      await page.waitForFunction((now) => Number(document.querySelector('[data-now]').dataset.now) === now, now);
      assert.equal(await fingerprintOf(page), fingerprint);
      assert.equal(await page.locator('.toolbar').count(), 0, 'no toolbar in embed mode');
      assert.equal(await page.locator('.events').count(), 0, 'no event log in embed mode');
      assert.ok((await page.locator('[data-node][data-role]').count()) >= 3);
      assert.ok((await page.locator('[data-index]').count()) >= 3);
      await app.screenshot('11-embed-mode');
    },
    { path: `?embed=1${hash}`, viewport: { width: 800, height: 700 } },
  );
});

test('time travel: scrub back, see the past, act there to fork', { timeout: 120_000 }, () =>
  withApp('time-travel', async (app) => {
    const { page } = app;
    await setSpeed(page, 10);
    const l = await waitLeader(page);
    // Kill the leader at a known moment (paused), then let the cluster recover.
    await pause(page);
    const t0 = await simNow(page);
    await nodeAction(page, l.id, 'Kill', `kill ${l.id}`);
    await play(page);
    await waitLeader(page, { minTerm: l.term + 1, not: l.id });
    await waitSimTime(page, t0 + 2000);
    await pause(page);
    const head = Number(await page.getAttribute('[data-head]', 'data-head'));
    // Drag the scrubber to before the kill: the old leader is alive again.
    const target = Math.max(0, t0 - 500);
    await scrubTo(page, target);
    await page.waitForFunction((t) => Number(document.querySelector('[data-now]').dataset.now) === t, target);
    await page.waitForSelector(`g.node[data-node="${l.id}"][data-status="running"]`);
    await page.waitForSelector('[data-past]');
    await app.screenshot('12-time-travel-past');
    // One event forward, back, forward again: the same state.
    await page.click('button[aria-label="step one event"]');
    await page.waitForFunction((t) => Number(document.querySelector('[data-now]').dataset.now) >= t, target);
    const processed = () => page.getAttribute('[data-processed]', 'data-processed');
    const at = { processed: await processed(), fp: await fingerprintOf(page) };
    await page.click('button[aria-label="step back one event"]');
    await page.waitForFunction((p) => document.querySelector('[data-processed]').dataset.processed !== p, at.processed);
    assert.notEqual(await fingerprintOf(page), at.fp, 'a step back changes the state');
    await page.click('button[aria-label="step one event"]');
    await page.waitForFunction((p) => document.querySelector('[data-processed]').dataset.processed === p, at.processed);
    assert.equal(await fingerprintOf(page), at.fp, 'the step forward again reaches the same state');
    // Back to now, then acting in the past forks: the head moves back to the moment acted at.
    await page.click('button:has-text("back to now")');
    await page.waitForFunction((h) => Number(document.querySelector('[data-now]').dataset.now) === h, head);
    await scrubTo(page, target);
    await page.waitForFunction((t) => Number(document.querySelector('[data-now]').dataset.now) === t, target);
    await openTab(page, 'network');
    await page.click('button:has-text("Heal all")');
    await page.waitForFunction(
      (t) => Number(document.querySelector('[data-head]').dataset.head) === t,
      target,
    );
    assert.equal(await page.locator('[data-past]').count(), 0);
    await page.waitForSelector(`g.node[data-node="${l.id}"][data-status="running"]`);
  }),
);

test('dark theme and the help overlay', { timeout: 90_000 }, () =>
  withApp(
    'dark-theme',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('.app.theme-dark');
      await waitLeader(page);
      await page.keyboard.press('?');
      await page.waitForSelector('[role="dialog"][aria-label="help"]');
      await app.screenshot('13-help-overlay');
      await page.keyboard.press('Escape');
      await page.waitForSelector('[role="dialog"][aria-label="help"]', { state: 'detached' });
      // Space pauses, → steps one tick.
      await page.keyboard.press(' ');
      await page.waitForSelector('.toolbar button[data-playing="false"]');
      const t = await simNow(page);
      await page.keyboard.press('ArrowRight');
      await waitSimTime(page, t + 100);
      await app.screenshot('14-dark-theme');
    },
    { path: '?theme=dark' },
  ),
);

// A share link as the app writes one: v1.<base64url of the text>.<FNV-1a 32 of the text>.
function shareHash(text) {
  const bytes = Buffer.from(text, 'utf8');
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return `#run=v1.${bytes.toString('base64url')}.${h.toString(16).padStart(8, '0')}`;
}

/** While a shared run replays, frames keep coming (each within a second) and its banner's
 * progress moves on. */
async function assertReplayAnswers(page) {
  const first = Number(await page.getAttribute('[data-replaying]', 'data-replaying'));
  for (let i = 0; i < 3; i++) {
    const t0 = Date.now();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
    const waited = Date.now() - t0;
    assert.ok(waited < 1_000, `a frame took ${waited} ms to come`);
  }
  await page.waitForFunction((f) => Number(document.querySelector('[data-replaying]')?.dataset.replaying) > f, first);
}

// A short link may ask for hours of simulated time: 64 nodes and a million ticks fit in 200
// characters, and the page replayed them at once, blank and deaf for half a minute. The replay
// now goes a slice per frame, shows how far it got, and can be stopped.
test('a long shared run replays without freezing the page, and can be stopped', { timeout: 120_000 }, () =>
  withApp(
    'share-long-stop',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-replaying]', { timeout: 20_000 });
      assert.match(await page.textContent('[data-replaying]'), /Replaying the shared run: [\d.]+ s of at most 100000\.0 s simulated/);
      // The page answers while the replay runs, and the replay moves on.
      await assertReplayAnswers(page);
      await app.screenshot('share-long-replaying');
      await page.click('[data-cancel-replay]');
      await page.waitForSelector('[data-replaying]', { state: 'detached' });
      assert.match(await page.textContent('[data-notice]'), /replay was stopped/);
      // The fresh cluster stays paused at its start, and works.
      assert.equal(await page.getAttribute('[data-now]', 'data-now'), '0');
      await setSpeed(page, 5);
      await play(page);
      await waitLeader(page);
    },
    { path: shareHash(`cluster 64 seed=1\n${'tick 100000\n'.repeat(10)}`) },
  ),
);

// A run chosen while a shared one still replays replaces it: the replay must not take the
// page over when it would have ended.
test('a reset during a long replay drops the replay', { timeout: 120_000 }, () =>
  withApp(
    'share-long-reset',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-replaying]', { timeout: 20_000 });
      // How fast it replays here, from two readings of its progress half a second apart.
      const reading = () => page.evaluate(() => [performance.now(), Number(document.querySelector('[data-replaying]').dataset.replaying)]);
      const [t1, d1] = await reading();
      await page.waitForFunction((t) => performance.now() > t + 500, t1);
      const [t2, d2] = await reading();
      const left = ((60_000_000 - d2) / Math.max(d2 - d1, 1)) * (t2 - t1);
      await page.click('.toolbar details.options > summary');
      await page.click('button[aria-label="reset the cluster"]');
      await page.waitForSelector('[data-replaying]', { state: 'detached' });
      // Past three times the time the replay had left, the page still shows the reset's
      // 3-node cluster, not the shared run's 9 nodes.
      const until = (await page.evaluate(() => performance.now())) + 3 * left + 1_000;
      await page.waitForFunction((u) => performance.now() > u, until, { timeout: 90_000 });
      assert.equal(await page.locator('[data-replaying]').count(), 0);
      assert.equal(await page.locator('g.node[data-node]').count(), 3);
    },
    { path: shareHash(`cluster 9 seed=1\n${'tick 60000\n'.repeat(10)}`) },
  ),
);

test('a shared run that takes many frames to replay ends as the free run', { timeout: 120_000 }, () =>
  withApp(
    'share-long-done',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-replaying]', { timeout: 20_000 });
      await page.waitForSelector('[data-replaying]', { state: 'detached', timeout: 90_000 });
      assert.equal(await page.getAttribute('[data-now]', 'data-now'), '12000000');
      assert.equal(await page.locator('g.node[data-node]').count(), 9);
      assert.equal(await page.locator('[data-notice]').count(), 0);
    },
    { path: shareHash('cluster 9 seed=1\ntick 60000\ntick 60000\n') },
  ),
);

// A share link can also ask for compare mode (`&compare=OPT=V`): its two runs were played at
// once after the replay, so a long one froze the page for twice the replay's time. They now
// play a slice per frame too, with the banner and its Stop, and then both panes are shown.
// The run is long enough (9 nodes, 300,000 ticks: ~11 s of comparison on 2 cores with the
// engine at opt-level 3) that the checks before Stop (~1-2 s) end well before it does; at
// 30,000 ticks the comparison took 1.4 s and once ended before the click.
test('a long shared run with compare= plays its comparison without freezing the page, and can be stopped', { timeout: 180_000 }, () =>
  withApp(
    'share-long-compare',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-replaying][data-comparing="true"]', { timeout: 90_000 });
      assert.match(await page.textContent('[data-replaying]'), /Playing the shared comparison: [\d.]+ s of at most 30000\.0 s simulated/);
      // The replayed run is the free run meanwhile: 9 nodes at its end.
      assert.equal(await page.getAttribute('[data-now]', 'data-now'), '30000000');
      await assertReplayAnswers(page);
      assert.equal(await page.locator('[data-pane]').count(), 0, 'no panes before the comparison is played');
      await app.screenshot('share-long-compare-playing');
      await page.click('[data-cancel-replay]');
      await page.waitForSelector('[data-replaying]', { state: 'detached' });
      assert.match(await page.textContent('[data-notice]'), /comparison was stopped/);
      assert.equal(await page.locator('[data-pane]').count(), 0);
      assert.equal(await page.getAttribute('[data-now]', 'data-now'), '30000000');
      assert.equal(await page.locator('g.node[data-node]').count(), 9);
    },
    { path: `?compare=prevote=off${shareHash(`cluster 9 seed=1\n${'tick 30000\n'.repeat(10)}`)}` },
  ),
);

test('a shared run with compare= ends with both panes played to the run\'s end', { timeout: 120_000 }, () =>
  withApp(
    'share-compare-done',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('[data-pane="a"][data-compare-now]', { timeout: 90_000 });
      assert.equal(await page.locator('[data-replaying]').count(), 0);
      const nows = await page.$$eval('[data-pane]', (ps) => ps.map((p) => [p.dataset.pane, p.dataset.compareNow]));
      assert.deepEqual(nows, [['a', '60000'], ['b', '60000']]);
      assert.equal(await page.getAttribute('[data-now]', 'data-now'), '60000');
    },
    { path: `?compare=prevote=off${shareHash('cluster 3 seed=1\ntick 300\ntick 300\n')}`, viewport: { width: 1280, height: 720 } },
  ),
);

// A pasted scenario is not a lesson: when it ends with failed checks, its card says "Scenario
// finished", counts the scenario's failed checks and is drawn as a failure (it was a green
// "Lesson complete" card, with "0 of 0 · end" above it).
test('a pasted scenario with failed checks ends on a card that says so', { timeout: 90_000 }, () =>
  withApp('paste-failed-card', async (app) => {
    const { page } = app;
    await openTab(page, 'scenario');
    await page.fill('textarea[aria-label="scenario text"]', 'cluster 3 seed=1\nawait leader != none within 60\nexpect n1.commit = 99\nexpect n2.commit = 99\n');
    await page.click('button[aria-label="load pasted scenario"]');
    await page.click('button[aria-label="run all lines"]');
    await page.waitForSelector('[data-lesson-end]');
    const card = await page.textContent('[data-lesson-end]');
    assert.match(card, /Scenario finished/);
    assert.doesNotMatch(card, /Lesson complete/);
    assert.match(card, /2 of the scenario's checks failed/);
    assert.ok(await page.$eval('[data-lesson-end]', (c) => c.classList.contains('failed')));
    assert.equal((await page.textContent('[data-step-text]')).trim(), 'end');
    await app.screenshot('paste-failed-card');
  }),
);
