// A batch of tool calls from one model turn, each through the same stages: announce it, run it
// (mode, arguments, the gate: tool-call.js), mask what it saw, weigh done, tell the loop detector,
// write its result into the conversation (fenced when it came from a page, with Tabwright's notes,
// the new site's guide, a screenshot), then end the run when done stands or a loop is found.
/** @import { RunOutcome, Tool, ToolCall, ToolOk, ToolResult } from '../../types/core' */
/** @import { Run } from './prepare.js' */
import { AbortedError, withTimeout } from '../abort.js';
import { runToolCall } from '../tool-call.js';
import { guideAfterStep } from './guides.js';
import { abortBatch, finishRun, loopStopped, skipRest } from './endings.js';
import { handoffAfterStep } from './handoff.js';
import { ABORTED, imagesMessage, pendingArgs, previewArgs, toolMessage, withNotes } from './messages.js';

/** @typedef {{ name: string, image: { mediaType: string, data: string } }} BatchImage */
/** @typedef {Awaited<ReturnType<typeof runToolCall>>} CallOutput */

/**
 * Runs a turn's calls in order. @param {Run} run @param {ToolCall[]} calls @param {number} step
 * @returns {Promise<RunOutcome | null>} the run's end, or null to ask the model again
 */
export async function runBatch(run, calls, step) {
  /** Images tools returned (screenshots): sent after the batch, since tool messages carry text only. @type {BatchImage[]} */
  const images = [];
  for (let i = 0; i < calls.length; i++) {
    if (run.signal?.aborted) return abortBatch(run, calls.slice(i), step);
    const end = await runCall(run, calls[i], step, images);
    if (end === 'aborted') return abortBatch(run, calls.slice(i), step);
    // Stop while the person had the tab: this call has its result already.
    if (end === 'aborted_after') return abortBatch(run, calls.slice(i + 1), step);
    if (end) {
      skipRest(run, calls.slice(i + 1));
      return end();
    }
  }
  if (images.length) run.messages.push(imagesMessage(images));
  return null;
}

/**
 * One call through its stages. @param {Run} run @param {ToolCall} call @param {number} step @param {BatchImage[]} images
 * @returns {Promise<'aborted' | 'aborted_after' | (() => Promise<RunOutcome> | RunOutcome) | null>} Stop pressed (before or after the call's result was recorded), the run's end (after the rest are skipped), or go on
 */
async function runCall(run, call, step, images) {
  const startedAt = Date.now();
  const out = await execute(run, call);
  if (!out) return 'aborted';
  const { tool } = out;
  let result = await maskOutput(run, call, out.result);
  if (tool?.terminal && result.ok && run.opts.verifyDone !== false) {
    const weighed = await run.completion.weighDone(/** @type {ToolOk} */ (result));
    if (!weighed.challenge) {
      run.emit({ type: 'tool_result', id: call.id, name: call.name, result, args: previewArgs(call.arguments), ms: Date.now() - startedAt });
      run.messages.push(toolMessage(call, result, undefined, tool, undefined, run.budgets.result));
      const done = String(/** @type {ToolOk} */ (result).data);
      return () => finishRun(run, 'done', done, step, weighed.check);
    }
    result = weighed.challenge;
  }
  run.completion.noteStep(tool, call.name, result, out.urlAfter);
  const verdicts = run.detector.record({ name: call.name, args: out.args ?? call.arguments, result, urlBefore: out.urlBefore, urlAfter: out.urlAfter });
  run.emit({ type: 'tool_result', id: call.id, name: call.name, result, args: previewArgs(call.arguments), ms: Date.now() - startedAt, ...(out.target ? { target: out.target } : {}) });
  await recordResult(run, call, out, result, verdicts.map((v) => v.message), images);
  for (const v of verdicts.filter((x) => x.kind === 'nudge')) run.emit({ type: 'notice', code: `LOOP_${v.detector.toUpperCase()}`, message: v.message });
  const stop = verdicts.find((v) => v.kind === 'stop');
  if (stop) return () => loopStopped(run, stop.message, step);
  if (tool?.terminal && result.ok) return () => finishRun(run, 'done', String(result.data), step);
  // The page may now need the person (a sign-in, a code, a challenge): the run waits for them here.
  const handoff = await handoffAfterStep(run, tool, out, step, result);
  return handoff === 'aborted' ? 'aborted_after' : handoff;
}

/**
 * Announces the call and runs it, with the conversation written down first.
 * @param {Run} run @param {ToolCall} call @returns {Promise<CallOutput | null>} null when Stop was pressed
 */
async function execute(run, call) {
  const { emit, secrets, offered, mode, ctx, messages, guard, signal } = run;
  emit({ type: 'tool_call', id: call.id, name: call.name, args: pendingArgs(previewArgs(secrets ? secrets.mask(call.arguments) : call.arguments), offered.find((t) => t.name === call.name)) });
  try {
    await run.opts.checkpoint?.();
    if (secrets) await learnSecrets(run);
    return await runToolCall(call, { offered, mode, ctx, messages, guard, signal, secrets, personSecrets: run.opts.personSecrets });
  } catch (err) {
    if (!signal?.aborted && !(err instanceof AbortedError)) throw err;
    emit({ type: 'tool_result', id: call.id, name: call.name, result: ABORTED });
    return null;
  }
}

/**
 * What the page showed, and what the model itself wrote (a password it typed), never goes back out
 * unmasked: not to the model, not to the panel, not to the history.
 * @param {Run} run @param {ToolCall} call @param {ToolResult} result
 */
async function maskOutput(run, call, result) {
  const { secrets } = run;
  if (!secrets) return result;
  await learnSecrets(run);
  call.arguments = secrets.mask(call.arguments);
  return secrets.maskDeep(result);
}

/**
 * The step's result joins the conversation: fenced when it came from a page, with Tabwright's
 * notes and the new site's guide; a screenshot shown on the step's card and sent (or described).
 * @param {Run} run @param {ToolCall} call @param {CallOutput} out @param {ToolResult} result
 * @param {string[]} warnings @param {BatchImage[]} images
 */
async function recordResult(run, call, out, result, warnings, images) {
  const { tool } = out;
  const message = toolMessage(call, result, out.fromPage ? run.fence : undefined, tool, out.args, run.budgets.result);
  message.content = withNotes(String(message.content), warnings, out.notes);
  const guide = await guideAfterStep(run, out.urlBefore, out.urlAfter);
  if (guide) message.content = `${message.content}\n\n${guide}`;
  const image = await run.screens.after(tool, result, run.ctx);
  // The panel shows what the model was shown: a thumbnail on the step's card.
  if (image) run.emit({ type: 'tool_image', id: call.id, image: `data:${image.mediaType};base64,${image.data}` });
  if (image && !run.seesImages) message.content = `${message.content}\n\n${await run.screens.describe(image)}`;
  run.messages.push(message);
  await run.opts.checkpoint?.();
  if (image && run.seesImages) images.push({ name: result.ok && result.image ? call.name : `a screenshot after ${call.name}`, image });
}

/** Refresh the tab's known secrets (its password, code and card fields, tokens it shows). @param {Run} run */
async function learnSecrets(run) {
  const { ctx, secrets } = run;
  // A page that does not answer (still loading, not scriptable) has told us nothing new; never wait long.
  const r = await withTimeout(ctx.browser.sendToContent(ctx.tabId, { type: 'content.secrets' }), 1500, null);
  const d = r?.ok ? /** @type {{ values?: string[], origin?: string }} */ (r.data) : null;
  if (d?.values?.length && secrets) secrets.add(d.values, d.origin ?? '');
}

