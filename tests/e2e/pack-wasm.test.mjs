// scripts/pack-wasm.mjs and the decoder it ships (unlzma/), as the page uses them: the served
// index.html's loader function and decoder, run in Node against the served build. The page's
// wasm unpacks to a valid module of the size its header states; data packed by pack-wasm's own
// xz settings comes back byte for byte; a damaged or cut stream is an Error with the file's
// name, never a hang or a wrong module handed on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { APP_URL } from './harness.mjs';
import { lzma, UNPACK_JS } from '../../scripts/pack-wasm.mjs';
import { sri } from '../../scripts/split-wasm.mjs';

const unpack = new Function(`${UNPACK_JS}; return __raftlab_unpack;`)();

/** The stream, the decoder and their integrity that the loader `url` (a page or a script) passes
 * to `__raftlab_unpack`, the URLs made absolute against `url`. */
async function unpackArgs(url) {
  const text = await (await fetch(url)).text();
  const call = /__raftlab_unpack\("([^"]+)",\s*"([^"]+)",\s*"([^"]+)",\s*"([^"]+)"\)/.exec(text);
  assert.ok(call, `${url} calls __raftlab_unpack with the stream, the decoder and their integrity`);
  const [, stream, streamSri, decoder, decoderSri] = call;
  return { text, stream: new URL(stream, url).href, streamSri, decoder: new URL(decoder, url).href, decoderSri };
}

const served = () => unpackArgs(APP_URL);

// A server of one stream beside the served decoder, to feed the loader bytes of our choosing.
async function withStream(bytes, body) {
  const server = createServer((_, res) => res.end(bytes));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  try {
    return await body(`http://127.0.0.1:${server.address().port}/x.lzma`);
  } finally {
    server.close();
  }
}

test("the served wasm unpacks to a valid module of the size its header states", async () => {
  const s = await served();
  const packed = Buffer.from(await (await fetch(s.stream)).arrayBuffer());
  assert.equal(sri(packed), s.streamSri);
  const wasm = await unpack(s.stream, s.streamSri, s.decoder, s.decoderSri);
  assert.equal(wasm.length, Number(packed.readBigUInt64LE(5)));
  assert.ok(WebAssembly.validate(wasm), 'a valid wasm module');
  assert.ok(wasm.length > packed.length * 2, `${packed.length} bytes unpack to ${wasm.length}`);
  const stale = await fetch(s.stream.replace(/\.lzma$/, '.wasm'));
  assert.equal(stale.status, 404, 'the unpacked .wasm is not shipped beside the stream');
});

test('whatever pack-wasm packs, the decoder gives back byte for byte', async () => {
  const s = await served();
  const text = Buffer.from('term 3 index 17 leader n2 commit 16\n'.repeat(3000));
  for (const data of [Buffer.alloc(0), Buffer.from([7]), randomBytes(50_000), text, Buffer.concat([text, randomBytes(4000), text])]) {
    const packed = lzma(data);
    const back = await withStream(packed, (url) => unpack(url, sri(packed), s.decoder, s.decoderSri));
    assert.equal(Buffer.compare(Buffer.from(back), data), 0, `${data.length} bytes`);
  }
});

test('a damaged or cut stream is an error naming the file, not a module', async () => {
  const s = await served();
  const data = Buffer.concat([Buffer.from('raft '.repeat(20_000)), randomBytes(20_000)]);
  const good = lzma(data);
  const cut = good.subarray(0, good.length >> 1);
  const unstated = Buffer.from(good);
  unstated.fill(0xff, 5, 13);
  const badProps = Buffer.from(good);
  badProps[0] = 250;
  for (const [what, bytes] of [['cut in half', cut], ['no stated size', unstated], ['bad properties', badProps]]) {
    await withStream(bytes, (url) =>
      assert.rejects(unpack(url, sri(bytes), s.decoder, s.decoderSri), /could not unpack .*x\.lzma/, what),
    );
  }
  // Flipped bits: an error, or bytes of the stated size (which the page then fails to compile).
  for (let i = 0; i < 20; i++) {
    const bad = Buffer.from(good);
    bad[20 + ((i * 7919) % (bad.length - 20))] ^= 1 << (i % 8);
    await withStream(bad, async (url) => {
      try {
        const out = await unpack(url, sri(bad), s.decoder, s.decoderSri);
        assert.equal(out.length, data.length);
      } catch (e) {
        assert.match(e.message, /could not unpack .*x\.lzma/);
      }
    });
  }
  // A stream that does not match the integrity index.html gives is refused by the fetch, and
  // so is a missing one.
  await withStream(good, (url) =>
    assert.rejects(unpack(url, sri(cut), s.decoder, s.decoderSri), /could not fetch part of the app \(.*x\.lzma\)/),
  );
  await assert.rejects(
    unpack(s.stream.replace(/\.lzma$/, '-gone.lzma'), s.streamSri, s.decoder, s.decoderSri),
    /could not fetch part of the app \(.*-gone\.lzma\)/,
  );
});

test("the explore worker's wasm ships packed, and its loader unpacks it with the page's decoder", async () => {
  const page = await served();
  const w = await unpackArgs(new URL('explore_worker_loader.js', APP_URL).href);
  assert.match(w.text, /function __raftlab_unpack\(/, 'the loader defines its own copy');
  assert.match(w.stream, /\/explore_worker_bg\.lzma$/);
  assert.equal(w.decoder, page.decoder, 'the same decoder as the page (cached by then)');
  assert.equal(w.decoderSri, page.decoderSri);
  const wasm = await unpack(w.stream, w.streamSri, w.decoder, w.decoderSri);
  assert.ok(WebAssembly.validate(wasm), 'a valid wasm module');
  const exports = WebAssembly.Module.exports(new WebAssembly.Module(wasm)).map((e) => e.name);
  assert.ok(exports.includes('memory'), `the worker's module: ${exports.slice(0, 8).join(', ')}`);
  assert.equal((await fetch(new URL('explore_worker_bg.wasm', APP_URL))).status, 404, 'the unpacked .wasm is not shipped');
  // The service worker keeps the worker's files for offline use by lazy.txt's list.
  const lazy = await (await fetch(new URL('lazy.txt', APP_URL))).text();
  assert.match(lazy, /^explore_worker_bg\.lzma \d+$/m);
  assert.doesNotMatch(lazy, /explore_worker_bg\.wasm/);
});
