// Shrinks the page's JS glue (wasm-bindgen's raftlab-<hash>.js) and the names at the
// wasm's interface in a release build, and puts the new files' sha384 into index.html's
// integrity attributes. Run by Trunk.toml's post_build hook:
// `node scripts/minify-glue.mjs STAGING_DIR`.
//
// Why here and not by trunk: trunk's own minifier fails on wasm-bindgen's glue, so trunk ships
// it as written (50 KB, 8.6 KB gzipped). terser (npm, pinned in scripts/env.sh and installed
// by scripts/setup.sh like wasm-opt) shortens its local names; it keeps property names and
// exports. Then every wasm import and wasm-bindgen export, whose names carry a hash that
// gzip cannot shrink, gets a short name in the wasm and the glue alike (below): together
// 4.2 KB gzipped instead of 8.6 for the glue, 2.7 KB less for the wasm. The service worker
// is minified too.
//
// Without terser a release build fails (a silently bigger bundle would skew the benchmarks);
// a debug build is left alone.

import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sri } from "./split-wasm.mjs";
import { loadTerser } from "./terser.mjs";
import * as W from "./wasm-module.mjs";

function fail(message) {
  console.error(`minify-glue: ${message}`);
  process.exit(1);
}

const staging = process.argv[2];
if (!staging) fail("usage: node scripts/minify-glue.mjs STAGING_DIR");
if (process.env.TRUNK_PROFILE && process.env.TRUNK_PROFILE !== "release") process.exit(0);

const terser = await loadTerser(fail);

const glue = readdirSync(staging).filter((f) => /^raftlab-[0-9a-f]+\.js$/.test(f));
if (glue.length !== 1) fail(`expected one raftlab-<hash>.js in ${staging}, found ${glue.length}`);
const jsPath = join(staging, glue[0]);
const before = readFileSync(jsPath);
const out = await terser.minify(before.toString("utf8"), {
  module: true,
  ecma: 2020,
  compress: true,
  mangle: true,
  format: { comments: false },
});
if (typeof out.code !== "string" || out.code.length === 0) fail(`terser gave no code for ${glue[0]}`);
// The wasm's import and export names: wasm-bindgen's carry a 16-hex-digit hash each
// (`__wbg_new_bb74001155cb8ca8`, `wasm_bindgen_<hash>___convert__closures_...`), ~6.7 KB of
// names that gzip cannot shrink much, written once in the wasm and once in the glue. Each gets
// a short name in both files. The glue's public exports (`raftlab_run_text`, `default`,
// `initSync`) and the wasm's `memory`/`main` keep theirs.
const wasmName = glue[0].replace(/\.js$/, "_bg.wasm");
const wasmPath = join(staging, wasmName);
const wasmBefore = readFileSync(wasmPath);
const { wasm: wasmAfter, renamed } = renameInterface(wasmBefore);
let code = out.code;
const seen = new Set();
code = code.replace(/[A-Za-z_$][A-Za-z0-9_$]*/g, (tok) => {
  const to = renamed.get(tok);
  if (to === undefined) return tok;
  seen.add(tok);
  return to;
});
// Every import must be found in the glue (the glue supplies each one); an export the glue
// never calls may be missing.
for (const [from, to] of renamed) {
  if (to.startsWith("$") && !seen.has(from)) fail(`import ${from} not found in ${glue[0]}`);
}
const after = Buffer.from(code, "utf8");

// index.html names the glue with its hash twice at most (the module import has none; the
// modulepreload link has one). Every occurrence must change, or the browser refuses the file.
const htmlPath = join(staging, "index.html");
const html = readFileSync(htmlPath, "utf8");
const oldSri = sri(before);
const count = html.split(oldSri).length - 1;
if (count === 0) fail(`index.html has no integrity ${oldSri} for ${glue[0]}`);
// The service worker (static/sw.js, copied as written) is fetched on every first visit too.
// A classic script: terser keeps its top-level names (`toplevel` is off).
const swPath = join(staging, "sw.js");
const swBefore = readFileSync(swPath);
const sw = await terser.minify(swBefore.toString("utf8"), {
  ecma: 2020,
  compress: true,
  mangle: true,
  format: { comments: false },
});
if (typeof sw.code !== "string" || sw.code.length === 0) fail("terser gave no code for sw.js");
writeFileSync(swPath, sw.code);

const oldWasmSri = sri(wasmBefore);
if (!html.includes(oldWasmSri)) fail(`index.html has no integrity ${oldWasmSri} for ${wasmName}`);
writeFileSync(jsPath, after);
writeFileSync(wasmPath, wasmAfter);
writeFileSync(
  htmlPath,
  html.split(oldSri).join(sri(after)).split(oldWasmSri).join(sri(wasmAfter)),
);
console.log(
  `minify-glue: ${glue[0]} ${before.length} -> ${after.length} bytes, ` +
    `sw.js ${swBefore.length} -> ${sw.code.length} bytes, ` +
    `${wasmName} ${wasmBefore.length} -> ${wasmAfter.length} bytes (${renamed.size} names); ` +
    `integrity attributes updated`,
);

// The wasm with its imports and wasm-bindgen's exports renamed, and the map old -> new.
// Imports become `$0`, `$1`, ...; exports `_0`, `_1`, ... (the glue reads them as
// `wasm.NAME`; names of two kinds never meet).
function renameInterface(b) {
  const renamed = new Map();
  let imports = 0;
  let exports = 0;
  const rename = (name, to) => {
    if (to !== name) {
      if (renamed.has(name)) fail(`${wasmName}: ${name} twice`);
      renamed.set(name, to);
    }
    return to;
  };
  let sections;
  try {
    sections = W.sections(b).map(({ id, body }) => {
      if (id === 2) {
        const entries = W.readImports(body).map((e) => ({
          ...e,
          field: rename(e.field, e.kind === 0 && /^__wb(g|indgen)_/.test(e.field) ? `$${imports++}` : e.field),
        }));
        return W.section(id, W.vec(entries.map(W.importEntry)));
      }
      if (id === 7) {
        const entries = W.readExports(body).map((e) => ({
          ...e,
          field: rename(e.field, /^(wasm_bindgen_|__wbindgen_|__externref_)/.test(e.field) ? `_${exports++}` : e.field),
        }));
        return W.section(id, W.vec(entries.map(W.exportEntry)));
      }
      return W.section(id, body);
    });
  } catch (e) {
    if (e instanceof W.WasmError) fail(`${wasmName}: ${e.message}`);
    throw e;
  }
  return { wasm: W.module(sections), renamed };
}
