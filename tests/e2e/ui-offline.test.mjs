// The app installs and works offline (static/: icon, web app manifest, service worker):
// after one visit, a reload with the network cut shows the app; back online, a new version
// is picked up at once and the old version's hashed files leave the cache.
//
// The app is reached through a small proxy in front of RAFTLAB_URL, which can pretend a new
// version was deployed (index.html names a differently hashed stylesheet).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { APP_URL, SCREENSHOT_DIR, isLocalUrl, launchBrowser } from './harness.mjs';

const NEW_CSS = 'app-00000000000000aa.css';

/**
 * A proxy to APP_URL; `proxy.version = 2` serves a "new version" of index.html, and
 * `proxy.offline = true` drops every connection unanswered, so the site is unreachable for
 * the page and its service worker alike. (Chromium's offline emulation, `setOffline`, does
 * not reach the service worker's own fetches in every version: with Chromium 148 the worker
 * still got through, so the "offline" reload proved nothing.)
 */
async function startProxy() {
  const state = { version: 1, oldCss: null, offline: false };
  const server = createServer(async (req, res) => {
    if (state.offline) {
      req.socket.destroy();
      return;
    }
    try {
      let path = req.url;
      if (state.version === 2 && path === `/${NEW_CSS}`) path = `/${state.oldCss}`;
      const up = await fetch(new URL(path, APP_URL), { cache: 'no-store' });
      let body = Buffer.from(await up.arrayBuffer());
      const type = up.headers.get('content-type') || 'application/octet-stream';
      if (type.startsWith('text/html')) {
        let html = body.toString('utf8');
        state.oldCss ??= html.match(/app-[0-9a-f]{8,16}\.css/)?.[0];
        if (state.version === 2) {
          html = html
            .replaceAll(state.oldCss, NEW_CSS)
            // Before <title>: a release build's minified page has no <head> tag.
            .replace('<title>', '<meta name="raftlab-probe" content="version 2"><title>');
        }
        body = Buffer.from(html);
      }
      res.writeHead(up.status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    } catch (err) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(String(err));
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  state.url = `http://127.0.0.1:${server.address().port}/`;
  state.close = () => new Promise((ok) => server.close(ok));
  return state;
}

async function appShown(page) {
  await page.locator('svg.cluster, .cluster svg').first().waitFor({ timeout: 30_000 });
  assert.equal(await page.locator('#fatal').isVisible(), false, 'the error box is shown');
}

async function hashedInCache(page) {
  return page.evaluate(async () => {
    const cache = await caches.open('raftlab');
    return (await cache.keys())
      .map((r) => new URL(r.url).pathname.slice(1))
      .filter((p) => /-[0-9a-f]{8,16}(_bg)?\.(js|wasm|css)$/.test(p))
      .sort();
  });
}

test('after one visit the app reloads offline, and picks up a new version online', { timeout: 180_000 }, async () => {
  const proxy = await startProxy();
  const browser = await launchBrowser();
  const requests = [];
  const errors = [];
  try {
    const context = await browser.newContext({ serviceWorkers: 'allow', viewport: { width: 1280, height: 800 } });
    context.on('request', (r) => requests.push(r.url()));
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    // The probe below fails on purpose (the network is cut); Chromium logs that as an error.
    page.on('console', (m) => {
      if (m.type() === 'error' && !(m.location()?.url || '').includes('no-such-file')) errors.push(m.text());
    });

    await page.goto(proxy.url);
    await appShown(page);
    // The icon and the manifest are real files, and the manifest names icons that exist.
    const manifest = await page.evaluate(async () => {
      const href = document.querySelector('link[rel=manifest]').href;
      const m = await (await fetch(href)).json();
      const icons = await Promise.all(
        m.icons.map(async (i) => (await fetch(new URL(i.src, href))).status),
      );
      return { name: m.short_name, start: new URL(m.start_url, href).href, icons };
    });
    assert.equal(manifest.name, 'raftlab');
    assert.equal(manifest.start, proxy.url);
    assert.ok(manifest.icons.length >= 3 && manifest.icons.every((s) => s === 200), JSON.stringify(manifest));
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise((ok) => navigator.serviceWorker.addEventListener('controllerchange', ok));
      }
    });
    const v1 = await hashedInCache(page);
    assert.ok(v1.some((p) => p.endsWith('.wasm')) && v1.some((p) => p.endsWith('.css')), `cached: ${v1}`);

    // Offline: the whole app comes from the cache.
    const offlineFrom = requests.length;
    proxy.offline = true;
    await context.setOffline(true);
    await page.reload();
    await appShown(page);
    assert.equal(await page.title(), 'raftlab');
    await page.screenshot({ path: `${SCREENSHOT_DIR}offline-reload.png` });
    // With the network gone even the proxy is unreachable: prove it.
    const reachable = await page.evaluate((u) => fetch(u + 'no-such-file').then(() => true, () => false), proxy.url);
    assert.equal(reachable, false, 'the network was not cut');
    // A lesson never opened online opens offline: the worker stored every lesson text.
    await page.goto(new URL('?preset=17-joint-consensus', proxy.url).href);
    await page.waitForSelector('[data-lesson-step="0"]', { timeout: 30_000 });
    assert.equal(await page.locator('[data-notice]').count(), 0, 'a notice is shown offline');
    assert.ok(requests.some((u) => u.endsWith('/presets/17-joint-consensus.scn')), 'the lesson text was not fetched');
    // The explore search, never started online, runs offline: its worker's files were
    // stored at install too.
    await page.goto(new URL('?preset=27-explore-defaults-hold', proxy.url).href);
    await page.click('[data-tab="explore"]');
    // A budget the search cannot finish before Stop (its default, 1,000 schedules, takes under
    // a second, and Stop would be gone).
    await page.fill('[data-explore-field="schedules"]', '100000');
    await page.click('[data-explore-start]');
    await page.waitForFunction(
      () => Number(document.querySelector('[data-explore-state]')?.dataset.exploreTried) > 0,
      null,
      { timeout: 60_000 },
    );
    assert.equal(await page.locator('[data-explore-error]').count(), 0, 'the search shows an error offline');
    await page.click('[data-explore-stop]');
    // Its texts are in the catalog's second part, which a synchronous request cannot get
    // offline (Chromium does not pass it through the worker): the page took the worker's copy.
    assert.equal((await page.textContent('[data-explore-start]')).trim(), 'Start search');
    assert.equal(await page.isVisible('#fatal:not([hidden])'), false, 'the error box is shown offline');
    // The explore panel lives in the wasm's second part (scripts/split-wasm.mjs): the worker
    // stored it at install, and the page, which the worker controls, loaded it from there
    // before starting (a failed load of it would have stopped the page with an error).
    assert.ok(
      requests.slice(offlineFrom).some((u) => /\/split-[0-9a-f]{16}\.wasm$/.test(u)),
      'the second part of the wasm was not loaded offline',
    );

    // Back online with a new version deployed: one reload shows it, not the cached one.
    await context.setOffline(false);
    proxy.offline = false;
    proxy.version = 2;
    await page.reload();
    await appShown(page);
    assert.equal(
      await page.locator('meta[name=raftlab-probe]').getAttribute('content'),
      'version 2',
      'an online reload served the stale cached page',
    );
    // The old version's stylesheet leaves the cache once the new one is in.
    await page.waitForFunction(
      async ([css, old]) => {
        const keys = (await (await caches.open('raftlab')).keys()).map((r) => r.url);
        return keys.some((k) => k.endsWith(css)) && !keys.some((k) => k.endsWith(old));
      },
      [NEW_CSS, proxy.oldCss],
      { timeout: 20_000, polling: 200 },
    );
    assert.deepEqual(errors, []);
    assert.deepEqual(requests.filter((u) => !isLocalUrl(u)), []);
  } finally {
    await browser.close().catch(() => {});
    await proxy.close();
  }
});
