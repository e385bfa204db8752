// Parses and checks the arguments a model wrote for a tool call. Malformed input becomes a
// tool error the model can correct, never an exception that ends the run.
/** @import { JSONSchema, ToolErr } from '../types/core' */
import { repairJSON } from '../providers/json-repair.js';
import { fail } from './error-codes.js';

/**
 * @param {string} raw the arguments text as streamed by the model
 * @param {JSONSchema} schema the tool's parameters schema
 * @returns {{ ok: true, args: Record<string, any> } | ToolErr}
 */
export function parseToolArgs(raw, schema) {
  const text = (raw ?? '').trim();
  /** @type {unknown} */
  let args = {};
  if (text) {
    // Unambiguous slips (trailing commas, single quotes, a missing closing brace) are repaired;
    // anything else goes back to the model as an error it can correct.
    const parsed = repairJSON(text);
    if (parsed.ok) args = parsed.value;
    else {
      return fail('INVALID_ARGUMENTS', `the arguments are not valid JSON: ${parsed.error}; send one JSON object matching the tool's schema`, { retryable: true });
    }
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    return fail('INVALID_ARGUMENTS', 'the arguments must be one JSON object', { retryable: true });
  }
  const problem = checkObject(/** @type {Record<string, unknown>} */ (args), schema);
  if (problem) return fail('INVALID_ARGUMENTS', problem, { retryable: true });
  return { ok: true, args: /** @type {Record<string, any>} */ (args) };
}

/**
 * A small JSON-schema subset: required keys, primitive types, enums.
 * @param {Record<string, unknown>} args
 * @param {JSONSchema} schema
 * @returns {string | null}
 */
function checkObject(args, schema) {
  for (const key of schema.required ?? []) {
    if (args[key] === undefined || args[key] === null) return `Missing required argument "${key}".`;
  }
  for (const [key, value] of Object.entries(args)) {
    const prop = schema.properties?.[key];
    if (!prop) continue;
    const types = Array.isArray(prop.type) ? prop.type : prop.type ? [prop.type] : [];
    if (types.length && !types.some((t) => matchesType(value, t))) {
      return `Argument "${key}" must be of type ${types.join(' or ')}, got ${JSON.stringify(value)}.`;
    }
    if (prop.enum && !prop.enum.includes(/** @type {any} */ (value))) {
      return `Argument "${key}" must be one of ${prop.enum.map((e) => JSON.stringify(e)).join(', ')}.`;
    }
  }
  return null;
}

/** @param {unknown} v @param {string} t */
function matchesType(v, t) {
  switch (t) {
    case 'string': return typeof v === 'string';
    case 'number': return typeof v === 'number' && Number.isFinite(v);
    case 'integer': return Number.isInteger(v);
    case 'boolean': return typeof v === 'boolean';
    case 'object': return v !== null && typeof v === 'object' && !Array.isArray(v);
    case 'array': return Array.isArray(v);
    case 'null': return v === null;
    default: return true;
  }
}
