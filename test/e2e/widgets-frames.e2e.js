// Hard widgets (frames): a sign-in form inside a same-origin iframe and one inside a
// cross-origin iframe (the fixture server under "localhost"). Each case types into the frame's fields
// by ref, selects, checks and submits there, and reads the frame's own DOM afterwards through the
// browser's frame API; get_frames lists both; text and selector targets act inside a frame with frame_id.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ok, openFixture, tool } from './harness/tools.js';
import { findRef } from '../fixtures/llm/conversation.js';

/** The lines of one iframe's part of an outline: its own line and the deeper-indented lines under it. @param {string} outline @param {string} title */
function frameSection(outline, title) {
  const lines = outline.split('\n');
  const i = lines.findIndex((l) => l.includes(`- iframe "${title}"`));
  if (i < 0) throw new Error(`no iframe "${title}" in:\n${outline}`);
  const indent = /^\s*/.exec(lines[i])?.[0].length ?? 0;
  const out = [lines[i]];
  for (const l of lines.slice(i + 1)) {
    if ((/^\s*/.exec(l)?.[0].length ?? 0) <= indent) break;
    out.push(l);
  }
  return out.join('\n');
}

scenario('widgets: frames', (ctx) => {
  /** @type {Awaited<ReturnType<typeof openFixture>>} */
  let f;
  const snapshot = async () => String((await ok(ctx.env, f.tabId, 'snapshot')).data);

  /**
   * Evaluate in the frame loaded with ?from=<which>, through Playwright's or Puppeteer's frame API.
   * @param {'same' | 'cross'} which @param {() => any} fn
   */
  async function inFrame(which, fn) {
    const raw = /** @type {any} */ (f.page.page);
    const frame = raw.frames().find((/** @type {any} */ fr) => fr.url().includes(`frame-login.html?from=${which}`));
    if (!frame) throw new Error(`no ${which} frame among ${raw.frames().map((/** @type {any} */ fr) => fr.url()).join(', ')}`);
    return frame.evaluate(fn);
  }
  const state = (/** @type {'same' | 'cross'} */ which) => inFrame(which, () => ({
    submitted: document.body.dataset.submitted ? JSON.parse(document.body.dataset.submitted) : null,
    status: document.getElementById('status')?.textContent,
    trusted: document.body.dataset.trusted ?? null,
    user: /** @type {HTMLInputElement} */ (document.getElementById('user')).value,
    region: /** @type {HTMLSelectElement} */ (document.getElementById('region')).value,
    remember: /** @type {HTMLInputElement} */ (document.getElementById('remember')).checked,
  }));

  before(async () => {
    f = await openFixture(ctx.env, 'widgets/frames.html');
    // The cross-origin frame loads after the page; wait until both frames' outlines are spliced in.
    const deadline = Date.now() + 15_000;
    for (let o = await snapshot(); !(o.includes('Sign in (same)') && o.includes('Sign in (cross)')); o = await snapshot()) {
      if (Date.now() > deadline) throw new Error(`the frames never appeared:\n${o}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  });
  after(async () => { await f?.page.close(); });

  it('lists both frames with get_frames: parent, URL, origin and title', async () => {
    const r = await ok(ctx.env, f.tabId, 'get_frames');
    /** @type {{ frameId: number, parentFrameId: number, url: string, origin: string, title: string | null, name: string | null }[]} */
    const frames = r.data.frames;
    const top = frames.find((x) => x.frameId === 0);
    const same = frames.find((x) => x.url.includes('from=same'));
    const cross = frames.find((x) => x.url.includes('from=cross'));
    expect(top?.origin).to.equal('top');
    expect(same).to.include({ parentFrameId: 0, origin: 'same-origin', title: 'Same-origin sign in', name: 'same-login' });
    expect(cross).to.include({ parentFrameId: 0, origin: 'cross-origin', title: 'Cross-origin sign in', name: 'cross-login' });
    expect(cross?.url).to.match(/^http:\/\/localhost:/);
  });

  for (const which of /** @type {const} */ (['same', 'cross'])) {
    const title = which === 'same' ? 'Same-origin sign in' : 'Cross-origin sign in';
    it(`fills and submits the form inside the ${which}-origin frame by ref, and the frame's DOM shows it`, async () => {
      const { env } = ctx;
      const part = frameSection(await snapshot(), title);
      // The frame's refs are its own ("f7:e3"): its content script acts in its realm and coordinates.
      const user = findRef(part, 'textbox', 'Username');
      expect(user).to.match(/^f\d+:e\d+$/);
      const typed = await ok(env, f.tabId, 'type', { ref: user, text: `ada-${which}` });
      expect(typed.data.value).to.equal(`ada-${which}`);
      expect(typed.data.trusted ?? false).to.equal(ctx.kind === 'chromium');
      const pass = await ok(env, f.tabId, 'type', { ref: findRef(part, 'textbox', 'Password'), text: 'hunter22' });
      expect(pass.data.value).to.equal('••••••');
      await ok(env, f.tabId, 'select_option', { ref: findRef(part, 'combobox', 'Region'), label: 'Europe' });
      const checked = await ok(env, f.tabId, 'check', { ref: findRef(part, 'checkbox', 'Remember me') });
      expect(checked.data).to.include({ checked: true, changed: true });
      const clicked = await ok(env, f.tabId, 'click', { ref: findRef(part, 'button', `Sign in (${which})`) });
      const s = await state(which);
      expect(s.submitted).to.deep.equal({ user: `ada-${which}`, passLength: 8, region: 'eu', remember: true });
      expect(s.status).to.equal(`Signed in as ada-${which}`);
      // Chrome clicks with trusted CDP input at the frame's offset (border and padding included);
      // Firefox has no trusted input, so the frame gets synthetic events.
      expect(clicked.data.trusted ?? false).to.equal(ctx.kind === 'chromium');
      expect(s.trusted).to.equal(String(ctx.kind === 'chromium'));
      // The top page is untouched: the actions went to the frame.
      expect(await f.page.evaluate(() => document.activeElement?.localName)).to.be.oneOf(['iframe', 'body']);
    });
  }

  it('acts inside a frame by selector and by text with frame_id', async () => {
    const { env } = ctx;
    const frames = /** @type {{ frameId: number, url: string }[]} */ ((await ok(env, f.tabId, 'get_frames')).data.frames);
    const cross = /** @type {{ frameId: number }} */ (frames.find((x) => x.url.includes('from=cross'))).frameId;
    await ok(env, f.tabId, 'type', { selector: '#user', frame_id: cross, text: 'grace' });
    await ok(env, f.tabId, 'select_option', { selector: '#region', frame_id: cross, value: 'us' });
    await ok(env, f.tabId, 'uncheck', { text: 'Remember me', frame_id: cross });
    await ok(env, f.tabId, 'click', { text: 'Sign in (cross)', frame_id: cross });
    const s = await state('cross');
    expect(s).to.include({ user: 'grace', region: 'us', remember: false, status: 'Signed in as grace' });
    // Without frame_id the same selector means the top page, which has no such field.
    expect(await tool(env, f.tabId, 'type', { selector: '#user', text: 'x' })).to.include({ ok: false, code: 'NOT_FOUND' });
  });
});
