import { expect } from 'chai';
import { BUNDLED } from '../../src/chrome/bundled-adapters/bundled.js';
import { parseAdapter, formatAdapter, ADAPTER_CATEGORIES } from '../../src/chrome/agent/adapters/adapter-format.js';
import { createAdapterCatalog } from '../../src/chrome/agent/adapters/catalog.js';
import { compilePattern, patternMatches } from '../../src/chrome/agent/url-patterns.js';
import { createPolicy } from '../../src/chrome/agent/safety/policy.js';
import { createTaskScope } from '../../src/chrome/agent/safety/scope.js';
import { ALL_TOOLS } from '../../src/chrome/agent/tools/index.js';

const toolNames = new Set(ALL_TOOLS.map((t) => t.name));

/** @param {string} pattern @param {string} url */
function matches(pattern, url) {
  const c = compilePattern(pattern);
  if (!c.ok) throw new Error(c.message);
  return patternMatches(c.pattern, new URL(url));
}

/** @param {Record<string, unknown>} fields @param {string} [body] */
function file(fields, body = '- Search is the box at the top.') {
  return `---\n${Object.entries(fields).map(([k, v]) => `${k}: ${Array.isArray(v) ? `[${v.join(', ')}]` : v}`).join('\n')}\n---\n${body}\n`;
}

describe('site adapters: the bundled files', () => {
  it('ships at least 70, and every one parses and validates against the real tool names', () => {
    expect(BUNDLED.length).to.be.at.least(70);
    for (const f of BUNDLED) {
      const r = parseAdapter(f.text, { source: 'bundled', file: f.file, toolNames });
      expect(r.ok, `${f.file}: ${r.ok ? '' : JSON.stringify(r.errors)}`).to.equal(true);
    }
  });

  it('covers the kinds of sites people automate, some in other languages, and marks money and admin sites high-risk', () => {
    const all = BUNDLED.map((f) => { const r = parseAdapter(f.text, { file: f.file }); if (!r.ok) throw new Error(f.file); return r.adapter; });
    const cats = new Set(all.map((a) => a.category));
    for (const c of ['mail', 'calendar', 'chat', 'code', 'tracker', 'docs', 'cloud', 'crm', 'payments', 'shop', 'travel', 'social', 'video', 'maps', 'finance', 'government', 'jobs']) expect(cats, c).to.include(c);
    expect(all.filter((a) => a.locale && a.locale !== 'en').length).to.be.at.least(5);
    for (const a of all.filter((x) => ['finance', 'cloud', 'payments'].includes(x.category))) expect(a.risk, a.id).to.equal('high');
    // Guidance names no selectors that rot.
    for (const a of all) expect(a.guidance, a.id).to.not.match(/\b(?:div|span|button|input)[.#][a-z]|xpath|data-testid|querySelector/i);
  });

  it('each one written back by the settings editor (Edit) reads the same', () => {
    for (const f of BUNDLED) {
      const r = parseAdapter(f.text, { file: f.file });
      if (!r.ok) continue;
      const again = parseAdapter(formatAdapter(r.adapter), { file: f.file });
      expect(again.ok && again.adapter, f.file).to.deep.equal(r.adapter);
    }
  });

  it('no two bundled adapters claim the same pattern', () => {
    /** @type {Map<string, string>} */
    const seen = new Map();
    for (const f of BUNDLED) {
      const r = parseAdapter(f.text, { file: f.file });
      if (!r.ok) continue;
      for (const p of r.adapter.match) {
        expect(seen.get(p.toLowerCase()), `${p} in ${r.adapter.id}`).to.equal(undefined);
        seen.set(p.toLowerCase(), r.adapter.id);
      }
    }
  });
});

describe('site adapters: URL patterns', () => {
  it('a host matches itself and its subdomains on any scheme and port, and no look-alike', () => {
    expect(matches('github.com', 'https://github.com/openai')).to.equal(true);
    expect(matches('github.com', 'http://gist.github.com:8080/x')).to.equal(true);
    expect(matches('github.com', 'https://GitHub.com./')).to.equal(true);
    for (const evil of ['https://github.com.evil.example/', 'https://evilgithub.com/', 'https://github.co/', 'https://github.com-login.example/', 'https://notgithub.com/github.com', 'https://evil.example/?u=https://github.com/', 'https://github.com@evil.example/', 'file:///github.com/x', 'ftp://github.com/']) {
      expect(matches('github.com', evil), evil).to.equal(false);
    }
  });

  it('"*." matches subdomains only; a path matches itself and below, with * and ** wildcards', () => {
    expect(matches('*.atlassian.net', 'https://acme.atlassian.net/jira')).to.equal(true);
    expect(matches('*.atlassian.net', 'https://atlassian.net/')).to.equal(false);
    expect(matches('google.com/maps', 'https://www.google.com/maps/place/Paris')).to.equal(true);
    expect(matches('google.com/maps', 'https://www.google.com/maps')).to.equal(true);
    expect(matches('google.com/maps', 'https://www.google.com/mapsearch')).to.equal(false);
    expect(matches('google.com/maps', 'https://www.google.com/search?q=maps')).to.equal(false);
    expect(matches('github.com/*/*/pull', 'https://github.com/a/b/pull/12/files')).to.equal(true);
    expect(matches('github.com/*/*/pull', 'https://github.com/a/pull/12')).to.equal(false);
    expect(matches('example.com/docs/**/api', 'https://example.com/docs/v1/x/api/y')).to.equal(true);
  });

  it('an IPv4 address or localhost matches only itself (local sites can have skills)', () => {
    expect(matches('127.0.0.1', 'http://127.0.0.1:8080/x')).to.equal(true);
    expect(matches('127.0.0.1', 'http://127.0.0.2/')).to.equal(false);
    expect(matches('localhost', 'http://localhost:3000/')).to.equal(true);
    expect(matches('localhost', 'http://evil.localhost.example/')).to.equal(false);
    expect(compilePattern('*.127.0.0.1').ok).to.equal(false);
    expect(compilePattern('999.1.1.1').ok).to.equal(false);
  });

  it('refuses patterns that would match too much or cannot be read, saying why', () => {
    for (const [p, why] of [['com', /two labels/], ['https://github.com', /without a scheme/], ['github.com:443', /no port/], ['git*hub.com', /leading/], ['github.com/?q=1', /query/], ['', /empty/], ['*.com.', /host name/]]) {
      const c = compilePattern(/** @type {string} */ (p));
      expect(c.ok, String(p)).to.equal(false);
      if (!c.ok) expect(c.message).to.match(/** @type {RegExp} */ (why));
    }
  });
});

describe('site adapters: the format, field by field', () => {
  it('names every wrong field with what to do', () => {
    const r = parseAdapter(file({ id: 'Bad Id', name: '', category: 'banking', match: ['https://x.com', 'com'], risk: 'extreme', tools: ['teleport'], colour: 'red' }, ''), { toolNames });
    expect(r.ok).to.equal(false);
    if (r.ok) return;
    const fields = r.errors.map((e) => e.field);
    for (const f of ['id', 'name', 'category', 'match', 'risk', 'tools', 'colour', 'guidance']) expect(fields, f).to.include(f);
    expect(r.errors.find((e) => e.field === 'category')?.message).to.include('mail, calendar');
  });

  it('refuses a file without front matter, with YAML errors or an over-long guidance', () => {
    expect(parseAdapter('just text')).to.deep.include({ ok: false });
    const yaml = parseAdapter('---\nid: [unclosed\n---\nx');
    expect(yaml.ok).to.equal(false);
    if (!yaml.ok) expect(yaml.errors[0].message).to.match(/not valid YAML/);
    const long = parseAdapter(file({ id: 'x', name: 'X', category: 'other', match: ['x.example'] }, 'a'.repeat(1201)));
    expect(long.ok).to.equal(false);
    if (!long.ok) expect(long.errors[0]).to.deep.include({ field: 'guidance' });
  });

  it('says how to quote a pattern starting with "*"', () => {
    const r = parseAdapter('---\nid: x\nname: X\ncategory: other\nmatch: [*.x.example]\n---\ng');
    expect(r.ok).to.equal(false);
    if (!r.ok) expect(r.errors[0].message).to.include('must be in quotes, for example ["*.example.com"]');
  });

  it('never runs YAML tags (no code in data)', () => {
    const r = parseAdapter('---\nid: !!js/function "function(){}"\n---\nx');
    expect(r.ok).to.equal(false);
  });
});

describe('site adapters: which one applies', () => {
  const bundled = [
    { file: 'google-search.md', text: file({ id: 'google-search', name: 'Google Search', category: 'search', match: ['google.com'] }, 'search guidance') },
    { file: 'google-maps.md', text: file({ id: 'google-maps', name: 'Google Maps', category: 'maps', match: ['google.com/maps', 'maps.google.com'] }, 'maps guidance') },
    { file: 'gmail.md', text: file({ id: 'gmail', name: 'Gmail', category: 'mail', match: ['mail.google.com'] }, 'mail guidance') },
    { file: 'bank.md', text: file({ id: 'bank', name: 'Bank', category: 'finance', match: ['bank.example'], risk: 'high' }, 'bank guidance') },
  ];

  it('picks the most specific: a path beats a host, a longer host beats a shorter', () => {
    const c = createAdapterCatalog({ bundled, toolNames });
    expect(c.problems).to.deep.equal([]);
    expect(c.forUrl('https://www.google.com/maps/place/x')?.id).to.equal('google-maps');
    expect(c.forUrl('https://mail.google.com/mail/u/0/')?.id).to.equal('gmail');
    expect(c.forUrl('https://www.google.com/search?q=a')?.id).to.equal('google-search');
    expect(c.forUrl('https://example.org/')).to.equal(null);
    expect(c.forUrl('not a url')).to.equal(null);
  });

  it('the user\'s adapters come first, one with a bundled id replaces it, and a disabled one matches nothing', () => {
    const mine = file({ id: 'gmail', name: 'My Gmail', category: 'mail', match: ['mail.google.com'] }, 'my own mail guidance');
    const broad = file({ id: 'my-google', name: 'My Google', category: 'other', match: ['google.com'] }, 'mine everywhere on google');
    const c = createAdapterCatalog({ bundled, settings: { custom: [mine, broad], disabled: ['google-maps'] }, toolNames });
    expect(c.forUrl('https://mail.google.com/')).to.deep.include({ name: 'My Gmail', source: 'user' });
    // The user's broad adapter beats the bundled, more specific one: the user's come first.
    expect(c.forUrl('https://www.google.com/maps')?.id).to.equal('my-google');
    const list = c.list();
    expect(list.find((a) => a.id === 'gmail' && a.source === 'bundled')).to.deep.include({ overridden: true });
    expect(list.find((a) => a.id === 'google-maps')).to.deep.include({ enabled: false });
    const off = createAdapterCatalog({ bundled, settings: { disabled: ['google-maps'] } });
    expect(off.forUrl('https://www.google.com/maps')?.id).to.equal('google-search');
  });

  it('a broken user adapter is reported, not fatal', () => {
    const c = createAdapterCatalog({ bundled, settings: { custom: ['---\nid: x\n---\n'] } });
    expect(c.problems).to.have.length(1);
    expect(c.forUrl('https://mail.google.com/')?.id).to.equal('gmail');
  });

  it('a high-risk adapter makes every acting step on its site ask, through the policy, and the always-allow list yields', () => {
    const c = createAdapterCatalog({ bundled });
    const sensitiveSite = (/** @type {string} */ url) => { const a = c.forUrl(url); return a?.risk === 'high' ? { name: a.name } : null; };
    const page = 'https://online.bank.example/accounts';
    const policy = createPolicy({ scope: createTaskScope(page), sensitiveSite, alwaysAllow: ['bank.example'] });
    const click = policy.checkCall({ tool: 'click', args: { ref: 'e1' }, effects: ['reads_page', 'acts_on_page'], url: page, target: { role: 'button', name: 'Show details' }, mode: 'act' });
    expect(click.action).to.equal('ask');
    if (click.action === 'ask') expect(click.request).to.deep.include({ rule: 'sensitive_site', category: 'sensitive', severity: 'high', site: 'online.bank.example' });
    const read = policy.checkCall({ tool: 'snapshot', args: {}, effects: ['reads_page'], url: page, target: null, mode: 'act' });
    expect(read.action).to.equal('allow');
    const post = policy.judgeRequest({ kind: 'request', method: 'POST', url: 'https://online.bank.example/api/x', type: 'xhr', topLevel: false }, { pageUrl: page, cause: 'click' });
    expect(post.action).to.equal('ask');
    const elsewhere = createPolicy({ scope: createTaskScope('https://shop.example/'), sensitiveSite });
    expect(elsewhere.checkCall({ tool: 'click', args: { ref: 'e1' }, effects: ['reads_page', 'acts_on_page'], url: 'https://shop.example/', target: null, mode: 'act' }).action).to.equal('allow');
  });
});

it('adapter categories are the documented ones', async () => {
  const { readFile } = await import('node:fs/promises');
  const doc = await readFile(new URL('../../docs/ADAPTERS.md', import.meta.url), 'utf8');
  for (const c of ADAPTER_CATEGORIES) expect(doc).to.include(`\`${c}\``);
});
