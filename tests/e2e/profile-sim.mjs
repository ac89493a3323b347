// Where the page's wasm spends the simulation's time: a CPU profile (DevTools' sampling
// profiler) of the benchmark entry raftlab_run_text on bench.mjs's sim scenario, self time
// grouped by function. Figures, not assertions. Function names need a build that keeps the
// wasm name section: build with RAFTLAB_WASM_NAMES=1 (scripts/split-wasm.mjs).
//
//   node tests/e2e/profile-sim.mjs [--writes 5000] [--top 40] [--url URL]
import { openApp, APP_URL } from './harness.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : dflt;
};
const writes = Number(opt('writes', '5000'));
const top = Number(opt('top', '40'));
const url = new URL('?paused=1', opt('url', APP_URL)).href;

const lines = ['cluster 5 seed=3', 'await leader != none within 60'];
for (let i = 0; i < writes; i++) lines.push(`propose k${i}=v${i}`, 'tick 1');
const scenario = lines.join('\n') + '\n';

const app = await openApp({ path: url });
try {
  const { page } = app;
  await page.locator('[data-node][data-role]').first().waitFor({ state: 'attached', timeout: 60_000 });
  const run = () => page.evaluate((text) => window.wasmBindings.raftlab_run_text(text), scenario);
  await run(); // tiered up before the profiled call
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  const out = JSON.parse(await run());
  const { profile } = await cdp.send('Profiler.stop');
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  profile.samples.forEach((id, i) => {
    const n = byId.get(id);
    const name = n.callFrame.functionName || `(${n.callFrame.url.split('/').pop() || 'program'})`;
    self.set(name, (self.get(name) ?? 0) + (dt[i + 1] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`profile: ${out.time_ms / 100} ticks, fingerprint ${out.fingerprint}; ${(total / 1000).toFixed(1)} ms sampled`);
  for (const [name, us] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(1).padStart(7)} ms  ${name.slice(0, 160)}`);
  }
  await app.assertNoErrors();
} finally {
  await app.close();
}
