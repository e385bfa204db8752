// Pairing and signing in between the MCP bridge and the extension (src/chrome/mcp-protocol/pairing.js), first
// as functions, then end to end in Node: the extension's real link (service/mcp/link.js) dialing the
// bridge's real WebSocket server (src/bridge/ws-link.js) on 127.0.0.1.
import { expect } from 'chai';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import {
  newPairingCode, normalizeCode, constantTimeEqual, pairProof, authProof, wrapSecret, importSecret, newNonce, newSecret, createNonceLog, verify,
} from '../../src/chrome/mcp-protocol/pairing.js';
import { createLink } from '../../src/chrome/service/mcp/link.js';
import { createExtensionLink } from '../../src/bridge/ws-link.js';
import { loadState, saveState } from '../../src/bridge/state.js';

const ORIGIN = 'chrome-extension://abcdefghijklmnop';

/** The extension's WebSocket, with the Origin a browser gives an extension's background. */
class ExtensionSocket extends WebSocket {
  /** @param {string} url */
  constructor(url) { super(url, { origin: ORIGIN }); }
}

/** The clients store, in memory: keys kept as non-extractable CryptoKeys as the real one does. */
function memoryClients() {
  /** @type {Map<string, any>} */
  const records = new Map();
  /** @type {Map<string, CryptoKey>} */
  const keys = new Map();
  return {
    records, keys,
    async list() { return [...records.values()]; },
    async get(/** @type {string} */ id) { return records.get(id) ?? null; },
    async key(/** @type {string} */ id) { return keys.get(id) ?? null; },
    async add(/** @type {any} */ c, /** @type {string} */ secret) { keys.set(c.id, await importSecret(secret, false)); records.set(c.id, { ...c, pairedAt: Date.now() }); return { ok: true }; },
    async update(/** @type {string} */ id, /** @type {any} */ patch) { if (!records.has(id)) return false; records.set(id, { ...records.get(id), ...patch }); return true; },
    async remove(/** @type {string} */ id) { records.delete(id); keys.delete(id); },
  };
}

/** @param {() => boolean} cond @param {string} what */
async function until(cond, what, ms = 8000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('MCP pairing: the functions', () => {
  it('makes 10-character codes and reads them back however they are typed', () => {
    const code = newPairingCode();
    expect(code).to.match(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    expect(normalizeCode(code.toLowerCase().replace('-', ' '))).to.equal(code);
    expect(normalizeCode('ABCDO-1IL23')).to.equal('ABCD0-11123');
    for (const bad of ['', 'ABCDE', 'ABCDE-FGHIJK', 'ABCDE-FGHU1', 42, null, 'A'.repeat(50)]) expect(normalizeCode(bad), String(bad)).to.equal(null);
    expect(new Set(Array.from({ length: 200 }, newPairingCode)).size).to.equal(200);
  });

  it('compares in constant time and only equal strings', () => {
    expect(constantTimeEqual('abc', 'abc')).to.equal(true);
    expect(constantTimeEqual('abc', 'abd')).to.equal(false);
    expect(constantTimeEqual('abc', 'abcd')).to.equal(false);
    expect(constantTimeEqual(/** @type {any} */ (undefined), 'a')).to.equal(false);
  });

  it('signs per role and per nonce, so a proof can be neither reflected nor replayed', async () => {
    const code = newPairingCode();
    const n = { bridgeNonce: newNonce(), extensionNonce: newNonce() };
    const bridge = await pairProof(code, 'bridge', n);
    expect(bridge).to.match(/^[0-9a-f]{64}$/);
    expect(await pairProof(code, 'extension', n)).not.to.equal(bridge);
    expect(await pairProof(code, 'bridge', { ...n, bridgeNonce: newNonce() })).not.to.equal(bridge);
    expect(await pairProof(newPairingCode(), 'bridge', n)).not.to.equal(bridge);
    const key = await importSecret(newSecret());
    const a = await authProof(key, 'bridge', n);
    expect(await verify(a, () => authProof(key, 'bridge', n))).to.equal(true);
    expect(await verify(a, () => authProof(key, 'extension', n))).to.equal(false);
    expect(await verify('not hex', () => authProof(key, 'bridge', n))).to.equal(false);
  });

  it('wraps the secret so only a holder of the code unwraps it, and keeps keys non-extractable', async () => {
    const code = newPairingCode();
    const n = { bridgeNonce: newNonce(), extensionNonce: newNonce() };
    const secret = newSecret();
    const wrapped = await wrapSecret(code, n, secret);
    expect(wrapped).not.to.equal(secret);
    expect(await wrapSecret(code, n, wrapped)).to.equal(secret);
    expect(await wrapSecret(newPairingCode(), n, wrapped)).not.to.equal(secret);
    const key = await importSecret(secret);
    expect(key.extractable).to.equal(false);
    let exported = true;
    try { await crypto.subtle.exportKey('raw', key); } catch { exported = false; }
    expect(exported).to.equal(false);
  });

  it('remembers nonces it has seen', () => {
    const log = createNonceLog(3);
    expect(log.fresh('a')).to.equal(true);
    expect(log.fresh('a')).to.equal(false);
  });
});

describe('MCP pairing: extension link ⇄ bridge, over a real WebSocket', function () {
  this.timeout(30_000);
  /** @type {string} */
  let dir;
  /** @type {any[]} */
  const open = [];
  before(async () => { dir = await mkdtemp(join(tmpdir(), 'tw-mcp-')); });
  afterEach(async () => { for (const o of open.splice(0)) await o.close?.() ?? o.stop?.(); });

  /** A bridge with its log lines and a port of its own. @param {string} file */
  async function bridge(file, port = 20000 + Math.floor(Math.random() * 20000), name = () => 'Test Client') {
    const path = join(dir, file);
    const state = await loadState(path);
    /** @type {string[]} */
    const lines = [];
    const b = createExtensionLink({ port, span: 1, state, save: (s) => saveState(path, s), name, log: (l) => lines.push(l) });
    await b.start();
    open.push(b);
    const code = () => [...lines].reverse().map((l) => /pairing code (\S+)/.exec(l)?.[1]).find(Boolean) ?? '';
    return { b, lines, state, path, code, port: b.port };
  }

  /** The extension's side, dialing a port. @param {number} port @param {ReturnType<typeof memoryClients>} clients */
  function extension(port, clients) {
    /** @type {string[]} */
    const calls = [];
    const link = createLink({ port, clients, WebSocketImpl: /** @type {any} */ (ExtensionSocket), onCall: async (_l, f) => { calls.push(f.method); return { ok: true, data: { method: f.method } }; } });
    link.connect();
    open.push(link);
    return { link, calls };
  }

  it('pairs with the printed code (a wrong code sends nothing), then carries calls', async () => {
    const br = await bridge('a.json');
    expect(br.code()).to.match(/^\w{5}-\w{5}$/);
    expect(br.lines.join('\n')).not.to.match(/[0-9a-f]{64}/); // no secret in the log
    const clients = memoryClients();
    const { link, calls } = extension(br.port, clients);
    await until(() => link.info.state === 'pending', 'the bridge to wait for pairing');
    expect(link.info).to.include({ bridgeId: br.state.bridgeId, name: 'Test Client' });
    expect(await br.b.call('tools.list')).to.include({ ok: false, code: 'MCP_NOT_PAIRED' });

    const wrong = await link.pair('AAAAA-AAAAA', { kind: 'all' });
    expect(wrong).to.include({ ok: false, code: 'MCP_CODE_MISMATCH' });
    expect(clients.records.size).to.equal(0);
    expect(br.state.secret).to.equal(undefined);

    const right = await link.pair(br.code().toLowerCase(), { kind: 'all' });
    expect(right).to.deep.equal({ ok: true, name: 'Test Client' });
    expect(link.info.state).to.equal('ready');
    expect(br.state.secret).to.match(/^[0-9a-f]{64}$/);
    expect((await loadState(br.path)).secret).to.equal(br.state.secret);
    expect(clients.records.get(br.state.bridgeId)).to.include({ name: 'Test Client' });
    await until(() => br.b.ready, 'the bridge to see Tabwright connected');
    expect(await br.b.call('tools.list')).to.deep.equal({ ok: true, data: { method: 'tools.list' } });
    expect(calls).to.deep.equal(['tools.list']);
  });

  it('names a waiting bridge by its MCP client even when the extension connected before the client introduced itself', async () => {
    let clientName = 'MCP client';
    const br = await bridge('early.json', undefined, () => clientName);
    const { link } = extension(br.port, memoryClients());
    await until(() => link.info.state === 'pending', 'the bridge to wait for pairing');
    expect(link.info.name).to.equal('MCP client');
    clientName = 'Late Agent'; // MCP initialize arrives after the extension dialed in
    br.b.renamed();
    await until(() => link.info.name === 'Late Agent', 'the waiting link to learn the client name');
    const paired = await link.pair(br.code(), { kind: 'all' });
    expect(paired).to.deep.equal({ ok: true, name: 'Late Agent' });
  });

  it('signs in again after a restart of the bridge; refuses a bridge with a wrong secret; revoke disconnects', async () => {
    const first = await bridge('b.json');
    const clients = memoryClients();
    const ext = extension(first.port, clients);
    await until(() => ext.link.info.state === 'pending', 'pending');
    expect((await ext.link.pair(first.code(), { kind: 'active' })).ok).to.equal(true);
    const port = first.port;
    await first.b.close();
    ext.link.stop();

    // The same bridge (its state file) comes back: it signs in with the secret, no code.
    const again = await bridge('b.json', port);
    expect(again.state.secret).to.equal(first.state.secret);
    const ext2 = extension(port, clients);
    await until(() => ext2.link.info.state === 'ready' && again.b.ready, 'sign-in');
    expect(again.lines.join('\n')).not.to.contain('pairing code');
    await again.b.close();
    ext2.link.stop();

    // A program holding the bridge's id but not its secret is refused.
    await saveState(join(dir, 'forged.json'), { bridgeId: first.state.bridgeId, secret: newSecret() });
    const forged = await bridge('forged.json', port);
    const ext3 = extension(port, clients);
    await until(() => ext3.link.info.state === 'refused', 'the refusal');
    expect(ext3.link.info.problem).to.match(/signature does not match/);
    // The refusal frame reaches the bridge a moment after the extension has refused it.
    await until(() => forged.b.notReady().code === 'MCP_REFUSED', 'the bridge to hear the refusal');
    const r = await forged.b.call('tools.list');
    expect(r).to.include({ ok: false, code: 'MCP_REFUSED' });
    expect(r.message).to.match(/MCP_BAD_SIGNATURE/);
    expect(forged.b.ready).to.equal(false);
    expect(clients.records.has(first.state.bridgeId)).to.equal(true); // the real pairing stays
    await forged.b.close();
    ext3.link.stop();

    // Revoke: the bridge is disconnected at once, forgets its secret and prints a new code.
    const back = await bridge('b.json', port);
    const ext4 = extension(port, clients);
    await until(() => ext4.link.info.state === 'ready' && back.b.ready, 'sign-in again');
    await clients.remove(first.state.bridgeId);
    ext4.link.revoke();
    await until(() => !back.b.ready, 'the bridge to be disconnected', 3000);
    await until(() => back.state.secret === undefined && /pairing code/.test(back.lines.at(-1) ?? ''), 'a new code');
    await until(() => ext4.link.info.state === 'pending', 'the bridge to wait for pairing again');
  });

  it('refuses web pages, replayed nonces and proofs made for another connection', async () => {
    const br = await bridge('c.json');
    const clients = memoryClients();
    const ext = extension(br.port, clients);
    await until(() => ext.link.info.state === 'pending', 'pending');
    await ext.link.pair(br.code(), { kind: 'all' });
    ext.link.stop();

    // A web page's WebSocket carries its own origin: the upgrade is refused.
    const page = new WebSocket(`ws://127.0.0.1:${br.port}`, { origin: 'http://evil.example' });
    const pageErr = await new Promise((resolve) => { page.on('error', (e) => resolve(String(e.message))); page.on('open', () => resolve('opened')); });
    expect(pageErr).to.match(/401/);

    /** A raw connection that records frames. */
    const raw = async () => {
      const ws = new WebSocket(`ws://127.0.0.1:${br.port}`, { origin: ORIGIN });
      /** @type {any[]} */
      const frames = [];
      ws.on('message', (d) => frames.push(JSON.parse(d.toString())));
      await new Promise((r) => ws.on('open', r));
      await until(() => frames.length > 0, 'hello');
      return { ws, frames, closed: new Promise((r) => ws.on('close', (code) => r(code))) };
    };
    const nonce = newNonce();
    const one = await raw();
    one.ws.send(JSON.stringify({ type: 'auth_begin', nonce }));
    await until(() => one.frames.some((f) => f.type === 'auth_proof'), 'a proof');
    // Without the secret, a proof for the extension's role cannot be made: a guess is refused.
    one.ws.send(JSON.stringify({ type: 'auth_finish', mac: 'ab'.repeat(32) }));
    expect(await one.closed).to.equal(4001);
    expect(one.frames.at(-1)).to.include({ type: 'refused', code: 'MCP_BAD_SIGNATURE' });

    const two = await raw();
    two.ws.send(JSON.stringify({ type: 'auth_begin', nonce }));
    expect(await two.closed).to.equal(4001);
    expect(two.frames.at(-1)).to.include({ type: 'refused', code: 'MCP_REPLAY' });

    // Malformed frames are answered, not fatal.
    const three = await raw();
    three.ws.send('{oops');
    three.ws.send(JSON.stringify({ type: 'call', id: 1, method: 'tools.list' }));
    await until(() => three.frames.filter((f) => f.type === 'error').length === 2, 'two errors');
    expect(three.frames.filter((f) => f.type === 'error').map((f) => f.code)).to.deep.equal(['BAD_FRAME', 'BAD_FRAME']);
    three.ws.close();
  });
});
