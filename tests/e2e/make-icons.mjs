// Renders static/icon.svg into the PNG icons the web app manifest lists (browsers that do not
// take an SVG icon, home screens, the maskable variant with its safe zone), with the same
// Chromium the tests use. Run after changing the SVG:
//
//   cd tests/e2e && node make-icons.mjs
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from './harness.mjs';

const dir = fileURLToPath(new URL('../../static/', import.meta.url));
const svg = readFileSync(dir + 'icon.svg', 'utf8');
const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;

// name, size, maskable (a full-bleed background with the icon inside the 80% safe zone)
const ICONS = [
  ['icon-192.png', 192, false],
  ['icon-512.png', 512, false],
  ['icon-maskable-512.png', 512, true],
];

const browser = await launchBrowser();
try {
  for (const [name, size, maskable] of ICONS) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const inner = maskable ? Math.round(size * 0.8) : size;
    await page.setContent(
      `<html><body style="margin:0;width:${size}px;height:${size}px;display:grid;place-items:center;` +
        `background:${maskable ? '#1d3557' : 'transparent'}">` +
        `<img src="${src}" width="${inner}" height="${inner}"></body></html>`,
    );
    await page.locator('img').evaluate((img) => img.decode());
    await page.screenshot({ path: dir + name, omitBackground: !maskable });
    await page.close();
    console.log(`wrote static/${name} (${size}×${size})`);
  }
} finally {
  await browser.close();
}
