// scripts/split-catalog.mjs on the real catalogs: the two parts hold every text of their
// catalog exactly once, the first part exactly the listed keys, both languages are cut alike
// (the page finds a text by its position in a part, src/i18n/parts.rs), and each part starts
// with the digest the page checks, src/digest.rs's FNV-1a.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { FIRST_LIST, LANGS, digest, listed, split } from '../../scripts/split-catalog.mjs';

const source = (lang) => readFileSync(new URL(`../../src/i18n/${lang}.txt`, import.meta.url));
const keysOf = (part) =>
  part
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((l) => l.slice(0, l.indexOf(' = ')).trim());

test('the digest is FNV-1a as src/digest.rs computes it', () => {
  assert.equal(digest(Buffer.from('')), 0x811c9dc5);
  assert.equal(digest(Buffer.from('a')), 0xe40c292c);
  assert.equal(digest(Buffer.from('foobar')), 0xbf9cf968);
});

test('each catalog is cut into the listed texts and the rest, each text once, both languages alike', () => {
  const first = listed(readFileSync(FIRST_LIST, 'utf8'));
  assert.ok(first.size > 100, `${first.size} keys listed`);
  const cuts = {};
  for (const lang of LANGS) {
    const bytes = source(lang);
    const [one, two] = split(bytes, first);
    const head = `# ${digest(bytes).toString(16).padStart(8, '0')}`;
    assert.equal(one.split('\n')[0], head, `${lang}.1.txt's first line`);
    assert.equal(two.split('\n')[0], head, `${lang}.2.txt's first line`);
    const [k1, k2] = [keysOf(one), keysOf(two)];
    assert.ok(k1.every((k) => first.has(k)), `${lang}.1.txt holds only listed keys`);
    assert.ok(!k2.some((k) => first.has(k)), `${lang}.2.txt holds no listed key`);
    const all = bytes
      .toString('utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    assert.equal(k1.length + k2.length, all.length, `${lang}: every text in one part`);
    assert.equal(new Set([...k1, ...k2]).size, all.length, `${lang}: no text twice`);
    cuts[lang] = [new Set(k1), new Set(k2)];
  }
  for (const p of [0, 1]) {
    assert.deepEqual([...cuts.zh[p]].sort(), [...cuts.en[p]].sort(), `part ${p + 1} has the same keys in both languages`);
  }
  // The list may name a key that no longer exists (the build skips it), but most must be real.
  assert.ok(cuts.en[0].size >= first.size * 0.9, `${cuts.en[0].size} of ${first.size} listed keys are in en.txt`);
});
