import { chromium } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
const file = process.argv[2];
const C = '/work/wt-perception/src/chrome/content/';
const SCRIPTS = ['dom.js', 'roles.js', 'accname.js', 'actionable.js', 'refs.js', 'listeners.js', 'frames.js', 'outline.js'];
const server = http.createServer(async (req, res) => { try { const body = await readFile('/work/shared/corpus/real-pages/' + decodeURIComponent(req.url.slice(1))); res.writeHead(200, {'content-type':'text/html; charset=utf-8'}).end(body); } catch { res.writeHead(404).end(); } });
await new Promise(r => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const ctx = await b.newContext({ viewport: { width: 1280, height: 900 } });
await ctx.route('**/*', r => r.request().url().startsWith(origin) ? r.continue() : r.abort());
await ctx.addInitScript({ content: await readFile(C + 'listener-tracker.js', 'utf8') });
const page = await ctx.newPage();
await page.goto(`${origin}/${file}`, { waitUntil: 'load' }).catch(e => console.log('goto', e.message));
for (const f of SCRIPTS) await page.evaluate(await readFile(C + f, 'utf8'));
const tw = await page.evaluate(() => Tabwright.outline.build({ maxChars: 1e9 }).text);
const pw = await page.ariaSnapshot({ mode: 'ai' });
if (process.argv[3] === 'show') { console.log(tw); console.log('=========='); console.log(pw); }
for (const line of pw.split('\n')) {
  const ref = /\[ref=([^\]]+)\]/.exec(line)?.[1]; if (!ref) continue;
  const role = /^\s*- (\w+)/.exec(line)?.[1];
  if (!(/^(button|link|textbox|searchbox|checkbox|radio|combobox|listbox|option|slider|spinbutton|switch|tab|menuitem|treeitem|gridcell)$/.test(role) || line.includes('cursor=pointer'))) continue;
  const r = await page.locator(`aria-ref=${ref}`).evaluate(el => {
    if (Tabwright.refs.refOf(el)) return null;
    const anc = []; for (let e = el; e && anc.length < 6; e = e.parentElement) anc.push(`${e.localName}${e.id ? '#' + e.id : ''}[${getComputedStyle(e).display}/${getComputedStyle(e).visibility}${e.getAttribute('aria-hidden') ? '/ah' : ''}${e.checkVisibility() ? '' : '/nobox'}]`);
    return { html: el.outerHTML.slice(0, 250), anc: anc.join(' < ') };
  }).catch(e => ({ err: e.message.slice(0, 100) }));
  if (r) console.log(line.trim(), '\n   ', JSON.stringify(r));
}
await b.close(); server.close();
