// Renders the marketplace icon (media/icon.png, 256×256) from the view icon media/subchats.svg: the same
// drawing, white on the brand blue. Run after changing the SVG: node scripts/render-icon.mjs
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const root = join(import.meta.dirname, '..');
const svg = readFileSync(join(root, 'media/subchats.svg'), 'utf8').replace('stroke="currentColor"', 'stroke="#ffffff"');
const size = 256;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  await page.setContent(`<body style="margin:0"><div id="icon" style="width:${size}px;height:${size}px;border-radius:48px;background:linear-gradient(135deg,#2b6fd6,#1b3f8f);display:flex;align-items:center;justify-content:center">
    <div style="width:176px;height:176px">${svg.replace('width="24" height="24"', 'width="176" height="176"')}</div></div></body>`);
  await page.locator('#icon').screenshot({ path: join(root, 'media/icon.png'), omitBackground: true });
} finally {
  await browser.close();
}
