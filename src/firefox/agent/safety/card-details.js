// The rows of a confirmation card (browser-free): every field of a write, none cut, the fields the
// agent typed first and then those the page did not show, each value masked by what it is (a secret, a
// token) rather than by its field's name alone, typed values from the page marked, lookalikes named.
/** @import { ConfirmDetail } from '../../types/safety' */
import { MASK, isSecretName } from './secret-patterns.js';

/** Values a secret-named field may show: a setting's state is not its secret ("password_reset_enabled: true"). */
const NOT_SECRET = /^(true|false|on|off|yes|no|enabled|disabled|none|null|0|1|)$/i;
/** A public key (OpenSSH or PEM): public by design, and its base64 would look like a token. */
const PUBLIC_KEY = /^(?:(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d+|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com) [A-Za-z0-9+/]+={0,3}(?: [^\r\n]*)?|-----BEGIN (?:RSA |EC |OPENSSH )?PUBLIC KEY-----[\s\S]*-----END (?:RSA |EC |OPENSSH )?PUBLIC KEY-----)\s*$/;
const MAX_LABEL = 120;
/** A value longer than this is cut on the card (its row scrolls); the full list of fields is never cut. */
const MAX_VALUE = 2000;

/**
 * @typedef {object} DetailFacts
 * @property {(s: string) => string} mask known secrets and token-looking strings → MASK
 * @property {(s: string) => boolean} isKnownSecret does s hold a secret the vault knows?
 * @property {(value: string) => boolean} typed did the agent type this value (or a part of it)?
 * @property {(value: string) => boolean} fromPage is what the agent typed here from the page, not from the user's request?
 * @property {(value: string) => boolean} shown did the page show this value?
 * @property {(value: string) => string | null} lookalike the value the user named or the page showed that this one imitates
 */

/**
 * One value, masked by what it is.
 * @param {string} label @param {string} value @param {Pick<DetailFacts, 'mask' | 'isKnownSecret'>} f
 */
export function maskValue(label, value, f) {
  if (!value) return value;
  const v = value.trim();
  if (PUBLIC_KEY.test(v)) return f.isKnownSecret(value) ? MASK : value;
  if (isSecretName(label) && !NOT_SECRET.test(v)) return MASK;
  return f.mask(value);
}

/** @param {string} s @param {number} n */
function cut(s, n) { return s.length > n ? `${s.slice(0, n - 1)}…` : s; }

/**
 * Card rows for a write's fields: all of them, ordered typed → not shown by the page → the rest.
 * @param {[string, string][]} fields @param {DetailFacts} f @returns {ConfirmDetail[]}
 */
export function fieldDetails(fields, f) {
  const rows = fields.map(([label, value], i) => {
    const typed = Boolean(value) && f.typed(value);
    /** @type {ConfirmDetail} */
    const d = { label: cut(f.mask(label), MAX_LABEL), value: cut(maskValue(label, value, f), MAX_VALUE) };
    if (typed) d.typed = true;
    if (typed && f.fromPage(value)) d.fromPage = true;
    const like = value ? f.lookalike(value) : null;
    if (like) d.lookalike = cut(f.mask(like), MAX_LABEL);
    const rank = typed ? 0 : value && !f.shown(value) ? 1 : 2;
    return { d, rank, i };
  });
  rows.sort((a, b) => a.rank - b.rank || a.i - b.i);
  return rows.map((r) => r.d);
}
