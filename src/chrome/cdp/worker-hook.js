// The channel hold inside a worker (Chrome): content scripts never run in dedicated, shared or
// service workers, so a WebSocket a worker opens would send unseen. cdp/worker-channels.js runs
// this function in each worker the held tab owns (Runtime.evaluate, before the worker's first line
// when it starts under the hold) with the name of a CDP binding; what a socket sends then waits
// here, in order per socket, for the same policy answer as a page's frame (content/page-world.js).
// WebTransport and WebSocketStream cannot be paused one write at a time: refused while held.
// A worker paused before its first line has no setTimeout, structuredClone or WebTransport yet (they
// come when it starts): the reply timer is looked up when used, copies are made with the buffer
// methods taken now, and the stream constructors are guarded by a second call, 'late', once it runs.
// It is serialized with Function.prototype.toString, so it must reach nothing outside itself. The
// binding's global is removed before the worker's code runs, and the control function it returns
// is reachable only through the debugger, so the worker can neither forge an answer nor see one.

/**
 * @param {string} bindingName the CDP binding (Runtime.addBinding) that carries messages out
 * @param {boolean} initiallyHeld
 * @returns {(op: string, a?: unknown, b?: unknown) => void} the control: ('held', bool) or ('answer', id, allow)
 */
// Sent into the worker whole (one function, serialized): it cannot be split into functions of its own.
// eslint-disable-next-line max-lines-per-function
export function workerHook(bindingName, initiallyHeld) {
  const g = /** @type {any} */ (globalThis);
  const out = g[bindingName];
  try { delete g[bindingName]; } catch { /* not configurable: it stays, nameless to the worker's code */ }
  const { apply, construct, setPrototypeOf } = Reflect;
  /** @template {object} T @param {T} o @returns {T} */
  const bare = (o) => { setPrototypeOf(o, null); return o; };
  const stringify = JSON.stringify;
  const weakGet = WeakMap.prototype.get;
  const weakSet = WeakMap.prototype.set;
  const describeProp = Object.getOwnPropertyDescriptor;
  const defineProp = Object.defineProperty;
  const add = EventTarget.prototype.addEventListener;
  const remove = EventTarget.prototype.removeEventListener;
  const Exception = DOMException;
  /** @param {object} o @param {string} name */
  const getter = (o, name) => /** @type {(this: any) => any} */ (describeProp(o, name)?.get);
  const typed = /** @type {object} */ (Reflect.getPrototypeOf(Uint8Array.prototype));
  const bufferBytes = getter(ArrayBuffer.prototype, 'byteLength');
  const bufferSlice = ArrayBuffer.prototype.slice;
  const viewBytes = getter(typed, 'byteLength');
  const viewBuffer = getter(typed, 'buffer');
  const viewOffset = getter(typed, 'byteOffset');
  const dataBytes = getter(DataView.prototype, 'byteLength');
  const dataBuffer = getter(DataView.prototype, 'buffer');
  const dataOffset = getter(DataView.prototype, 'byteOffset');
  const Bytes = Uint8Array;
  const blobSize = typeof Blob === 'function' ? getter(Blob.prototype, 'size') : undefined;
  const eventData = getter(MessageEvent.prototype, 'data');
  const masks = new WeakMap();
  const toString = Function.prototype.toString;
  const maskedToString = new Proxy(toString, bare({ apply: (/** @type {Function} */ t, /** @type {any} */ self, /** @type {any[]} */ args) => apply(t, apply(weakGet, masks, [self]) ?? self, args) }));
  apply(weakSet, masks, [maskedToString, toString]);
  Function.prototype.toString = /** @type {() => string} */ (maskedToString);

  let held = initiallyHeld;
  const answers = /** @type {Record<number, (allow: boolean) => void>} */ (/** @type {unknown} */ (bare({})));
  let lastId = 0;
  const queues = new WeakMap();
  /** @param {unknown} msg */
  const tell = (msg) => { try { out(stringify(msg)); } catch { /* the debugger left */ } };

  /** @param {Function | undefined} size @param {unknown} data */
  function sizeOf(size, data) { try { return size ? apply(size, data, []) : -1; } catch { return -1; } }
  /** @param {unknown} data */
  function shape(data) {
    if (typeof data === 'string') return bare({ text: data, bytes: data.length });
    let n = sizeOf(bufferBytes, data);
    if (n < 0) n = sizeOf(viewBytes, data);
    if (n < 0) n = sizeOf(dataBytes, data);
    if (n < 0) n = sizeOf(blobSize, data);
    return bare({ bytes: n < 0 ? 0 : n });
  }
  /** A copy of what the worker passed, so what leaves is what was shown (a Blob cannot change). @param {unknown} data */
  function frozen(data) {
    if (typeof data === 'string' || sizeOf(blobSize, data) >= 0) return data;
    if (sizeOf(bufferBytes, data) >= 0) return apply(bufferSlice, data, [0]);
    const typedView = sizeOf(viewBytes, data) >= 0;
    if (typedView || sizeOf(dataBytes, data) >= 0) {
      const [buf, off, len] = typedView ? [viewBuffer, viewOffset, viewBytes] : [dataBuffer, dataOffset, dataBytes];
      const start = apply(off, data, []);
      return new Bytes(apply(bufferSlice, apply(buf, data, []), [start, start + apply(len, data, [])]));
    }
    return `${data}`;
  }
  /** @param {any} what @param {(allow: boolean) => void} answer */
  function ask(what, answer) {
    const id = ++lastId;
    answers[id] = answer;
    tell(bare({ op: 'send', id, what }));
    return id;
  }
  /** @param {object} socket @param {{ go: () => void, ask: (next: (allow: boolean) => void) => void }} item */
  function enqueue(socket, item) {
    let q = apply(weakGet, queues, [socket]);
    if (!q) { q = bare({ head: /** @type {any} */ (null), tail: /** @type {any} */ (null), busy: false, closed: false }); apply(weakSet, queues, [socket, q]); }
    const node = bare({ item, next: /** @type {any} */ (null) });
    if (q.tail) q.tail.next = node; else q.head = node;
    q.tail = node;
    pump(q);
  }
  /** @param {any} q */
  function pump(q) {
    if (q.busy || !q.head) return;
    q.busy = true;
    const { item } = q.head;
    const next = (/** @type {boolean} */ allow) => {
      q.head = q.head.next;
      if (!q.head) q.tail = null;
      q.busy = false;
      if (allow && !q.closed) item.go();
      pump(q);
    };
    if (q.closed) next(false);
    else if (!held) next(true);
    else item.ask(next);
  }
  /** @param {EventTarget} socket @param {number} id */
  function awaitReply(socket, id) {
    let done = false;
    const finish = (/** @type {Event | null} */ e) => {
      if (done || (e && !e.isTrusted)) return;
      done = true;
      apply(remove, socket, ['message', finish]);
      if (e) tell(bare({ op: 'reply', id, reply: shape(apply(eventData, e, [])) }));
    };
    apply(add, socket, ['message', finish]);
    try { g.setTimeout(() => finish(null), 10_000); } catch { /* replaced by the worker: the reply may never be told */ }
  }

  const WS = g.WebSocket;
  if (typeof WS === 'function') {
    const wsProto = WS.prototype;
    const wsReady = getter(wsProto, 'readyState');
    const wsUrl = getter(wsProto, 'url');
    const wsClose = wsProto.close;
    const send = wsProto.send;
    /** @type {any} */
    const Ctor = new Proxy(WS, bare({ construct(/** @type {any} */ _t, /** @type {any[]} */ args, /** @type {Function} */ newTarget) {
      const socket = construct(WS, args, newTarget === Ctor ? WS : newTarget);
      const url = apply(wsUrl, socket, []);
      enqueue(socket, bare({ go: () => {}, ask: (/** @type {(a: boolean) => void} */ next) => {
        ask(bare({ channel: 'websocket', method: 'GET', url }), (allow) => {
          if (!allow) {
            apply(weakGet, queues, [socket]).closed = true;
            try { apply(wsClose, socket, [4000, 'Declined']); } catch { /* closed */ }
          }
          next(allow);
        });
      } }));
      return socket;
    } }));
    apply(weakSet, masks, [Ctor, WS]);
    defineProp(g, 'WebSocket', { ...describeProp(g, 'WebSocket'), value: Ctor });
    defineProp(wsProto, 'constructor', { ...describeProp(wsProto, 'constructor'), value: Ctor });
    const guardedSend = new Proxy(send, bare({ apply(/** @type {Function} */ target, /** @type {any} */ self, /** @type {any[]} */ args) {
      const q = apply(weakGet, queues, [self]);
      if (apply(wsReady, self, []) !== 1 || (!held && !q?.head)) return apply(target, self, args);
      const data = frozen(args[0]);
      const url = apply(wsUrl, self, []);
      let id = 0;
      enqueue(self, bare({
        ask: (/** @type {(a: boolean) => void} */ next) => { id = ask(bare({ channel: 'websocket_frame', method: 'SEND', url, ...shape(data) }), next); },
        go: () => {
          try { apply(target, self, [data]); } catch (err) { if (id) tell(bare({ op: 'reply', id, reply: bare({ error: `${/** @type {any} */ (err)?.name ?? 'Error'}` }) })); return; }
          if (id) awaitReply(self, id);
        },
      }));
    } }));
    apply(weakSet, masks, [guardedSend, send]);
    wsProto.send = guardedSend;
  }

  /** Guards the stream constructors present now (call again once the worker runs). */
  const guardStreams = () => { for (const name of ['WebTransport', 'WebSocketStream']) {
    const Orig = g[name];
    if (typeof Orig !== 'function' || apply(weakGet, masks, [Orig])) continue;
    /** @type {any} */
    const Guarded = new Proxy(Orig, bare({ construct(/** @type {any} */ _t, /** @type {any[]} */ args, /** @type {Function} */ newTarget) {
      if (held) {
        tell(bare({ op: 'refused', what: name }));
        throw new Exception(`${name} is paused in this worker while Tabwright's agent acts on its page: what it sends could not be held for your answer.`, 'NotAllowedError');
      }
      return construct(Orig, args, newTarget === Guarded ? Orig : newTarget);
    } }));
    apply(weakSet, masks, [Guarded, Orig]);
    apply(weakSet, masks, [Orig, Orig]);
    defineProp(g, name, { ...describeProp(g, name), value: Guarded });
  } };
  guardStreams();

  return (op, a, b) => {
    if (op === 'held') { held = a === true; return; }
    if (op === 'late') { guardStreams(); return; }
    if (op !== 'answer' || typeof a !== 'number') return;
    const fn = answers[a];
    if (typeof fn !== 'function') return;
    delete answers[a];
    fn(b === true);
  };
}
