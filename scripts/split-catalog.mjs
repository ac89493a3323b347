// Cuts each message catalog (src/i18n/en.txt, zh.txt) into the two parts the browser build
// fetches (src/i18n/parts.rs): LANG.1.txt, the texts a first visit reads (the keys listed in
// scripts/catalog-first.txt), and LANG.2.txt, the rest. Each part starts with the line
// "# " + the catalog file's FNV-1a digest (8 hex digits), which the page checks against the
// digest it was built with, and holds the file's "key = text" lines, comments and blank lines
// left out. Trunk's post-build hook runs it first (Trunk.toml):
//
//   node scripts/split-catalog.mjs STAGING_DIR    (writes STAGING_DIR/i18n/*.{1,2}.txt)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const LANGS = ['en', 'zh'];
export const FIRST_LIST = join(ROOT, 'scripts', 'catalog-first.txt');

/** FNV-1a, 32 bits, of the bytes of `buf`: src/digest.rs's `digest`. */
export function digest(buf) {
  let h = 0x811c9dc5;
  for (const b of buf) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The keys a list file names (one a line; blank lines and `#` lines skipped). */
export function listed(text) {
  return new Set(
    text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#')),
  );
}

/**
 * The two parts of the catalog file `bytes` (a Buffer) for the keys in `first`: [part 1,
 * part 2] as strings. A line is read as the catalog's parser reads it (trimmed; its key is
 * what comes before the first " = ").
 */
export function split(bytes, first) {
  const head = `# ${digest(bytes).toString(16).padStart(8, '0')}\n`;
  const parts = [head, head];
  for (const raw of bytes.toString('utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const at = line.indexOf(' = ');
    const key = at < 0 ? line : line.slice(0, at).trim();
    parts[first.has(key) ? 0 : 1] += `${line}\n`;
  }
  return parts;
}

function main() {
  const staging = process.argv[2];
  if (!staging) {
    console.error('usage: node scripts/split-catalog.mjs STAGING_DIR');
    process.exit(2);
  }
  const first = listed(readFileSync(FIRST_LIST, 'utf8'));
  const out = join(staging, 'i18n');
  mkdirSync(out, { recursive: true });
  for (const lang of LANGS) {
    const [one, two] = split(readFileSync(join(ROOT, 'src', 'i18n', `${lang}.txt`)), first);
    writeFileSync(join(out, `${lang}.1.txt`), one);
    writeFileSync(join(out, `${lang}.2.txt`), two);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
