// The hold on writes that leave through channels the request hold cannot pause (docs/SECURITY.md),
// in both browsers: a WebSocket frame (declined: the server never got it; allowed: it did), a
// pristine send taken from a fresh about:blank frame, a data-channel frame between two peers in the
// page, frames a page timer sends after the step (one declined, one allowed), an image GET to another
// site carrying page data, WebTransport refused while held, a shared worker started during the run
// (refused in Chromium, its socket asked about in Firefox) and one running before it (Chromium: its
// frames held, its requests refused; Firefox: its requests held, each step asked first for its early
// socket), a worker socket allowed for the task, a socket used with no run active (not held), and
// fetch_url/read_pdf of an open redirect to another site in Ask mode (refused).
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { QUICK_SETTLE_MS, answerPending, sendFromPanel, useMockProvider, useSettle, waitForIdle, tabIdOf } from './harness/env.js';
import { findRef, lastToolResult, toolResults } from '../fixtures/llm/conversation.js';
import { startChannels } from '../fixtures/channels/server.js';

/** @import { Driver } from './harness/driver.js' */
/** @import { TestEnv } from './harness/env.js' */

/** @type {Awaited<ReturnType<typeof startChannels>> | null} */
let server = null;
after(async () => { await server?.close(); server = null; });

/** Answer the next pending card; returns what it showed. @param {Driver} panel @param {'yes' | 'task' | 'no'} answer */
async function answerCard(panel, answer) {
  const card = /** @type {{ rule: string, text: string }} */ (await panel.waitFor(() => {
    const c = /** @type {HTMLElement | null} */ (document.querySelector('.card.confirm.pending'));
    return c && { rule: c.dataset.rule ?? '', text: c.textContent ?? '' };
  }, undefined, { message: 'a confirmation card', timeout: 30_000 }));
  await answerPending(panel, answer);
  return card;
}

/**
 * A page of the channels server with a panel on its tab, once its channel is open.
 * @param {TestEnv} env @param {string} path
 */
async function openChannelPage(env, path) {
  server ??= await startChannels();
  const url = `${server.url}/${path}`;
  const page = await env.browser.openPage(url);
  const tabId = await tabIdOf(env, url);
  const panel = await env.browser.openExtensionPage(`ui/panel.html?tabId=${tabId}`);
  await panel.waitFor(() => document.body.dataset.tabId, undefined, { message: 'the panel to attach to its tab' });
  await page.waitFor(() => document.body.dataset.open === 'yes', undefined, { message: 'the page\'s channel to open', timeout: 20_000 });
  return { page, panel, srv: /** @type {NonNullable<typeof server>} */ (server) };
}

/** Polls until check() is true; a hang guard, not a timing assertion. @param {() => boolean | Promise<boolean>} check @param {string} what */
async function eventually(check, what, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The mock model's turns: look, click the named button, check the result, finish. @param {string} button @param {(result: string) => boolean} expected */
function clickTurns(button, expected) {
  return [
    { toolCalls: [{ name: 'snapshot', args: {} }] },
    (/** @type {any} */ req) => ({ toolCalls: [{ name: 'click', args: { ref: findRef(toolResults(req.body)[0], 'button', button) } }] }),
    (/** @type {any} */ req) => { const r = lastToolResult(req.body); if (!expected(r)) throw new Error(r); return { text: 'Done.' }; },
  ];
}
const declined = (/** @type {string} */ r) => r.startsWith('Error USER_DECLINED');
const fine = (/** @type {string} */ r) => !r.startsWith('Error');

/** @param {Driver} panel */
const panelLog = (panel) => panel.evaluate(() => [...document.querySelectorAll('#log > *')].map((e) => `${e.className}: ${(e.textContent ?? '').slice(0, 300)}`));

scenario('channel hold: WebSocket, data channels, WebTransport', (ctx) => {
  // A page that sends only inside the step that causes it needs no settle period past that step: its
  // runs end after the shortest the settings allow. The late frame, the workers and the download keep
  // the product's 5 s, which is what they rest on.
  const quickSettle = () => useSettle(ctx.env, QUICK_SETTLE_MS);
  afterEach(async () => { await useSettle(ctx.env, null); });
  it('holds a WebSocket frame on a page that patches the built-ins: declined, the server never gets it', async () => {
    await quickSettle();
    const { env } = ctx;
    await useMockProvider(env);
    env.llm.script(clickTurns('Invite', declined));
    const { page, panel, srv } = await openChannelPage(env, `invite.html?room=decline-${ctx.kind}&hostile=1`);
    try {
      await sendFromPanel(panel, 'Invite dana@example.com to the board', 'act');
      const card = await answerCard(panel, 'no');
      expect(card.rule).to.equal('server_write');
      expect(card.text).to.contain(`SEND to ws://${new URL(srv.url).host}/team?room=decline-${ctx.kind}`);
      expect(card.text).to.contain(new URL(srv.url).host);
      for (const field of ['op', 'invite', 'email', 'dana@example.com', 'role', 'editor']) expect(card.text).to.contain(field);
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      // The handshake was let go (a GET with nothing in it), the frame never left the page.
      expect(srv.handshakes).to.include(`/team?room=decline-${ctx.kind}`);
      expect(srv.framesOf(`decline-${ctx.kind}`)).to.deep.equal([]);
      // The page's patched built-ins were never handed the channel's key.
      expect(await page.evaluate(() => /** @type {any} */ (window).caught.key)).to.equal(false);
    } catch (err) {
      console.log(await panelLog(panel), env.llm.problems);
      throw err;
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('holds a WebSocket frame: allowed, it arrives, and the server\'s answer reaches the page', async () => {
    await quickSettle();
    const { env } = ctx;
    await useMockProvider(env);
    env.llm.script(clickTurns('Invite', fine));
    const { page, panel, srv } = await openChannelPage(env, `invite.html?room=allow-${ctx.kind}`);
    try {
      await sendFromPanel(panel, 'Invite dana@example.com to the board', 'act');
      const card = await answerCard(panel, 'yes');
      expect(card.text).to.contain('dana@example.com');
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      await eventually(() => srv.framesOf(`allow-${ctx.kind}`).length > 0, 'the frame to arrive');
      expect(srv.framesOf(`allow-${ctx.kind}`).map((f) => JSON.parse(f))).to.deep.equal([{ op: 'invite', email: 'dana@example.com', role: 'editor' }]);
      await page.waitFor(() => document.getElementById('status')?.textContent?.startsWith('Server: {"ok":true'), undefined, { message: 'the server\'s answer in the page' });
    } finally {
      await page.close();
      await panel.close();
    }
  });

  // A shared worker running (its socket open) before the run, and "Allow for this task" on a worker's
  // socket. Chromium attaches the running shared worker when the hold begins: its frames are held
  // (cards), its POSTs refused while held and told to the model. Firefox holds its POSTs (cards) but
  // cannot see its socket's frames: each acting step asks first while that socket may be open. A
  // worker's socket answered "for this task" covers that socket's URL only, in both browsers.
  it('a shared worker running before the run, and a worker socket allowed for the task: held, refused or asked; nothing unseen unsaid', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    const room = `early-${ctx.kind}`;
    /** Every tool result the model was given, as text. @type {string[]} */
    const heard = [];
    /** @param {string} button */
    const click = (button) => (/** @type {any} */ req) => {
      heard.push(...toolResults(req.body));
      return { toolCalls: [{ name: 'click', args: { ref: findRef(toolResults(req.body)[0], 'button', button) } }] };
    };
    env.llm.script([
      { toolCalls: [{ name: 'snapshot', args: {} }] },
      click('Invite from the shared worker'), click('Invite from the shared worker'), click('Invite from the shared worker'),
      click('Invite quietly'), click('Open the feed from a worker'), click('Open the feed from a worker'), click('Open the other feed from a worker'),
      (/** @type {any} */ req) => { heard.push(...toolResults(req.body)); return { text: 'Done.' }; },
    ]);
    const { page, panel, srv } = await openChannelPage(env, `early.html?room=${room}`);
    const host = new URL(srv.url).host;
    const chromium = ctx.kind === 'chromium';
    /** Answers in order, per kind of card. @type {Record<string, ('yes' | 'task' | 'no')[]>} */
    const plan = chromium
      ? { shared: ['no', 'yes', 'yes'], feed: ['task'], other: ['no'] }
      : { before: ['no', 'task'], shared: ['no', 'yes'], feed: ['task'], other: ['no'] };
    const total = Object.values(plan).reduce((n, a) => n + a.length, 0);
    /** @type {Record<string, string[]>} */
    const shown = {};
    try {
      await sendFromPanel(panel, 'Invite dana@example.com to the board', 'act');
      for (let i = 0; i < total; i++) {
        const text = /** @type {string} */ (await panel.waitFor(() => document.querySelector('.card.confirm.pending')?.textContent ?? '', undefined, { message: `card ${i + 1} of ${total}`, timeout: 30_000 }));
        const kind = text.includes('keeps a WebSocket') ? 'before' : text.includes(`${room}-feed`) ? 'feed' : text.includes(`${room}-other`) ? 'other' : text.includes('invite-') ? 'shared' : 'unknown';
        const answer = plan[kind]?.shift();
        if (!answer) throw new Error(`an unexpected card: ${text}`);
        (shown[kind] ??= []).push((await answerCard(panel, answer)).text);
      }
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(await panel.evaluate(() => document.querySelectorAll('.card.confirm').length)).to.equal(total);
      const notes = (/** @type {string} */ t) => (shown.shared ?? []).map((c) => /invite-\d/.exec(c)?.[0]);
      if (chromium) {
        // Each frame the running shared worker sent over its early socket was held and shown.
        for (const card of shown.shared) expect(card).to.contain(`SEND to ws://${host}/team?room=${room}-sw`).and.contain('dana@example.com');
        expect(notes('')).to.deep.equal(['invite-1', 'invite-2', 'invite-3']);
        expect(srv.framesOf(`${room}-sw`).map((f) => JSON.parse(f).note)).to.deep.equal(['invite-2', 'invite-3', 'quiet']);
        // Its POSTs could not be held: refused while the run held the tab, and the model was told.
        expect(srv.postsOf(room)).to.deep.equal([]);
        expect(heard.some((r) => r.includes("the page's shared worker (running before the task began) tried to send POST"))).to.equal(true);
        // A frame sent through a send the worker kept from before the hook cannot be held: it left,
        // and the model was told so (CDP reports it sent, and the hook never let it go).
        await eventually(() => srv.framesOf(`${room}-sw`).some((f) => JSON.parse(f).note === 'quiet'), 'the quiet frame');
        expect(heard.some((r) => r.includes('sent a WebSocket frame to') && r.includes('without waiting for Tabwright'))).to.equal(true);
      } else {
        // Its socket's frames cannot be seen: each step asked first, saying so; declined, the step did not run.
        for (const card of shown.before) {
          expect(card).to.contain(`keeps a WebSocket to ws://${host}/team?room=${room}-sw open`).and.contain('cannot hold or show');
          expect(card).to.contain(`covers only a worker's WebSocket to exactly ws://${host}/team?room=${room}-sw`);
        }
        expect(heard.some((r) => r.startsWith('Error USER_DECLINED') && r.includes('keeps a WebSocket'))).to.equal(true);
        // Its POSTs are held: declined, never sent; allowed, sent. What it sent over the socket left
        // unseen after the user allowed that, as the card said.
        for (const card of shown.shared) expect(card).to.contain(`POST to http://${host}/api/shared?room=${room}`).and.contain('dana@example.com');
        expect(notes('')).to.deep.equal(['invite-1', 'invite-2']);
        expect(srv.postsOf(room).map((b) => b.note)).to.deep.equal(['invite-2']);
        // The quiet frame left too: the step was allowed for the task, knowing the socket is unseen.
        await eventually(() => srv.framesOf(`${room}-sw`).length === 3, 'the quiet frame');
        expect(srv.framesOf(`${room}-sw`).map((f) => JSON.parse(f).note)).to.deep.equal(['invite-1', 'invite-2', 'quiet']);
      }
      // A worker's socket allowed for the task: the same socket again went without a card, another asked.
      expect(shown.feed[0]).to.contain(chromium ? `SEND to ws://${host}/team?room=${room}-feed` : `Open a WebSocket to ws://${host}/team?room=${room}-feed from a worker of the page`);
      expect(shown.feed[0]).to.contain(chromium ? `covers only later SEND requests to ${host}/team with exactly these fields: email, op, role` : `covers only a worker's WebSocket to exactly ws://${host}/team?room=${room}-feed`);
      await eventually(() => srv.framesOf(`${room}-feed`).length === 2, 'both feed frames');
      expect(srv.framesOf(`${room}-other`)).to.deep.equal([]);
      if (!chromium) expect(srv.handshakes.filter((h) => h.includes(`${room}-other`))).to.deep.equal([]);
      // After the run the shared worker sends both ways, unasked.
      await page.click('#shared');
      const last = chromium ? 'invite-4' : 'invite-3';
      await eventually(() => srv.postsOf(room).some((b) => b.note === last) && srv.framesOf(`${room}-sw`).some((f) => JSON.parse(f).note === last), 'the shared worker\'s writes after the run');
      expect(await panel.evaluate(() => document.querySelectorAll('.card.confirm').length)).to.equal(total);
      // A second run on the same page holds the same running worker again (attached anew).
      const [frames, posts] = [srv.framesOf(`${room}-sw`).length, srv.postsOf(room).length];
      env.llm.script([{ toolCalls: [{ name: 'snapshot', args: {} }] }, click('Invite from the shared worker'), { text: 'Done.' }]);
      await sendFromPanel(panel, 'Invite dana@example.com again', 'act');
      const again = await answerCard(panel, 'no');
      expect(again.text).to.contain(chromium ? `SEND to ws://${host}/team?room=${room}-sw` : `keeps a WebSocket to ws://${host}/team?room=${room}-sw open`);
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect([srv.framesOf(`${room}-sw`).length, srv.postsOf(room).length]).to.deep.equal([frames, posts]);
    } catch (err) {
      console.log(await panelLog(panel), env.llm.problems, srv.frames, srv.posts, heard);
      throw err;
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('holds a send taken from a fresh about:blank frame', async () => {
    await quickSettle();
    const { env } = ctx;
    await useMockProvider(env);
    env.llm.script(clickTurns('Invite through a new frame', declined));
    const { page, panel, srv } = await openChannelPage(env, `invite.html?room=framed-${ctx.kind}`);
    try {
      await sendFromPanel(panel, 'Invite a colleague', 'act');
      const card = await answerCard(panel, 'no');
      expect(card.text).to.contain('eve@example.com');
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(srv.framesOf(`framed-${ctx.kind}`)).to.deep.equal([]);
    } catch (err) {
      console.log(await panelLog(panel), env.llm.problems, srv.framesOf(`framed-${ctx.kind}`));
      throw err;
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('holds a frame sent from a data: frame the page inserts', async () => {
    await quickSettle();
    const { env } = ctx;
    await useMockProvider(env);
    // A data: frame has no host of its own: its socket (whose URL has a query) waits for the answer
    // before it is built, so its frame may be asked about after the click's result: the card and
    // the server are what count here.
    env.llm.script(clickTurns('Invite from a data frame', () => true));
    const { page, panel, srv } = await openChannelPage(env, `invite.html?room=datauri-${ctx.kind}`);
    try {
      await sendFromPanel(panel, 'Invite a colleague', 'act');
      const card = await answerCard(panel, 'no');
      expect(card.text).to.contain('mallory@example.com');
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(srv.framesOf(`datauri-${ctx.kind}`)).to.deep.equal([]);
    } catch (err) {
      console.log(await panelLog(panel), env.llm.problems, srv.framesOf(`datauri-${ctx.kind}`));
      throw err;
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('holds a data-channel frame until it is allowed', async () => {
    await quickSettle();
    const { env } = ctx;
    await useMockProvider(env);
    env.llm.script(clickTurns('Share note', fine));
    const { page, panel } = await openChannelPage(env, 'datachannel.html');
    try {
      await sendFromPanel(panel, 'Share the note', 'act');
      await panel.waitFor(() => Boolean(document.querySelector('.card.confirm.pending')), undefined, { message: 'a confirmation card', timeout: 30_000 });
      // While the card waits, the other peer has received nothing.
      expect(await page.text('#received')).to.equal('');
      const card = await answerCard(panel, 'yes');
      expect(card.rule).to.equal('server_write');
      expect(card.text).to.contain('SEND to webrtc://');
      expect(card.text).to.contain('Quarterly numbers');
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      await page.waitFor(() => document.getElementById('received')?.textContent?.includes('Quarterly numbers'), undefined, { message: 'the note at the other peer' });
    } catch (err) {
      console.log(await panelLog(panel), env.llm.problems);
      throw err;
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('refuses WebTransport while the run holds the tab', async () => {
    await quickSettle();
    const { env } = ctx;
    await useMockProvider(env);
    env.llm.script(clickTurns('Open live feed', fine));
    const { page, panel } = await openChannelPage(env, `invite.html?room=transport-${ctx.kind}`);
    try {
      await sendFromPanel(panel, 'Open the live feed', 'act');
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(await page.text('#feed')).to.equal('refused: NotAllowedError');
      // With the run over, the page opens it as before.
      await page.click('#transport');
      expect(await page.text('#feed')).to.equal('opened');
    } finally {
      await page.close();
      await panel.close();
    }
  });

  // chrome.debugger cannot reach a shared worker (docs/SECURITY.md): Chromium refuses to start one
  // while the run holds the tab; Firefox starts it and asks before its socket opens. Either way,
  // nothing it would send reaches the server during the run; after the run it starts and sends.
  it('a shared worker started during the run: refused in Chromium, its socket asked about in Firefox; nothing arrives', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    const room = `shared-${ctx.kind}`;
    // Firefox: the worker opens its socket a moment after the click, so the card may come with the
    // click's result (declined) or after it, while the run settles (the step itself went fine).
    env.llm.script(clickTurns('Invite from the shared worker', ctx.kind === 'firefox' ? (r) => declined(r) || fine(r) : fine));
    const { page, panel, srv } = await openChannelPage(env, `invite.html?room=${room}`);
    try {
      await sendFromPanel(panel, 'Invite from the shared worker', 'act');
      if (ctx.kind === 'firefox') {
        const card = await answerCard(panel, 'no');
        expect(card.text).to.contain(`Open a WebSocket to ws://${new URL(srv.url).host}/team?room=${room}-shared from the site's service or shared worker`);
      }
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      if (ctx.kind === 'chromium') {
        expect(await page.text('#feed')).to.equal('refused: SecurityError');
        expect(await panel.evaluate(() => document.querySelectorAll('.card.confirm').length)).to.equal(0);
      }
      expect(srv.framesOf(`${room}-shared`)).to.deep.equal([]);
      // With the run over, the page starts it as before and its frame arrives, unasked.
      await page.click('#shared');
      await eventually(() => srv.framesOf(`${room}-shared`).length > 0, "the shared worker's frame after the run");
      expect(JSON.parse(srv.framesOf(`${room}-shared`)[0]).from).to.equal('shared worker');
    } catch (err) {
      console.log(await panelLog(panel));
      throw err;
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('lets a socket used with no run active send at once, with no card', async () => {
    const { env } = ctx;
    const { page, panel, srv } = await openChannelPage(env, `invite.html?room=idle-${ctx.kind}`);
    try {
      await page.click('#invite');
      await eventually(() => srv.framesOf(`idle-${ctx.kind}`).length > 0, 'the frame to arrive');
      expect(JSON.parse(srv.framesOf(`idle-${ctx.kind}`)[0]).op).to.equal('invite');
      expect(await panel.evaluate(() => document.querySelectorAll('.card.confirm').length)).to.equal(0);
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('holds a frame the page sends after the step, during the model\'s next turn: declined it never leaves, allowed it arrives', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    const [look, click] = clickTurns('Save draft', fine);
    // Two saves, each sent by a page timer three seconds after its click; the last turn streams for
    // several seconds, so the timers fire while the model talks.
    env.llm.script([look, click, click, { text: 'Saved the draft for you; it will be stored in a moment, nothing else to do here.', textChunks: 24, chunkDelayMs: 400 }]);
    const { page, panel, srv } = await openChannelPage(env, `invite.html?room=later-${ctx.kind}`);
    try {
      await sendFromPanel(panel, 'Save the draft', 'act');
      const first = await answerCard(panel, 'no');
      expect(first.text).to.contain('autosaved 1');
      const second = await answerCard(panel, 'yes');
      expect(second.text).to.contain('autosaved 2');
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      await eventually(() => srv.framesOf(`later-${ctx.kind}`).length > 0, 'the allowed autosave');
      expect(srv.framesOf(`later-${ctx.kind}`).map((f) => JSON.parse(f).note)).to.deep.equal(['autosaved 2']);
    } catch (err) {
      console.log(await panelLog(panel), env.llm.problems, srv.framesOf(`later-${ctx.kind}`));
      throw err;
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('holds an image GET to another site whose address carries page data: declined it never arrives, allowed it does', async () => {
    await quickSettle();
    const { env } = ctx;
    await useMockProvider(env);
    const [look, turn] = clickTurns('Show my badge', fine);
    const click = /** @type {(req: any) => any} */ (turn);
    const room = `pixel-${ctx.kind}`;
    /** @param {(r: string) => boolean} expected */
    const then = (expected, next = click) => (/** @type {any} */ req) => { const r = lastToolResult(req.body); if (!expected(r)) throw new Error(r); return next(req); };
    env.llm.script([look, click, then(declined), then(fine, () => ({ text: 'Done.' }))]);
    server ??= await startChannels();
    const pixel = `localhost:${new URL(server.url).port}`;
    const { page, panel, srv } = await openChannelPage(env, `invite.html?room=${room}&pixel=${pixel}`);
    try {
      await sendFromPanel(panel, 'Show my badge', 'act');
      const cards = [await answerCard(panel, 'no'), await answerCard(panel, 'yes')];
      for (const [i, card] of cards.entries()) {
        expect(card.rule).to.equal('data_in_url');
        expect(card.text).to.contain(`http://${pixel}/pixel.gif?room=${room}&e=dana%40example.com&n=${i + 1}`);
        expect(card.text).to.contain('dana@example.com');
        expect(card.text).to.contain('Caused by: click button "Show my badge"');
      }
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      await eventually(() => srv.pixels.some((p) => p.includes(`room=${room}`)), 'the allowed image');
      expect(srv.pixels.filter((p) => p.includes(`room=${room}`))).to.deep.equal([`/pixel.gif?room=${room}&e=dana%40example.com&n=2`]);
    } catch (err) {
      console.log(await panelLog(panel), env.llm.problems, srv.pixels);
      throw err;
    } finally {
      await page.close();
      await panel.close();
    }
  });

  // Not a channel of the page, but the background's own: fetch_url and read_pdf follow no redirect
  // to another site, in Ask mode (which has no other egress) as in Act.
  it('Ask mode: fetch_url and read_pdf of a same-site open redirect to another site are refused; nothing reaches it', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    server ??= await startChannels();
    const room = `redirect-${ctx.kind}`;
    const away = `http://localhost:${new URL(server.url).port}/collect?room=${room}&e=dana%40example.com`;
    const via = `${server.url}/go?to=${encodeURIComponent(away)}`;
    /** @type {string[]} */
    const results = [];
    const keep = (/** @type {any} */ req) => { results.push(lastToolResult(req.body)); };
    env.llm.script([
      { toolCalls: [{ name: 'fetch_url', args: { url: via } }] },
      (/** @type {any} */ req) => { keep(req); return { toolCalls: [{ name: 'read_pdf', args: { url: `${via}&pdf=1` } }] }; },
      (/** @type {any} */ req) => { keep(req); return { text: 'I could not read it.' }; },
    ]);
    const { page, panel, srv } = await openChannelPage(env, `invite.html?room=${room}`);
    try {
      await sendFromPanel(panel, 'What does the invitation link say?', 'ask');
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(results).to.have.length(2);
      for (const r of results) expect(r).to.match(/^Error REDIRECT_REFUSED/);
      expect(srv.collected).to.deep.equal([]);
      expect(await panel.evaluate(() => document.querySelectorAll('.card.confirm').length)).to.equal(0);
    } catch (err) {
      console.log(await panelLog(panel), env.llm.problems, results, srv.collected);
      throw err;
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('holds what a worker sends over its own WebSocket, and a handshake whose URL carries page data, until answered', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    const room = `workers-${ctx.kind}`;
    env.llm.script([
      { toolCalls: [{ name: 'snapshot', args: {} }] },
      (/** @type {any} */ req) => ({ toolCalls: [{ name: 'click', args: { ref: findRef(toolResults(req.body)[0], 'button', 'Invite from the worker') } }] }),
      (/** @type {any} */ req) => ({ toolCalls: [{ name: 'click', args: { ref: findRef(toolResults(req.body)[0], 'button', 'Invite from a new worker') } }] }),
      (/** @type {any} */ req) => ({ toolCalls: [{ name: 'click', args: { ref: findRef(toolResults(req.body)[0], 'button', 'Connect the live board') } }] }),
      (/** @type {any} */ req) => ({ toolCalls: [{ name: 'click', args: { ref: findRef(toolResults(req.body)[0], 'button', 'Connect the live board') } }] }),
      { text: 'Done.' },
    ]);
    server ??= await startChannels();
    const live = `trello.com:${new URL(server.url).port}`;
    const { page, panel, srv } = await openChannelPage(env, `workers.html?room=${room}&live=${live}`);
    const host = new URL(srv.url).host;
    try {
      await sendFromPanel(panel, 'Invite dana@example.com from the workers', 'act');
      // Four cards, whose order may vary (a worker's card can come after the next step began):
      // each answered by what it shows. w1: the worker running before the run (its hook installed
      // when the hold began), declined; w2: a worker started during the run (paused before its first
      // line until its hook is in), allowed; live1/live2: a socket to another site whose address
      // carries the page's e-mail, held before its handshake, declined then allowed.
      /** @type {Record<string, { rule: string, text: string }>} */
      const cards = {};
      for (let i = 0; i < 4; i++) {
        const text = /** @type {string} */ (await panel.waitFor(() => document.querySelector('.card.confirm.pending')?.textContent ?? '', undefined, { message: 'a confirmation card', timeout: 30_000 }));
        const key = ['w1', 'w2', 'live1', 'live2'].find((k) => text.includes(`${room}-${k}`)) ?? `unknown${i}`;
        cards[key] = await answerCard(panel, key === 'w1' || key === 'live1' ? 'no' : 'yes');
      }
      expect(Object.keys(cards).sort()).to.deep.equal(['live1', 'live2', 'w1', 'w2']);
      const [first, second, leak, again] = [cards.w1, cards.w2, cards.live1, cards.live2];
      await waitForIdle(panel);
      for (const card of [leak, again]) {
        expect(card.rule).to.equal('data_in_url');
        expect(card.text).to.contain(`Open a WebSocket to ws://${live}/collect?room=${room}-live`);
        expect(card.text).to.contain('dana@example.com');
      }
      // Declined: its handshake never reached the server, and the page saw a failed connection.
      expect(srv.handshakes.filter((h) => h.includes(`${room}-live1`))).to.deep.equal([]);
      await page.waitFor(() => document.getElementById('status')?.textContent?.includes('live1: closed 1006'), undefined, { message: 'the declined socket to fail' });
      // Allowed: it opened (the page's own handlers ran), with the address the card showed.
      await eventually(() => srv.handshakes.some((h) => h.includes(`${room}-live2`)), 'the allowed handshake');
      expect(srv.handshakes.find((h) => h.includes(`${room}-live2`))).to.contain('d=dana%40example.com');
      await page.waitFor(() => document.getElementById('status')?.textContent?.includes('live2: open 1 ws://'), undefined, { message: 'the allowed socket to open' });
      expect(await page.text('#status')).to.contain('live1: 0 true');
      expect(env.llm.problems).to.deep.equal([]);
      if (ctx.kind === 'chromium') {
        // Chrome holds each frame in the worker: the card shows what it sends.
        expect(first.text).to.contain(`SEND to ws://${host}/team?room=${room}-w1`);
        expect(first.text).to.contain('eve@example.com');
        expect(second.text).to.contain(`SEND to ws://${host}/team?room=${room}-w2`);
        expect(second.text).to.contain('dana@example.com');
        expect(srv.handshakes).to.include(`/team?room=${room}-w1`);
      } else {
        // Firefox cannot reach a worker's frames: the socket asks before it opens, saying so.
        for (const [i, card] of [first, second].entries()) {
          const w = `w${i + 1}`;
          expect(card.text).to.contain(`Open a WebSocket to ws://${host}/team?room=${room}-${w} from a worker of the page`);
          expect(card.text).to.contain('cannot hold or show what a worker sends');
        }
        expect(srv.handshakes).to.not.include(`/team?room=${room}-w1`);
      }
      expect(srv.framesOf(`${room}-w1`)).to.deep.equal([]);
      await eventually(() => srv.framesOf(`${room}-w2`).length > 0, 'the allowed frame to arrive');
      expect(srv.framesOf(`${room}-w2`).map((f) => JSON.parse(f))).to.deep.equal([{ op: 'invite', email: 'dana@example.com', role: 'owner' }]);
      await page.waitFor((r) => document.getElementById('status')?.textContent?.includes(`${r}-w2: {"ok":true`), room, { message: 'the server\'s answer in the page' });
      // With the run over, the early worker sends unasked.
      await page.click('#w1');
      await eventually(() => srv.framesOf(`${room}-w1`).length > 0, 'the frame sent after the run');
      expect(await panel.evaluate(() => document.querySelectorAll('.card.confirm').length)).to.equal(4);
    } catch (err) {
      console.log(await panelLog(panel), env.llm.problems, srv.handshakes, srv.frames);
      throw err;
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('asks about a download whose first bytes are a program\'s, whatever its name and type say', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    /** @param {any} req @param {string} name */
    const click = (req, name) => ({ toolCalls: [{ name: 'click', args: { ref: findRef(toolResults(req.body)[0], 'link', name) } }] });
    env.llm.script([
      { toolCalls: [{ name: 'snapshot', args: {} }] },
      (/** @type {any} */ req) => click(req, 'Get the report'),
      (/** @type {any} */ req) => click(req, 'Get the report again'),
      (/** @type {any} */ req) => click(req, 'Get the notes'),
      (/** @type {any} */ req) => click(req, 'Get the real report'),
      { text: 'Done.' },
    ]);
    const { page, panel, srv } = await openChannelPage(env, 'files.html');
    /** @returns {Promise<{ url: string, state: string, exists: boolean }[]>} */
    const downloads = () => env.control.evaluate(async () => {
      const api = /** @type {any} */ (globalThis).browser ?? /** @type {any} */ (globalThis).chrome;
      return (await api.downloads.search({})).map((/** @type {any} */ d) => ({ url: String(d.finalUrl || d.url), state: String(d.state), exists: Boolean(d.exists) }));
    });
    try {
      await sendFromPanel(panel, 'Download the reports', 'act');
      /** @type {Record<string, { rule: string, text: string }>} */
      const cards = {};
      for (let i = 0; i < 3; i++) {
        const text = /** @type {string} */ (await panel.waitFor(() => document.querySelector('.card.confirm.pending')?.textContent ?? '', undefined, { message: 'a confirmation card', timeout: 30_000 }));
        const key = ['n=1', 'n=2', 'notes.txt'].find((k) => text.includes(k)) ?? `unknown${i}`;
        cards[key] = await answerCard(panel, key === 'n=2' ? 'yes' : 'no');
      }
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(Object.keys(cards).sort()).to.deep.equal(['n=1', 'n=2', 'notes.txt']);
      for (const card of Object.values(cards)) {
        expect(card.rule).to.equal('executable_download');
        expect(card.text).to.contain('its first bytes are those of one');
      }
      // Named and typed as a PDF, it is still shown as what the server declared.
      expect(cards['n=1'].text).to.contain('application/pdf');
      // The real PDF asked nothing: 3 cards in all.
      expect(await panel.evaluate(() => document.querySelectorAll('.card.confirm').length)).to.equal(3);
      await eventually(async () => (await downloads()).some((d) => d.url.endsWith('n=2') && d.state === 'complete'), 'the allowed download to complete');
      await eventually(async () => (await downloads()).some((d) => d.url.endsWith('/real.pdf') && d.state === 'complete'), 'the real PDF to complete');
      const all = await downloads();
      // Declined: cancelled and its file removed.
      for (const end of ['n=1', 'notes.txt']) expect(all.filter((d) => d.url.endsWith(end) && (d.state === 'complete' || d.exists))).to.deep.equal([]);
      expect(srv.served).to.include.members(['/file/report.pdf?n=1', '/file/report.pdf?n=2', '/file/notes.txt', '/file/real.pdf']);
    } catch (err) {
      console.log(await panelLog(panel), env.llm.problems, await downloads(), srv.served);
      throw err;
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
