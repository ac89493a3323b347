// scripts/split-wasm.mjs on a small module made here, run in Node's WebAssembly: the two halves
// together compute exactly what the whole module computes, the second half is loaded once, on
// the first call of a moved function (direct, through the table, or through an export), and
// a whole build ("nothing moved") is the input byte for byte without its names.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { split, instrument, parse, stableName } from '../../scripts/split-wasm.mjs';
import { WasmError, leb, name, section, sleb32, vec, module } from '../../scripts/wasm-module.mjs';

const I32 = 0x7f;
const type = (params, results) => Buffer.from([0x60, params.length, ...params, results.length, ...results]);
const body = (locals, ...code) => {
  const b = Buffer.concat([vec(locals.map(([n, t]) => Buffer.from([n, t]))), ...code.map(Buffer.from), Buffer.from([0x0b])]);
  return Buffer.concat([leb(b.length), b]);
};
const call = (f) => [0x10, ...leb(f)];
const i32 = (v) => [0x41, ...sleb32(v)];
const get = (l) => [0x20, l];

// Imports: 0 env.log(i32). Functions: 1 main(x), 2 hot(x), 3 coldA(x), 4 coldB(x),
// 5 coldOnlyFromCold(x), 6 viaTable(x). Table [coldA, hot]; global 0 a counter; memory 1 page.
const NAMES = ['log', 'main', 'raftlab::hot::h0123456789abcdef', 'raftlab::coldA::h1111111111111111', 'raftlab::coldB::h2222222222222222', 'raftlab::coldC::h3333333333333333', 'raftlab::unused::h4444444444444444'];

function sample(withNames = true, names = NAMES) {
  const types = [type([I32], []), type([I32], [I32])];
  const imports = [Buffer.concat([name('env'), name('log'), Buffer.from([0, 0])])];
  const funcs = [1, 1, 1, 1, 1, 1];
  const table = Buffer.from([0x70, 0x00, 2]);
  const memory = Buffer.from([0x00, 1]);
  const globals = [Buffer.from([I32, 0x01, 0x41, 0x00, 0x0b])];
  const exports = [
    Buffer.concat([name('main'), Buffer.from([0, 1])]),
    Buffer.concat([name('coldB'), Buffer.from([0, 4])]),
    Buffer.concat([name('memory'), Buffer.from([2, 0])]),
    Buffer.concat([name('table'), Buffer.from([1, 0])]),
  ];
  const elements = [Buffer.concat([leb(0), Buffer.from([0x41, 0x00, 0x0b]), vec([leb(3), leb(2)])])];
  const code = [
    // main(x) = hot(x) + coldA(x) + table[0](x)   (table[0] is coldA)
    body([], get(0), call(2), get(0), call(3), [0x6a], get(0), i32(0), [0x11, 1, 0], [0x6a]),
    // hot(x) = x * 3
    body([], get(0), i32(3), [0x6c]),
    // coldA(x): counter += x; mem[16] = counter; log(counter); coldB(x) + hot(mem[16]) + helper
    body(
      [[1, I32]],
      [0x23, 0, ...get(0), 0x6a, 0x24, 0],
      i32(16), [0x23, 0, 0x36, 2, 0],
      [0x23, 0], call(0),
      get(0), call(4),
      i32(16), [0x28, 2, 0], call(2), [0x6a],
      get(0), call(5), [0x6a],
      [0x21, 1, ...get(1)],
    ),
    // coldB(x) = x - 1, logged
    body([], get(0), call(0), get(0), i32(1), [0x6b]),
    // coldOnlyFromCold(x) = x << 4, through the table's slot 1 (hot)
    body([], get(0), i32(1), [0x11, 1, 0], i32(4), [0x74]),
    // viaTable(x): never called
    body([], get(0)),
  ];
  const nameSec = Buffer.concat([name('name'), Buffer.from([1]), (() => {
    const sub = vec(names.map((n, i) => Buffer.concat([leb(i), name(n)])));
    return Buffer.concat([leb(sub.length), sub]);
  })()]);
  return module([
    section(1, vec(types)),
    section(2, vec(imports)),
    section(3, vec(funcs.map(leb))),
    section(4, vec([table])),
    section(5, vec([memory])),
    section(6, vec(globals)),
    section(7, vec(exports)),
    section(9, vec(elements)),
    section(10, vec(code)),
    ...(withNames ? [section(0, nameSec)] : []),
  ]);
}

function runWhole(bytes) {
  const log = [];
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { log: (v) => log.push(v) } });
  return { exports, log };
}

function runSplit({ primary, secondary }) {
  const log = [];
  let loads = 0;
  let wasm;
  const imports = {
    env: { log: (v) => log.push(v) },
    s: {
      l() {
        loads++;
        new WebAssembly.Instance(new WebAssembly.Module(secondary), { p: wasm });
        wasm['~L'].value = 1;
      },
    },
  };
  wasm = new WebAssembly.Instance(new WebAssembly.Module(primary), imports).exports;
  return { exports: wasm, log, loads: () => loads };
}

const isCold = (n) => /cold|unused/.test(stableName(n));

test('the two halves compute what the whole module computes, and the second loads once', () => {
  const whole = runWhole(sample());
  const halves = split(sample(), isCold);
  assert.equal(halves.moved, 4, 'coldA, coldB, coldC and unused moved');
  assert.equal(halves.stubs, 2, 'stubs for coldA (called, in the table) and coldB (exported) only');
  const parts = runSplit(halves);
  assert.equal(parts.loads(), 0, 'instantiating the page module loads nothing');
  for (const x of [5, 7, 11]) assert.equal(parts.exports.main(x), whole.exports.main(x));
  assert.deepEqual(parts.log, whole.log);
  assert.equal(parts.loads(), 1);
  assert.deepEqual(
    [...new Uint8Array(parts.exports.memory.buffer, 0, 32)],
    [...new Uint8Array(whole.exports.memory.buffer, 0, 32)],
  );
});

test('an exported moved function loads the second module by itself', () => {
  const whole = runWhole(sample());
  const parts = runSplit(split(sample(), isCold));
  assert.equal(parts.exports.coldB(9), whole.exports.coldB(9));
  assert.equal(parts.loads(), 1);
  // The table entry of a moved function (slot 0, coldA) reaches the real function.
  assert.equal(parts.exports.table.get(0)(2), whole.exports.table.get(0)(2));
  assert.equal(parts.loads(), 1);
});

// A hash map's key comparison runs only when a probe meets an equal 7-bit tag, which depends on
// the page's random hash seed: a recorded visit can miss it and the next run of that visit
// call it. Listed cold or not, it stays in the page's module.
// The sample with its sixth function named `name` and split by `cold`, which calls that
// function cold: it stays in the page's module (not as a stub) while the other cold ones move,
// and the halves compute what the whole does. `what` names it in the message.
function assertStays(name, cold, what) {
  const names = [...NAMES];
  names[5] = name;
  const whole = runWhole(sample(true, names));
  const halves = split(sample(true, names), cold, { names: true });
  assert.equal(halves.moved, 3, `coldA, coldB and unused moved; ${what} stayed`);
  assert.ok([...parse(halves.primary).names.values()].includes(names[5]), 'in the page module, not a stub');
  const parts = runSplit(halves);
  for (const x of [5, 7]) assert.equal(parts.exports.main(x), whole.exports.main(x));
}

test('a function that runs by a hash seed\'s luck (equivalent_key) is never moved', () => {
  assertStays(
    '<hashbrown::raw::RawTable<(String, raftlab::coldC)>>::find_or_find_insert_index::<hashbrown::map::equivalent_key<String, raftlab::coldC>::{closure#0}>::{closure#0}',
    isCold,
    'the key comparison',
  );
});

// Yew's scheduler frees a render it had queued only when a newer one for the same component
// arrives first, which a quiet machine never lets happen: a recorded visit misses it, a slow
// machine's first visit calls it. Listed cold or not (here: cold), it stays in the page's module.
test('a function that runs by the machine\'s speed (yew dropping a queued render) is never moved', () => {
  assertStays(
    'core[aefbc74d0c2c7a00]::ptr::drop_in_place::<alloc[6277f43423a17e50]::boxed::Box<dyn yew[30161b22d4c595a0]::scheduler::Runnable>>',
    (n) => isCold(n) || n.includes('scheduler::Runnable'),
    'the drop',
  );
});

test('with nothing cold the module is unchanged but for its names', () => {
  const out = split(sample(), () => false);
  assert.equal(out.secondary, null);
  assert.ok(Buffer.compare(out.primary, sample(false)) === 0, 'byte for byte the module without its name section');
});

test('with names, each part names its functions, and a stub after its function', () => {
  const halves = split(sample(), isCold, { names: true });
  const names = (bytes) => [...parse(bytes).names.values()];
  assert.deepEqual(names(halves.primary), [
    'log',
    'split load',
    'main',
    'raftlab::hot::h0123456789abcdef',
    'raftlab::coldA::h1111111111111111 (stub)',
    'raftlab::coldB::h2222222222222222 (stub)',
    'split ensure',
  ]);
  // The second module has only the moved functions: it calls the first one's through the table.
  assert.deepEqual(names(halves.secondary), [
    'raftlab::coldA::h1111111111111111',
    'raftlab::coldB::h2222222222222222',
    'raftlab::coldC::h3333333333333333',
    'raftlab::unused::h4444444444444444',
  ]);
  // The names do not change the code: both halves still compute what the whole does.
  assert.equal(runSplit(halves).exports.main(4), runWhole(sample()).exports.main(4));
});

test('the instrumented module marks exactly the functions that ran', () => {
  const { wasm, names } = instrument(sample());
  const { exports } = runWhole(wasm);
  exports.main(3);
  const ran = names.split('\n').slice(0, -1).filter((_, k) => exports[`~p${k}`].value === 1);
  assert.deepEqual(ran.map(stableName), ['main', 'raftlab::hot', 'raftlab::coldA', 'raftlab::coldB', 'raftlab::coldC']);
});

test('an instruction the splitter does not know stops it with its offset', () => {
  const bad = module([
    section(1, vec([type([], [])])),
    section(3, vec([leb(0)])),
    section(10, vec([body([], [0xfd, 0x0c])])),
    section(0, Buffer.concat([name('name'), Buffer.from([1, 5, 1, 0, 2, 0x61, 0x62])])),
  ]);
  assert.throws(() => split(bad, () => true), (e) => e instanceof WasmError && /0xfd at \d+/.test(e.message));
});
