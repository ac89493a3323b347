// Issue 14: the interface in Simplified Chinese. After switching to 中文 no interface text is
// left in English (ids, numbers, etcd commands and etcd's own strings excepted); a lesson's
// narration and end card are Chinese; switching keeps the run, the selection and the lesson
// position; ?lang= and the remembered choice and the browser's languages pick the language.
// Every wait polls the page; nothing sleeps.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withApp, isLocalUrl } from './harness.mjs';
import { englishLeft, formatLeft } from './i18n.mjs';
import { openTab, simNow, waitLeader } from './raftlab.mjs';

const CJK = /[\u4e00-\u9fff]/;
const TABS = ['node', 'network', 'membership', 'client', 'scenario', 'export / share', 'explore'];

async function assertChinese(page, where, root = 'body') {
  const left = await englishLeft(page, root);
  assert.equal(left.length, 0, `${where}: English left in the interface:\n${formatLeft(left)}`);
}

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
]) {
  const size = `${viewport.width}x${viewport.height}`;

  test(`中文 ${size}: the default view, every tab and the help have no English left`, { timeout: 180_000 }, () =>
    withApp(
      `i18n-default-${size}`,
      async (app) => {
        const { page } = app;
        await page.waitForSelector('html[lang="zh-Hans"] .toolbar');
        await waitLeader(page);
        assert.match(await page.textContent('.toolbar'), /暂停|播放/);
        await assertChinese(page, 'default view');
        await app.screenshot(`zh-default-${size}`);
        for (const tab of TABS) {
          if (!(await page.locator(`[data-tab="${tab}"]`).isVisible())) {
            await page.click('.show-controls').catch(() => {});
          }
          await openTab(page, tab);
          await assertChinese(page, `tab ${tab}`);
        }
        await page.keyboard.press('?');
        await page.waitForSelector('.overlay');
        assert.match(await page.textContent('.overlay'), /法定人数/);
        await assertChinese(page, 'help', '.overlay');
        await app.screenshot(`zh-help-${size}`);
      },
      { path: '?lang=zh', viewport },
    ),
  );

  test(`中文 ${size}: lesson 08 narrates in Chinese from start to end card`, { timeout: 240_000 }, () =>
    withApp(
      `i18n-lesson08-${size}`,
      async (app) => {
        const { page } = app;
        await page.waitForSelector('[data-lesson-step="0"]');
        await assertChinese(page, 'lesson start');
        const steps = Number(await page.getAttribute('[data-lesson-step]', 'data-lesson-steps'));
        for (let k = 1; k <= steps; k++) {
          await page.click('[data-go]');
          await page.waitForSelector(`[data-lesson-step="${k}"][data-lesson-playing="false"]`, { timeout: 90_000 });
          const said = (await page.textContent('[data-narration] p')).trim();
          assert.match(said, CJK, `step ${k} narration is Chinese: ${said}`);
          await assertChinese(page, `lesson 08 step ${k}`);
          if (k === 2) await app.screenshot(`zh-lesson08-${size}`);
        }
        // Lines after the last narration run too; then the end card shows.
        if (!(await page.locator('[data-lesson-end]').count())) await page.click('[data-go]');
        await page.waitForSelector('[data-lesson-end]', { timeout: 90_000 });
        assert.match(await page.textContent('[data-lesson-end]'), /记住/);
        await assertChinese(page, 'lesson 08 end card');
        await app.screenshot(`zh-lesson08-end-${size}`);
      },
      { path: '?lang=zh&preset=08-add-to-single-node', viewport },
    ),
  );

  test(`中文 ${size}: a refused promotion reads in Chinese, etcd's error verbatim`, { timeout: 240_000 }, () =>
    withApp(
      `i18n-refusal-${size}`,
      async (app) => {
        const { page } = app;
        await page.waitForSelector('[data-lesson-step="0"]');
        for (let k = 1; k <= 2; k++) {
          await page.click('[data-go]');
          await page.waitForSelector(`[data-lesson-step="${k}"][data-lesson-playing="false"]`, { timeout: 90_000 });
        }
        if (!(await page.locator('.event-list').isVisible())) await page.click('.show-controls');
        const events = await page.textContent('.event-list');
        assert.match(events, /被拒绝：n4 还没有赶上/, events);
        assert.match(events, /etcdserver: can only promote a learner member which is in sync with leader/);
        await assertChinese(page, 'refusal');
        await page.evaluate(() => document.querySelector('.event-list')?.scrollIntoView({ block: 'center' }));
        await app.screenshot(`zh-refusal-${size}`);
      },
      { path: '?lang=zh&preset=13-promotion-refused', viewport },
    ),
  );
}

test('switching language keeps the run, the selection and the lesson position, and is remembered', { timeout: 180_000 }, () =>
  withApp(
    'i18n-switch',
    async (app) => {
      const { page } = app;
      await page.waitForSelector('html[lang="en"] [data-lesson-step="0"]');
      await page.click('[data-go]');
      await page.waitForSelector('[data-lesson-step="1"][data-lesson-playing="false"]', { timeout: 90_000 });
      const before = {
        now: await simNow(page),
        fingerprint: await page.getAttribute('[data-now]', 'data-fingerprint'),
        narration: (await page.textContent('[data-narration] p')).trim(),
      };
      assert.doesNotMatch(before.narration, CJK);
      await page.locator('g.node[data-node="n1"] circle.body').click({ force: true });
      await page.waitForSelector('[data-panel-node="n1"]');

      await page.selectOption('select.lang-switch', 'zh');
      await page.waitForSelector('html[lang="zh-Hans"] [data-lesson-step="1"]');
      assert.equal(await simNow(page), before.now, 'the run did not move');
      assert.equal(await page.getAttribute('[data-now]', 'data-fingerprint'), before.fingerprint);
      assert.equal(await page.getAttribute('[data-lesson-step]', 'data-lesson-step'), '1');
      await page.waitForSelector('[data-panel-node="n1"]');
      const after = (await page.textContent('[data-narration] p')).trim();
      assert.match(after, CJK, `narration reworded: ${after}`);
      assert.match(page.url(), /[?&]lang=zh/);
      assert.equal(await page.evaluate(() => localStorage.getItem('raftlab.lang')), 'zh');
      // The events already logged are reworded too.
      assert.match(await page.textContent('.event-list'), /个投票成员组成的集群/);

      // The share link carries the language; the embed link keeps it.
      await openTab(page, 'export / share');
      await page.click('.share-panel button.primary');
      const link = await page.inputValue('[data-share-link]');
      assert.match(link, /\?lang=zh#run=/);

      // Reloading without ?lang= keeps the remembered choice.
      const bare = new URL(page.url());
      bare.search = '';
      bare.hash = '';
      await page.goto(bare.href);
      await page.waitForSelector('html[lang="zh-Hans"] .toolbar');
      assert.match(await page.textContent('.toolbar'), /暂停|播放/);
    },
    { path: '?preset=01-election', viewport: { width: 1280, height: 720 } },
  ),
);

test('a first visit follows the browser: zh-CN gets 中文, ?lang=en wins over it', { timeout: 120_000 }, () =>
  withApp('i18n-browser', async (app) => {
    const context = await app.browser.newContext({ locale: 'zh-CN', serviceWorkers: 'block' });
    await context.route('**/*', (route) =>
      isLocalUrl(route.request().url()) ? route.continue() : route.abort('blockedbyclient'),
    );
    const page = await context.newPage();
    await page.goto(app.url);
    await page.waitForSelector('html[lang="zh-Hans"] .toolbar');
    assert.match(await page.textContent('.toolbar'), /暂停|播放/);
    const en = new URL(app.url);
    en.searchParams.set('lang', 'en');
    await page.goto(en.href);
    await page.waitForSelector('html[lang="en"] .toolbar');
    assert.match(await page.textContent('.toolbar'), /Pause|Play/);
    await context.close();
  }),
);
