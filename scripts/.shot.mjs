// usage: node scripts/.shot.mjs URLSEARCH OUT.png WIDTH HEIGHT [waitActionsJS]
import { chromium } from '@playwright/test';
const [search, out, w, h, action] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--enable-unsafe-webgpu','--enable-features=Vulkan','--disable-quic','--no-first-run'] });
const page = await browser.newPage({ viewport: { width: Number(w), height: Number(h) } });
page.on('pageerror', (e) => console.log('pageerror', e.message));
page.on('console', (m) => { if (m.type() === 'error') console.log('console', m.text()); });
await page.goto('http://127.0.0.1:4173/' + search);
await page.waitForTimeout(3000);
if (action) { const fn = new Function('page', `return (async () => { ${action} })()`); await fn(page); }
await page.screenshot({ path: out });
const dims = await page.evaluate(() => ({ scrollH: document.documentElement.scrollHeight, scrollW: document.documentElement.scrollWidth }));
console.log(JSON.stringify(dims));
await browser.close();
