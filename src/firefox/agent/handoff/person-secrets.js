import { fail } from '../error-codes.js';
// A password or code the person writes in a message ("sign in as alice with the password …") is a
// secret from then on: the model sees a name for it ("[secret 1]"), Tabwright types the value only
// into a secret field of the site it was given on, and the vault masks it everywhere else (the
// panel, History, traces, storage). The agent never types into a secret field what the person did
// not give: not what the page showed, not what the model made up. Browser-free and pure.
//
//   findPersonSecrets(text, startAt) → { values: string[], text }   the values and the text with names
//   resolveSecretTyping(typed, facts) → { ok: true, text } | { ok: false, code, message }
/** @import { PersonSecret } from '../../types/handoff' */

/** The words that introduce a password or code, in the panel's languages. */
const SECRET_WORD = /(?:\b(?:password|passphrase|passcode|passwort|kennwort|mot de passe|contraseña|senha|parola d'ordine|pw|pwd|pin|otp|code|codice|código)\b|пароль|パスワード|暗証番号|密码|비밀번호)/iu;
/** What follows the word: "is", ":", "=" then the value, quoted or up to the next space. */
const VALUE = /^(?:\s+(?:is|ist|est|es|é|è))?\s*[:=：]?\s*(?:"([^"\n]{4,64})"|'([^'\n]{4,64})'|«([^»\n]{4,64})»|([^\s"'«,;。、]{4,64}))/u;
/** Codes that are not secrets, by the word before "code". */
const NOT_SECRET_CODE = /\b(?:postal|post|zip|area|country|dialing|dialling|promo|promotion(?:al)?|discount|coupon|voucher|gift|product|item|tracking|order|reference|booking|confirmation|error|status|source|color|colour|html|bar|qr|sort|iban|swift|bic|tax)\s*$/i;
/** Words that follow "password" without being one ("the password I gave you", "password field"). */
const NOT_A_VALUE = /^(?:i|you|we|that|this|the|my|your|from|for|to|and|of|in|is|it|field|box|here|there|below|above|again|earlier|manager|reset)$/i;

/**
 * @param {string} text the person's message @param {number} startAt the number of the first new secret's name
 * @returns {{ values: string[], text: string }}
 */
export function findPersonSecrets(text, startAt = 1) {
  /** @type {string[]} */
  const values = [];
  let out = '';
  let rest = typeof text === 'string' ? text : '';
  while (rest) {
    const w = SECRET_WORD.exec(rest);
    if (!w) break;
    const after = rest.slice(w.index + w[0].length);
    const v = VALUE.exec(after);
    const value = v ? (v[1] ?? v[2] ?? v[3] ?? v[4]) : undefined;
    const isCode = /^(?:pin|otp|code|codice|código|暗証番号)$/iu.test(w[0]);
    // A postal, promo or product code is no secret.
    const plainCode = isCode && NOT_SECRET_CODE.test(rest.slice(Math.max(0, w.index - 24), w.index));
    if (!v || value === undefined || plainCode || NOT_A_VALUE.test(value) || (isCode && !/^\d{4,8}$/.test(value))) {
      out += rest.slice(0, w.index + w[0].length);
      rest = after;
      continue;
    }
    const name = `[secret ${startAt + values.length}]`;
    values.push(value);
    const cut = v[0].lastIndexOf(value);
    out += rest.slice(0, w.index + w[0].length) + v[0].slice(0, cut) + name + v[0].slice(cut + value.length);
    rest = after.slice(v[0].length);
  }
  return { values, text: out + rest };
}

/**
 * What may be typed: "[secret N]" names become their values only in a secret field of their site;
 * into a secret field goes only what the person gave (a named secret, or words of their own messages).
 * @param {string} typed the text the model asked to type
 * @param {{ secretField: boolean, origin: string, given: PersonSecret[], said: string }} f
 *   said: the person's messages as the model saw them (names in place of the values)
 * @returns {{ ok: true, text: string } | { ok: false, code: 'SECRET_REFUSED' | 'SECRET_NOT_GIVEN', message: string }}
 */
export function resolveSecretTyping(typed, f) {
  let wrongPlace = '';
  const text = typed.replace(/\[secret (\d+)\]/g, (all, n) => {
    const s = f.given.find((g) => g.name === `[secret ${n}]`);
    if (!s) return all;
    if (!f.secretField || s.origin !== f.origin) { wrongPlace = s.origin; return all; }
    return s.value;
  });
  if (wrongPlace) {
    return fail('SECRET_REFUSED', `its field is on ${wrongPlace}; nothing was typed`);
  }
  if (!f.secretField || !text) return { ok: true, text };
  const gave = f.given.some((g) => g.value === text && g.origin === f.origin) || (text.length >= 4 && f.said.includes(text));
  if (gave) return { ok: true, text };
  return fail('SECRET_NOT_GIVEN');
}
