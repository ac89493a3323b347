// Joins the page's stylesheets into one file in a release build: `node scripts/join-css.mjs
// STAGING_DIR`, run by Trunk.toml's post_build hook after minify-glue.mjs (one hook, so the
// two never rewrite index.html at the same time).
//
// Why: the styles are kept in files by subject (styles/app.css, i18n.css, compare.css,
// explore.css), and trunk ships each as its own hashed file with its own <link> and sha384
// integrity. Every first visit fetches all of them: four gzip streams, each starting with an
// empty dictionary, and three more 64-character hashes in index.html. One file is about
// 1 KB gzipped less (notes of issue 12). The files are joined in the order index.html links
// them, so the cascade is unchanged. The joined file is named `app-<16 hex digits>.css`, a
// name the service worker (static/sw.js) treats as a hashed file like trunk's.
//
// A debug build is left alone.

import { createHash } from "node:crypto";
import { readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

function fail(message) {
  console.error(`join-css: ${message}`);
  process.exit(1);
}

const staging = process.argv[2];
if (!staging) fail("usage: node scripts/join-css.mjs STAGING_DIR");
if (process.env.TRUNK_PROFILE && process.env.TRUNK_PROFILE !== "release") process.exit(0);

const htmlPath = join(staging, "index.html");
const html = readFileSync(htmlPath, "utf8");
// Trunk's stylesheet links, quoted or not (a release build's index.html is minified).
const links = [...html.matchAll(/<link\b[^>]*>/g)]
  .map((m) => ({ tag: m[0], at: m.index }))
  .filter(({ tag }) => /\brel=["']?stylesheet\b/.test(tag))
  .map((l) => {
    const href = l.tag.match(/\bhref=["']?\/?([\w.-]+\.css)["'\s>]/)?.[1];
    if (!href) fail(`a stylesheet link without a local .css href: ${l.tag}`);
    return { ...l, href };
  });
if (links.length < 2) {
  console.log(`join-css: ${links.length} stylesheet(s), nothing to join`);
  process.exit(0);
}
const parts = links.map(({ href }) => readFileSync(join(staging, href), "utf8"));
// @charset and @import are only valid at the top of a stylesheet: inside a joined file they
// would be dropped by the browser, so the join refuses them rather than change the styles.
parts.forEach((css, i) => {
  if (/@(charset|import)\b/i.test(css)) fail(`${links[i].href} has @charset or @import`);
});
// A newline between files: a file's last rule may lack its closing `;` or end in a comment.
const joined = Buffer.from(parts.join("\n"), "utf8");
const name = `app-${createHash("sha256").update(joined).digest("hex").slice(0, 16)}.css`;
const integrity = "sha384-" + createHash("sha384").update(joined).digest("base64");
const tag = `<link href=/${name} integrity=${integrity} rel=stylesheet>`;
// Rewritten from the end, so earlier positions stay valid: the first link becomes the joined
// file's, the others go.
let out = html;
for (let i = links.length - 1; i >= 0; i--) {
  const { tag: old, at } = links[i];
  out = out.slice(0, at) + (i === 0 ? tag : "") + out.slice(at + old.length);
}
for (const { href } of links) unlinkSync(join(staging, href));
writeFileSync(join(staging, name), joined);
writeFileSync(htmlPath, out);
console.log(
  `join-css: ${links.map((l) => l.href).join(" + ")} -> ${name} (${joined.length} bytes)`,
);
