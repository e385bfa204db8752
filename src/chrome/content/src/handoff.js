// What a frame shows that may need the person (agent/handoff/detect.js judges it): counts of
// password, one-time-code and code fields, frame addresses and challenge-widget marks, headings and
// a slice of visible text, the document's HTTP status. Never a field's value: this is read while the
// person may be typing a password.
import { tw } from './tabwright.js';
import { fail } from '../../agent/error-codes.js';

const MAX_TEXT = 2000;
const MAX_HEADINGS = 12;
const OTP_NAME = /(?:^|[^a-z])(?:otp|totp|one.?time|2fa|mfa|two.?factor|verification.?code|auth.?code)(?:[^a-z]|$)/i;
const MARK = /captcha|turnstile/i;

/** @param {Element} el */
function shown(el) {
  const r = el.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return false;
  const s = getComputedStyle(el);
  return s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0;
}

/** @returns {HTMLInputElement[]} */
function inputs() {
  return /** @type {HTMLInputElement[]} */ ([...document.querySelectorAll('input')].filter((i) => !i.disabled && i.type !== 'hidden' && shown(i)));
}

/** @param {HTMLInputElement} i */
function isOtp(i) {
  if (/one-time-code/i.test(i.autocomplete)) return true;
  return OTP_NAME.test(`${i.name} ${i.id}`) && i.type !== 'password';
}

/** @param {HTMLInputElement} i */
function mayTakeCode(i) {
  if (!['text', 'tel', 'number', ''].includes(i.type)) return false;
  return i.inputMode === 'numeric' || (i.maxLength > 0 && i.maxLength <= 8);
}

/** The document's status, when Navigation Timing gives it (Chromium, Firefox 121+). */
function status() {
  const nav = /** @type {any} */ (performance.getEntriesByType('navigation')[0]);
  return typeof nav?.responseStatus === 'number' && nav.responseStatus > 0 ? nav.responseStatus : undefined;
}

/** @returns {string[]} */
function headings() {
  const els = [...document.querySelectorAll('h1, h2, h3, legend, [role=heading], dialog[open] :is(h1,h2,h3,p), [role=dialog] :is(h1,h2,h3)')];
  return els.filter(shown).map((e) => (/** @type {HTMLElement} */ (e).innerText ?? '').trim().slice(0, 160)).filter(Boolean).slice(0, MAX_HEADINGS);
}

/** Challenge widgets' host elements and frames, by their class, id, or address. @returns {string[]} */
function marks() {
  const out = new Set();
  for (const el of document.querySelectorAll('[class*=captcha i], [id*=captcha i], [class*=turnstile i], [id*=turnstile i]')) {
    for (const c of [...el.classList, el.id]) if (MARK.test(c)) out.add(c);
  }
  return [...out].slice(0, 20);
}

function signals() {
  const fields = inputs();
  const passwords = fields.filter((i) => i.type === 'password');
  return {
    url: location.href,
    title: document.title.slice(0, 200),
    ...(status() !== undefined ? { status: status() } : {}),
    passwordFields: passwords.length,
    newPasswordFields: passwords.filter((i) => /new-password/i.test(i.autocomplete)).length,
    otpFields: fields.filter(isOtp).length,
    codeFields: fields.filter((i) => !isOtp(i) && mayTakeCode(i)).length,
    frames: [...document.querySelectorAll('iframe[src], frame[src]')].map((f) => /** @type {HTMLIFrameElement} */ (f).src.slice(0, 300)).slice(0, 20),
    marks: marks(),
    headings: headings(),
    text: (document.body?.innerText ?? '').replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT),
  };
}

/**
 * The code the person typed into the card goes into the page's one code field, and its form is
 * sent, as their own typing and Enter would. Nothing is read back.
 * @param {string} code
 */
function fill(code) {
  const fields = inputs().filter((i) => isOtp(i) || mayTakeCode(i));
  if (fields.length !== 1) return fail('NOT_FOUND', 'the page shows no single code field to fill');
  const field = fields[0];
  field.focus();
  const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  if (set) set.call(field, code); else field.value = code;
  field.dispatchEvent(new Event('input', { bubbles: true }));
  field.dispatchEvent(new Event('change', { bubbles: true }));
  field.form?.requestSubmit();
  return { ok: true, data: { filled: true } };
}

export { signals };
Object.assign(tw.handlers, {
  'content.handoff': () => ({ ok: true, data: signals() }),
  'content.handoffFill': (/** @type {{ code?: unknown }} */ msg) => (typeof msg.code === 'string' && /^[0-9A-Za-z-]{4,12}$/.test(msg.code) ? fill(msg.code) : fail('INVALID_ARGUMENTS', 'a code is 4 to 12 letters or digits')),
});
