// Frame-rate benchmark of the UI: 9 nodes, 200-entry logs, steady client traffic, playing at
// 1x in headless Chromium. Prints fps and per-frame work (simulation + view + DOM patch, as
// the app measures it in data-frame-ms).
//
//   node tests/e2e/bench.mjs [--seconds 10] [--throttle 1] [--speed 1] [--url URL]
//
// The app must be served (scripts/serve.sh, or node tests/e2e/serve.mjs dist PORT); RAFTLAB_URL
// or --url says where. --throttle N slows the CPU N times (Chrome DevTools emulation).
import { openApp } from './harness.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : dflt;
};
const seconds = Number(opt('seconds', '10'));
const throttle = Number(opt('throttle', '1'));
const speed = opt('speed', '1');
if (opt('url', null)) process.env.RAFTLAB_URL = opt('url', null);

// A scenario that builds 200-entry logs on 9 nodes.
const lines = ['cluster 9 seed=7', 'await leader != none within 60'];
for (let i = 1; i <= 200; i++) lines.push(`propose k${i % 20}=${i}`);
lines.push('tick 30');
const scenario = lines.join('\n') + '\n';

const app = await openApp({ path: '?paused=1' });
const { page } = app;
try {
  await page.locator('[data-node][data-role]').first().waitFor({ state: 'attached', timeout: 30_000 });
  await page.click('[data-tab="scenario"]');
  await page.fill('textarea[aria-label="scenario text"]', scenario);
  await page.click('button[aria-label="load pasted scenario"]');
  await page.click('button[aria-label="run all lines"]');
  await page.waitForSelector('[data-scenario][data-done="true"]', { timeout: 60_000 });
  await page.click('button[aria-label="close the scenario and keep playing freely"]');
  const entries = await page.locator('[data-index]').count();
  await page.selectOption('select[aria-label="speed"]', speed);
  await page.click('[data-tab="client"]');
  if (throttle > 1) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  }
  const cdpm = await page.context().newCDPSession(page);
  await cdpm.send('Performance.enable');
  const metrics = async () => Object.fromEntries((await cdpm.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  const m0 = await metrics();
  await page.click('.toolbar button[data-playing="false"]');

  const result = await page.evaluate(async (seconds) => {
    // Steady traffic: a write every 250 ms of wall time.
    const propose = document.querySelector('button[aria-label="propose write"]');
    const traffic = setInterval(() => propose.click(), 250);
    const state = () => document.querySelector('[data-now]');
    const intervals = [];
    const work = [];
    const t0 = performance.now();
    const now0 = Number(state().dataset.now);
    let last = t0;
    await new Promise((done) => {
      function frame(t) {
        intervals.push(t - last);
        last = t;
        work.push(Number(state().dataset.frameMs));
        if (t - t0 < seconds * 1000) requestAnimationFrame(frame);
        else done();
      }
      requestAnimationFrame(frame);
    });
    clearInterval(traffic);
    const elapsed = performance.now() - t0;
    const q = (xs, p) => {
      const s = [...xs].sort((a, b) => a - b);
      return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
    };
    return {
      frames: intervals.length,
      fps: (intervals.length * 1000) / elapsed,
      frameIntervalP50: q(intervals, 0.5),
      frameIntervalP95: q(intervals, 0.95),
      workP50: q(work, 0.5),
      workP95: q(work, 0.95),
      workMax: Math.max(...work),
      simMs: Number(state().dataset.now) - now0,
      wallMs: elapsed,
      maxTerm: Math.max(...[...document.querySelectorAll('[data-node][data-role]')].map((e) => Number(e.dataset.term))),
      logEntries: document.querySelectorAll('[data-index]').length,
    };
  }, seconds);
  const m1 = await metrics();
  const f = (x) => x.toFixed(1);
  const busy = (k) => `${k.replace('Duration', '')} ${f(((m1[k] - m0[k]) * 1000) / result.frames)}`;
  const perFrame = ['ScriptDuration', 'RecalcStyleDuration', 'LayoutDuration', 'TaskDuration'].map(busy).join(', ');
  console.log(
    `bench: 9 nodes, ${entries} log boxes at start (${result.logEntries} at end), traffic 4 writes/s, speed ${speed}x, CPU throttle ${throttle}x, ${seconds}s`,
  );
  console.log(
    `fps ${f(result.fps)} (${result.frames} frames) · frame interval p50 ${f(result.frameIntervalP50)} ms, p95 ${f(result.frameIntervalP95)} ms`,
  );
  console.log(
    `per-frame work (sim + view + DOM) p50 ${f(result.workP50)} ms, p95 ${f(result.workP95)} ms, max ${f(result.workMax)} ms`,
  );
  console.log(
    `simulated ${f(result.simMs / 1000)} s in ${f(result.wallMs / 1000)} s of wall time; highest term ${result.maxTerm}`,
  );
  console.log(`main-thread time per frame (ms): ${perFrame}`);
  await app.assertNoErrors();
} finally {
  await app.close();
}
