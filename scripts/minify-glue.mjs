// Minifies the page's JS glue (wasm-bindgen's raftlab-<hash>.js) in a release build and puts
// the new file's sha384 into index.html's integrity attributes. Run by Trunk.toml's post_build
// hook: `node scripts/minify-glue.mjs STAGING_DIR`.
//
// Why here and not by trunk: trunk's own minifier fails on wasm-bindgen's glue, so trunk ships
// it as written (50 KB, 8.6 KB gzipped). terser (npm, pinned in scripts/env.sh and installed
// by scripts/setup.sh like wasm-opt) takes it to ~6.3 KB gzipped. The glue is an ES module:
// its exports and the `__wbg_*` import names the wasm looks up are property names or exports,
// which terser keeps; only local names are shortened.
//
// Without terser a release build fails (a silently bigger bundle would skew the benchmarks);
// a debug build is left alone.

import { createHash } from "node:crypto";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

function fail(message) {
  console.error(`minify-glue: ${message}`);
  process.exit(1);
}

function sri(bytes) {
  return "sha384-" + createHash("sha384").update(bytes).digest("base64");
}

const staging = process.argv[2];
if (!staging) fail("usage: node scripts/minify-glue.mjs STAGING_DIR");
if (process.env.TRUNK_PROFILE && process.env.TRUNK_PROFILE !== "release") process.exit(0);

const { RAFTLAB_TOOLS: tools, RAFTLAB_TERSER_VERSION: version } = process.env;
if (!tools || !version) fail("RAFTLAB_TOOLS / RAFTLAB_TERSER_VERSION unset: build through scripts/env.sh");
const terserMain = join(tools, `terser-${version}`, "node_modules", "terser", "main.js");
let terser;
try {
  terser = await import(pathToFileURL(terserMain).href);
} catch (e) {
  fail(`terser ${version} not found at ${terserMain}: run scripts/setup.sh (${e.message})`);
}

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
const after = Buffer.from(out.code, "utf8");

// index.html names the glue with its hash twice at most (the module import has none; the
// modulepreload link has one). Every occurrence must change, or the browser refuses the file.
const htmlPath = join(staging, "index.html");
const html = readFileSync(htmlPath, "utf8");
const oldSri = sri(before);
const count = html.split(oldSri).length - 1;
if (count === 0) fail(`index.html has no integrity ${oldSri} for ${glue[0]}`);
writeFileSync(jsPath, after);
writeFileSync(htmlPath, html.split(oldSri).join(sri(after)));
console.log(`minify-glue: ${glue[0]} ${before.length} -> ${after.length} bytes; ${count} integrity attribute(s) updated`);
