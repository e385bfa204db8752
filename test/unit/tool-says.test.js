// A tool card's sentence comes from the tool itself (`says`): every tool declares one whose messages
// exist in every language, and ui/tool-sentence.js hands it the call (no list of names beside the
// registry).
import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import { ALL_TOOLS } from '../../src/chrome/agent/tools/index.js';
import { pageTools, callPageTool } from '../../src/chrome/agent/tools/webmcp.js';
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
  it('says "Scheduled" only when the job exists, and "Used" for a tool with no sentence of its own or no tool at all', () => {
    expect(say('schedule_task', { title: 'Report' }, { result: { ok: true, data: {} } })).to.equal('Scheduled “Report”');
    expect(say('schedule_task', { title: 'Report' })).to.equal('Tried to schedule “Report”');
    expect(say('get_html', {})).to.equal('Used get_html');
    expect(say('a_page_tool', {})).to.equal('Used a_page_tool');
  });
  it('names an element, an address and a quote as a card has room for', () => {
    const item = /** @type {any} */ ({ kind: 'tool', id: '1', name: 'hover', args: {} });
    expect([elementOf(item, { text: 'Menu' }, false), elementOf(item, { text: 'Menu' }, true), elementOf(item, {}, true)]).to.deep.equal(['', '“Menu”', '']);
    expect([hostOf('https://a.test/'), hostOf('not a url')]).to.deep.equal(['a.test', 'not a url']);
    expect(quote('x'.repeat(60))).to.equal(`“${'x'.repeat(47)}…”`);
  });
});
