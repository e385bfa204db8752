// The page half of the channel hold on jsdom, with a real WebSocket server: the page-world helper
// (content/page-world.js) and the isolated script (content/channel-hold.js) wired to the background's
// module (service/channel-hold.js) through a stand-in runtime. Held frames wait for the policy's
// answer in order, declined ones never reach the server, and a page that patches the built-ins
// the helper uses gets neither the original send nor a say in the answer.
import { expect } from 'chai';
import { WebSocketServer } from 'ws';
import { loadContent } from './content-dom.js';
import { createChannelHold } from '../../src/chrome/service/channel-hold.js';

/** @import { HeldRequest } from '../../src/chrome/types/safety' */

const FILES = ['page-world.js', 'page-channel.js', 'channel-hold.js'];
const TAB = 7;

/** @param {() => boolean} check @param {string} what */
async function until(check, what) {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('channel hold in the page (content/page-world.js + content/channel-hold.js)', function () {
  this.timeout(20_000);
  /** @type {WebSocketServer} */
  let wss;
  /** @type {string[]} */
  let arrived;
  /** @type {string[]} */
  const handshakes = [];
  let port = 0;
  before(async () => {
    arrived = [];
    wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    wss.on('connection', (ws, req) => { handshakes.push(req.url ?? ''); ws.on('message', (d) => { arrived.push(d.toString()); ws.send(`ack ${d}`); }); });
    await new Promise((r) => wss.once('listening', r));
    port = /** @type {import('node:net').AddressInfo} */ (wss.address()).port;
  });
  after(() => new Promise((r) => { for (const c of wss.clients) c.terminate(); wss.close(() => r(undefined)); }));
  beforeEach(() => { arrived.length = 0; });

  /**
   * A page with the helpers, a background whose run answers from `answers`, and what it was asked.
   * @param {{ held: boolean, answers?: boolean[], open?: boolean, setup?: (w: any) => void }} opts
   */
  async function page(opts) {
    /** @type {((msg: any) => void)[]} */
    const listeners = [];
    const channels = createChannelHold(async (_tab, msg) => { for (const l of listeners) l(msg); });
    const asked = /** @type {HeldRequest[]} */ ([]);
    const replies = /** @type {string[]} */ ([]);
    const answers = [...(opts.answers ?? [])];
    /** @type {Function | null} */
    let original = null;
    const from = { tabId: TAB, frameId: 0, url: 'http://127.0.0.1/' };
    const { window } = loadContent('<p>x</p>', FILES, (w) => {
      original = w.WebSocket.prototype.send;
      opts.setup?.(w);
      w.chrome = { runtime: {
        onMessage: { addListener: (/** @type {any} */ fn) => listeners.push(fn) },
        sendMessage: async (/** @type {any} */ msg) => {
          if (msg.type === 'channelHold.state') return { ok: true, data: channels.state(TAB) };
          if (msg.type === 'channelHold.reply') { channels.reply(from, msg); return { ok: true, data: null }; }
          const r = await channels.send(from, msg);
          return typeof r === 'string' ? { ok: false, message: r } : { ok: true, data: r };
        },
      } };
    });
    if (opts.held) {
      await channels.arm(TAB, {
        wants: () => true,
        decide: async (req) => { asked.push(req); return answers.shift() ?? false; },
        settled: (_req, outcome) => { replies.push(String(outcome.reply)); },
      });
    }
    window.eval(`window.ws = new WebSocket('ws://127.0.0.1:${port}/s'); ws.onopen = () => { window.opened = true; };`);
    if (opts.open !== false) await until(() => window.opened === true, 'the socket to open');
    return { window, asked, replies, original: /** @type {Function} */ (/** @type {unknown} */ (original)) };
  }

  it('sends at once when the tab is not held', async () => {
    const { window, asked } = await page({ held: false });
    window.eval('ws.send("hello")');
    await until(() => arrived.length === 1, 'the frame');
    expect(arrived).to.deep.equal(['hello']);
    expect(asked).to.deep.equal([]);
  });

  it('refuses a shared worker while the tab is held (Chromium: it cannot be held), and starts one when it is not', async () => {
    for (const held of [true, false]) {
      /** @type {string[]} */
      const started = [];
      // jsdom has no SharedWorker: a stand-in with a port getter on its prototype, as the browser's.
      const setup = (/** @type {any} */ w) => {
        w.SharedWorker = class SharedWorker { constructor(/** @type {string} */ url) { started.push(url); } get port() { return { close() {} }; } };
      };
      // The page's socket is allowed: once it opens, the helper knows whether its tab is held.
      const { window } = await page({ held, setup, answers: [true] });
      window.eval(`try { new SharedWorker('sync.js'); window.shared = 'started'; } catch (e) { window.shared = e.name + ': ' + e.message; }`);
      if (held) {
        expect(window.shared).to.match(/^SecurityError: A shared worker cannot be started while Tabwright's agent acts on this page/);
        expect(started).to.deep.equal([]);
      } else {
        expect(window.shared).to.equal('started');
        expect(started).to.deep.equal(['sync.js']);
      }
      expect(window.eval('SharedWorker.name')).to.equal('SharedWorker');
    }
  });

  it('holds frames in order: declined ones never arrive, allowed ones do, and the reply is paired', async () => {
    const { window, asked, replies } = await page({ held: true, answers: [true, true, false, true] });
    window.eval('ws.send(JSON.stringify({ op: "invite", email: "dana@example.com" })); ws.send("second"); ws.send("third");');
    expect(arrived).to.deep.equal([]);
    await until(() => arrived.length === 2, 'the allowed frames');
    // The handshake, then the three frames, each asked in the order sent.
    expect(asked.map((r) => `${r.channel} ${r.method}`)).to.deep.equal(['websocket GET', 'websocket_frame SEND', 'websocket_frame SEND', 'websocket_frame SEND']);
    expect(asked[1].fields).to.deep.equal([['op', 'invite'], ['email', 'dana@example.com']]);
    expect(arrived).to.deep.equal(['{"op":"invite","email":"dana@example.com"}', 'third']);
    await until(() => replies.length === 2, 'the replies');
    expect(replies[0]).to.equal('ack {"op":"invite","email":"dana@example.com"}');
  });

  it('closes the socket, frames unsent, when its handshake is declined', async () => {
    const { window, asked } = await page({ held: true, answers: [false], open: false });
    await until(() => window.eval('ws.readyState') === 3, 'the socket to close');
    expect(asked.map((r) => r.channel)).to.deep.equal(['websocket']);
    expect(arrived).to.deep.equal([]);
  });

  // jsdom has one world: the isolated script shares the page's built-ins here, so what only it reads
  // (an event's detail, String) is patched in the e2e instead (test/e2e/hold-channels.e2e.js, hostile=1).
  it('gives a page that patches the built-ins neither the original send nor a say in the answer', async () => {
    const { window, original, asked } = await page({ held: true, answers: [true, false, true] });
    const caught = /** @type {unknown[]} */ (window.eval(`(() => {
      const caught = { __proto__: null, n: 0 };
      const keep = (...xs) => { for (const x of xs) caught[caught.n++] = x; };
      const apply = Reflect.apply;
      Reflect.apply = (f, t, a) => { keep(f, t, ...(a || [])); return apply(f, t, a); };
      Reflect.construct = (f, a, n) => { keep(f, n); return new f(...a); };
      const call = Function.prototype.call;
      Function.prototype.call = function (...a) { keep(this, ...a); return apply(this, a[0], a.slice(1)); };
      for (const m of ['get', 'set', 'has']) { const o = WeakMap.prototype[m]; WeakMap.prototype[m] = function (...a) { keep(this, ...a); return apply(o, this, a); }; }
      for (const m of ['push', 'splice', 'shift']) { const o = Array.prototype[m]; Array.prototype[m] = function (...a) { keep(...a); return apply(o, this, a); }; }
      for (let i = 0; i < 4; i++) Object.defineProperty(Array.prototype, i, { configurable: true, set(v) { keep(v); Object.defineProperty(this, i, { value: v, writable: true, enumerable: true, configurable: true }); } });
      for (const trap of ['get', 'apply', 'construct', 'has', 'ownKeys']) Object.defineProperty(Object.prototype, trap, { configurable: true, get() { keep(this); return undefined; } });
      WebSocket.prototype.send.name; WebSocket.prototype.send.length; String(WebSocket.prototype.send);
      ws.send('held, then declined');
      ws.send('allowed after');
      delete caught.n;
      return Object.values(caught);
    })()`));
    // The first frame was asked about and declined: only the one after it arrived.
    await until(() => arrived.length === 1, 'the allowed frame');
    expect(asked.map((r) => r.body)).to.deep.equal([undefined, 'held, then declined', 'allowed after']);
    expect(arrived).to.deep.equal(['allowed after']);
    expect(caught.includes(original)).to.equal(false);
    // No item of the queue, no answer callback and no event name with the channel's key reached the page.
    expect(caught.some((x) => typeof x === 'string' && x.startsWith('tabwright-'))).to.equal(false);
    expect(caught.some((x) => typeof x === 'function' && x !== original && /go|ask|answer/.test(String(Function.prototype.toString.call(x))))).to.equal(false);
  });

  describe('a handshake whose URL carries data to another host waits for the answer (a stand-in socket)', () => {
    /** @param {boolean} allow */
    async function leaking(allow) {
      // The first answer is the page's own socket's handshake.
      const { window, asked } = await page({ held: true, answers: [true, allow, true] });
      const room = `r${Math.random().toString(16).slice(2)}`;
      // localhost is another host than the page's 127.0.0.1, and the address carries an e-mail.
      window.eval(`window.events = []; window.leak = new WebSocket('ws://localhost:${port}/c?room=${room}&d=dana%40example.com');
        leak.onopen = () => events.push('open ' + leak.readyState); leak.onerror = () => events.push('error');
        leak.addEventListener('close', (e) => events.push('close ' + e.code)); leak.onmessage = (e) => events.push('message ' + e.data);`);
      return { window, asked, room };
    }

    it('declined: no handshake leaves, and the page sees a connection that failed', async () => {
      const { window, asked, room } = await leaking(false);
      expect(window.eval('leak instanceof WebSocket')).to.equal(true);
      expect(window.eval('leak.readyState')).to.equal(0);
      expect(window.eval('leak.url')).to.equal(`ws://localhost:${port}/c?room=${room}&d=dana%40example.com`);
      expect(() => window.eval('leak.send("x")')).to.throw(/CONNECTING/);
      await until(() => window.eval('events.length') === 2, 'the stand-in to fail');
      expect(window.eval('events')).to.deep.equal(['error', 'close 1006']);
      expect(window.eval('leak.readyState')).to.equal(3);
      expect(asked.filter((r) => r.url.includes(room)).map((r) => [r.channel, r.method, r.url])).to.deep.equal([['websocket', 'GET', `ws://localhost:${port}/c?room=${room}&d=dana%40example.com`]]);
      expect(handshakes.filter((h) => h.includes(room))).to.deep.equal([]);
    });

    it('allowed: the real socket opens behind it; its events, state and frames pass through', async () => {
      const { window, room } = await leaking(true);
      await until(() => window.eval('events.length') > 0, 'the socket to open');
      expect(window.eval('events')).to.deep.equal(['open 1']);
      expect(handshakes.filter((h) => h.includes(room))).to.have.length(1);
      window.eval('leak.send("hi")');
      await until(() => window.eval('events.length') > 1, 'the echo');
      expect(window.eval('events[1]')).to.equal('message ack hi');
      window.eval('leak.close()');
      await until(() => window.eval('events.length') > 2, 'the close');
      expect(window.eval('events[2]')).to.equal('close 1005');
    });

    it('a socket to the page\'s own host, or with nothing in its address, is built at once', async () => {
      const { window } = await page({ held: true, answers: [true, true, true] });
      window.eval(`window.plain = new WebSocket('ws://localhost:${port}/c'); window.own = new WebSocket('ws://127.0.0.1/c?d=dana%40example.com');`);
      // A real socket's URL getter works on it directly (a stand-in's would be answered from its record).
      expect(window.eval('Object.getOwnPropertyDescriptor(WebSocket.prototype, "url").get.call(plain)')).to.equal(`ws://localhost:${port}/c`);
      window.eval('own.onerror = () => {}');
    });
  });
});
