// A tool card's sentence comes from the tool itself (`says`): every tool declares one whose messages
// exist in every language, and ui/tool-sentence.js hands it the call (no list of names beside the
// registry).
import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import { ALL_TOOLS } from '../../src/chrome/agent/tools/index.js';
import { pageTools, callPageTool } from '../../src/chrome/agent/tools/webmcp.js';
import { SAYS_USED } from '../../src/chrome/agent/tools/says.js';
import { toolSentence, elementOf, hostOf, quote, saidCall } from '../../src/chrome/ui/tool-sentence.js';

const LOCALES = new URL('../../src/chrome/_locales/', import.meta.url);
/** @param {string} lang @returns {Record<string, { message: string }>} */
const messages = (lang) => JSON.parse(readFileSync(new URL(`${lang}/messages.json`, LOCALES), 'utf8'));
const en = messages('en');
/** The English sentence, filled as browser.i18n fills it. @param {string} key @param {string | string[]} [subs] */
const t = (key, subs) => {
  const list = subs === undefined ? [] : Array.isArray(subs) ? subs : [subs];
  const m = en[key];
  if (!m) return key;
  return m.message.replace(/\$([A-Za-z_]+)\$/g, (_, name) => {
    const ph = /** @type {any} */ (m).placeholders?.[name.toLowerCase()];
    return ph ? list[Number(ph.content.slice(1)) - 1] ?? '' : '';
  });
};
/** @param {string} name @param {unknown} args @param {Record<string, unknown>} [more] */
const say = (name, args, more = {}) => toolSentence(/** @type {any} */ ({ kind: 'tool', id: '1', name, args, ...more }), t);

describe('a tool\'s card sentence, from the tool (ui/tool-sentence.js)', () => {
  it('every tool declares its sentence, and the messages it says (succeeded or not) exist in every language', () => {
    const tools = [...ALL_TOOLS, pageTools, callPageTool];
    expect(tools.filter((tool) => !tool.says).map((tool) => tool.name)).to.deep.equal([]);
    /** @type {Set<string>} */
    const keys = new Set();
    const record = (/** @type {string} */ key) => { keys.add(key); return key; };
    const item = (/** @type {string} */ name, /** @type {boolean} */ ok) => ({ kind: 'tool', id: '1', name, args: {}, ...(ok ? { result: { ok: true, data: {} } } : {}) });
    for (const tool of tools) for (const ok of [true, false]) tool.says?.(record, saidCall(/** @type {any} */ (item(tool.name, ok))));
    expect(keys.size).to.be.greaterThan(20);
    for (const lang of readdirSync(LOCALES)) {
      const m = messages(lang);
      expect([...keys].filter((k) => !(k in m)), lang).to.deep.equal([]);
    }
  });
  it('says what was done to which element, where, with which keys or option', () => {
    expect(say('click', { ref: 'e4' }, { target: { role: 'button', name: 'Place order' } })).to.equal('Clicked “Place order”');
    expect(say('click', { text: 'Sign in' })).to.equal('Clicked “Sign in”');
    expect(say('type', { text: 'secret', selector: '#q' })).to.equal('Typed into “#q”');
    expect(say('set_field', { ref: 'e9', value: 'x' })).to.equal('Typed into [e9]');
    expect(say('select_option', { ref: 'e2', label: 'Blue' })).to.equal('Chose “Blue” in [e2]');
    expect(say('press_keys', { keys: ['Control', 'A'] })).to.equal('Pressed Control A');
    expect(say('navigate', { url: 'https://shop.test/cart?x=1' })).to.equal('Opened shop.test/cart');
    expect(say('snapshot', {})).to.equal('Looked at the page');
    expect(say('go_back', null)).to.equal('Went back a page');
  });
  it('says "Scheduled" only when the job exists, and "Used" for a name no tool has', () => {
    expect(say('schedule_task', { title: 'Report' }, { result: { ok: true, data: {} } })).to.equal('Scheduled “Report”');
    expect(say('schedule_task', { title: 'Report' })).to.equal('Tried to schedule “Report”');
    expect(say('old_tool', {})).to.equal('Used old_tool');
    expect(say('a_page_tool', {})).to.equal('Used a_page_tool');
  });
  it('every tool has a sentence of its own: "Used <tool>" is only for a name no tool has', () => {
    const tools = [...ALL_TOOLS, pageTools, callPageTool];
    expect(tools.filter((tool) => tool.says === SAYS_USED).map((tool) => tool.name)).to.deep.equal([]);
    expect(tools.filter((tool) => say(tool.name, {}).startsWith('Used ') && tool.name !== 'call_page_tool').map((tool) => tool.name)).to.deep.equal([]);
  });
  it('names the element, the place, the files or the name from the call', () => {
    const ok = { result: { ok: true, data: {} } };
    expect(say('drag_drop', { from_text: 'Card 1', to_ref: 'e7' })).to.equal('Dragged “Card 1” onto [e7]');
    expect(say('drag_drop', { from_ref: 'e2', to_x: 10, to_y: 20 }, { target: { role: 'listitem', name: 'Card 2' } })).to.equal('Dragged “Card 2” to a point on the page');
    expect(say('upload_file', { ref: 'e3', files: [{ path: '/home/u/cv.pdf' }, { name: 'photo.png', content: 'x' }] }, ok)).to.equal('Attached “cv.pdf, photo.png” to [e3]');
    expect(say('upload_file', { files: [{ name: 'a.txt', content: 'x' }] }, ok)).to.equal('Attached “a.txt”');
    expect(say('get_html', { selector: '#main' })).to.equal('Read the HTML of “#main”');
    expect(say('get_html', {})).to.equal('Read the page\'s HTML');
    expect(say('describe_ref', { ref: 'e12' })).to.equal('Looked up [e12]');
    expect(say('extract_data', { collection: 'products' })).to.equal('Collected “products” from the page');
    expect(say('read_pdf', { url: 'https://a.test/doc.pdf' })).to.equal('Read the PDF at a.test/doc.pdf');
    expect(say('read_pdf', {})).to.equal('Read the PDF in the tab');
    expect(say('fetch_url', { url: 'https://api.test/items' })).to.equal('Fetched api.test/items');
    expect(say('handle_dialog', { accept: true })).to.equal('Accepted the page\'s dialog');
    expect(say('handle_dialog', { accept: false })).to.equal('Dismissed the page\'s dialog');
    expect(say('skills', { action: 'list' })).to.equal('Looked at the skills');
    expect(say('skills', { action: 'read', name: 'weekly-report' })).to.equal('Read the skill “weekly-report”');
    expect(say('run_workflow', { action: 'list' })).to.equal('Looked at the saved workflows');
    expect(say('call_page_tool', { name: 'addToCart', input: {} })).to.equal('Used the page\'s tool “addToCart”');
    expect([say('go_forward', null), say('reload', {}), say('scratchpad', { note: 'x' }), say('page_tools', {})])
      .to.deep.equal(['Went forward a page', 'Reloaded the page', 'Updated its notes', 'Listed the page\'s own tools']);
  });
  it('says a call that writes or saves did so only when it succeeded; otherwise it tried', () => {
    const ok = { result: { ok: true, data: {} } };
    const failed = { result: { ok: false, code: 'ACTION_FAILED', message: 'x' } };
    expect(say('fetch_url', { url: 'https://api.test/items', method: 'POST' }, ok)).to.equal('Sent a POST request to api.test/items');
    expect(say('fetch_url', { url: 'https://api.test/items', method: 'DELETE' }, failed)).to.equal('Tried to send a DELETE request to api.test/items');
    expect(say('save_skill', { name: 'r', title: 'Report' }, ok)).to.equal('Saved the skill “Report”');
    expect(say('save_skill', { name: 'r', title: 'Report' })).to.equal('Tried to save the skill “Report”');
    expect(say('run_workflow', { action: 'run', name: 'Daily check' }, ok)).to.equal('Ran the workflow “Daily check”');
    expect(say('run_workflow', { action: 'run', name: 'Daily check' }, failed)).to.equal('Tried to run the workflow “Daily check”');
    expect(say('schedule_resume', { reason: 'r' }, ok)).to.equal('Set the task to resume later');
    expect(say('schedule_resume', { reason: 'r' }, failed)).to.equal('Tried to set the task to resume later');
    expect(say('upload_file', { ref: 'e3', files: [{ name: 'a.txt', content: 'x' }] }, failed)).to.equal('Tried to attach “a.txt”');
  });
  it('names an element, an address and a quote as a card has room for', () => {
    const item = /** @type {any} */ ({ kind: 'tool', id: '1', name: 'hover', args: {} });
    expect([elementOf(item, { text: 'Menu' }, false), elementOf(item, { text: 'Menu' }, true), elementOf(item, {}, true)]).to.deep.equal(['', '“Menu”', '']);
    expect([hostOf('https://a.test/'), hostOf('not a url')]).to.deep.equal(['a.test', 'not a url']);
    expect(quote('x'.repeat(60))).to.equal(`“${'x'.repeat(47)}…”`);
  });
});
