// A scripted provider for loop tests: each turn is a list of stream events (or an error to throw).
/** @import { Provider, StreamEvent, ChatRequest } from '../../src/chrome/types/core' */

/**
 * @param {(StreamEvent[] | Error | ((req: ChatRequest) => StreamEvent[] | Error))[]} turns
 * @returns {Provider & { requests: ChatRequest[] }}
 */
export function fakeProvider(turns) {
  const queue = [...turns];
  /** @type {ChatRequest[]} */
  const requests = [];
  return {
    kind: 'fake',
    label: 'Fake provider',
    model: 'fake-1',
    requests,
    async *chatStream(req) {
      requests.push({ ...req, messages: structuredClone(req.messages) });
      let turn = queue.shift();
      if (!turn) throw new Error('fake provider: no turn left');
      if (typeof turn === 'function') turn = turn(req);
      if (turn instanceof Error) throw turn;
      for (const ev of turn) {
        if (req.signal?.aborted) throw new Error('aborted');
        yield ev;
        await new Promise((r) => setTimeout(r, 0));
      }
    },
    async listModels() { return ['fake-1']; },
  };
}

/** @param {string} text @returns {StreamEvent[]} */
export function say(text) {
  return [{ type: 'text', text }, { type: 'finish', reason: 'stop' }];
}

/**
 * Tool calls with their arguments split across deltas, as real streams do.
 * @param {{ name: string, args?: unknown, raw?: string }[]} calls @returns {StreamEvent[]}
 */
export function call(...calls) {
  /** @type {StreamEvent[]} */
  const out = [];
  calls.forEach((c, index) => {
    const args = c.raw ?? JSON.stringify(c.args ?? {});
    const mid = Math.floor(args.length / 2);
    out.push({ type: 'tool_call_delta', index, id: `call_${index}`, name: c.name });
    out.push({ type: 'tool_call_delta', index, argumentsDelta: args.slice(0, mid) });
    out.push({ type: 'tool_call_delta', index, argumentsDelta: args.slice(mid) });
  });
  out.push({ type: 'finish', reason: 'tool_calls' });
  return out;
}
