// Records which of the page's wasm functions a first visit runs, and writes the others to
// scripts/split-cold.txt: the list scripts/split-wasm.mjs moves into the second module,
// fetched only when one of them is first called. It also records which catalog texts the
// visits read and lists their keys in scripts/catalog-first.txt: the catalogs' first parts
// (scripts/split-catalog.mjs, src/i18n/parts.rs). Rerun it when the first visits' code or
// texts changed (`node tests/e2e/bench.mjs --part visit` says whether they fetch the second
// module or a catalog's second part):
//
//   node tests/e2e/split-profile.mjs [--keep DIR]
//
// It builds the app with RAFTLAB_SPLIT=instrument into target/split-profile (every function
// marks a global of its own when it first runs), serves it, and plays first-visit.mjs's
// VISITS in headless Chromium, each in a fresh browser: the landing page's full visit
// (lesson 1, the everyday faults and tabs) at 1280x720, 1024x768 in the dark theme, 390x844
// and in Chinese, and every narrated lesson opened by its link and played to its end card.
// A function is listed only if no function of the same name (without rustc's hashes) ran in
// any of them. --keep DIR uses the instrumented build in DIR instead of building one.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from './harness.mjs';
import { VISITS, playVisit } from './first-visit.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { stableName, COLD_LIST } = await import(join(ROOT, 'scripts', 'split-wasm.mjs'));
const args = process.argv.slice(2);
const keep = args.includes('--keep') ? args[args.indexOf('--keep') + 1] : null;
const DIST = keep ?? join(ROOT, 'target', 'split-profile');

if (!keep) {
  const build = spawnSync(
    'bash',
    ['-c', `source scripts/env.sh && raftlab_wasm_fetch && RAFTLAB_SPLIT=instrument raftlab_wasm trunk build --release --dist "${DIST}"`],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (build.status !== 0) throw new Error('the instrumented build failed');
}
const names = readFileSync(join(DIST, 'split-names.txt'), 'utf8').split('\n').slice(0, -1);

const server = spawn(process.execPath, [join(ROOT, 'tests', 'e2e', 'serve.mjs'), DIST, '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  server.stdout.on('data', (d) => {
    const m = /at (http:\/\/\S+)/.exec(String(d));
    if (m) resolve(m[1]);
  });
  server.on('exit', () => reject(new Error('serve.mjs stopped')));
});

const ran = new Set();
const read = new Set();

async function record(visit) {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({
      viewport: visit.viewport,
      colorScheme: visit.colorScheme ?? 'light',
      serviceWorkers: 'block',
    });
    const page = await context.newPage();
    await page.addInitScript(() => {
      addEventListener('TrunkApplicationStarted', (e) => {
        window.__wasm = e.detail?.wasm ?? null;
      });
    });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(new URL(visit.path, url).href);
    const { steps, shown } = await playVisit(page, visit);
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    const marks = await page.evaluate((n) => {
      const out = [];
      for (let k = 0; k < n; k++) out.push(window.__wasm[`~p${k}`].value);
      return out;
    }, names.length);
    marks.forEach((v, k) => v && ran.add(stableName(names[k])));
    const keys = await page.evaluate(() => window.wasmBindings.raftlab_catalog_used());
    for (const k of keys.split('\n')) if (k) read.add(k);
    console.log(`split-profile: ${visit.kind} ${visit.path || '/'} ${visit.viewport.width}x${visit.viewport.height}: lesson step ${shown} of ${steps}; ${ran.size} names ran so far`);
  } finally {
    await browser.close();
  }
}

try {
  for (const visit of VISITS) await record(visit);
} finally {
  server.kill();
}
const cold = [...new Set(names.map(stableName))].filter((n) => !ran.has(n)).sort();
writeFileSync(
  COLD_LIST,
  '# The page wasm\'s functions a first visit never runs (by name, without rustc\'s hash):\n' +
    '# scripts/split-wasm.mjs moves them to the second module. Written by\n' +
    '# tests/e2e/split-profile.mjs; do not edit by hand.\n' +
    cold.join('\n') +
    '\n',
);
console.log(`split-profile: ${names.length} functions, ${ran.size} names ran, ${cold.length} names cold -> ${COLD_LIST}`);
const { FIRST_LIST } = await import(join(ROOT, 'scripts', 'split-catalog.mjs'));
const head = readFileSync(FIRST_LIST, 'utf8').split('\n').filter((l) => l.startsWith('#'));
writeFileSync(FIRST_LIST, [...head, ...[...read].sort()].join('\n') + '\n');
console.log(`split-profile: ${read.size} catalog texts read -> ${FIRST_LIST}`);
