// Parts of a chat message as every wire format needs them, kept apart from the HTTP path so that
// formats that send nothing over HTTP themselves (the prompted tool protocol, the built-in model)
// do not depend on it: a message's text, and a tool call's arguments as an object.
/** @import { ContentPart } from '../types/core' */
import { repairJSON } from './json-repair.js';

/** The text parts of a message's content, joined. @param {string | ContentPart[]} content */
export function textOf(content) {
  if (typeof content === 'string') return content;
  return content.filter((p) => p.type === 'text').map((p) => /** @type {{text: string}} */ (p).text).join('\n');
}

/** Parsed tool arguments for formats that send objects, not text; repaired when that is unambiguous. @param {string} raw */
export function argsObject(raw) {
  if (!raw || !raw.trim()) return {};
  const r = repairJSON(raw);
  // The loop already answered an unparsable call with a tool error; {} keeps the wire valid.
  return r.ok && r.value && typeof r.value === 'object' && !Array.isArray(r.value) ? r.value : {};
}
