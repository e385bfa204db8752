import { chromium } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { bigPageHtml } from '/work/main/test/fixtures/site/big-page.js';
const SCRIPTS = ['page-channel.js', 'dom.js', 'roles.js', 'accname.js', 'actionable.js', 'refs.js', 'listeners.js', 'frames.js', 'secret-patterns.js', 'secrets.js', 'outline-budget.js', 'ref-rule.js', 'select-options.js', 'outline.js'];
const dir = process.argv[2] ?? '/work/main/src/chrome/content';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const page = await browser.newPage();
await page.setContent(bigPageHtml());
console.log('elements', await page.evaluate(() => document.querySelectorAll('*').length));
for (const f of SCRIPTS) await page.evaluate(await readFile(`${dir}/${f}`, 'utf8'));
console.log('layout ms', await page.evaluate(() => { const t = performance.now(); document.body.offsetHeight; return performance.now() - t; }));
console.log('checkVis all ms', await page.evaluate(() => { const t = performance.now(); for (const e of document.querySelectorAll('*')) e.checkVisibility({visibilityProperty:true}); return performance.now() - t; }));
console.log('listeners ms', await page.evaluate(() => { const t = performance.now(); window.Tabwright.listeners.collect(); return performance.now() - t; }));
for (let i = 0; i < 2; i++) {
  const r = await page.evaluate(() => { const t = performance.now(); const o = window.Tabwright.outline.build({}); return { ms: performance.now() - t, len: o.text.length, refs: o.refs, trunc: o.truncated }; });
  console.log(r);
}
if (process.env.TABLE) { const o = await page.evaluate(() => { const t = window.Tabwright.outline.build({}).text; const ref = /table \(3000 actionable\): snapshot ref=(e\d+)/.exec(t)[1]; const tt = window.Tabwright.outline.build({ ref }).text; const m = /snapshot ref=(e\d+) with/.exec(tt); const part = window.Tabwright.outline.build({ ref: m[1], from: 2141, to: 2516 }).text; return part.split('\n').slice(0, 3).join('\n') + '\n...\n' + part.split('\n').slice(-4).join('\n') + '\nlen ' + part.length; }); console.log(o); }
if (process.env.DUMP) { const o = await page.evaluate(() => window.Tabwright.outline.build({}).text); console.log(o); }
const pw = performance.now(); const y = await page.ariaSnapshot({ mode: 'ai' }); console.log('playwright ms', performance.now() - pw, y.length);
await browser.close();
