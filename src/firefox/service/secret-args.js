// Text typed into a secret field is a secret: the content script reports such a field's value as the
// mask (content/secrets.js), and the panel and the history must not show or keep what the model typed
// there either.
//
//   maskSecretArgs(item)            a tool item that types (Tool.typedArg: type's text, set_field's value)
//                                   whose result value is masked gets its typed text masked too (also for
//                                   items recorded before the mask, as '(hidden)')
//   maskItemSecrets(item, vault)    that, then every known secret and token-looking string in the item
//                                   masked by the tab's vault (agent/safety/secrets.js)
//   MASK                            re-exported from agent/safety/secret-patterns.js (the one definition)
/** @import { TranscriptItem } from '../types/messages' */
/** @import { SecretVault } from '../types/safety' */
import { MASK, maskTokens } from '../agent/safety/secret-patterns.js';
import { findTool } from '../agent/tools/index.js';

export { MASK };

/** Values a content script reports for a secret field: the mask, or '(hidden)' from before it. */
const MASKED = new Set([MASK, '(hidden)']);

/** @param {TranscriptItem} item @returns {TranscriptItem} the item with a secret's typed text masked */
export function maskSecretArgs(item) {
  if (item.kind !== 'tool' || !item.result?.ok || !item.args || typeof item.args !== 'object') return item;
  const key = findTool(item.name)?.typedArg;
  if (!key) return item;
  const data = /** @type {{ value?: unknown }} */ (item.result.data ?? {});
  if (typeof data.value === 'string' && MASKED.has(data.value)) return { ...item, args: { ...item.args, [key]: MASK } };
  // Typed text that looks like a key is masked even in a field that is not secret.
  const text = /** @type {Record<string, unknown>} */ (item.args)[key];
  if (typeof text === 'string' && maskTokens(text) !== text) return { ...item, args: { ...item.args, [key]: maskTokens(text) } };
  return item;
}

/**
 * maskSecretArgs, then the vault's masking of everything in the item (arguments, result, text).
 * @param {TranscriptItem} item @param {SecretVault | null | undefined} vault @returns {TranscriptItem}
 */
export function maskItemSecrets(item, vault) {
  const masked = maskSecretArgs(item);
  return vault ? vault.maskDeep(masked) : masked;
}
