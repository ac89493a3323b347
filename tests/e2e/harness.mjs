// Shared helpers for the browser e2e tests (run with `node --test`, see scripts/test.sh).
//
// - launches Debian's Chromium (RAFTLAB_CHROMIUM, default /usr/bin/chromium) headless through
//   playwright-core; Playwright never downloads a browser here;
// - opens the app at RAFTLAB_URL (default http://127.0.0.1:8080/, what scripts/serve.sh serves);
// - records every request, and blocks and reports any that would leave the machine;
// - collects console errors and uncaught page errors;
// - saves screenshots to tests/e2e/screenshots/ (gitignored).
//
// Typical use:
//   test('something', { timeout: 60_000 }, () => withApp('something', async (app) => {
//     await app.page.click('...');
//     await app.screenshot('something');
//   }));
// withApp() fails the test on off-site requests, page errors, console errors or a visible
// #fatal box, and saves NAME-failure.png when anything fails.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const APP_URL = process.env.RAFTLAB_URL || 'http://127.0.0.1:8080/';
export const CHROMIUM = process.env.RAFTLAB_CHROMIUM || '/usr/bin/chromium';
export const SCREENSHOT_DIR = fileURLToPath(new URL('./screenshots/', import.meta.url));

// Without the background-networking flags Chromium keeps trying to reach Google's hosts.
// Playwright.launch() already gives every launch a fresh, temporary --user-data-dir.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** True when loading `url` stays on this machine (loopback, or no network at all). */
export function isLocalUrl(url) {
  let u;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (['data:', 'blob:', 'about:'].includes(u.protocol)) return true;
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(u.protocol)) return false;
  return LOCAL_HOSTS.has(u.hostname) || /^127\.\d+\.\d+\.\d+$/.test(u.hostname);
}

/** Fails with the list of URLs that are not on 127.0.0.1 / localhost. */
export function assertNoOffsiteRequests(urls) {
  const offsite = urls.filter((u) => !isLocalUrl(u));
  assert.deepEqual(offsite, [], `requests left 127.0.0.1:\n  ${offsite.join('\n  ')}`);
}

/** Launches Chromium; the caller closes it. */
export function launchBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: 60_000,
  });
}

/**
 * Opens the app in a fresh browser. Returns an object with the page and what it recorded:
 * { browser, context, page, url, requests, consoleErrors, pageErrors, console,
 *   screenshot(name), fatalText(), assertNoOffsiteRequests(), assertNoErrors(), close() }.
 */
export async function openApp({
  path = '',
  viewport = { width: 1280, height: 800 },
  colorScheme = 'light',
  waitUntil = 'load',
} = {}) {
  const url = new URL(path, APP_URL).href;
  const browser = await launchBrowser();
  const requests = [];
  const consoleErrors = [];
  const pageErrors = [];
  const consoleLines = [];
  try {
    const context = await browser.newContext({ viewport, colorScheme, serviceWorkers: 'block' });
    // Every request is recorded; one that would leave the machine is blocked, not sent.
    context.on('request', (req) => requests.push(req.url()));
    await context.route('**/*', (route) =>
      isLocalUrl(route.request().url()) ? route.continue() : route.abort('blockedbyclient'),
    );
    const page = await context.newPage();
    page.on('websocket', (ws) => requests.push(ws.url()));
    page.on('console', (msg) => {
      const loc = msg.location();
      const line = `[${msg.type()}] ${msg.text()}${loc?.url ? ` (${loc.url}:${loc.lineNumber})` : ''}`;
      consoleLines.push(line);
      if (msg.type() === 'error') consoleErrors.push(line);
    });
    page.on('pageerror', (err) => pageErrors.push(err.stack || String(err)));
    await page.goto(url, { waitUntil });
    // The app mounts once the first part of its catalog has arrived (src/i18n/parts.rs),
    // which can be after the page's load event: tests start from a mounted app (or from the
    // error box, when it cannot mount).
    await page.waitForSelector('.app, #fatal:not([hidden])', { state: 'attached', timeout: 60_000 });

    const app = {
      browser,
      context,
      page,
      url,
      requests,
      consoleErrors,
      pageErrors,
      console: consoleLines,
      /** Saves screenshots/NAME.png (full page); returns its path. */
      async screenshot(name) {
        mkdirSync(SCREENSHOT_DIR, { recursive: true });
        const file = join(SCREENSHOT_DIR, `${name}.png`);
        await page.screenshot({ path: file, fullPage: true });
        return file;
      },
      /** The text of the #fatal box when it is shown, else null. */
      async fatalText() {
        const box = page.locator('#fatal');
        if ((await box.count()) === 0 || !(await box.isVisible())) return null;
        return (await box.innerText()).trim();
      },
      assertNoOffsiteRequests() {
        assertNoOffsiteRequests(requests);
      },
      /** No uncaught errors, no console errors, no #fatal box. */
      async assertNoErrors({ console: checkConsole = true } = {}) {
        assert.deepEqual(pageErrors, [], `uncaught page errors:\n${pageErrors.join('\n')}`);
        if (checkConsole) {
          assert.deepEqual(consoleErrors, [], `console errors:\n${consoleErrors.join('\n')}`);
        }
        const fatal = await app.fatalText();
        assert.equal(fatal, null, `the #fatal box is shown: ${fatal}`);
      },
      /** What the page recorded, for failure messages. */
      diagnostics() {
        return [
          `url: ${url}`,
          `page errors: ${pageErrors.length ? '\n  ' + pageErrors.join('\n  ') : 'none'}`,
          `console: ${consoleLines.length ? '\n  ' + consoleLines.slice(-30).join('\n  ') : 'none'}`,
          `off-site requests: ${requests.filter((u) => !isLocalUrl(u)).join(', ') || 'none'}`,
        ].join('\n');
      },
      close: () => browser.close(),
    };
    return app;
  } catch (err) {
    await browser.close().catch(() => {});
    throw err;
  }
}

/**
 * Opens the app, runs `fn(app)`, then checks for off-site requests and errors. On any
 * failure saves screenshots/NAME-failure.png and adds what the page logged to the error.
 * Always closes the browser.
 */
export async function withApp(name, fn, options = {}) {
  const app = await openApp(options);
  try {
    await fn(app);
    app.assertNoOffsiteRequests();
    await app.assertNoErrors(options);
  } catch (err) {
    await app.screenshot(`${name}-failure`).catch(() => {});
    err.message = `${err.message}\n--- ${name}: what the page recorded ---\n${app.diagnostics()}`;
    throw err;
  } finally {
    await app.close().catch(() => {});
  }
}
