// Tabwright's helpers in the page's own JavaScript world ("world": "MAIN", document_start, every
// frame): the listener tracker (which elements get click-like listeners through addEventListener or
// an on* property: a <span> wired that way is a button to the user but invisible to the DOM), the
// dialog and console hooks (alert, confirm and prompt answered as the agent was told instead of
// blocking the page; the recent console messages kept), and the input hooks, idle until the
// isolated world arms them for one synthetic action (pointer capture for a drag, a file chooser
// held back for an upload).
// The page must neither see nor steer any of it: no global is left, every wrapped method looks
// native (a Proxy keeps name and length, and Function.prototype.toString shows the original's
// source), and the isolated world is reached only through DOM events whose names carry the key it
// hands over before any page script runs (content/page-channel.js). A page cannot name those events,
// so it can neither listen in nor fake a dialog into the agent's results.
// Everything the helpers call later is taken now, before the page runs: a page that replaces
// Reflect.apply, Function.prototype.call, WeakMap.prototype.get or an event's detail getter would
// otherwise be handed the original functions, the channel's key or a say in the answers.
const { apply, construct, getPrototypeOf, setPrototypeOf } = Reflect;
/** The object without a prototype: nothing the page defines on Object.prototype is ever read or called through it. @template {object} T @param {T} o @returns {T} */
const bare = (o) => { setPrototypeOf(o, null); return o; };
const describeProp = Object.getOwnPropertyDescriptor;
const defineProp = Object.defineProperty;
const proto = EventTarget.prototype;
const add = proto.addEventListener;
const remove = proto.removeEventListener;
const dispatch = proto.dispatchEvent;
const Custom = CustomEvent;
const stringify = JSON.stringify;
const parse = JSON.parse;
const weakGet = WeakMap.prototype.get;
const weakSet = WeakMap.prototype.set;
/** @param {object} o @param {string} name */
const getter = (o, name) => /** @type {(this: any) => any} */ (describeProp(o, name)?.get);
const detailOf = getter(CustomEvent.prototype, 'detail');
/** An event's detail through the getter taken above. @param {Event} e */
const detail = (e) => apply(detailOf, e, []);
/** An event's detail as the text the isolated world sent (never through the page's String). @param {Event} e */
const text = (e) => { const d = detail(e); return typeof d === 'string' ? d : ''; };
/** @param {EventTarget} target @param {string} kind @param {(e: Event) => void} fn */
const on = (target, kind, fn) => apply(add, target, [kind, fn]);
/** @param {EventTarget} target @param {Event} e */
const fire = (target, e) => apply(dispatch, target, [e]);

// ---- wrappers that look native ----

/** wrapper → the function it stands for, for Function.prototype.toString. @type {WeakMap<Function, Function>} */
const masks = new WeakMap();
const toString = Function.prototype.toString;
// Handlers without a prototype: a trap the page defines on Object.prototype ("get") is never consulted.
const maskedToString = new Proxy(toString, bare({ apply: (/** @type {Function} */ target, /** @type {any} */ self, /** @type {any[]} */ args) => apply(target, apply(weakGet, masks, [self]) ?? self, args) }));
apply(weakSet, masks, [maskedToString, toString]);
Function.prototype.toString = /** @type {() => string} */ (maskedToString);

/**
 * @template {Function} F
 * @param {F} original @param {(target: F, self: any, args: any[]) => any} trap
 * @returns {F}
 */
function wrap(original, trap) {
  if (typeof original !== 'function') return original;
  const p = new Proxy(original, bare({ apply: trap }));
  apply(weakSet, masks, [p, original]);
  return p;
}

// ---- the page channel ----

/** The channel's event prefix, once the isolated world has handed its key over. */
let channel = '';
/** What to do once the channel is open. @type {(() => void)[]} */
const onOpen = [];
/** @param {Event} e */
function onKey(e) {
  const key = detail(e);
  if (channel || typeof key !== 'string' || key.length !== 24 || !apply(testRe, HEX_KEY, [key])) return;
  channel = `tabwright-${key}`;
  apply(remove, document, ['tabwright:key', onKey]);
  for (let i = 0; i < onOpen.length; i++) onOpen[i]();
}
const testRe = RegExp.prototype.test;
const HEX_KEY = /^[0-9a-f]{24}$/;
on(document, 'tabwright:key', onKey);
/** @param {string} kind @param {(e: Event) => void} fn */
const listen = (kind, fn) => { const open = () => on(document, `${channel}:${kind}`, fn); if (channel) open(); else onOpen.push(open); };
/** @param {string} kind @param {unknown} data */
const tell = (kind, data) => { if (channel) fire(document, new Custom(`${channel}:${kind}`, bare({ detail: stringify(data) }))); };

// ---- the listener tracker ----

const CLICKY = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'touchend', 'dblclick']);
/** @type {WeakSet<Element>} */
const seen = new WeakSet();
/** Every noted element (for "?all"). @type {WeakRef<Element>[]} */
let noted = [];
/** Noted and not yet told: new since the last question, or not in the document when it came. @type {WeakRef<Element>[]} */
let pending = [];
/** noted's length after its last sweep of collected elements. */
let swept = 0;

/** @param {unknown} target */
function note(target) {
  if (!(target instanceof Element) || seen.has(target)) return;
  if (target === document.documentElement || target === document.body) return;
  seen.add(target);
  const ref = new WeakRef(target);
  noted.push(ref);
  pending.push(ref);
  if (noted.length > 2 * swept + 1000) { noted = noted.filter((r) => r.deref()); swept = noted.length; }
}

proto.addEventListener = wrap(add, (target, self, args) => {
  if (CLICKY.has(args[0])) note(self);
  return apply(target, self, args);
});
for (const prop of ['onclick', 'onmousedown', 'onpointerdown']) {
  const desc = Object.getOwnPropertyDescriptor(HTMLElement.prototype, prop);
  if (!desc || !desc.set) continue;
  const set = wrap(desc.set, (target, self, args) => { if (args[0]) note(self); return apply(target, self, args); });
  Object.defineProperty(HTMLElement.prototype, prop, { ...desc, set });
}

/**
 * Tells each connected element of `refs`; returns the ones to tell again later (alive, not connected).
 * @param {WeakRef<Element>[]} refs
 */
function told(refs) {
  const later = [];
  for (const ref of refs) {
    const el = ref.deref();
    if (!el) continue;
    if (el.isConnected) fire(el, new Custom(`${channel}:listener`, bare({ bubbles: true, composed: true })));
    else later.push(ref);
  }
  return later;
}
listen('listeners?', () => { pending = told(pending); });
listen('listeners?all', () => {
  noted = noted.filter((r) => r.deref());
  swept = noted.length;
  pending = told(noted);
});

// ---- dialogs ----

/** What the next dialogs answer; the isolated script sets it (default: alert OK, confirm and prompt cancel, the safe choice). */
let policy = { accept: false, promptText: /** @type {string | null} */ (null), once: true };
listen('dialog-policy', (e) => {
  try { policy = parse(text(e)); } catch { /* ignore malformed */ }
});

/** @param {'alert' | 'confirm' | 'prompt'} kind @param {unknown} message @param {unknown} [def] */
function answer(kind, message, def) {
  const accepted = kind === 'alert' ? true : policy.accept;
  const text = kind === 'prompt' && accepted ? (policy.promptText ?? String(def ?? '')) : null;
  tell('dialog', { kind, message: String(message ?? '').slice(0, 500), accepted, text, at: Date.now() });
  if (kind !== 'alert' && policy.once) policy = { accept: false, promptText: null, once: true };
  return { accepted, text };
}
const w = /** @type {any} */ (window);
w.alert = wrap(w.alert, (_t, _self, args) => { answer('alert', args[0]); });
w.confirm = wrap(w.confirm, (_t, _self, args) => answer('confirm', args[0]).accepted);
w.prompt = wrap(w.prompt, (_t, _self, args) => { const a = answer('prompt', args[0], args[1]); return a.accepted ? a.text : null; });

// ---- console ----

/** @type {{ level: string, text: string, at: number, stack?: string }[]} */
const logged = [];
/** @param {string} level @param {string} text @param {unknown} [error] an Error whose stack is kept */
function keep(level, text, error) {
  const stack = error instanceof Error && typeof error.stack === 'string' ? error.stack.slice(0, 2000) : undefined;
  logged.push({ level, text: text.slice(0, 1000), at: Date.now(), ...(stack ? { stack } : {}) });
  if (logged.length > 500) logged.shift();
}
listen('console-request', () => tell('console-dump', logged));
listen('console-clear', () => { logged.length = 0; });

const c = /** @type {any} */ (console);
for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
  c[level] = wrap(c[level], (target, self, args) => {
    try {
      keep(level, args.map((a) => (typeof a === 'string' ? a : safe(a))).join(' '), args.find((a) => a instanceof Error));
    } catch { /* never break the page's logging */ }
    return apply(target, self, args);
  });
}
// Uncaught errors and rejections are their own level, with the stack of what was thrown.
on(window, 'error', (e) => { const x = /** @type {ErrorEvent} */ (e); if (x.message || x.error) keep('exception', `Uncaught ${x.error instanceof Error ? safe(x.error) : x.message} (${x.filename}:${x.lineno}:${x.colno})`, x.error); });
on(window, 'unhandledrejection', (e) => { const r = /** @type {PromiseRejectionEvent} */ (e).reason; keep('exception', `Unhandled rejection: ${safe(r)}`, r); });

// ---- input hooks (armed for one synthetic action) ----

/** The synthetic pointer's id while a drag is armed; null otherwise. @type {number | null} */
let pointerId = null;
/** @type {Element | null} */
let captured = null;
let files = false;
/** An event on an element, seen by the isolated world's listeners around it. @param {EventTarget} el @param {string} kind */
const tellOn = (el, kind) => fire(el, new Custom(`${channel}:${kind}`, bare({ bubbles: true, composed: true })));
listen('input-hooks?', () => tellOn(document, 'input-hooks!'));
listen('capture-arm', (e) => { pointerId = Number(detail(e)); captured = null; });
listen('capture-disarm', () => { pointerId = null; captured = null; });
listen('files-arm', () => { files = true; });
listen('files-disarm', () => { files = false; });

// Pointer capture: while a synthetic drag is armed, setPointerCapture(id) for its pointer records the
// capturing element and tells the isolated world (which sends the moves there, as real capture
// would) instead of asking the browser, which knows no such active pointer and would throw.
const el = Element.prototype;
/** @param {unknown} id */
const ours = (id) => pointerId !== null && Number(id) === pointerId;
el.setPointerCapture = wrap(el.setPointerCapture, (target, self, args) => {
  if (!ours(args[0])) return apply(target, self, args);
  captured = self;
  tellOn(self, 'pointer-capture');
});
el.releasePointerCapture = wrap(el.releasePointerCapture, (target, self, args) => {
  if (!ours(args[0])) return apply(target, self, args);
  if (captured === self) { captured = null; tellOn(self, 'pointer-release'); }
});
el.hasPointerCapture = wrap(el.hasPointerCapture, (target, self, args) => (ours(args[0]) ? captured === self : apply(target, self, args)));

// File choosers: while armed, a file input's click() or showPicker() opens no picker; the input is
// told, so upload_file can fill the input a styled button opens.
/** @param {unknown} x */
const chooser = (x) => files && x instanceof HTMLInputElement && x.type === 'file';
HTMLElement.prototype.click = wrap(HTMLElement.prototype.click, (target, self, args) => {
  if (!chooser(self)) return apply(target, self, args);
  tellOn(self, 'file-chooser');
});
const input = HTMLInputElement.prototype;
if (input.showPicker) {
  input.showPicker = wrap(input.showPicker, (target, self, args) => {
    if (!chooser(self)) return apply(target, self, args);
    tellOn(self, 'file-chooser');
  });
}

// ---- channels the request hold cannot pause: WebSocket, data channels, WebTransport ----
// While a run holds this tab (the isolated world says so: content/channel-hold.js), a frame the
// page sends over a WebSocket or an RTCDataChannel waits here, in order per socket, until the
// policy answers; declined, it is dropped and the next frame asks again. A WebSocket's handshake
// leaves when it is constructed (nothing synchronous could wait), so it is told, and the frames
// wait for its answer too; declined, the socket is closed before any frame leaves. WebTransport
// and WebSocketStream write through streams that cannot be paused one write at a time: while the
// tab is held they are refused, and the ones already open are closed. Until a frame learns
// whether its tab is held (asked on first use), sends wait; with no run that answer comes long
// before a socket opens, so nothing is slowed.
// Queues are linked lists of prototype-less nodes, never arrays: a page that defined a setter on
// Array.prototype, or replaced splice, would otherwise be handed a waiting frame's send.

/** true: a run holds the tab; false: not; null: not known yet */
let holding = /** @type {boolean | null} */ (null);
let askedState = false;
/** Callbacks waiting for the state. @type {{ fn: () => void, next: any } | null} */
let untilKnown = null;
/** The answers awaited for told sends, by id. */
const answers = /** @type {Record<number, (allow: boolean) => void>} */ (/** @type {unknown} */ (bare({})));
let lastId = 0;
const timer = setTimeout;
const Exception = DOMException;
const Weak = WeakRef;
const clone = typeof structuredClone === 'function' ? structuredClone : (/** @type {any} */ x) => x;
const isView = ArrayBuffer.isView;
const bufferBytes = getter(ArrayBuffer.prototype, 'byteLength');
const viewBytes = getter(/** @type {object} */ (getPrototypeOf(Uint8Array.prototype)), 'byteLength');
const dataViewBytes = getter(DataView.prototype, 'byteLength');
const blobSize = getter(Blob.prototype, 'size');
const eventData = getter(MessageEvent.prototype, 'data');
/** socket → its queue. */
const queues = new WeakMap();

/** @param {() => void} fn runs once the state is known (at once when it is) */
function whenKnown(fn) {
  if (holding !== null) { fn(); return; }
  untilKnown = bare({ fn, next: untilKnown });
  if (!askedState) { askedState = true; tell('channel-state?', 0); }
}
listen('channel-state', (e) => {
  let held = false;
  try { held = parse(text(e)).held === true; } catch { return; }
  const was = holding;
  holding = held;
  if (held && !was) closeStreams();
  // Oldest first: the list was built newest first.
  let list = null;
  for (let n = untilKnown; n; n = n.next) list = bare({ fn: n.fn, next: list });
  untilKnown = null;
  for (let n = list; n; n = n.next) n.fn();
});
listen('channel-answer', (e) => {
  let a;
  try { a = parse(text(e)); } catch { return; }
  const fn = answers[a?.id];
  if (typeof fn !== 'function') return;
  delete answers[a.id];
  fn(a.allow === true);
});

/** @param {Function | undefined} size @param {unknown} data */
function sizeOf(size, data) { try { return size ? apply(size, data, []) : -1; } catch { return -1; } }
/**
 * What a frame carries, for the card: its text, or its size when it is binary.
 * @param {unknown} data @returns {{ text?: string, bytes: number }}
 */
function shape(data) {
  if (typeof data === 'string') return bare({ text: data, bytes: data.length });
  let n = sizeOf(bufferBytes, data);
  if (n < 0) n = sizeOf(viewBytes, data);
  if (n < 0) n = sizeOf(dataViewBytes, data);
  if (n < 0) n = sizeOf(blobSize, data);
  return bare({ bytes: n < 0 ? 0 : n });
}
/** A copy of what the page passed, so what leaves is what was shown (a Blob cannot change). @param {unknown} data */
function frozen(data) {
  if (typeof data === 'string' || sizeOf(blobSize, data) >= 0) return data;
  if (sizeOf(bufferBytes, data) >= 0 || isView(data)) return clone(data);
  return `${data}`;
}

/** Tells the isolated world about one send; answer(allow) once the policy decided. @param {any} what @param {(allow: boolean) => void} answer */
function ask(what, answer) {
  const id = ++lastId;
  answers[id] = answer;
  what.id = id;
  tell('channel-send', what);
  return id;
}

/**
 * One socket's frames, in order: each waits for the state, then (held) for its answer.
 * @param {object} socket @param {{ go: () => void, ask: (answer: (allow: boolean) => void) => void }} item
 */
function enqueue(socket, item) {
  let q = apply(weakGet, queues, [socket]);
  if (!q) { q = bare({ head: /** @type {any} */ (null), tail: /** @type {any} */ (null), busy: false, closed: false }); apply(weakSet, queues, [socket, q]); }
  const node = bare({ item, next: /** @type {any} */ (null) });
  if (q.tail) q.tail.next = node; else q.head = node;
  q.tail = node;
  pump(q);
}
/** @param {object} socket */
const queued = (socket) => Boolean(apply(weakGet, queues, [socket])?.head);
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
  whenKnown(() => {
    if (q.closed) next(false);
    else if (!holding) next(true);
    else item.ask(next);
  });
}

// ---- websocket-stand-in: a socket whose handshake waits ----
// A stand-in is a real EventTarget whose prototype is WebSocket.prototype (instanceof, its
// methods and handlers work); WebSocket.prototype's accessors and close() answer for it from its
// record until the real socket exists, and from the real socket after. The real socket's events
// are passed on to it (untrusted, as copies). Declined, it fails as a refused connection would:
// error, then close 1006, and no byte left.

/** stand-in → its record. */
const stands = new WeakMap();
/** @type {(send: Function, socket: WebSocket, args: unknown[]) => unknown} */
let sendOn = () => undefined;
const Base = EventTarget;
const Plain = Event;
const Message = MessageEvent;
const Close = typeof CloseEvent === 'function' ? CloseEvent : Event;
const Url = URL;
const urlHost = getter(URL.prototype, 'host');
const urlHref = getter(URL.prototype, 'href');
const urlProtocol = getter(URL.prototype, 'protocol');
/** The document's own host: an about:blank or srcdoc frame's is its parent's (its base URL); a data: frame has none. */
const ownHost = () => { try { return apply(urlHost, new Url(`${document.baseURI}`), []); } catch { return ''; } };
const baseUrl = () => { try { return `${document.baseURI}`; } catch { return ''; } };
const CARRIES = /[?#@]|%40|\d{5}/;
/** The page's own event-handler attributes on a stand-in. */
const HANDLERS = ['open', 'message', 'error', 'close'];

/** The socket URL as the browser resolves it, or null (the browser would throw). @param {unknown} raw */
function socketUrl(raw) {
  try {
    const u = new Url(`${raw}`, baseUrl());
    const scheme = apply(urlProtocol, u, []);
    const href = apply(urlHref, u, []);
    if (scheme === 'ws:' || scheme === 'wss:') return { href, host: apply(urlHost, u, []) };
    if (scheme === 'http:' || scheme === 'https:') return { href: `ws${scheme === 'https:' ? 's' : ''}:${apply(stringSlice, href, [scheme.length])}`, host: apply(urlHost, u, []) };
  } catch { /* not a URL */ }
  return null;
}
const stringSlice = String.prototype.slice;
/** Does this handshake wait? Another host, and a URL that could carry data (what the policy looks at). @param {unknown} raw */
function deferred(raw) {
  const u = socketUrl(raw);
  return Boolean(u) && /** @type {{ host: string }} */ (u).host !== ownHost() && apply(testRe, CARRIES, [/** @type {{ href: string }} */ (u).href]);
}

/** @param {Function} like the constructor whose prototype the stand-in gets @param {any[]} args */
function standIn(like, args) {
  const url = /** @type {{ href: string }} */ (socketUrl(args[0])).href;
  /** @type {EventTarget} */
  const stand = construct(Base, [], like);
  const rec = bare({ url, protocols: args[1], ready: 0, binaryType: 'blob', real: /** @type {WebSocket | null} */ (null), on: /** @type {Record<string, any>} */ (bare({})), closing: false });
  apply(weakSet, stands, [stand, rec]);
  for (let i = 0; i < HANDLERS.length; i++) {
    const kind = HANDLERS[i];
    on(stand, kind, (e) => { const fn = rec.on[kind]; if (typeof fn === 'function') apply(fn, stand, [e]); });
  }
  whenKnown(() => {
    if (rec.closing) { fail(stand, rec); return; }
    if (!holding) { open(stand, rec); return; }
    ask(bare({ channel: 'websocket', method: 'GET', url }), (allow) => { if (allow && !rec.closing) open(stand, rec); else fail(stand, rec); });
  });
  return stand;
}

/** The real socket, its events passed on. @param {EventTarget} stand @param {any} rec */
function open(stand, rec) {
  /** @type {WebSocket} */
  const real = rec.protocols === undefined ? construct(WS0, [rec.url]) : construct(WS0, [rec.url, rec.protocols]);
  rec.real = real;
  try { /** @type {any} */ (real).binaryType = rec.binaryType; } catch { /* keep the default */ }
  on(real, 'open', () => fire(stand, new Plain('open')));
  on(real, 'error', () => fire(stand, new Plain('error')));
  on(real, 'message', (e) => { const m = /** @type {MessageEvent} */ (e); fire(stand, new Message('message', bare({ data: apply(eventData, m, []), origin: m.origin, lastEventId: m.lastEventId }))); });
  on(real, 'close', (e) => { const c = /** @type {CloseEvent} */ (e); fire(stand, new Close('close', /** @type {any} */ (bare({ code: c.code, reason: c.reason, wasClean: c.wasClean })))); });
}

/** Declined (or closed before it opened): as a connection that failed. @param {EventTarget} stand @param {any} rec */
function fail(stand, rec) {
  rec.ready = 3;
  fire(stand, new Plain('error'));
  fire(stand, new Close('close', /** @type {any} */ (bare({ code: 1006, reason: '', wasClean: false }))));
}

/** WebSocket.prototype's accessors and close() answer for stand-ins. @param {Function} WS @param {any} proto */
function standInPrototype(WS, proto) {
  WS0 = WS;
  /** @type {Record<string, (r: any) => unknown>} */
  const before = bare({ readyState: (/** @type {any} */ r) => r.ready, url: (/** @type {any} */ r) => r.url, protocol: () => '', extensions: () => '', bufferedAmount: () => 0, binaryType: (/** @type {any} */ r) => r.binaryType });
  for (const name of ['readyState', 'url', 'protocol', 'extensions', 'bufferedAmount', 'binaryType', 'onopen', 'onmessage', 'onerror', 'onclose']) {
    const desc = describeProp(proto, name);
    if (!desc?.get) continue;
    const handler = apply(stringSlice, name, [0, 2]) === 'on' ? apply(stringSlice, name, [2]) : '';
    const get = wrap(desc.get, (target, self, args) => {
      const rec = apply(weakGet, stands, [self]);
      if (!rec) return apply(target, self, args);
      if (handler) return rec.on[handler] ?? null;
      return rec.real ? apply(target, rec.real, args) : before[name](rec);
    });
    const set = desc.set && wrap(desc.set, (target, self, args) => {
      const rec = apply(weakGet, stands, [self]);
      if (!rec) return apply(target, self, args);
      if (handler) { rec.on[handler] = typeof args[0] === 'function' || (typeof args[0] === 'object' && args[0]) ? args[0] : null; return; }
      if (name === 'binaryType' && (args[0] === 'blob' || args[0] === 'arraybuffer')) rec.binaryType = args[0];
      if (rec.real) apply(target, rec.real, args);
    });
    defineProp(proto, name, { ...desc, get, ...(set ? { set } : {}) });
  }
  proto.close = wrap(proto.close, (target, self, args) => {
    const rec = apply(weakGet, stands, [self]);
    if (!rec) return apply(target, self, args);
    if (rec.real) return apply(target, rec.real, args);
    if (rec.ready === 0) { rec.closing = true; rec.ready = 2; }
  });
}
/** The page's WebSocket as it was (set once the section below runs). @type {any} */
let WS0 = null;

// WebSocket: the constructor tells the handshake; send waits. A handshake that would carry data to
// another host (its URL is all it sends) is held before it leaves: the page gets a stand-in at
// once, and the real socket is built only once the policy allowed it (websocket-stand-in below).
const WS = window.WebSocket;
if (typeof WS === 'function') {
  const wsProto = WS.prototype;
  const wsReady = getter(wsProto, 'readyState');
  const wsUrl = getter(wsProto, 'url');
  const wsClose = wsProto.close;
  /** @type {typeof WebSocket} */
  const Ctor = new Proxy(WS, bare({ construct(/** @type {any} */ _t, /** @type {any[]} */ args, /** @type {Function} */ newTarget) {
    const like = newTarget === Ctor ? WS : newTarget;
    if (holding !== false && deferred(args[0])) return standIn(like, args);
    /** @type {WebSocket} */
    const socket = construct(WS, args, like);
    const url = apply(wsUrl, socket, []);
    // The handshake is the first item of the socket's queue: its frames wait for its answer.
    enqueue(socket, bare({ go: () => {},
      ask: (/** @type {(a: boolean) => void} */ answer) => { ask(bare({ channel: 'websocket', method: 'GET', url }), (allow) => {
        if (!allow) {
          apply(weakGet, queues, [socket]).closed = true;
          try { apply(wsClose, socket, [4000, 'Declined']); } catch { /* already closed */ }
        }
        answer(allow);
      }); } }));
    return socket;
  } }));
  apply(weakSet, masks, [Ctor, WS]);
  defineProp(window, 'WebSocket', { ...describeProp(window, 'WebSocket'), value: Ctor });
  defineProp(wsProto, 'constructor', { ...describeProp(wsProto, 'constructor'), value: Ctor });
  /** A frame on a real socket: held while the tab is, in order. @param {Function} send @param {WebSocket} socket @param {unknown[]} args */
  sendOn = (send, socket, args) => {
    // Not open (the browser throws or discards it), or nothing held and nothing waiting: as the browser would.
    if (apply(wsReady, socket, []) !== 1 || (holding === false && !queued(socket))) return apply(send, socket, args);
    const data = frozen(args[0]);
    enqueue(socket, framed('websocket_frame', apply(wsUrl, socket, []), data, () => apply(send, socket, [data]), socket));
  };
  wsProto.send = wrap(wsProto.send, (target, self, args) => {
    const stand = apply(weakGet, stands, [self]);
    if (!stand) return sendOn(target, self, args);
    if (!stand.real) throw new Exception(`Failed to execute 'send' on 'WebSocket': Still in ${stand.ready === 0 ? 'CONNECTING' : 'CLOSED'} state.`, 'InvalidStateError');
    return sendOn(target, stand.real, args);
  });
  standInPrototype(WS, wsProto);
}

// RTCDataChannel: send waits the same way (its peer has no URL: the background names the page's site and the label).
const DC = window.RTCDataChannel;
if (typeof DC === 'function') {
  const dcProto = DC.prototype;
  const dcReady = getter(dcProto, 'readyState');
  const dcLabel = getter(dcProto, 'label');
  dcProto.send = wrap(dcProto.send, (target, self, args) => {
    if (apply(dcReady, self, []) !== 'open' || (holding === false && !queued(self))) return apply(target, self, args);
    const data = frozen(args[0]);
    enqueue(self, framed('datachannel', `${apply(dcLabel, self, [])}`, data, () => apply(target, self, [data]), null));
  });
}

/**
 * A frame in a queue: told with its text or size; sent when allowed; a WebSocket's next message reported as its answer.
 * @param {string} kind @param {string} url @param {unknown} data @param {() => void} send @param {EventTarget | null} socket
 */
function framed(kind, url, data, send, socket) {
  let id = 0;
  return { __proto__: null,
    ask: (/** @type {(a: boolean) => void} */ answer) => { id = ask(bare({ channel: kind, method: 'SEND', url, ...shape(data) }), answer); },
    go: () => {
      try { send(); } catch (err) { if (id) tell('channel-reply', bare({ id, error: `${/** @type {any} */ (err)?.name ?? 'Error'}` })); return; }
      if (id && socket) awaitReply(socket, id);
    },
  };
}

/** The socket's next message from the server (within a bound) answers a frame let go. @param {EventTarget} socket @param {number} id */
function awaitReply(socket, id) {
  let done = false;
  const finish = (/** @type {Event | null} */ e) => {
    // Only what the browser delivered: a page can dispatch a MessageEvent of its own (untrusted).
    if (done || (e && !e.isTrusted)) return;
    done = true;
    apply(remove, socket, ['message', finish]);
    if (e) tell('channel-reply', bare({ id, ...shape(apply(eventData, e, [])) }));
  };
  on(socket, 'message', finish);
  timer(() => finish(null), 10_000);
}

// WebTransport and WebSocketStream: refused while held; those already open are closed when a hold begins.
/** @type {{ ref: WeakRef<object>, close: Function, next: any } | null} */
let streams = null;
for (const name of ['WebTransport', 'WebSocketStream']) {
  const Orig = /** @type {any} */ (window)[name];
  if (typeof Orig !== 'function') continue;
  const close = Orig.prototype.close;
  /** @type {any} */
  const Guarded = new Proxy(Orig, bare({ construct(/** @type {any} */ _t, /** @type {any[]} */ args, /** @type {Function} */ newTarget) {
    if (holding) throw new Exception(`${name} is paused while Tabwright's agent acts on this page: what it sends could not be held for your answer.`, 'NotAllowedError');
    /** @type {object} */
    const made = construct(Orig, args, newTarget === Guarded ? Orig : newTarget);
    streams = bare({ ref: new Weak(made), close, next: streams });
    if (holding === null) whenKnown(() => {});
    return made;
  } }));
  apply(weakSet, masks, [Guarded, Orig]);
  defineProp(window, name, { ...describeProp(window, name), value: Guarded });
  defineProp(Orig.prototype, 'constructor', { ...describeProp(Orig.prototype, 'constructor'), value: Guarded });
}
// A shared worker, in Chromium: chrome.debugger can neither attach it before it runs nor hold what
// it sends (docs/SECURITY.md, "What is held"), so while the tab is held none is started or joined
// from this page: the constructor throws a SecurityError that says why. Firefox holds a shared
// worker's requests, and asks before its sockets open, so it is left alone there. One constructed
// before this document knew whether its tab is held has its port closed once the answer says held:
// the page can no longer hand it anything.
const OrigShared = /** @type {any} */ (window).SharedWorker;
const chromium = typeof (/** @type {any} */ (window)).chrome === 'object' || typeof (/** @type {any} */ (window)).webkitRequestFileSystem === 'function';
if (chromium && typeof OrigShared === 'function') {
  const portOf = getter(OrigShared.prototype, 'port');
  const closePort = typeof MessagePort === 'function' ? MessagePort.prototype.close : null;
  /** @type {any} */
  const GuardedShared = new Proxy(OrigShared, bare({ construct(/** @type {any} */ _t, /** @type {any[]} */ args, /** @type {Function} */ newTarget) {
    if (holding) {
      const why = 'A shared worker cannot be started while Tabwright\'s agent acts on this page: what it sends could not be held for your answer.';
      // Kept in the page's console log too, which read_console hands the agent.
      let url = '';
      try { url = apply(stringSlice, apply(urlHref, new Url(`${args[0]}`, baseUrl()), []), [0, 2048]); } catch { /* not a URL: the browser would throw too */ }
      keep('warn', `Tabwright refused a shared worker (${url}): ${why}`);
      // The run is told (the isolated world passes it on), so the refusal is never silent.
      tell('channel-refused', { channel: 'shared_worker', url });
      throw new Exception(why, 'SecurityError');
    }
    /** @type {object} */
    const made = construct(OrigShared, args, newTarget === GuardedShared ? OrigShared : newTarget);
    if (holding === null) {
      const port = portOf ? apply(portOf, made, []) : null;
      whenKnown(() => { if (holding && port && closePort) try { apply(closePort, port, []); } catch { /* gone */ } });
    }
    return made;
  } }));
  apply(weakSet, masks, [GuardedShared, OrigShared]);
  defineProp(window, 'SharedWorker', { ...describeProp(window, 'SharedWorker'), value: GuardedShared });
  defineProp(OrigShared.prototype, 'constructor', { ...describeProp(OrigShared.prototype, 'constructor'), value: GuardedShared });
}
function closeStreams() {
  for (let s = streams; s; s = s.next) {
    const made = s.ref.deref();
    if (made) try { apply(s.close, made, []); } catch { /* already closed */ }
  }
  streams = null;
}

/** @param {unknown} v */
function safe(v) {
  if (v instanceof Error) return `${v.name}: ${v.message}`;
  try { return stringify(v) ?? String(v); } catch { return String(v); }
}

// A module of its own (its names stay its own); npm run sync joins it into the classic script.
export {};
