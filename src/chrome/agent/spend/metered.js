// A provider whose every call is counted: each usage the provider reports goes to the run's tally
// as it passes; a call that ends without one (a server that sends no usage, a local model without
// counters) gets an estimate, marked so, priced like any other. Wraps the provider from outside, as
// the trace recorder does, so every role (planner, executor, vision, the compaction summary) counts.
// Browser-free.
/** @import { ChatRequest, Provider, StreamEvent, Usage } from '../../types/core' */
import { costOf, capabilitiesFor } from '../../providers/models.js';
import { estimatedUsage } from './estimate.js';

/**
 * @param {Provider} provider @param {(usage: Usage) => void} onUsage
 * @returns {Provider}
 */
export function meterProvider(provider, onUsage) {
  return new Proxy(provider, {
    get(target, prop, receiver) {
      if (prop === 'chatStream') return (/** @type {ChatRequest} */ req) => metered(target, req, onUsage);
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/**
 * @param {Provider} provider @param {ChatRequest} req @param {(usage: Usage) => void} onUsage
 * @returns {AsyncGenerator<StreamEvent>}
 */
async function* metered(provider, req, onUsage) {
  let reported = false;
  let outChars = 0;
  let finished = false;
  try {
    for await (const ev of provider.chatStream(req)) {
      if (ev.type === 'usage') { reported = true; onUsage(ev.usage); }
      else if (ev.type === 'text') outChars += ev.text.length;
      else if (ev.type === 'tool_call_delta') outChars += (ev.name?.length ?? 0) + (ev.argumentsDelta?.length ?? 0);
      yield ev;
    }
    finished = true;
  } finally {
    // A stream cut off by an error or Stop after it began answering was sent and may be billed: it counts too.
    if (!finished && !reported && outChars > 0) onUsage(priced(provider, estimatedUsage(req, outChars)));
  }
  if (!reported) {
    const usage = priced(provider, estimatedUsage(req, outChars));
    onUsage(usage);
    yield { type: 'usage', usage };
  }
}

/** An estimated usage priced like a reported one, when the model's price is known. @param {Provider} provider @param {Usage} usage */
function priced(provider, usage) {
  const caps = provider.capabilities?.() ?? capabilitiesFor(provider.model);
  const cost = costOf(caps, usage);
  return cost === undefined ? usage : { ...usage, costUsd: cost };
}
