// raftlab's service worker: after one visit the app reloads with no network (a lecture room
// with bad wifi), and a new version is picked up as soon as the network is back.
//
// - The page itself (navigations, index.html): network first, the cached copy when offline.
//   So an online reload always gets the current version.
// - Trunk's hashed files (raftlab-<hash>.js, app-<hash>.css, the wasm packed as
//   raftlab-<hash>_bg.lzma with its decoder unlzma-<hash>.wasm, scripts/pack-wasm.mjs) and the
//   wasm's second part (split-<hash>.wasm, which index.html names in a meta element and the
//   page fetches when it first needs it, scripts/split-wasm.mjs): cache first. A name never
//   changes content, and a new version has new names.
// - Anything else of this site (icons, manifest, and the texts the app fetches when needed:
//   presets/ID.scn when a lesson starts, i18n/zh.txt when Chinese is chosen, the explore
//   worker's files when a search starts): network first, cache as fallback.
// - Those files are all stored at once, so any lesson, Chinese and the explore search work
//   offline: lazy.txt lists them with a checksum each (a trunk hook writes it, see
//   Trunk.toml), and a file is fetched again only when its checksum changed.
// When a fresh index.html arrives, hashed files it no longer names are deleted, so old
// versions do not pile up. Only GET requests to this origin are handled; nothing off-site.
const CACHE = 'raftlab';
const HASHED = /-[0-9a-f]{8,16}(_bg)?\.(js|wasm|css|lzma)$/;
const SCOPE = new URL(self.registration.scope);
const INDEX = new URL('./', SCOPE).href;
// What a lazy.txt may name: lesson texts, catalogs and the explore worker's three files.
const LAZY = /^((presets|i18n)\/[\w.-]+|explore_worker(_loader|_bg)?\.(js|wasm|lzma))$/;

// The files of this site an index.html names, as absolute URLs: the hashed ones, and (with
// `plain`) the others (icon, manifest).
function assetsOf(html, plain = false) {
  const urls = new Set();
  // Every reference, quoted or not (release builds minify index.html, which drops the
  // quotes around attribute values): link hrefs, and the module script's import and wasm path.
  for (const m of html.matchAll(/["'=]([^"'\s<>]+)/g)) {
    let url;
    try {
      url = new URL(m[1], INDEX);
    } catch {
      continue;
    }
    if (url.origin !== SCOPE.origin || !url.href.startsWith(SCOPE.href)) continue;
    if (HASHED.test(url.pathname) || (plain && /\.(svg|png|webmanifest)$/.test(url.pathname))) {
      urls.add(url.href);
    }
  }
  return urls;
}

// Stores a fresh index.html's files, then drops hashed files of other versions. The icon and
// the manifest are stored too: the browser may ask for the icon before this worker controls
// the page, and an offline reload must still find it.
async function adopt(cache, html) {
  const wanted = assetsOf(html);
  await Promise.all(
    [...assetsOf(html, true)].map(async (url) => {
      if (!(await cache.match(url))) {
        const res = await fetch(url);
        if (res.ok) await cache.put(url, res);
      }
    }),
  );
  for (const req of await cache.keys()) {
    const path = new URL(req.url).pathname;
    if (HASHED.test(path) && !wanted.has(req.url)) await cache.delete(req);
  }
  await adoptLazy(cache);
}

// "PATH CHECKSUM" lines of a lazy.txt, as a Map.
function lazySums(text) {
  const sums = new Map();
  for (const line of text.split('\n')) {
    const [path, sum] = line.trim().split(/\s+/);
    if (path && sum && LAZY.test(path)) sums.set(path, sum);
  }
  return sums;
}

// Stores every text lazy.txt lists (again only when its checksum changed), then that list;
// texts no longer listed are dropped.
async function adoptLazy(cache) {
  const listUrl = new URL('lazy.txt', SCOPE).href;
  const res = await fetch(listUrl, { cache: 'no-store' });
  if (!res.ok) return;
  const text = await res.clone().text();
  const old = await cache.match(listUrl);
  const had = old ? lazySums(await old.text()) : new Map();
  const sums = lazySums(text);
  await Promise.all(
    [...sums].map(async ([path, sum]) => {
      const url = new URL(path, SCOPE).href;
      if (had.get(path) === sum && (await cache.match(url))) return;
      const file = await fetch(url, { cache: 'no-store' });
      if (file.ok) await cache.put(url, file);
    }),
  );
  for (const path of had.keys()) {
    if (!sums.has(path)) await cache.delete(new URL(path, SCOPE).href);
  }
  await cache.put(listUrl, res);
}

async function refreshIndex() {
  const res = await fetch(INDEX, { cache: 'no-store' });
  if (!res.ok) throw new Error(`index.html: HTTP ${res.status}`);
  const cache = await caches.open(CACHE);
  await cache.put(INDEX, res.clone());
  await adopt(cache, await res.text());
  return res;
}

self.addEventListener('install', (event) => {
  // The first visit's files were fetched before this worker existed: fetch them once more.
  event.waitUntil(refreshIndex().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const res = await fetch(request);
    if (res.ok) {
      if (key === INDEX) {
        await cache.put(INDEX, res.clone());
        // Not awaited by the page: fetching a new version's files happens in the background.
        adopt(cache, await res.clone().text()).catch(() => {});
      } else {
        await cache.put(key, res.clone());
      }
    }
    return res;
  } catch (err) {
    const hit = await cache.match(key);
    if (hit) return hit;
    throw err;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request.url);
  if (hit) return hit;
  const res = await fetch(request);
  if (res.ok) await cache.put(request.url, res.clone());
  return res;
}

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== SCOPE.origin || !url.href.startsWith(SCOPE.href)) return;
  if (req.mode === 'navigate') {
    // Any address inside the app (with ?preset=, #run=...) is the same page.
    event.respondWith(networkFirst(req, INDEX));
  } else if (HASHED.test(url.pathname)) {
    event.respondWith(cacheFirst(req));
  } else {
    event.respondWith(networkFirst(req, url.href.split('#')[0]));
  }
});
