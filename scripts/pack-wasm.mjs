// Ships the page's wasm (the first part of scripts/split-wasm.mjs's split) and the explore
// worker's compressed with LZMA, and the small wasm decoder both are unpacked with. Run by
// Trunk.toml's post_build hook once the wasm is final, before lazy.txt sums the files:
// `node scripts/pack-wasm.mjs STAGING_DIR`.
//
// Why: on this wasm LZMA takes about a fifth fewer bytes than gzip (xz -9e: 215 KB against
// 270 KB gzipped for the first part), which pays for building the simulation for speed
// (Cargo.toml, profile web) inside the first visit's budget. Browsers decompress only gzip and
// deflate (DecompressionStream), so the decoder comes along: unlzma/, a Rust crate built here
// as a wasm module of ~8 KB (3 KB gzipped), which unpacks ~700 KB in ~25 ms in Chromium on
// this machine's kind (a decoder in JavaScript took 40-60 ms, most of it in V8's interpreter).
//
// What it does:
// - raftlab-<hash>_bg.wasm -> raftlab-<hash>_bg.lzma: `xz --format=lzma` (xz-utils, which
//   scripts/setup.sh checks for), with the unpacked size written into the header (xz leaves
//   it unstated; the decoder needs it to size its output). The .wasm is removed.
// - unlzma-<hash>.wasm: `cargo build -p raftlab-unlzma` for wasm32 (in the environment trunk
//   runs in, scripts/env.sh), then wasm-opt -O3.
// - index.html: trunk's loader fetches the .lzma and the decoder (both preloaded, with their
//   integrity), unpacks, and hands the bytes to wasm-bindgen's init, which compiles them.
//   A failure is an Error the page's error box shows, as a failed fetch of the .wasm was.
// - explore_worker_bg.wasm -> explore_worker_bg.lzma, which explore_worker_loader.js unpacks
//   with the same decoder (fetched when a search starts, the page's copy is already cached).
//
// A debug build is left alone (trunk serve --dev loads the .wasm as trunk wrote it).

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { contentHash, sri, wasmOpt } from "./split-wasm.mjs";
import { loadTerser } from "./terser.mjs";

function fail(message) {
  console.error(`pack-wasm: ${message}`);
  process.exit(1);
}

/** LZMA settings: xz's strongest preset; lc=4, pb=0 suit wasm's byte-aligned code (-0.2%). */
export const XZ_ARGS = ["--format=lzma", "--lzma1=preset=9e,lc=4,pb=0", "--stdout", "--quiet"];

/** `bytes` as an LZMA stream with its unpacked size in the header (unlzma/ needs it). */
export function lzma(bytes) {
  const run = spawnSync("xz", XZ_ARGS, { input: bytes, maxBuffer: 1 << 28 });
  if (run.error) fail(`xz: ${run.error.message} (install xz-utils; scripts/setup.sh does)`);
  if (run.status !== 0) fail(`xz failed: ${run.stderr}`);
  const stream = Buffer.from(run.stdout);
  if (stream.length < 13) fail("xz wrote no header");
  stream.writeBigUInt64LE(BigInt(bytes.length), 5);
  return stream;
}

/** The decoder's wasm, built for wasm32 and optimized. */
function decoder(root) {
  const target = process.env.RAFTLAB_WASM_TARGET || "wasm32-unknown-unknown";
  const build = spawnSync(
    "cargo",
    ["build", "--offline", "--quiet", "--profile", "web", "--target", target, "-p", "raftlab-unlzma", "--lib"],
    { cwd: root, stdio: ["ignore", "inherit", "inherit"] },
  );
  if (build.error) fail(`cargo: ${build.error.message}`);
  if (build.status !== 0) fail("building the decoder (unlzma/) failed");
  const dir = process.env.CARGO_TARGET_DIR || join(root, "target");
  const file = join(dir, target, "web", "raftlab_unlzma.wasm");
  if (!existsSync(file)) fail(`${file} not built`);
  return wasmOpt(readFileSync(file), ["-O3", "--strip-debug", "--strip-producers", "--strip-target-features"]);
}

/**
 * The loader's function, placed in trunk's module script: fetches the stream and the decoder,
 * unpacks in the decoder's memory (stream at `input()`, output after it), and returns a copy
 * of the output. `D` is the decoder's exports.
 */
export const UNPACK_JS = `async function __raftlab_unpack(url, integrity, decoder, decoderIntegrity) {
  // As the second part's loader words it (split-wasm.mjs). A file that does not match its
  // integrity, or a missing one (the check fails on a 404 page too), is a network error.
  const unfetched = (u, why) => new Error("raftlab could not fetch part of the app (" + u + "): " + why);
  const get = (u, i) =>
    fetch(u, { integrity: i }).then(
      (r) => {
        if (!r.ok) throw unfetched(u, "HTTP " + r.status);
        return r.arrayBuffer();
      },
      (e) => {
        throw unfetched(u, e.message);
      },
    );
  const [stream, code] = await Promise.all([get(url, integrity), get(decoder, decoderIntegrity)]);
  const D = (await WebAssembly.instantiate(code)).instance.exports;
  const at = D.input();
  const failed = (why) => new Error("raftlab could not unpack " + url + " (" + why + ")");
  // The size the header states (unlzma/ needs it stated); a wasm32 memory holds under 4 GB.
  const size = stream.byteLength < 13 ? -1 : Number(new DataView(stream).getBigUint64(5, true));
  if (!(size >= 0 && at + stream.byteLength + size < 2 ** 32)) throw failed("no usable size in its header");
  const need = at + stream.byteLength + size - D.memory.buffer.byteLength;
  if (need > 0) D.memory.grow(Math.ceil(need / 65536));
  new Uint8Array(D.memory.buffer, at, stream.byteLength).set(new Uint8Array(stream));
  const n = D.unpack(stream.byteLength);
  if (n !== size) throw failed("error " + n);
  return new Uint8Array(D.memory.buffer, at + stream.byteLength, n).slice();
}
`;

async function main() {
  const staging = process.argv[2];
  if (!staging) fail("usage: node scripts/pack-wasm.mjs STAGING_DIR");
  if (process.env.TRUNK_PROFILE && process.env.TRUNK_PROFILE !== "release") return;
  const root = join(fileURLToPath(import.meta.url), "..", "..");
  const glue = readdirSync(staging).filter((f) => /^raftlab-[0-9a-f]+\.js$/.test(f));
  if (glue.length !== 1) fail(`expected one raftlab-<hash>.js in ${staging}, found ${glue.length}`);
  const wasmName = glue[0].replace(/\.js$/, "_bg.wasm");
  const htmlPath = join(staging, "index.html");
  let html = readFileSync(htmlPath, "utf8");

  const code = decoder(root);
  const decoderName = `unlzma-${contentHash(code)}.wasm`;
  const { packed, packedName } = packFile(staging, wasmName);

  // Trunk's loader names the wasm once, in `init({ module_or_path: '/NAME' })`.
  const call = new RegExp(`module_or_path: (['"])([^'"]*)${escaped(wasmName)}\\1`);
  const m = html.match(call);
  if (!m) fail(`index.html: trunk's init call for ${wasmName} not found`);
  const base = m[2];
  html = html.replace(call, unpackCall(base + packedName, packed, base + decoderName, code));
  const script = html.indexOf("import init");
  if (script < 0) fail("index.html: trunk's module script (import init ...) not found");
  // Minified as the glue is: index.html is fetched on every visit.
  const unpack = await (await loadTerser(fail)).minify(UNPACK_JS, { ecma: 2020, compress: true, mangle: true });
  if (typeof unpack.code !== "string" || !unpack.code.includes("__raftlab_unpack")) fail("terser gave no loader");
  html = html.slice(0, script) + unpack.code + html.slice(script);
  // The preload of the wasm becomes preloads of the stream and the decoder, which the
  // loader's fetches take (same URL and mode). The integrity is checked by those fetches:
  // Chromium ignores it on a preload "as fetch" and says so in the console.
  const preload = new RegExp(`<link[^>]*href=["']?${escaped(base + wasmName)}["']?[^>]*>`);
  if (!preload.test(html)) fail(`index.html: the preload of ${wasmName} not found`);
  const link = (href) => `<link rel="preload" as="fetch" crossorigin="anonymous" href="${href}">`;
  html = html.replace(preload, link(base + packedName) + link(base + decoderName));

  writeFileSync(join(staging, decoderName), code);
  writeFileSync(htmlPath, html);
  console.log(`pack-wasm: decoder ${decoderName} ${code.length} bytes`);
  packWorker(staging, decoderName, code, unpack.code);
}

/** `name` with its dots escaped, for a RegExp. */
const escaped = (name) => name.replace(/[.]/g, "[.]");

/**
 * Packs `dir/NAME.wasm` into `dir/NAME.lzma` and removes the .wasm (the page and the worker
 * fetch only the stream); returns the stream and its file's name.
 */
function packFile(dir, wasmName) {
  const wasm = readFileSync(join(dir, wasmName));
  const packed = lzma(wasm);
  const packedName = wasmName.replace(/\.wasm$/, ".lzma");
  writeFileSync(join(dir, packedName), packed);
  rmSync(join(dir, wasmName));
  console.log(
    `pack-wasm: ${wasmName} ${wasm.length} -> ${packedName} ${packed.length} bytes (gzip -9 would give ` +
      `${gzipSize(wasm)})`,
  );
  return { packed, packedName };
}

/** What replaces a loader's `module_or_path: 'NAME.wasm'`: the call that fetches and unpacks the stream. */
function unpackCall(streamUrl, packed, decoderUrl, code) {
  const args = [streamUrl, sri(packed), decoderUrl, sri(code)].map((s) => JSON.stringify(s));
  return `module_or_path: __raftlab_unpack(${args.join(", ")})`;
}

/** The explore worker's files (index.html's data-type="worker" link; worker/explore_worker_loader.js). */
export const WORKER_WASM = "explore_worker_bg.wasm";
export const WORKER_LOADER = "explore_worker_loader.js";

/**
 * The explore worker's wasm, packed the same way: explore_worker_bg.lzma, unpacked by the
 * page's decoder (a worker fetching it finds it in the HTTP or service worker cache), with the
 * loader's own copy of `__raftlab_unpack`. Its names carry no hash (lazy.txt lists them with a
 * checksum each), so the integrity in the loader is what ties the loader to its stream.
 */
function packWorker(staging, decoderName, code, unpackCode) {
  const loaderPath = join(staging, WORKER_LOADER);
  if (!existsSync(join(staging, WORKER_WASM))) fail(`${WORKER_WASM} not found in ${staging}`);
  let loader = readFileSync(loaderPath, "utf8");
  const call = new RegExp(`module_or_path: (['"])[.]/${escaped(WORKER_WASM)}\\1`);
  if (!call.test(loader)) fail(`${WORKER_LOADER}: the wasm_bindgen call for ${WORKER_WASM} not found`);
  const { packed, packedName } = packFile(staging, WORKER_WASM);
  loader = unpackCode + "\n" + loader.replace(call, unpackCall(`./${packedName}`, packed, `./${decoderName}`, code));
  writeFileSync(loaderPath, loader);
}

const gzipSize = (bytes) => gzipSync(bytes, { level: 9 }).length;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
