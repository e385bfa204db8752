// Tool calls arrive from every wire format as deltas (an index, then pieces of the id, name and
// arguments); these two functions assemble them, for the loop's streaming turn and for chat().
/** @import { StreamEvent, ToolCall } from '../types/core' */

/**
 * Fold one delta into the calls assembled so far.
 * @param {Map<number, ToolCall>} calls @param {Extract<StreamEvent, { type: 'tool_call_delta' }>} ev
 */
export function addToolCallDelta(calls, ev) {
  let c = calls.get(ev.index);
  if (!c) { c = { id: '', name: '', arguments: '' }; calls.set(ev.index, c); }
  if (ev.id) c.id = ev.id;
  if (ev.name) c.name += ev.name;
  if (ev.argumentsDelta) c.arguments += ev.argumentsDelta;
}

/**
 * The assembled calls in stream order; a call the provider sent without an id gets one.
 * @param {Map<number, ToolCall>} calls @param {string} idPrefix
 * @returns {ToolCall[]}
 */
export function assembledCalls(calls, idPrefix) {
  return [...calls.entries()].sort((a, b) => a[0] - b[0]).map(([i, c]) => ({ ...c, id: c.id || `${idPrefix}${i}` }));
}
