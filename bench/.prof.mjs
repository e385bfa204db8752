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
const r = await page.evaluate(() => {
  const T = {}; const wrap = (obj, k, label) => { const f = obj[k]; obj[k] = function (...a) { const t = performance.now(); try { return f.apply(this, a); } finally { const e = T[label] ??= [0, 0]; e[0] += performance.now() - t; e[1]++; } }; };
  const tw = window.Tabwright;
  tw.outline.build({ maxChars: 1e9 });
  const times = []; for (let i = 0; i < 5; i++) { const t = performance.now(); tw.outline.build({ maxChars: 1e9 }); times.push(performance.now() - t); }
  wrap(tw.dom, 'rendering', 'rendering'); wrap(tw.accname, 'name', 'accname'); wrap(tw.actionable, 'pointerStart', 'pointer'); wrap(tw.listeners, 'collect', 'listeners'); wrap(tw.actionable, 'nameFor', 'nameFor'); wrap(tw.actionable, 'hintOf', 'hint');
  const t = performance.now(); tw.outline.build({ maxChars: 1e9 }); const total = performance.now() - t;
  return { times, total, T, n: document.querySelectorAll('*').length };
});
console.log(JSON.stringify(r));
{ const ts = []; for (let i = 0; i < 10; i++) { const a = performance.now(); await page.evaluate(() => 0); ts.push(performance.now() - a); } console.log("roundtrip", ts.map(x => x.toFixed(1)).join(" ")); const ts2 = []; for (let i = 0; i < 5; i++) { const a = performance.now(); await page.evaluate(() => Tabwright.outline.build({ maxChars: 1e9 }).text); ts2.push(performance.now() - a); } console.log("tw via cdp", ts2.map(x => x.toFixed(1)).join(" ")); }
const t0 = performance.now(); await page.ariaSnapshot({ mode: 'ai' }); const t1 = performance.now(); await page.ariaSnapshot({ mode: 'ai' }); console.log('pw', t1 - t0, performance.now() - t1);
await b.close(); server.close();
