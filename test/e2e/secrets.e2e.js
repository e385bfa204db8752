// Secrets never leave the page through a tool: a sign-in form with a prefilled password and a "Show"
// toggle (type flips to text), a one-time code, a card form and an API key shown as text
// (test/fixtures/site/pages/secrets.html). snapshot, read_page, get_html, page_capabilities and type
// results hold none of the values; content.secrets (asked from an extension page, as the background
// asks it) answers them all, raw, for the background's vault.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ok, openFixture } from './harness/tools.js';
import { findRef } from '../fixtures/llm/conversation.js';

const MASK = '••••••';
const PASSWORD = 'Tr0ub4dor-horse-77';
const VALUES = [PASSWORD, '482913', '4242424242424242', '7373', 'sk_live_51HqLyjWDarjtT1zdp7dcXq9Z'];

/** @param {unknown} result */
function holdsNone(result) {
  const text = JSON.stringify(result);
  for (const v of VALUES) expect(text, `a tool result holds ${v}`).to.not.contain(v);
  return text;
}

scenario('secrets', (ctx) => {
  /** @type {Awaited<ReturnType<typeof openFixture>>} */
  let f;
  /** @param {Record<string, unknown>} msg */
  const toContent = (msg) => ctx.env.control.evaluate((/** @type {{ tabId: number, m: any }} */ a) => browser.tabs.sendMessage(a.tabId, a.m, { frameId: 0 }), { tabId: f.tabId, m: msg });

  before(async () => { f = await openFixture(ctx.env, 'secrets.html'); });
  after(async () => { await f?.page.close(); });

  it('snapshot, read_page, get_html and page_capabilities hold no secret, before and after "Show password"', async () => {
    const { env } = ctx;
    const first = holdsNone(await ok(env, f.tabId, 'snapshot'));
    expect(first).to.contain(`value=\\"${MASK}\\" [password]`);
    expect(first).to.contain('value=\\"alice\\"');
    expect(first).to.contain(`Your live key: ${MASK}`);
    await ok(env, f.tabId, 'click', { text: 'Show' });
    expect(await f.page.evaluate(() => /** @type {HTMLInputElement} */ (document.getElementById('pass')).type)).to.equal('text');
    const snap = String((await ok(env, f.tabId, 'snapshot')).data);
    holdsNone(snap);
    // Shown as text now, and still masked: the field was a password.
    expect(snap).to.match(/- textbox "Password" value="••••••" \[e\d+\]/);
    expect(snap).to.match(/- textbox "One-time code" value="••••••"/);
    expect(snap).to.match(/- textbox "Card number" value="••••••"/);
    expect(snap).to.match(/- textbox "Security code" value="••••••"/);
    expect(snap).to.contain('- textbox "Name on card" value="Alice Example"');
    holdsNone(await ok(env, f.tabId, 'read_page'));
    const html = holdsNone(await ok(env, f.tabId, 'get_html'));
    expect(html).to.contain(`value=\\"${MASK}\\"`);
    holdsNone(await ok(env, f.tabId, 'get_html', { selector: '#pass' }));
    holdsNone(await ok(env, f.tabId, 'page_capabilities'));
  });

  it('typing into the shown password reports the mask; content.secrets knows the typed value and every secret', async () => {
    const { env } = ctx;
    const snap = String((await ok(env, f.tabId, 'snapshot')).data);
    const typed = await ok(env, f.tabId, 'type', { ref: findRef(snap, 'textbox', 'Password'), text: 'n3w-Passw0rd!' });
    expect(typed.data.value).to.equal(MASK);
    expect(JSON.stringify(typed)).to.not.contain('n3w-Passw0rd!');
    expect(await f.page.evaluate(() => /** @type {HTMLInputElement} */ (document.getElementById('pass')).value)).to.equal('n3w-Passw0rd!');
    const user = await ok(env, f.tabId, 'type', { ref: findRef(snap, 'textbox', 'Username'), text: 'bob' });
    expect(user.data.value).to.equal('bob');
    const secrets = await toContent({ type: 'content.secrets' });
    expect(secrets.ok).to.equal(true);
    expect(secrets.data.origin).to.equal(new URL(f.url).origin);
    expect(secrets.data.values).to.include.members(['n3w-Passw0rd!', ...VALUES.slice(1)]);
    expect(secrets.data.values).to.not.include('bob');
    expect(secrets.data.values).to.not.include('Alice Example');
    const field = await toContent({ type: 'content.secretField', target: { selector: '#pass' } });
    expect(field).to.deep.equal({ ok: true, data: { secret: true, origin: new URL(f.url).origin } });
    expect((await toContent({ type: 'content.secretField', target: { selector: '#holder' } })).data.secret).to.equal(false);
  });
});
