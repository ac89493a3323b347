// UI benchmarks in headless Chromium (figures, not assertions). Parts:
//   fps     --nodes nodes (9; up to 64), ~200-entry logs, steady client traffic, playing at --speed: fps, frame
//           intervals, per-frame work (simulation + view + DOM patch, as the app measures it in
//           data-frame-ms), long tasks, main-thread time per frame; first the ceiling: a blank
//           page that only runs requestAnimationFrame in the same browser, so the app's fps is
//           read against what headless Chromium on this machine delivers at all. --trace adds a
//           DevTools trace of the sampled seconds: main-thread self time per frame by event;
//           --mutations counts DOM mutation records by region (its observer runs inside the
//           timed frames, so fps and frame work are read from a run without it).
//   writes  5 nodes playing at 20x with a write per model-second for --minutes model-minutes,
//           to distinct keys and to one key: fps, frame work p50/p95, long tasks, and the wasm
//           memory (and JS heap) at the end. The issue's figure is --minutes 61.
//   cold    --runs fresh browsers load the app: time until the cluster is drawn (interactive),
//           and the bytes of every file loaded, raw and gzipped; then the size of the wasm's
//           second part, which a first visit does not load (scripts/split-wasm.mjs).
//   visit   --runs fresh browsers each play three of first-visit.mjs's recorded first visits
//           (the landing page's full visit in English and in Chinese, lesson 15 by its link):
//           what each transferred, and whether it needed the wasm's second part.
//   idle    a 5-node cluster after its election, no client traffic, --seconds each: playing at
//           --speed (heartbeats fly, so messages move), paused (nothing moves), and playing in
//           a tab another tab hides: the page's main-thread CPU (DevTools' ThreadTime) and the
//           CPU of every Chromium process on the machine (/proc), as shares of one core.
//   explore the free run playing (3 nodes, teaching pace) for --seconds without, then with an
//           explore search running in its Web Worker: fps, frame intervals, per-frame work,
//           long tasks, schedules per second in the worker, and the worker's files (fetched
//           only when a search starts), raw and gzipped.
//   sim     the same scenario (5 nodes, --writes writes to distinct keys, one a tick) run to
//           its end, --runs times each way: in wasm by the page's benchmark entry (simulation
//           alone, nothing drawn; first call, second call, and tiered up: calls 6-10 in the
//           same page) and by the app's "run all" (simulation, its history, one redraw of the
//           page, the script's closed list not drawn); natively by `raftlab bench --scenario`
//           (in-process, the same work as the entry: the first run and, warm, runs 2-6) and
//           `raftlab run --json` (the whole process; RAFTLAB_BIN or target/release/raftlab);
//           and, if built (`cargo build --profile web --bin raftlab`, or RAFTLAB_WEB_BIN), the
//           same code compiled natively as the bundle is (profile web: the engine at opt-level
//           3, the UI at z), which splits the ratio into the profile's part and wasm's. Simulated ticks per second of CPU time (the
//           page's main thread, from DevTools' ThreadTime; the process's user + system time),
//           the page work beyond the simulation, the ratios, then --pairs pairs of a tiered-up
//           wasm call and a warm native run taken back to back (the median of their ratios:
//           the steadier figure on a machine whose speed drifts), and all fingerprints (equal:
//           every run did the same thing). The kinds run interleaved, one of each a round,
//           order rotated.
//
//   node tests/e2e/bench.mjs [--part fps|writes|cold|visit|sim|explore|idle|all] [--seconds 10] [--throttle 1]
//                            [--speed 1] [--minutes 5] [--keys distinct|one|both] [--runs 3]
//                            [--writes 20000] [--pairs 15] [--nodes 9] [--trace] [--mutations] [--url URL]
//
// The app must be served (scripts/serve.sh, or node tests/e2e/serve.mjs dist PORT); RAFTLAB_URL
// or --url says where. --throttle N slows the CPU N times (Chrome DevTools emulation).
import { gzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApp, launchBrowser, isLocalUrl, APP_URL } from './harness.mjs';
import { VISITS, playVisit } from './first-visit.mjs';
import { runPastedScenario, fingerprintOf } from './raftlab.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : dflt;
};
const part = opt('part', 'all');
const seconds = Number(opt('seconds', '10'));
const throttle = Number(opt('throttle', '1'));
const speed = opt('speed', '1');
const minutes = Number(opt('minutes', '5'));
const keys = opt('keys', 'both');
const runs = Number(opt('runs', '3'));
// 20,000 writes take ~200 ms natively: the native CPU clock (getrusage) moves in 4 ms steps,
// which read a 50 ms run (5,000 writes) to within +-8%.
const writes = Number(opt('writes', '20000'));
const pairs = Number(opt('pairs', '15'));
const nodes = Number(opt('nodes', '9'));
const trace = args.includes('--trace');
const withMutations = args.includes('--mutations');
// (harness.mjs reads RAFTLAB_URL when imported, before --url could set it)
const BASE = opt('url', APP_URL);
const at = (path) => new URL(path, BASE).href;
const f1 = (x) => x.toFixed(1);
const quantile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
};

// Runs before the app: records long tasks, and keeps the wasm instance's memory (trunk's
// loader announces the instance with a TrunkApplicationStarted event).
const PROBES = () => {
  window.__bench = { longTasks: [], memory: null };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.longTasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });
  addEventListener('TrunkApplicationStarted', (e) => {
    window.__bench.memory = e.detail?.wasm?.memory ?? null;
  });
  // The one frame sampler of every part: each animation frame's interval, the app's own work
  // in it (data-frame-ms; none on a blank page) and the long tasks while it ran, for as long
  // as more(ms since start) says.
  window.__bench.sample = (more) =>
    new Promise((done) => {
      const intervals = [];
      const work = [];
      const longBefore = window.__bench.longTasks.length;
      const t0 = performance.now();
      let last = t0;
      function frame(t) {
        intervals.push(t - last);
        last = t;
        const ms = document.querySelector('[data-now]')?.dataset.frameMs;
        if (ms !== undefined) work.push(Number(ms));
        if (more(t - t0)) requestAnimationFrame(frame);
        else done({ intervals, work, longTasks: window.__bench.longTasks.slice(longBefore), wallMs: performance.now() - t0 });
      }
      requestAnimationFrame(frame);
    });
};

async function openWithProbes(path) {
  const app = await openApp({ path: at(path) });
  await app.page.addInitScript(PROBES);
  await app.page.goto(at(path));
  await app.page.locator('[data-node][data-role]').first().waitFor({ state: 'attached', timeout: 60_000 });
  return app;
}

// Pastes `scenario` into the Scenario tab, runs all its lines, then closes it and keeps the
// cluster it left to play freely (still paused when the page was opened paused).
async function playFreelyAfter(page, scenario) {
  await runPastedScenario(page, scenario);
  await page.click('button[aria-label="close the scenario and keep playing freely"]');
}

// The main thread's CPU time so far, ms (DevTools' ThreadTime), through a function `page`'s
// CDP session answers; older Chromium lacks it: null.
async function cpuClock(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' }).catch(() => cdp.send('Performance.enable'));
  return async () => {
    const t = (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime')?.value;
    return t == null ? null : t * 1000;
  };
}

const memoryNow = (page) =>
  page.evaluate(() => ({
    wasm: window.__bench.memory?.buffer?.byteLength ?? null,
    js: performance.memory?.usedJSHeapSize ?? null,
  }));
const mb = (b) => (b == null ? 'unknown' : `${f1(b / 1e6)} MB`);

// Frame intervals by how many display refreshes (16.7 ms at 60 Hz) they span: "1" is a frame
// on time, "2" one refresh missed, and so on.
function intervalWords(intervals) {
  const buckets = [
    ['1 (<= 20 ms)', (x) => x <= 20],
    ['2 (20-36)', (x) => x > 20 && x <= 36],
    ['3 (36-52)', (x) => x > 36 && x <= 52],
    ['4+ (> 52)', (x) => x > 52],
  ];
  return buckets.map(([name, inside]) => `${name}: ${intervals.filter(inside).length}`).join(', ');
}

// The pacing ceiling of this browser on this machine: a blank page whose only work is a
// requestAnimationFrame loop, sampled exactly as the app's frames are.
async function ceilingFrames(seconds) {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.setContent('<!doctype html><title>rAF only</title><p>rAF only</p>');
    await page.evaluate(PROBES);
    return await page.evaluate((seconds) => window.__bench.sample((ms) => ms < seconds * 1000), seconds);
  } finally {
    await browser.close();
  }
}

// Main-thread self time by trace event name (DevTools timeline categories), per frame: where
// a frame's time goes outside the app's own measurement (style, layout, paint, GC, timers).
function traceSummary(buffer, frames) {
  const events = JSON.parse(buffer.toString('utf8'));
  const list = Array.isArray(events) ? events : events.traceEvents;
  const main = list.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return 'no renderer main thread in the trace';
  const xs = list
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur != null)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const self = new Map();
  const stack = [];
  for (const e of xs) {
    while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur <= e.ts) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - e.dur);
    self.set(e.name, (self.get(e.name) ?? 0) + e.dur);
    stack.push(e);
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 14);
  return `busy ${f1(total / 1000 / frames)} ms per frame; self time per frame (ms): ${top.map(([n, d]) => `${n} ${(d / 1000 / frames).toFixed(2)}`).join(', ')}`;
}

async function fpsPart() {
  // A scenario that builds 200-entry logs on `nodes` nodes.
  const lines = [`cluster ${nodes} seed=7`, 'await leader != none within 60'];
  for (let i = 1; i <= 200; i++) lines.push(`propose k${i % 20}=${i}`);
  lines.push('tick 30');
  const scenario = lines.join('\n') + '\n';

  const ceiling = await ceilingFrames(seconds);
  console.log(
    `fps:     ceiling (blank page, rAF only, same browser flags): ${f1((ceiling.intervals.length * 1000) / ceiling.wallMs)} fps · frame interval p50 ${f1(quantile(ceiling.intervals, 0.5))} ms, p95 ${f1(quantile(ceiling.intervals, 0.95))} ms · in refreshes: ${intervalWords(ceiling.intervals)}`,
  );

  const app = await openWithProbes('?paused=1');
  const { page } = app;
  try {
    await playFreelyAfter(page, scenario);
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
    if (trace) {
      await app.browser.startTracing(page, { categories: ['devtools.timeline', 'v8', 'disabled-by-default-devtools.timeline'] });
    }

    const result = await page.evaluate(async ([seconds, withMutations]) => {
      // Steady traffic: a write every 250 ms of wall time.
      const propose = document.querySelector('button[aria-label="propose write"]');
      const traffic = setInterval(() => propose.click(), 250);
      const state = () => document.querySelector('[data-now]');
      // DOM mutation records by region: a figure the machine's load does not move.
      const regions = [
        ['messages', '.cluster .msgs'],
        ['links', '.cluster .links'],
        ['nodes', '.cluster .nodes'],
        ['logs', '.logs'],
        ['events', '.event-list'],
        ['timeline', '.timeline'],
        ['toolbar', '.toolbar'],
      ];
      const mutations = Object.fromEntries([...regions.map(([k]) => [k, 0]), ['other', 0]]);
      // Opt-in (--mutations): the observer's own work runs inside the frames being timed.
      const observer = withMutations ? new MutationObserver((ms) => {
        for (const m of ms) {
          const el = m.target.nodeType === 1 ? m.target : m.target.parentElement;
          const hit = regions.find(([, sel]) => el?.closest(sel));
          mutations[hit ? hit[0] : 'other']++;
        }
      }) : null;
      observer?.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
      const now0 = Number(state().dataset.now);
      const sampled = await window.__bench.sample((ms) => ms < seconds * 1000);
      clearInterval(traffic);
      observer?.disconnect();
      return {
        mutations,
        ...sampled,
        simMs: Number(state().dataset.now) - now0,
        maxTerm: Math.max(...[...document.querySelectorAll('[data-node][data-role]')].map((e) => Number(e.dataset.term))),
        logEntries: document.querySelectorAll('[data-index]').length,
      };
    }, [seconds, withMutations]);
    const m1 = await metrics();
    const traced = trace ? await app.browser.stopTracing() : null;
    const frames = result.intervals.length;
    const busy = (k) => `${k.replace('Duration', '')} ${f1(((m1[k] - m0[k]) * 1000) / frames)}`;
    const perFrame = ['ScriptDuration', 'RecalcStyleDuration', 'LayoutDuration', 'TaskDuration'].map(busy).join(', ');
    console.log(
      `fps:     ${nodes} nodes, ${entries} log boxes at start (${result.logEntries} at end), traffic 4 writes/s, speed ${speed}x, CPU throttle ${throttle}x, ${seconds}s`,
    );
    console.log(
      `fps:     ${f1((frames * 1000) / result.wallMs)} (${frames} frames) · frame interval p50 ${f1(quantile(result.intervals, 0.5))} ms, p95 ${f1(quantile(result.intervals, 0.95))} ms`,
    );
    console.log(`fps:     frame intervals in display refreshes: ${intervalWords(result.intervals)}`);
    console.log(
      `fps:     per-frame work (sim + view + DOM) p50 ${f1(quantile(result.work, 0.5))} ms, p95 ${f1(quantile(result.work, 0.95))} ms, max ${f1(Math.max(...result.work))} ms`,
    );
    console.log(`fps:     ${longTaskWords(result.longTasks)}`);
    console.log(`fps:     simulated ${f1(result.simMs / 1000)} s in ${f1(result.wallMs / 1000)} s of wall time; highest term ${result.maxTerm}`);
    console.log(`fps:     main-thread time per frame (ms): ${perFrame}`);
    // Per simulated second too: a slow frame rate coalesces moves, so per frame alone misleads.
    const muts = Object.entries(result.mutations)
      .map(([k, n]) => `${k} ${f1(n / frames)} (${f1((n * 1000) / Math.max(1, result.simMs))})`)
      .join(', ');
    if (withMutations) console.log(`fps:     DOM mutation records per frame (per simulated second) by region: ${muts}`);
    if (traced) console.log(`fps:     traced (tracing costs a little): ${traceSummary(traced, frames)}`);
    await app.assertNoErrors();
  } finally {
    await app.close();
  }
}

function longTaskWords(ts) {
  if (ts.length === 0) return 'no long task (> 50 ms)';
  const s = [...ts].sort((a, b) => a - b);
  return `${ts.length} long tasks (> 50 ms): ${f1(s[0])}–${f1(s[s.length - 1])} ms`;
}

// 5 nodes at 20x, a write per model-second, for `minutes` model-minutes.
async function writesPart(distinct) {
  const app = await openWithProbes('?paused=1');
  const { page } = app;
  try {
    await page.click('[data-tab="client"]');
    await page.selectOption('select[aria-label="speed"]', '20');
    const before = await memoryNow(page);
    await page.click('.toolbar button[data-playing="false"]');
    const result = await page.evaluate(
      async ({ minutes, distinct }) => {
        const propose = document.querySelector('button[aria-label="propose write"]');
        const key = document.querySelector('input[aria-label="key to write"]');
        const value = document.querySelector('input[aria-label="value to write"]');
        const state = () => document.querySelector('[data-now]');
        const set = (input, text) => {
          input.value = text;
          input.dispatchEvent(new Event('input', { bubbles: true }));
        };
        const start = Number(state().dataset.now);
        const end = start + minutes * 60_000;
        let written = 0;
        // yew takes a typed value in its own task, so the click waits for one.
        const settle = () => new Promise((r) => setTimeout(r, 0));
        let running = true;
        // The writer runs beside the frames (not inside them, so frames are sampled as the
        // app produces them): every model-second passed is a write due.
        const writer = (async () => {
          while (running) {
            const now = Number(state().dataset.now);
            if (start + written * 1000 <= now && written < minutes * 60) {
              set(key, distinct ? `k${written}` : 'k');
              set(value, `v${written}`);
              await settle();
              propose.click();
              written += 1;
            } else {
              await new Promise((r) => setTimeout(r, 10));
            }
          }
        })();
        // Ends once the model time is up and every write due in it was made (on a slow
        // machine the writer lags and the model runs on a little).
        const sampled = await window.__bench.sample(() => Number(state().dataset.now) < end || written < minutes * 60);
        running = false;
        await writer;
        // The keys that reached the logs (what the log view shows), to see the writes landed.
        const labels = new Set([...document.querySelectorAll('[data-label]')].map((e) => e.dataset.label.split('=')[0]));
        const modelMinutes = (Number(state().dataset.now) - start) / 60_000;
        return { ...sampled, written, modelMinutes, keysSeen: labels.size };
      },
      { minutes, distinct },
    );
    await page.click('.toolbar button[data-playing="true"]');
    const after = await memoryNow(page);
    const frames = result.intervals.length;
    const label = distinct ? 'distinct keys' : 'one key     ';
    console.log(
      `writes:  5 nodes, 20x, ${f1(result.modelMinutes)} model-minutes, ${result.written} writes to ${label}: fps ${f1((frames * 1000) / result.wallMs)}, frame work p50 ${f1(quantile(result.work, 0.5))} ms, p95 ${f1(quantile(result.work, 0.95))} ms, ${longTaskWords(result.longTasks)}`,
    );
    console.log(
      `writes:  wasm memory ${mb(before.wasm)} at start, ${mb(after.wasm)} at the end; JS heap ${mb(after.js)}; ${result.keysSeen} distinct keys in the log boxes shown`,
    );
    await app.assertNoErrors();
  } finally {
    await app.close();
  }
}

// Every response `page` receives from now on, as { url, body }, in a list that grows. The body
// is fetched again from the server here: the site is static files, and the browser's copy of a
// preloaded text (index.html preloads the first catalog part) came back through the DevTools
// protocol decoded as Latin-1 and re-encoded, 40 KB for zh.1.txt's 25 KB.
function responseBodies(page) {
  const bodies = [];
  page.on('response', async (r) => {
    if (r.status() !== 200) return; // redirects and aborted requests have no body
    try {
      bodies.push({ url: r.url(), body: Buffer.from(await (await fetch(r.url())).arrayBuffer()) });
    } catch {
      // the server went away with the page
    }
  });
  return bodies;
}

// The recorded first visits (first-visit.mjs; the landing page's full visit in English and in
// Chinese, and lesson 15 by its link), each in --runs fresh browsers: what each transferred in
// all, and whether it needed the wasm's second part (scripts/split-wasm.mjs) or a catalog's
// second part (scripts/split-catalog.mjs).
async function visitPart() {
  const picked = VISITS.filter((v, i) => i === 0 || v.path === '?lang=zh' || v.path === '?preset=15-probe-replicate-snapshot');
  for (const visit of picked) {
    const seen = [];
    for (let i = 0; i < runs; i++) {
      const browser = await launchBrowser();
      try {
        const context = await browser.newContext({ viewport: visit.viewport, serviceWorkers: 'block' });
        const page = await context.newPage();
        const bodies = responseBodies(page);
        await page.goto(at(visit.path));
        await playVisit(page, visit);
        const gz = bodies.reduce((n, f) => n + gzipSync(f.body, { level: 9 }).length, 0);
        const second = bodies.some((f) => /\/split-[0-9a-f]{16}\.wasm$/.test(f.url));
        const rest = bodies.filter((f) => /\/i18n\/(en|zh)\.2\.txt$/.test(f.url)).map((f) => new URL(f.url).pathname);
        seen.push(
          `${f1(gz / 1000)} KB gzipped in ${bodies.length} files, ${second ? 'with' : 'without'} the second part, ${rest.length ? `with ${rest.join(', ')}` : 'no catalog rest'}`,
        );
      } finally {
        await browser.close();
      }
    }
    console.log(`visit:   ${visit.kind} ${visit.path || '/'} ${visit.viewport.width}x${visit.viewport.height}: ${seen.join('; ')}`);
  }
}

// Fresh browsers (empty cache) load the app; time until the cluster is drawn.
async function coldPart() {
  const times = [];
  let files = [];
  let split = null;
  for (let i = 0; i < runs; i++) {
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
      await context.route('**/*', (route) =>
        isLocalUrl(route.request().url()) ? route.continue() : route.abort('blockedbyclient'),
      );
      const page = await context.newPage();
      const bodies = responseBodies(page);
      await page.addInitScript(() => {
        window.__interactive = new Promise((resolve) => {
          const seen = () => document.querySelector('[data-node][data-role]');
          const check = () => (seen() ? resolve(performance.now()) : requestAnimationFrame(check));
          check();
        });
      });
      await page.goto(at('?paused=1'));
      times.push(await page.evaluate(() => window.__interactive));
      await page.waitForLoadState('networkidle');
      files = bodies;
      // The wasm's second part (scripts/split-wasm.mjs), fetched when a rarer panel first needs it.
      const second = await page.evaluate(() => document.querySelector('meta[name="raftlab-split"]')?.content ?? null);
      split = second && { url: at(second), body: Buffer.from(await (await fetch(at(second))).arrayBuffer()) };
    } finally {
      await browser.close();
    }
  }
  const raw = files.reduce((n, f) => n + f.body.length, 0);
  const gz = files.reduce((n, f) => n + gzipSync(f.body, { level: 9 }).length, 0);
  console.log(
    `cold:    interactive (cluster drawn) after ${times.map(f1).join(', ')} ms; median ${f1(quantile(times, 0.5))} ms (${runs} fresh browsers)`,
  );
  console.log(`cold:    ${files.length} files, ${f1(raw / 1000)} KB, gzipped ${f1(gz / 1000)} KB`);
  for (const f of files) {
    console.log(`cold:      ${new URL(f.url).pathname} ${f1(f.body.length / 1000)} KB, gzipped ${f1(gzipSync(f.body, { level: 9 }).length / 1000)} KB`);
  }
  if (split) {
    if (files.some((f) => f.url === split.url)) console.log('cold:    the first load fetched the wasm\'s second part');
    console.log(
      `cold:    not loaded: ${new URL(split.url).pathname} ${f1(split.body.length / 1000)} KB, gzipped ${f1(gzipSync(split.body, { level: 9 }).length / 1000)} KB (the wasm's second part, fetched when first needed)`,
    );
  }
}

// The same scenario through the app's wasm and natively, four ways, so the ratio's parts show:
// the simulation alone (the page's benchmark entry, nothing drawn; `raftlab bench --scenario`
// in-process natively: both call sim::player::run_text) and the whole of what a person waits
// for (the app's "run all", which includes the run's history and a redraw of the page; the
// scenario's lines are drawn only while "show script" is open, and it is closed here; `raftlab run --json`
// as a process).
async function simPart() {
  const lines = ['cluster 5 seed=3', 'await leader != none within 60'];
  for (let i = 0; i < writes; i++) lines.push(`propose k${i}=v${i}`, 'tick 1');
  const scenario = lines.join('\n') + '\n';
  const bin = process.env.RAFTLAB_BIN || fileURLToPath(new URL('../../target/release/raftlab', import.meta.url));

  const span = (a, b) => (a != null && b != null ? b - a : null);
  // The run of median time among `rs` (CPU time where known, else wall).
  const medianRun = (rs) => {
    const k = rs.every((r) => r.cpu != null) ? 'cpu' : 'wall';
    return [...rs].sort((a, b) => a[k] - b[k])[Math.floor(rs.length / 2)];
  };

  // The simulation alone in a fresh page, the entry called `calls` times. The first call
  // ("cold") also pays for V8 compiling the wasm: Liftoff (the baseline compiler) first, then
  // TurboFan for each function once it has run enough, in the background; the app's "run all"
  // in a fresh page is such a call. The second call ("second") still runs some functions as
  // Liftoff code (on this machine's kind it takes ~1.2x the time of later calls). "tiered up"
  // is the median of the last five calls, once every hot function is TurboFan code: the
  // figure to compare with the native warm run (the same process running it again).
  const calls = 10;
  const cold = [];
  const second = [];
  const warm = [];
  // One call of the entry in `page`, timed by the wall clock and by `cpu` (cpuClock's).
  const entryCall = async (page, cpu) => {
    const before = await cpu();
    const out = await page.evaluate((text) => {
      const t0 = performance.now();
      const json = window.wasmBindings.raftlab_run_text(text);
      return { wall: performance.now() - t0, ...JSON.parse(json) };
    }, scenario);
    const after = await cpu();
    if (out.error) throw new Error(`benchmark entry: ${out.error}`);
    return { ticks: out.time_ms / 100, wall: out.wall, cpu: span(before, after), fingerprint: out.fingerprint };
  };
  const entryRun = async () => {
    const app = await openWithProbes('?paused=1');
    const { page } = app;
    try {
      const cpu = await cpuClock(page);
      const all = [];
      for (let c = 0; c < calls; c++) all.push(await entryCall(page, cpu));
      cold.push(all[0]);
      second.push(all[1]);
      warm.push(medianRun(all.slice(-5)));
      await app.assertNoErrors();
    } finally {
      await app.close();
    }
  };

  // The app's "run all": the simulation with its history, then one redraw of the page (the
  // "show script" list is closed, so not of the script's lines).
  const wasm = [];
  const runAll = async () => {
    const app = await openWithProbes('?paused=1');
    const { page } = app;
    try {
      await page.click('[data-tab="scenario"]');
      // One input event with the whole text (typing it would take minutes).
      await page.evaluate((text) => {
        const area = document.querySelector('textarea[aria-label="scenario text"]');
        area.value = text;
        area.dispatchEvent(new Event('input', { bubbles: true }));
      }, scenario);
      await page.click('button[aria-label="load pasted scenario"]');
      const cpu = await cpuClock(page);
      const before = await cpu();
      const wall = await page.evaluate(async () => {
        const t0 = performance.now();
        document.querySelector('button[aria-label="run all lines"]').click();
        await new Promise((done) => {
          const check = () => (document.querySelector('[data-scenario][data-done="true"]') ? done() : setTimeout(check, 0));
          check();
        });
        return performance.now() - t0;
      });
      const after = await cpu();
      const now = Number(await page.getAttribute('[data-now]', 'data-now'));
      const fingerprint = await fingerprintOf(page);
      wasm.push({ ticks: now / 100, wall, cpu: span(before, after), fingerprint });
      await app.assertNoErrors();
    } finally {
      await app.close();
    }
  };

  const native = [];
  const nativeAlone = [];
  const file = join(mkdtempSync(join(tmpdir(), 'raftlab-bench-')), 'sim.scn');
  writeFileSync(file, scenario);
  // /usr/bin/time reports the child's CPU time; without it, only wall time is known.
  const timed = existsSync('/usr/bin/time');
  const processRun = async () => {
    const t0 = performance.now();
    const cmd = timed ? ['/usr/bin/time', ['-f', '%U %S', bin, 'run', '--json', file]] : [bin, ['run', '--json', file]];
    const out = spawnSync(cmd[0], cmd[1], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const wall = performance.now() - t0;
    if (out.status !== 0) throw new Error(`${bin} run failed: ${out.stderr}`);
    const json = JSON.parse(out.stdout);
    let cpu = null;
    if (timed) {
      const [user, sys] = out.stderr.trim().split('\n').pop().split(' ').map(Number);
      // /usr/bin/time counts in 10 ms steps: a shorter run reads 0, which would make its
      // rate infinite, so it counts as unknown (the ratio then falls back to wall time).
      cpu = user + sys > 0 ? (user + sys) * 1000 : null;
    }
    native.push({ ticks: json.time_ms / 100, wall, cpu, fingerprint: json.fingerprint });
  };
  // `n` runs of the scenario in one process of `exe`, as `raftlab bench --scenario` prints them.
  const inProcessRuns = (exe, n) => {
    const out = spawnSync(exe, ['bench', '--scenario', file, '--runs', String(n)], { encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`${exe} bench --scenario failed: ${out.stderr}`);
    const all = [];
    for (const m of out.stdout.matchAll(/(\d+) ticks, cpu ([\d.]+|unknown) ms, wall ([\d.]+) ms, \d+ failed lines, fingerprint (\w+)/g)) {
      // getrusage's CPU time moves in scheduler ticks: 0 means under one, not free.
      const cpu = m[2] === 'unknown' || Number(m[2]) === 0 ? null : Number(m[2]);
      all.push({ ticks: Number(m[1]), cpu, wall: Number(m[3]), fingerprint: m[4] });
    }
    if (all.length !== n) throw new Error(`${exe} bench --scenario printed ${all.length} runs, not ${n}`);
    return all;
  };
  // Six runs in one process: the first (its memory not yet mapped, its caches cold) and the
  // median of the other five ("warm").
  const nativeWarm = [];
  const inProcessWith = (exe, alone, warmRuns) => async () => {
    const all = inProcessRuns(exe, 6);
    alone?.push(all[0]);
    warmRuns.push(medianRun(all.slice(1)));
  };
  const inProcess = inProcessWith(bin, nativeAlone, nativeWarm);
  // The same code compiled natively as the bundle is (profile web: the engine at opt-level 3,
  // the UI at z), if built (`cargo build --profile web --bin raftlab`; RAFTLAB_WEB_BIN
  // overrides): it splits the ratio into what the bundle's profile costs and what running as
  // wasm costs.
  const webBin = process.env.RAFTLAB_WEB_BIN || fileURLToPath(new URL('../../target/web/raftlab', import.meta.url));
  const nativeZWarm = [];
  const inProcessZ = inProcessWith(webBin, null, nativeZWarm);

  // Pairs taken back to back: a call of the entry in a page already tiered up, then a warm
  // native run (a process's second run), `pairs` times. On a shared 2-core machine the time a
  // run takes drifts by a third within seconds; the rounds below sample each kind seconds
  // apart, where one pair's two runs are ~0.5 s apart, so the median of the pairs' ratios is
  // the steadier figure of wasm against native.
  const paired = [];
  const pairedRun = async () => {
    const app = await openWithProbes('?paused=1');
    const { page } = app;
    try {
      const cpu = await cpuClock(page);
      for (let c = 0; c < calls - 1; c++) await entryCall(page, cpu);
      for (let i = 0; i < pairs; i++) {
        const w = await entryCall(page, cpu);
        const n = inProcessRuns(bin, 2)[1];
        if (w.cpu == null || n.cpu == null) break;
        paired.push({ wasm: w.cpu, native: n.cpu, fingerprints: [w.fingerprint, n.fingerprint] });
      }
      await app.assertNoErrors();
    } finally {
      await app.close();
    }
  };

  // Interleaved rounds, each kind once per round and the order rotated, so a change in the
  // machine's load during the part falls on every kind alike, not on whichever ran last.
  const kinds = existsSync(bin) ? [entryRun, runAll, processRun, inProcess] : [entryRun, runAll];
  if (existsSync(bin) && existsSync(webBin)) kinds.push(inProcessZ);
  for (let r = 0; r < runs; r++) {
    for (let k = 0; k < kinds.length; k++) await kinds[(r + k) % kinds.length]();
  }
  if (existsSync(bin) && pairs > 0) await pairedRun();

  const med = (xs) => quantile(xs, 0.5);
  const rateOf = (rs, k) => med(rs.map((r) => (r.ticks * 1000) / r[k]));
  const describe = (rs, k) => rs.map((r) => f1(r[k])).join(', ');
  const row = (label, rs) => {
    const c = rs.filter((r) => r.cpu != null);
    console.log(
      `sim:     ${label}: ${f1(rs[0].ticks)} ticks; wall ${describe(rs, 'wall')} ms${c.length ? `, CPU ${describe(c, 'cpu')} ms` : ''}; median ${f1(rateOf(rs, 'wall'))} ticks/s wall${c.length ? `, ${f1(rateOf(c, 'cpu'))} ticks/s CPU` : ''}`,
    );
  };
  // CPU time where both sides know it, else wall time.
  const ratio = (slow, fast) => {
    const [s, f] = [slow.filter((r) => r.cpu != null), fast.filter((r) => r.cpu != null)];
    return s.length && f.length ? `${(rateOf(f, 'cpu') / rateOf(s, 'cpu')).toFixed(2)}x (CPU)` : `${(rateOf(fast, 'wall') / rateOf(slow, 'wall')).toFixed(2)}x (wall)`;
  };
  console.log(`sim:     scenario: 5 nodes, ${writes} writes to distinct keys, one a tick (${lines.length} lines); ${runs} rounds, each kind once a round, order rotated`);
  row('wasm, simulation alone, cold (page entry raftlab_run_text, nothing drawn, first call in a fresh page)', cold);
  row('wasm, simulation alone, second call (the same entry again in the same page; partly still baseline code)', second);
  row(`wasm, simulation alone, tiered up (median of calls ${calls - 4}-${calls} in the same page)`, warm);
  row(`wasm, the app's "run all" (simulation + history + redraw; the ${lines.length}-line script's list closed), fresh pages`, wasm);
  const ac = cold.filter((r) => r.cpu != null);
  const wc = wasm.filter((r) => r.cpu != null);
  if (ac.length && wc.length) {
    const page = med(wc.map((r) => r.cpu)) - med(ac.map((r) => r.cpu));
    console.log(`sim:     page work in "run all" beyond the simulation (median CPU, run all minus cold entry): ${f1(page)} ms`);
  }
  if (native.length === 0) {
    console.log(`sim:     native: no binary at ${bin} (cargo build --release, or set RAFTLAB_BIN)`);
    return;
  }
  row('native, simulation alone, first run (raftlab bench --scenario, in-process)', nativeAlone);
  row('native, simulation alone, warm (median of runs 2-6 in the same process)', nativeWarm);
  row('native, raftlab run --json (whole process)', native);
  if (nativeZWarm.length) row('native built as the bundle (profile web: engine at 3, UI at z), warm (median of runs 2-6)', nativeZWarm);
  const prints = [...cold, ...second, ...warm, ...wasm, ...nativeAlone, ...nativeWarm, ...nativeZWarm]
    .map((r) => r.fingerprint)
    .concat(paired.flatMap((p) => p.fingerprints));
  const same = prints.every((f) => f === native[0].fingerprint);
  console.log(
    `sim:     wasm / native, simulation alone: cold / first run ${ratio(cold, nativeAlone)}, second call / first run ${ratio(second, nativeAlone)}, tiered up / warm ${ratio(warm, nativeWarm)} (like for like); app's run all / CLI process: ${ratio(wasm, native)}`,
  );
  if (nativeZWarm.length) {
    console.log(
      `sim:     the tiered-up ratio's two factors: wasm / native built as the bundle ${ratio(warm, nativeZWarm)} (running as wasm), native as the bundle / native release ${ratio(nativeZWarm, nativeWarm)} (the bundle's profile)`,
    );
  } else {
    console.log(`sim:     (no ${webBin}: \`cargo build --profile web --bin raftlab\` splits the ratio into the profile's part and wasm's)`);
  }
  if (paired.length) {
    const rs = paired.map((p) => p.wasm / p.native);
    console.log(
      `sim:     wasm / native, paired (${paired.length} pairs back to back: a tiered-up call, then a warm native run; CPU): median ${med(rs).toFixed(2)}x, middle half ${quantile(rs, 0.25).toFixed(2)}-${quantile(rs, 0.75).toFixed(2)}x; wasm median ${f1(med(paired.map((p) => p.wasm)))} ms, native ${f1(med(paired.map((p) => p.native)))} ms`,
    );
  }
  console.log(`sim:     fingerprints ${same ? `equal (${native[0].fingerprint})` : `DIFFER: ${prints.join(', ')} vs native ${native[0].fingerprint}`}`);
}

// Frames for `seconds` of wall time: intervals, per-frame work (data-frame-ms), long tasks.
function sampleFrames(page, seconds) {
  return page.evaluate((seconds) => window.__bench.sample((ms) => ms < seconds * 1000), seconds);
}

async function explorePart() {
  const app = await openWithProbes('');
  const { page } = app;
  const tried = () => page.evaluate(() => Number(document.querySelector('[data-explore-state]')?.dataset.exploreTried ?? 0));
  const ms = () => page.evaluate(() => Number(document.querySelector('[data-explore-state]')?.dataset.exploreMs ?? 0));
  const report = (label, r) => {
    const frames = r.intervals.length;
    console.log(
      `explore: ${label}: ${f1((frames * 1000) / r.wallMs)} fps (${frames} frames) · frame interval p50 ${f1(quantile(r.intervals, 0.5))} ms, p95 ${f1(quantile(r.intervals, 0.95))} ms · per-frame work p50 ${f1(quantile(r.work, 0.5))} ms, p95 ${f1(quantile(r.work, 0.95))} ms · ${longTaskWords(r.longTasks)}`,
    );
  };
  try {
    await page.click('[data-tab="explore"]');
    const idle = await sampleFrames(page, seconds);
    report(`free run playing, no search, ${seconds}s`, idle);
    await page.fill('[data-explore-field="schedules"]', '1000000');
    await page.fill('[data-explore-field="seconds"]', '');
    for (const f of ['loss', 'delay', 'member', 'transfer', 'compact']) await page.check(`[data-explore-allow="${f}"]`);
    const clicked = Date.now();
    await page.click('[data-explore-start]');
    await page.waitForFunction(() => Number(document.querySelector('[data-explore-state]')?.dataset.exploreTried) > 0, null, { timeout: 60_000 });
    console.log(`explore: first progress ${Date.now() - clicked} ms after Start (the worker's files fetched, its wasm unpacked and compiled, the first slice searched)`);
    const [t0, ms0] = [await tried(), await ms()];
    const busy = await sampleFrames(page, seconds);
    const [t1, ms1] = [await tried(), await ms()];
    report(`free run playing, search running in the worker, ${seconds}s`, busy);
    console.log(`explore: the worker tried ${t1 - t0} schedules in ${f1((ms1 - ms0) / 1000)} s: ${f1(((t1 - t0) * 1000) / Math.max(1, ms1 - ms0))} per second (every fault and action allowed)`);
    // The search may have ended meanwhile (found something, or its budget ran out): then
    // there is no Stop to click.
    const state = await page.evaluate(() => document.querySelector('[data-explore-state]')?.dataset.exploreState);
    if (state === 'running' || state === 'shrinking') await page.click('[data-explore-stop]');
    else console.log(`explore: the search had ended by then (${state})`);
    const files = app.requests.filter((u) => /explore_worker/.test(u));
    for (const url of [...new Set(files)]) {
      const body = Buffer.from(await (await fetch(url)).arrayBuffer());
      console.log(`explore:   ${new URL(url).pathname} ${f1(body.length / 1000)} KB, gzipped ${f1(gzipSync(body, { level: 9 }).length / 1000)} KB (fetched when the search started)`);
    }
    await app.assertNoErrors();
  } finally {
    await app.close();
  }
}

// Clock ticks per second of /proc's CPU times.
let clockTicks = null;

// CPU time used so far by every process whose name says Chromium (utime + stime, all
// threads), ms, from /proc; null where /proc is not there.
function chromiumCpu() {
  if (!existsSync('/proc/self/stat')) return null;
  clockTicks ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const close = stat.lastIndexOf(')');
    if (!/chrom/i.test(stat.slice(stat.indexOf('(') + 1, close))) continue;
    const fields = stat.slice(close + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / clockTicks;
}

async function idlePart() {
  const scenario = 'cluster 5 seed=3\nawait leader != none within 60\n';
  const app = await openWithProbes('?paused=1');
  const { page } = app;
  try {
    await playFreelyAfter(page, scenario);
    await page.selectOption('select[aria-label="speed"]', speed);
    const thread = await cpuClock(page);
    const measure = async (label) => {
      const [t0, c0, w0, s0] = [await thread(), chromiumCpu(), performance.now(), Number(await page.getAttribute('[data-now]', 'data-now'))];
      await new Promise((done) => setTimeout(done, seconds * 1000));
      const [t1, c1, w1, s1] = [await thread(), chromiumCpu(), performance.now(), Number(await page.getAttribute('[data-now]', 'data-now'))];
      // Both clocks in ms.
      const wall = w1 - w0;
      const share = (a, b) => (a == null || b == null ? 'unknown' : `${f1((100 * (b - a)) / wall)}%`);
      console.log(
        `idle:    ${label}, ${f1(wall / 1000)} s: page main thread ${share(t0, t1)} of a core, all Chromium processes ${share(c0, c1)}; simulated ${f1((s1 - s0) / 1000)} s`,
      );
    };
    await page.click('.toolbar button[data-playing="false"]');
    await page.waitForTimeout(1000);
    await measure(`5 nodes playing at ${speed}x, heartbeats only`);
    await page.click('.toolbar button[data-playing="true"]');
    await page.waitForTimeout(1000);
    await measure('5 nodes paused');
    await page.click('.toolbar button[data-playing="false"]');
    const front = await page.context().newPage();
    await front.bringToFront();
    await page.waitForTimeout(1000);
    const state = await page.evaluate(() => document.visibilityState);
    await measure(`5 nodes playing at ${speed}x in a tab behind another (document.visibilityState there: ${state}; headless Chromium may keep it "visible" and still slow its frames)`);
    await front.close();
    await app.assertNoErrors();
  } finally {
    await app.close();
  }
}

if (part === 'cold' || part === 'all') await coldPart();
if (part === 'visit' || part === 'all') await visitPart();
if (part === 'sim' || part === 'all') await simPart();
if (part === 'fps' || part === 'all') await fpsPart();
if (part === 'explore' || part === 'all') await explorePart();
if (part === 'idle' || part === 'all') await idlePart();
if (part === 'writes' || part === 'all') {
  if (keys !== 'one') await writesPart(true);
  if (keys !== 'distinct') await writesPart(false);
}
