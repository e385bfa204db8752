// One request to the model: the conversation compacted when a trigger fires, sent as the model
// should see it (images pruned, old results capped, the scratchpad pinned), streamed back; a
// context overflow trims hard and retries once. Each request first passes the budget guard
// (spend-check.js): one that would pass a cap waits for the person. Browser-free.
/** @import { ChatMessage } from '../../types/core' */
/** @import { Run } from './prepare.js' */
import { ProviderError } from '../../providers/errors.js';
import { streamTurn, collectText } from '../stream-turn.js';
import { compact, compactionReason, fallbackSummary, prepareForRequest, transcriptForSummary, trimHard } from '../compaction.js';
import { SUMMARY_PROMPT } from '../prompts.js';
import { checkSpend } from './spend-check.js';

/**
 * The model's next turn, after compacting when needed. @param {Run} run @param {string} messageId
 * @returns {ReturnType<typeof streamTurn>}
 */
export async function askModel(run, messageId) {
  await manageContext(run);
  const reply = await requestTurn(run, messageId);
  if (reply.usage) run.reportedTokens = reply.usage.inputTokens || null;
  return reply;
}

/** Compacts when a trigger fires; at the top of every step so a long run compacts mid-flight. @param {Run} run */
async function manageContext(run) {
  const reason = compactionReason(run.messages, run.cfg, run.reportedTokens);
  if (!reason) return;
  const r = await compact(run.messages, run.cfg, (older) => summarize(run, older));
  if (!r) return;
  run.reportedTokens = null;
  run.emit({ type: 'compacted', reason, ...r });
}

/** One turn; a context-overflow error trims hard and retries once. @param {Run} run @param {string} messageId */
async function requestTurn(run, messageId) {
  const { provider, schemas: tools, signal, emit } = run;
  const first = { messages: forRequest(run), tools, signal };
  await checkSpend(run, first, provider);
  try {
    return await streamTurn(provider, first, messageId, emit);
  } catch (err) {
    if (!(err instanceof ProviderError) || err.code !== 'CONTEXT_OVERFLOW') throw err;
    const r = trimHard(run.messages, run.cfg.overflowKeep);
    run.reportedTokens = null;
    emit({ type: 'compacted', reason: 'overflow', ...r });
    const again = { messages: forRequest(run), tools, signal };
    await checkSpend(run, again, provider);
    return streamTurn(provider, again, messageId, emit);
  }
}

/** The messages as sent: images pruned, old tool results capped, the scratchpad pinned to the system prompt. @param {Run} run */
export function forRequest(run) {
  const out = prepareForRequest(run.messages, run.cfg);
  const note = run.pinned.note;
  if (note && out[0]?.role === 'system') {
    out[0] = { ...out[0], content: `${out[0].content}\n\nYour scratchpad note (pinned; replace it with scratchpad):\n${note}` };
  }
  return out;
}

/** The summary of older messages for compaction; the fallback when the model cannot give one. @param {Run} run @param {ChatMessage[]} older */
async function summarize(run, older) {
  const { provider, signal } = run;
  try {
    /** @type {import('../../types/core').ChatRequest} */
    const req = { messages: [{ role: 'system', content: SUMMARY_PROMPT }, { role: 'user', content: transcriptForSummary(older) }], tools: [], signal };
    // A summary the budget does not allow falls back to the one written without the model.
    await checkSpend(run, req, provider);
    const text = await collectText(provider, req);
    return text.trim() || fallbackSummary(older);
  } catch (err) {
    if (signal?.aborted) throw err;
    return fallbackSummary(older);
  }
}
