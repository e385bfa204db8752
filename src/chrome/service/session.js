// One tab's conversation: the messages the model sees, the transcript the panel shows, and the
// run in progress. Agent events are folded into the transcript here and pushed to open panels.
/** @import { AgentEvent, ChatMessage, Mode } from '../types/core' */
/** @import { PanelEvent, TranscriptItem } from '../types/messages' */

export class Session {
  /** @param {number} tabId */
  constructor(tabId) {
    this.tabId = tabId;
    /** @type {ChatMessage[]} */
    this.messages = [];
    /** @type {TranscriptItem[]} */
    this.items = [];
    /** @type {AbortController | null} */
    this.run = null;
    /** @type {Set<(e: PanelEvent) => void>} */
    this.listeners = new Set();
    this.seq = 0;
    /** Tokens spent in this conversation, summed from the loop's usage events. */
    this.usage = { inputTokens: 0, outputTokens: 0 };
  }

  get running() { return this.run !== null; }

  newId() { return `i${Date.now().toString(36)}${(this.seq++).toString(36)}`; }

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
  }

  /** @param {string} text @param {Mode} mode */
  addUser(text, mode) {
    this.upsert({ kind: 'user', id: this.newId(), text, mode });
  }

  /** @param {string} code @param {string} message */
  addError(code, message) {
    this.upsert({ kind: 'error', id: this.newId(), code, message });
  }

  /** @param {boolean} running */
  setRunning(running) {
    this.broadcast({ type: 'running', running });
  }

  /** @param {AgentEvent} e */
  apply(e) {
    switch (e.type) {
      case 'text_delta': {
        const item = this.items.find((x) => x.id === e.messageId);
        if (item && item.kind === 'assistant') {
          item.text += e.text;
          this.broadcast({ type: 'delta', id: e.messageId, text: e.text });
        } else {
          this.upsert({ kind: 'assistant', id: e.messageId, text: e.text, streaming: true });
        }
        break;
      }
      case 'assistant_done': {
        const item = this.items.find((x) => x.id === e.messageId);
        if (item && item.kind === 'assistant') this.upsert({ ...item, streaming: false });
        break;
      }
      case 'tool_call':
        this.upsert({ kind: 'tool', id: e.id, name: e.name, args: e.args });
        break;
      case 'tool_result': {
        const item = this.items.find((x) => x.id === e.id);
        if (item && item.kind === 'tool') this.upsert({ ...item, result: e.result });
        break;
      }
      case 'final': {
        const last = this.items[this.items.length - 1];
        if (last && last.kind === 'assistant' && last.text === e.text) this.upsert({ ...last, streaming: false, final: true });
        else this.upsert({ kind: 'assistant', id: this.newId(), text: e.text, streaming: false, final: true });
        break;
      }
      case 'error':
        this.addError(e.code, e.message);
        break;
      case 'usage':
        this.usage = { inputTokens: this.usage.inputTokens + e.usage.inputTokens, outputTokens: this.usage.outputTokens + e.usage.outputTokens };
        this.broadcast({ type: 'usage', usage: this.usage });
        break;
    }
  }
}
