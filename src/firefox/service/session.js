// One tab's conversation: the messages the model sees, the transcript the panel shows, and the
// run in progress. Agent events are folded into the transcript here and pushed to open panels.
// Questions to the user (plan approval, confirmation, clarify) wait here for the panel's answer.
/** @import { AgentEvent, ChatMessage, Mode } from '../types/core' */
/** @import { PanelEvent, StoredSession, TranscriptItem } from '../types/messages' */
import { createSecretVault } from '../agent/safety/secrets.js';
import { RunState } from './run-state.js';
import { EVENT_FOLDS } from './session-events.js';
import { fail } from '../agent/error-codes.js';

export class Session {
  /** @param {number} tabId @param {{ onChange?: (s: Session) => void }} [opts] */
  constructor(tabId, opts = {}) {
    this.tabId = tabId;
    /** @type {ChatMessage[]} */
    this.messages = [];
    /** @type {TranscriptItem[]} */
    this.items = [];
    /** @type {AbortController | null} the run in progress: aborting it stops the run */
    this.run = null;
    /** @type {'user' | 'tab_closed'} why the latest Stop came (the tab closing is said as such) */
    this.stopReason = 'user';
    /** which run may still write here: New chat moves it on, so a run still unwinding writes nothing */
    this.generation = 0;
    /** @type {Promise<unknown>} settles when the latest run has ended and been recorded */
    this.settled = Promise.resolve();
    /** where the run stands (service/run-state.js); each change reaches the panel and storage */
    this.state = new RunState('idle', (phase) => {
      this.broadcast({ type: 'running', running: this.running, phase });
      this.changed();
    });
    /** @type {Set<(e: PanelEvent) => void>} */
    this.listeners = new Set();
    this.seq = 0;
    /** The card of each tool call id, latest first (servers reuse ids). @type {Map<string, string>} */
    this.toolIds = new Map();
    /** @type {import('../types/messages').UsageTotal} */
    this.usage = { inputTokens: 0, outputTokens: 0, calls: 0 };
    /** @type {Mode} */
    this.mode = 'act';
    /** the tab's known secrets (agent/safety/secrets.js): in memory only, never stored */
    this.secrets = createSecretVault();
    /** passwords and codes the person wrote in messages, by the names the model sees (agent/handoff/person-secrets.js): in memory only @type {import('../types/handoff').PersonSecret[]} */
    this.personSecrets = [];
    /** the scratchpad note, pinned across compaction */
    this.pinned = { note: '' };
    this.conversationId = this.newId();
    /** @type {Map<string, (answer: any) => void>} */
    this.pending = new Map();
    /** @type {import('../types/messages').RunOrigin | undefined} who started the latest run (the runs overview says so) */
    this.origin = undefined;
    /** the latest run's task, as its group and the runs overview name it */
    this.task = '';
    /** when the latest run started (ms) */
    this.startedAt = 0;
    this.onChange = opts.onChange;
  }

  /** a run holds the tab (starting, streaming, acting or waiting for the user) */
  get running() { return this.state.busy; }

  /** a run was in progress when the background stopped; Continue resumes it */
  get interrupted() { return this.state.phase === 'interrupted'; }

  /**
   * New chat: an empty conversation in this same session, so open panels stay attached and see
   * the next run. The caller has stopped the old run; whatever it still emits is dropped.
   */
  reset() {
    this.generation++;
    this.run = null;
    for (const id of [...this.pending.keys()]) this.expire(id);
    this.pending.clear();
    this.messages = [];
    this.items = [];
    this.toolIds.clear();
    this.usage = { inputTokens: 0, outputTokens: 0, calls: 0 };
    this.pinned.note = '';
    this.personSecrets = [];
    this.conversationId = this.newId();
    this.state.transition('clear');
    this.broadcast({ type: 'state', items: [], running: false });
    this.broadcast({ type: 'usage', usage: { ...this.usage } });
    this.changed();
  }

  newId() { return `i${Date.now().toString(36)}${(this.seq++).toString(36)}`; }

  changed() { this.onChange?.(this); }

  /** @param {PanelEvent} e */
  broadcast(e) {
    for (const l of this.listeners) {
      try { l(e); } catch { /* a closed panel; removed on disconnect */ }
    }
  }

  /** @param {TranscriptItem} item */
  upsert(item) {
    const i = this.items.findIndex((x) => x.id === item.id);
    if (i >= 0) this.items[i] = item; else this.items.push(item);
    this.broadcast({ type: 'upsert', item });
    this.changed();
  }

  /** @param {string} id */
  item(id) { return this.items.find((x) => x.id === id); }

  /**
   * The card of a tool call, by the call id the model server gave it. Servers reuse ids (call_0 in
   * every turn, or again after a restart), so a call whose id already names a finished card gets a
   * card of its own instead of overwriting the old one. @param {string} callId
   */
  newToolItemId(callId) {
    const old = this.item(callId);
    const id = old && old.kind === 'tool' && old.result !== undefined ? `${callId}~${this.newId()}` : callId;
    this.toolIds.set(callId, id);
    return id;
  }

  /** @param {string} callId */
  toolItem(callId) { return this.item(this.toolIds.get(callId) ?? callId); }

  /** @param {string} text @param {Mode} mode */
  addUser(text, mode) {
    this.upsert({ kind: 'user', id: this.newId(), text, mode });
  }

  /** @param {string} code @param {string} message */
  addError(code, message) {
    this.upsert({ kind: 'error', id: this.newId(), code, message });
  }

  /**
   * Wait for the panel's answer to the question shown as item `id`. Stopping the run expires it.
   * @template T @param {string} id @param {AbortSignal} [signal] @returns {Promise<T>}
   */
  wait(id, signal) {
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(id);
        this.expire(id);
        reject(new Error('stopped'));
      };
      if (signal?.aborted) { onAbort(); return; }
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, (answer) => {
        signal?.removeEventListener('abort', onAbort);
        this.pending.delete(id);
        resolve(answer);
      });
    });
  }

  /** The panel answered the question `id`; false when nothing waits for it. @param {string} id @param {unknown} answer */
  answer(id, answer) {
    const resolve = this.pending.get(id);
    if (!resolve) return false;
    resolve(answer);
    return true;
  }

  /** A question nobody can answer any more (the run stopped or the background restarted). @param {string} id */
  expire(id) {
    const item = this.item(id);
    if (!item) return;
    if ((item.kind === 'confirm' || item.kind === 'clarify') && item.status === 'pending') this.upsert({ ...item, status: 'expired' });
    if ((item.kind === 'plan' || item.kind === 'budget') && item.status === 'pending') this.upsert({ ...item, status: 'expired' });
    if (item.kind === 'handoff' && item.status === 'waiting') this.upsert({ ...item, status: 'expired' });
  }

  /** Folds an agent event into the transcript (service/session-events.js); unknown types change nothing. @param {AgentEvent} e */
  apply(e) {
    if (!Object.hasOwn(EVENT_FOLDS, e.type)) return;
    /** @type {(s: Session, e: AgentEvent) => void} */ (EVENT_FOLDS[e.type])(this, e);
  }

  /** What storage.session keeps: every known secret masked, even one typed a moment ago. @returns {StoredSession} */
  toJSON() {
    const mask = (/** @type {any} */ v) => this.secrets.maskDeep(v);
    return { v: 1, tabId: this.tabId, conversationId: this.conversationId, mode: this.mode, messages: mask(this.messages), items: mask(this.items), note: mask(this.pinned.note), running: this.running, phase: this.state.phase, updatedAt: Date.now() };
  }

  /**
   * Rebuild a session from storage. A run that was in progress when the background stopped is
   * marked interrupted, with a Continue item; questions it was waiting on are expired.
   * @param {StoredSession} data @param {{ onChange?: (s: Session) => void }} [opts]
   */
  static fromJSON(data, opts = {}) {
    const s = new Session(data.tabId, opts);
    s.conversationId = data.conversationId;
    s.mode = data.mode;
    s.messages = data.messages ?? [];
    s.items = data.items ?? [];
    s.pinned.note = data.note ?? '';
    s.seq = s.items.length + 1;
    s.state.phase = RunState.restored(data.phase ?? (data.running ? 'streaming' : 'idle'));
    if (s.interrupted && !s.items.some((item) => item.kind === 'interrupted' && item.status === 'pending')) {
      s.items = s.items.map((item) => {
        if (item.kind === 'assistant' && item.streaming) return { ...item, streaming: false };
        if ((item.kind === 'confirm' || item.kind === 'clarify' || item.kind === 'plan' || item.kind === 'budget') && item.status === 'pending') return { ...item, status: 'expired' };
        if (item.kind === 'handoff' && item.status === 'waiting') return { ...item, status: 'expired' };
        return item;
      });
      s.items.push({ kind: 'interrupted', id: s.newId(), status: 'pending' });
    }
    return s;
  }

  /**
   * Before continuing an interrupted run: answer tool calls that never got a result, so the
   * conversation is well-formed, and hand the turn back to the model.
   */
  prepareContinue() {
    const answered = new Set(this.messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId));
    const last = this.messages.findLastIndex((m) => m.role === 'assistant');
    const calls = last >= 0 ? this.messages[last].toolCalls ?? [] : [];
    const unfinished = calls.filter((c) => !answered.has(c.id));
    for (const c of unfinished) {
      this.messages.push({ role: 'tool', toolCallId: c.id, name: c.name, content: 'Error INTERRUPTED: Tabwright\'s background was stopped before this call finished; it may or may not have happened. Check the page before repeating it.' });
    }
    for (const item of this.items) {
      if (item.kind === 'tool' && item.result === undefined && unfinished.some((c) => (this.toolIds.get(c.id) ?? c.id) === item.id)) {
        this.upsert({ ...item, result: fail('INTERRUPTED') });
      }
    }
    const done = calls.filter((c) => answered.has(c.id)).map((c) => c.name);
    const said = calls.length
      ? ` Of your last step's calls, ${done.length ? `${done.join(', ')} finished (results above)` : 'none finished'}${unfinished.length ? `; ${unfinished.map((c) => c.name).join(', ')} did not finish and may or may not have happened: look at the page before repeating ${unfinished.length > 1 ? 'them' : 'it'}` : ''}.`
      : '';
    const note = `Tabwright's background was stopped during the task; continue it from where it stopped.${said}`;
    const lastMessage = this.messages.at(-1);
    if (lastMessage?.role === 'assistant') this.messages.push({ role: 'user', content: note });
    else if (lastMessage?.role === 'tool' && typeof lastMessage.content === 'string') lastMessage.content = `${lastMessage.content}\n\n[Tabwright, not the page] ${note}`;
    for (const item of this.items) if (item.kind === 'interrupted' && item.status === 'pending') this.upsert({ ...item, status: 'continued' });
  }
}
