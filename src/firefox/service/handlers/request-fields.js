// The fields of the requests extension pages send to the background, checked before a handler
// runs: a request with a missing or wrong field gets INVALID_REQUEST naming it, never half a run.

/**
 * @typedef {(value: unknown) => string | null} FieldCheck what is wrong with the value, or null
 * @typedef {{ check: FieldCheck, optional?: boolean }} RequestField
 */

/** @param {FieldCheck} check @returns {RequestField} */
export const required = (check) => ({ check });
/** @param {FieldCheck} check @returns {RequestField} */
export const optional = (check) => ({ check, optional: true });

/** @type {FieldCheck} */
export const tabId = (v) => (Number.isInteger(v) && /** @type {number} */ (v) >= 0 ? null : 'must be a tab id (a whole number)');
/** @type {FieldCheck} */
export const text = (v) => (typeof v === 'string' ? null : 'must be text');
/** @type {FieldCheck} */
export const id = (v) => (typeof v === 'string' && v.length > 0 && v.length <= 200 ? null : 'must be an id (text)');
/** @type {FieldCheck} */
export const object = (v) => (v && typeof v === 'object' && !Array.isArray(v) ? null : 'must be an object');
/** @type {FieldCheck} */
export const textList = (v) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? null : 'must be a list of plain-text entries');
/** @param {readonly string[]} values @returns {FieldCheck} */
export const oneOf = (values) => (v) => (typeof v === 'string' && values.includes(v) ? null : `must be one of ${values.join(', ')}`);
/** @param {number} min @param {number} max @returns {FieldCheck} */
export const wholeNumber = (min, max) => (v) => (Number.isInteger(v) && /** @type {number} */ (v) >= min && /** @type {number} */ (v) <= max ? null : `must be a whole number from ${min} to ${max}`);

/**
 * The first problem of a request against its fields, as a sentence; null when it is well-formed.
 * @param {Record<string, unknown>} msg @param {Record<string, RequestField>} fields
 */
export function requestProblem(msg, fields) {
  for (const [name, field] of Object.entries(fields)) {
    const value = msg[name];
    if (value === undefined) {
      if (field.optional) continue;
      return `${msg.type}: ${name} is missing.`;
    }
    const wrong = field.check(value);
    if (wrong) return `${msg.type}: ${name} ${wrong}.`;
  }
  return null;
}
