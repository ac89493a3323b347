// Splits the page's wasm in two: what a first visit runs stays in raftlab-<hash>_bg.wasm, and
// the code no first visit runs (export and share, compare, explore's page side, help, loading
// and pasting scenarios, error paths) moves to split-<hash>.wasm, fetched the first time any
// of it is called. Run by Trunk.toml's post_build hook on release builds, before
// scripts/minify-glue.mjs: `node scripts/split-wasm.mjs STAGING_DIR`.
//
// Which functions move: those named in scripts/split-cold.txt, the functions that the
// recorded first visits (tests/e2e/first-visit.mjs) never called (tests/e2e/split-profile.mjs
// writes it; names without rustc's hashes, so a list survives unrelated changes, and a name is
// listed only if every function of that name stayed cold). A function the list does not know stays in the page's module, so a stale
// list costs bytes, never correctness.
//
// How a moved function is reached: the page's module keeps a small stub at its index for
// every moved function something outside the moved code refers to (a call, a table entry, an
// export). The stub checks a global; while it is 0 it calls the import `s.l`, which the glue
// answers by fetching split-<hash>.wasm synchronously, instantiating it against the page's
// memory, tables and globals, and setting the global; the instance's element segment has put
// the real functions into table slots reserved for them, and the stub goes on with a
// call_indirect to its slot. The second module calls the page module's functions through
// table slots as well. So the first call of moved code waits for one fetch, and every later
// call costs one indirect call. A page the service worker controls (a visit after
// the first, and every offline one) loads the second module from the worker's store before the
// app starts instead (loaderJs says why).
//
// RAFTLAB_SPLIT=off leaves the module whole (names dropped); RAFTLAB_SPLIT=instrument makes
// the build that tests/e2e/split-profile.mjs records: every function sets a global of its own
// when it first runs, exported as `~p<index>`, and split-names.txt lists the functions' names.
// The module arrives as wasm-bindgen wrote it, with the linker's name section and unoptimized
// (index.html's data-wasm-opt="0"): it is split first and each part then goes through
// wasm-opt (WASM_OPT_ARGS), which drops the names, so that wasm-opt's inlining cannot fold a
// cold function into the hot one that calls it.

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as W from "./wasm-module.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const COLD_LIST = join(ROOT, "scripts", "split-cold.txt");

// Functions that run or not by the luck of a hash seed, so a recorded visit can miss one that
// the same visit runs next time: hashbrown's key comparison runs only where a probe meets an
// entry whose 7-bit tag equals the key's, and std's HashMap seeds its hasher per page load.
// Yew's element cache (String -> Element) took that path in every Chinese first visit tried
// (2 of 2), which then fetched the whole second part to compare two strings. They stay.
const SEED_DEPENDENT = /equivalent_key/;

// Functions that run or not by the machine's speed. Yew's scheduler drops a render it had
// queued for a component when a newer one for the same component is queued before it runs:
// a quiet machine renders each frame's queue before the next is queued, so no recorded visit
// dropped one, while a first visit at 6x CPU throttle (a slow laptop or phone, or a busy
// machine) did within seconds, 2 of 2, and stalled on a synchronous fetch of the whole second
// part to free a box. So the box's drop stays, and the drops it reaches through the box's
// vtable: yew's runners, and the suspend closure, whose drop (an Rc of a component's state)
// the compiler may share with theirs. Matched on the stable name.
const LOAD_DEPENDENT =
  /^core::ptr::drop_in_place::<(alloc::boxed::Box<dyn yew::scheduler::Runnable>|yew::html::component::lifecycle::(\w+::)?\w+Runner(<.*>)?|<yew::html::component::lifecycle::ComponentState>::suspend::\{closure#0\})>$/;

/** Whether the function named `n` must stay in the page's module whatever the profile says. */
function stays(n) {
  const name = stableName(n);
  return SEED_DEPENDENT.test(name) || LOAD_DEPENDENT.test(name);
}

function fail(message) {
  console.error(`split-wasm: ${message}`);
  process.exit(1);
}

/**
 * A function's name without rustc's hashes, the list's key: the symbol's (`::h` and 16 hex
 * digits) and each crate's disambiguator (`core[aefbc74d0c2c7a00]`), which change with the
 * compiler, the profile and the build of std, while the path and generic arguments do not.
 */
export function stableName(n) {
  return n.replace(/::h[0-9a-f]{16}$/, "").replace(/\[[0-9a-f]{16}\]/g, "");
}

/** The parts of a module this script reads and rewrites. */
export function parse(bytes) {
  const m = {
    types: [],
    imports: [],
    funcTypes: [],
    tables: [],
    memories: null,
    globals: [],
    exports: [],
    start: null,
    elements: [],
    code: [],
    names: new Map(),
    sections: W.sections(bytes),
  };
  for (const s of m.sections) {
    if (s.id === 1) m.types = W.readTypes(s.body);
    else if (s.id === 2) m.imports = W.readImports(s.body);
    else if (s.id === 3) m.funcTypes = W.readU32s(s.body);
    else if (s.id === 4) m.tables = W.readTables(s.body);
    else if (s.id === 5) m.memories = s.body;
    else if (s.id === 6) m.globals = W.readGlobals(s.body);
    else if (s.id === 7) m.exports = W.readExports(s.body);
    else if (s.id === 8) m.start = W.readU(s.body, 0)[0];
    else if (s.id === 9) m.elements = W.readElements(s.body);
    else if (s.id === 10) m.code = W.readCode(s.body);
    else if (s.id === 0 && W.customName(s.body) === "name") m.names = functionNames(s.body);
  }
  m.importedFuncs = m.imports.filter((i) => i.kind === 0);
  m.importedTables = m.imports.filter((i) => i.kind === 1);
  m.importedMemories = m.imports.filter((i) => i.kind === 2);
  m.importedGlobals = m.imports.filter((i) => i.kind === 3);
  if (m.code.length !== m.funcTypes.length) throw new W.WasmError("function and code sections differ");
  return m;
}

// The function names of a name section (subsection 1).
function functionNames(body) {
  const names = new Map();
  let [len, at] = W.readU(body, 0);
  at += len;
  while (at < body.length) {
    const id = body[at++];
    let size;
    [size, at] = W.readU(body, at);
    const end = at + size;
    if (id === 1) {
      let n;
      [n, at] = W.readU(body, at);
      for (let i = 0; i < n; i++) {
        let idx;
        let l;
        [idx, at] = W.readU(body, at);
        [l, at] = W.readU(body, at);
        names.set(idx, body.subarray(at, at + l).toString("utf8"));
        at += l;
      }
    }
    at = end;
  }
  return names;
}

// Instructions a moved function may not hold: they name a data or element segment, or take a
// function's reference, which the second module cannot share.
function movable(body) {
  let ok = true;
  W.walk(body, W.bodyStart(body), (op, sub) => {
    if (op === 0xd2 || (op === 0xfc && (sub === 8 || sub === 9 || sub === 12 || sub === 13))) ok = false;
  });
  return ok;
}

// The functions a body calls or takes the reference of.
function callees(body) {
  return W.walk(body, W.bodyStart(body), (op, _sub, at) =>
    op === 0x10 || op === 0x12 || op === 0xd2 ? W.readU(body, at + 1)[0] : null,
  ).uses;
}

// Every section but `replaced` ids, in order, with the custom name section left out; a
// replaced id is written where it stood, or (new) before the first section of a higher
// non-custom id.
function rebuild(m, replaced) {
  const out = [];
  const pending = new Map(Object.entries(replaced).map(([k, v]) => [Number(k), v]));
  const order = [1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 10, 11];
  const rank = (id) => order.indexOf(id);
  for (const s of m.sections) {
    if (s.id === 0) {
      if (W.customName(s.body) !== "name") out.push(W.section(0, s.body));
      continue;
    }
    for (const [id, content] of [...pending]) {
      if (rank(id) < rank(s.id)) {
        out.push(W.section(id, content));
        pending.delete(id);
      }
    }
    if (pending.has(s.id)) {
      out.push(W.section(s.id, pending.get(s.id)));
      pending.delete(s.id);
    } else {
      out.push(W.section(s.id, s.body));
    }
  }
  for (const [id, content] of pending) out.push(W.section(id, content));
  return W.module(out);
}

/** The module with a "called" global per defined function; and the names, one per line. */
export function instrument(bytes) {
  const m = parse(bytes);
  const nImp = m.importedFuncs.length;
  const gBase = m.importedGlobals.length + m.globals.length;
  const globals = [...m.globals.map((g) => Buffer.concat([g.type, g.init]))];
  const exports = m.exports.map(W.exportEntry);
  const code = m.code.map((body, k) => {
    globals.push(Buffer.from([0x7f, 0x01, 0x41, 0x00, 0x0b]));
    exports.push(W.exportEntry({ field: `~p${k}`, kind: 3, index: gBase + k }));
    const at = W.bodyStart(body);
    const mark = Buffer.concat([Buffer.from([0x41, 0x01, 0x24]), W.leb(gBase + k)]);
    const b = Buffer.concat([body.subarray(0, at), mark, body.subarray(at)]);
    return Buffer.concat([W.leb(b.length), b]);
  });
  const names = m.code.map((_, k) => m.names.get(nImp + k) ?? `#${nImp + k}`);
  const wasm = rebuild(m, { 6: W.vec(globals), 7: W.vec(exports), 10: W.vec(code) });
  // The instrumented module keeps its names: the profile reads them from split-names.txt.
  return { wasm, names: names.join("\n") + "\n" };
}

// A code body with its calls renamed by `ren` (W.walk's `rename`).
function renamed(body, ren) {
  const start = W.bodyStart(body);
  return Buffer.concat([body.subarray(0, start), W.walk(body, start, null, ren).bytes]);
}

// A name section naming functions: [index, name] pairs in index order.
function nameSection(pairs) {
  const sub = W.vec(pairs.map(([i, n]) => Buffer.concat([W.leb(i), W.name(n)])));
  return W.section(0, Buffer.concat([W.name("name"), Buffer.from([1]), W.leb(sub.length), sub]));
}

/**
 * Splits `bytes`: the functions for which `isCold(name)` holds (and that can move and do not
 * run by a hash seed's luck or the machine's speed: `stays`) go to the second module.
 * Returns { primary, secondary, moved, stubs } (secondary null if none moved).
 * With `names`, both keep a name section for their functions (a stub is named after its
 * function, with ` (stub)`); without, neither has one.
 */
export function split(bytes, isCold, { names = false } = {}) {
  const m = parse(bytes);
  const nImp = m.importedFuncs.length;
  const nDef = m.code.length;
  const moved = new Set();
  for (let k = 0; k < nDef; k++) {
    const idx = nImp + k;
    const n = m.names.get(idx);
    if (n !== undefined && idx !== m.start && isCold(n) && !stays(n) && movable(m.code[k])) moved.add(idx);
  }
  if (moved.size === 0) {
    const named = names ? [nameSection([...m.names].sort((a, b) => a[0] - b[0]))] : [];
    return { primary: Buffer.concat([rebuild(m, {}), ...named]), secondary: null, moved: 0, stubs: 0 };
  }

  // Moved functions that something staying in the page's module refers to: they get a stub.
  const referenced = new Set();
  const refer = (f) => moved.has(f) && referenced.add(f);
  for (let k = 0; k < nDef; k++) if (!moved.has(nImp + k)) callees(m.code[k]).forEach(refer);
  for (const e of m.elements) e.funcs.forEach(refer);
  for (const e of m.exports) if (e.kind === 0) refer(e.index);
  // Functions the second module needs from the first: imports and functions that stay.
  const needed = new Set();
  for (const f of moved) for (const c of callees(m.code[f - nImp])) if (!moved.has(c)) needed.add(c);

  // The function table: the one the element segments fill (rustc's __indirect_function_table).
  const tableIndex = m.elements.length ? m.elements[0].table : 0;
  const nImpTables = m.importedTables.length;
  if (tableIndex < nImpTables) fail("the function table is imported");
  const table = m.tables[tableIndex - nImpTables];
  if (table.elemType !== 0x70) fail("the element segments' table does not hold functions");
  // Slots past the table's end: first one per stub (the second module's element segment puts
  // the real function there), then one per needed function that has no slot yet (the first
  // module's new element segment puts it there; the second module calls it through its slot,
  // which costs an element entry where an export and an import would cost a name each).
  const slots = [...referenced].sort((a, b) => a - b);
  const slotBase = table.limits.min;
  const slotOf = new Map(slots.map((f, i) => [f, slotBase + i]));
  const neededSlot = new Map();
  for (const e of m.elements) {
    const at = e.flags === 0 || e.flags === 2 ? W.constI32(e.offset) : null;
    if (at === null || e.table !== tableIndex) continue;
    e.funcs.forEach((f, i) => needed.has(f) && !neededSlot.has(f) && neededSlot.set(f, at + i));
  }
  const neededNew = [...needed].filter((f) => !neededSlot.has(f)).sort((a, b) => a - b);
  const neededBase = slotBase + slots.length;
  neededNew.forEach((f, i) => neededSlot.set(f, neededBase + i));
  const added = slots.length + neededNew.length;
  const grown = {
    ...table.limits,
    min: table.limits.min + added,
    max: table.limits.max === null ? null : table.limits.max + added,
  };

  // ---- the page's module
  let voidType = m.types.findIndex((t) => t.params.length === 0 && t.results.length === 0);
  const types = m.types.map((t) => t.raw);
  if (voidType < 0) {
    voidType = types.length;
    types.push(Buffer.from([0x60, 0, 0]));
  }
  const loadFunc = nImp; // the new import `s.l`, after the others
  const newIndex = new Map();
  for (let f = 0; f < nImp; f++) newIndex.set(f, f);
  let next = nImp + 1;
  for (let k = 0; k < nDef; k++) {
    const f = nImp + k;
    if (!moved.has(f) || referenced.has(f)) newIndex.set(f, next++);
  }
  const ensureFunc = next; // defined last: loads the second module unless it is there
  const ren = (f) => {
    const to = newIndex.get(f);
    if (to === undefined) fail(`function ${f} was moved but is still referred to`);
    return to;
  };
  const loadedGlobal = m.importedGlobals.length + m.globals.length;
  const imports = [...m.imports.map(W.importEntry)];
  imports.push(W.importEntry({ module: "s", field: "l", kind: 0, desc: W.leb(voidType) }));
  const funcTypes = [];
  const code = [];
  for (let k = 0; k < nDef; k++) {
    const f = nImp + k;
    const t = m.funcTypes[k];
    let body;
    if (!moved.has(f)) {
      body = renamed(m.code[k], ren);
    } else if (referenced.has(f)) {
      body = stub(m.types[t].params.length, t, slotOf.get(f), tableIndex, ensureFunc);
    } else {
      continue;
    }
    funcTypes.push(W.leb(t));
    code.push(Buffer.concat([W.leb(body.length), body]));
  }
  const ensure = Buffer.concat([Buffer.from([0x00, 0x23]), W.leb(loadedGlobal), Buffer.from([0x45, 0x04, 0x40, 0x10]), W.leb(loadFunc), Buffer.from([0x0b, 0x0b])]);
  funcTypes.push(W.leb(voidType));
  code.push(Buffer.concat([W.leb(ensure.length), ensure]));
  const tables = m.tables.map((t, i) => W.tableEntry(i === tableIndex - nImpTables ? { ...t, limits: grown } : t));
  const globals = [...m.globals.map((g) => Buffer.concat([g.type, g.init])), Buffer.from([0x7f, 0x01, 0x41, 0x00, 0x0b])];
  // Exports for the second module, under names the glue and minify-glue never use.
  let nextName = 0;
  const fresh = () => `~${(nextName++).toString(36)}`;
  const exports = m.exports.map((e) => W.exportEntry(e.kind === 0 ? { ...e, index: ren(e.index) } : e));
  exports.push(W.exportEntry({ field: "~L", kind: 3, index: loadedGlobal }));
  const secImports = [];
  const nMem = m.importedMemories.length + (m.memories ? W.readU(m.memories, 0)[0] : 0);
  const memLimits = memoryLimits(m);
  for (let i = 0; i < nMem; i++) {
    const field = fresh();
    exports.push(W.exportEntry({ field, kind: 2, index: i }));
    secImports.push(W.importEntry({ module: "p", field, kind: 2, desc: W.limits(memLimits[i]) }));
  }
  const allTables = [...m.importedTables.map((i) => i.desc), ...tables];
  allTables.forEach((desc, i) => {
    const field = fresh();
    exports.push(W.exportEntry({ field, kind: 1, index: i }));
    secImports.push(W.importEntry({ module: "p", field, kind: 1, desc }));
  });
  const allGlobals = [...m.importedGlobals.map((i) => i.desc), ...m.globals.map((g) => g.type)];
  allGlobals.forEach((desc, i) => {
    const field = fresh();
    exports.push(W.exportEntry({ field, kind: 3, index: i }));
    secImports.push(W.importEntry({ module: "p", field, kind: 3, desc }));
  });
  const typeOf = (f) => (f < nImp ? m.importedFuncs[f].typeIndex : m.funcTypes[f - nImp]);
  const elements = m.elements.map((e) => W.elementEntry({ ...e, funcs: e.funcs.map(ren) }));
  if (neededNew.length) elements.push(W.activeElements(tableIndex, neededBase, neededNew.map(ren)));
  const replaced = {
    1: W.vec(types),
    2: W.vec(imports),
    3: W.vec(funcTypes),
    4: W.vec(tables),
    6: W.vec(globals),
    7: W.vec(exports),
    10: W.vec(code),
  };
  if (elements.length) replaced[9] = W.vec(elements);
  if (m.start !== null) replaced[8] = W.leb(ren(m.start));
  let primary = rebuild(m, replaced);
  if (names) {
    const pairs = [...newIndex].map(([f, to]) => [to, (m.names.get(f) ?? `#${f}`) + (moved.has(f) ? " (stub)" : "")]);
    pairs.push([loadFunc, "split load"], [ensureFunc, "split ensure"]);
    primary = Buffer.concat([primary, nameSection(pairs.sort((a, b) => a[0] - b[0]))]);
  }

  // ---- the second module
  const movedList = [...moved].sort((a, b) => a - b);
  const secIndex = new Map(movedList.map((f, i) => [f, i]));
  // A call of a function of the first module becomes an indirect call through its slot.
  const secRen = (f, op) => {
    if (secIndex.has(f)) return secIndex.get(f);
    const indirect = op === 0x12 ? 0x13 : 0x11;
    return Buffer.concat([Buffer.from([0x41]), W.sleb32(neededSlot.get(f)), Buffer.from([indirect]), W.leb(typeOf(f)), W.leb(tableIndex)]);
  };
  const secCode = movedList.map((f) => {
    const b = renamed(m.code[f - nImp], secRen);
    return Buffer.concat([W.leb(b.length), b]);
  });
  const secondary = W.module([
    W.section(1, W.vec(types)),
    W.section(2, W.vec(secImports)),
    W.section(3, W.vec(movedList.map((f) => W.leb(m.funcTypes[f - nImp])))),
    W.section(9, W.vec([W.activeElements(tableIndex, slotBase, slots.map(secRen))])),
    W.section(10, W.vec(secCode)),
    // The features the code uses (wasm-opt reads them from this section).
    ...m.sections.filter((s) => s.id === 0 && W.customName(s.body) === "target_features").map((s) => W.section(0, s.body)),
    ...(names ? [nameSection([...secIndex].map(([f, i]) => [i, m.names.get(f) ?? `#${f}`]).sort((a, b) => a[0] - b[0]))] : []),
  ]);
  return { primary, secondary, moved: moved.size, stubs: slots.length };
}

// Each memory's limits (imported ones first), as the second module must import them.
function memoryLimits(m) {
  const out = m.importedMemories.map((i) => W.readLimits(i.desc, 0));
  if (m.memories) {
    let [n, at] = W.readU(m.memories, 0);
    for (let i = 0; i < n; i++) {
      const l = W.readLimits(m.memories, at);
      out.push(l);
      at = l.end;
    }
  }
  return out;
}

// A moved function's stub: load the second module if it is not there (`ensure`), then call
// the real function through its table slot with the same arguments.
function stub(nParams, type, slot, table, ensure) {
  const parts = [Buffer.from([0x00, 0x10]), W.leb(ensure)];
  for (let i = 0; i < nParams; i++) parts.push(Buffer.from([0x20]), W.leb(i));
  parts.push(Buffer.from([0x41]), W.sleb32(slot), Buffer.from([0x11]), W.leb(type), W.leb(table), Buffer.from([0x0b]));
  return Buffer.concat(parts);
}

// The glue's part. The import `s.l` loads the second module synchronously: a moved function
// is called from the middle of the page's code and must return its result. Chromium does not
// pass a synchronous fetch through the service worker, so offline it would fail: a page the
// worker controls (every offline page is one) has the second module in the worker's store,
// since the worker keeps every file index.html names, and loads it from there, asynchronously,
// before the app starts; a first visit, which no worker controls yet, does not.
function loaderJs(file) {
  return `
const __raftlab_split_url = new URL(${JSON.stringify(file)}, import.meta.url).href;
function __raftlab_split_load() {
    if (wasm["~L"].value) return;
    const xhr = new XMLHttpRequest();
    xhr.open("GET", __raftlab_split_url, false);
    xhr.overrideMimeType("text/plain; charset=x-user-defined");
    // Without it the app cannot go on (the call that needs it is under way): the page's error
    // box shows this, and a reload once the network is back (or, after one visit, offline)
    // starts again.
    const failed = "raftlab could not fetch part of the app (" + __raftlab_split_url + "): ";
    try {
        xhr.send();
    } catch (e) {
        throw new Error(failed + "the network is unreachable");
    }
    if (xhr.status !== 200) throw new Error(failed + "HTTP " + xhr.status);
    const text = xhr.responseText;
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 255;
    new WebAssembly.Instance(new WebAssembly.Module(bytes), { p: wasm });
    wasm["~L"].value = 1;
}
async function __raftlab_split_preload(exports) {
    if (!navigator.serviceWorker || !navigator.serviceWorker.controller) return;
    try {
        const res = await fetch(__raftlab_split_url);
        if (!res.ok) return;
        await WebAssembly.instantiate(await res.arrayBuffer(), { p: exports });
        exports["~L"].value = 1;
    } catch (e) {
        // The synchronous load remains.
    }
}
`;
}

// wasm-opt's settings for the page's module and its second part: -O2 (for the whole module it
// gzipped smaller than -Oz, -Os and -O3; -Os is 0.4 KB smaller on the first part alone but
// inlines less in the simulation's hot paths); and one-caller inlining capped at 50 bytes,
// since by default a function with one caller is inlined whatever its size and the views'
// many small builder steps then fold into a few huge functions that compress worse (-4.3 KB
// gzipped, bundle8's note). The name section is dropped, unless RAFTLAB_WASM_NAMES=1 (for
// tests/e2e/profile-sim.mjs's profiles by function), and so are the producers and
// target-features sections, which no browser reads (this is the last tool that does).
const WASM_OPT_ARGS = [
  "-O2",
  "--one-caller-inline-max-function-size=50",
  "--strip-producers",
  "--strip-target-features",
  ...(process.env.RAFTLAB_WASM_NAMES === "1" ? ["-g"] : []),
];

/** `bytes` through wasm-opt (binaryen, on PATH from scripts/env.sh; Trunk.toml pins it). */
export function wasmOpt(bytes, args = WASM_OPT_ARGS) {
  const dir = mkdtempSync(join(tmpdir(), "split-wasm-"));
  try {
    const input = join(dir, "in.wasm");
    const output = join(dir, "out.wasm");
    writeFileSync(input, bytes);
    const run = spawnSync("wasm-opt", [...args, input, "-o", output], { encoding: "utf8" });
    if (run.error) fail(`wasm-opt: ${run.error.message} (run scripts/setup.sh; build through scripts/env.sh)`);
    if (run.status !== 0) fail(`wasm-opt failed:\n${run.stderr}`);
    return readFileSync(output);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The first 16 hex digits of `bytes`' SHA-256: a file name's hash. */
export function contentHash(bytes) {
  return createHash("sha256").update(bytes).digest("hex").slice(0, 16);
}

/** `bytes`' integrity value (SHA-384), as index.html's attributes and fetches give it. */
export function sri(bytes) {
  return "sha384-" + createHash("sha384").update(bytes).digest("base64");
}

async function main() {
  const staging = process.argv[2];
  if (!staging) fail("usage: node scripts/split-wasm.mjs STAGING_DIR");
  if (process.env.TRUNK_PROFILE && process.env.TRUNK_PROFILE !== "release") return;
  const mode = process.env.RAFTLAB_SPLIT || "on";
  const glue = readdirSync(staging).filter((f) => /^raftlab-[0-9a-f]+\.js$/.test(f));
  if (glue.length !== 1) fail(`expected one raftlab-<hash>.js in ${staging}, found ${glue.length}`);
  const jsPath = join(staging, glue[0]);
  const wasmPath = jsPath.replace(/\.js$/, "_bg.wasm");
  const htmlPath = join(staging, "index.html");
  const wasmBefore = readFileSync(wasmPath);
  const jsBefore = readFileSync(jsPath);
  let html = readFileSync(htmlPath, "utf8");
  let wasmAfter;
  let js = jsBefore.toString("utf8");
  let summary;
  if (mode === "instrument") {
    // Left unoptimized: its functions are the ones the split sees.
    const out = instrument(wasmBefore);
    wasmAfter = out.wasm;
    writeFileSync(join(staging, "split-names.txt"), out.names);
    summary = `instrumented ${out.names.split("\n").length - 1} functions`;
  } else {
    let cold = new Set();
    if (mode === "on") {
      if (!existsSync(COLD_LIST)) fail(`${COLD_LIST} is missing (RAFTLAB_SPLIT=off builds without it)`);
      cold = new Set(readFileSync(COLD_LIST, "utf8").split("\n").filter((l) => l && !l.startsWith("#")));
    } else if (mode !== "off") {
      fail(`RAFTLAB_SPLIT=${mode}: expected on, off or instrument`);
    }
    let out;
    try {
      // Names go into wasm-opt, which orders the functions by them and then drops them.
      out = split(wasmBefore, (n) => cold.has(stableName(n)), { names: true });
    } catch (e) {
      if (e instanceof W.WasmError) fail(`${wasmPath}: ${e.message}`);
      throw e;
    }
    wasmAfter = wasmOpt(out.primary, [...WASM_OPT_ARGS, "--reorder-functions-by-name"]);
    for (const f of readdirSync(staging)) if (/^split-[0-9a-f]+\.wasm$/.test(f)) fail(`${f} already in ${staging}`);
    if (out.secondary) {
      const secondary = wasmOpt(out.secondary);
      const file = `split-${contentHash(secondary)}.wasm`;
      writeFileSync(join(staging, file), secondary);
      const anchor = '"./raftlab_bg.js": import0,';
      if (js.split(anchor).length !== 2) fail(`${glue[0]}: the imports object (${anchor}) not found once`);
      js = js.replace(anchor, `${anchor}\n        "s": { __proto__: null, l: __raftlab_split_load },`);
      const start = "return __wbg_finalize_init(instance, module);\n}\n\nexport {";
      if (js.split(start).length !== 2) fail(`${glue[0]}: the end of __wbg_init_once not found once`);
      js = js.replace(start, `await __raftlab_split_preload(instance.exports);\n    ${start}`) + loaderJs(file);
      // The service worker keeps every file index.html names (static/sw.js), so the second
      // part works offline after one visit; a meta element names it without fetching it.
      if (!html.includes("</head>")) fail("index.html has no </head>");
      html = html.replace("</head>", `<meta name="raftlab-split" content="${file}"></head>`);
      summary = `${out.moved} functions moved to ${file} (${secondary.length} bytes), ${out.stubs} stubs`;
    } else {
      summary = "nothing moved";
    }
  }
  const jsAfter = Buffer.from(js, "utf8");
  for (const [before, after, what] of [
    [jsBefore, jsAfter, glue[0]],
    [wasmBefore, wasmAfter, "the wasm"],
  ]) {
    const old = sri(before);
    if (!html.includes(old)) fail(`index.html has no integrity ${old} for ${what}`);
    html = html.split(old).join(sri(after));
  }
  writeFileSync(jsPath, jsAfter);
  writeFileSync(wasmPath, wasmAfter);
  writeFileSync(htmlPath, html);
  console.log(`split-wasm: ${wasmBefore.length} -> ${wasmAfter.length} bytes; ${summary}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
