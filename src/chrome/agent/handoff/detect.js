// Moments only the person should handle: a sign-in the run walked into, a session that expired
// mid-task, a second factor, a CAPTCHA or bot challenge, an age or consent gate. Browser-free and
// pure: it judges what the page structurally shows (content/handoff.js: fields, frames, headings,
// a slice of visible text, the document's HTTP status), the URLs of the step and the answers to the
// step's writes; never what the model says about the page.
//
//   detectMoment(signals, context) → Moment | null
//   personCredentials(text)        → { password: boolean, code: boolean }: did the person give them?
//
// A login form alone is not a moment: a run may be asked to look at one, or given the password by
// the person. It is one when the run walked into it (a step moved the tab to it), when the page says
// the session ended or answers 401, or when the URL carries a "return to" address (a wall that
// redirected there before the run began).
/** @import { HandoffSignals, HandoffKind, HandoffMoment } from '../../types/handoff' */

/** Well-known challenge widgets by the address of their frame. */
const CAPTCHA_FRAME = /(?:google\.com|recaptcha\.net)\/recaptcha|hcaptcha\.com|challenges\.cloudflare\.com|arkoselabs\.com|funcaptcha\.com|geetest\.com|captcha-delivery\.com|\/captcha\b/i;
/** Their host elements' classes and ids (the widget script fills them). */
const CAPTCHA_MARK = /^(?:g-recaptcha|h-captcha|cf-turnstile|frc-captcha|captcha|captcha-widget|turnstile)$/i;
const CAPTCHA_TEXT = /\bverify (?:that )?you(?:'re| are) (?:a )?human\b|\bare you a robot\b|\bi'?m not a robot\b|\bchecking (?:if the site connection is secure|your browser)\b|\bcomplete the (?:security )?(?:check|challenge)\b|\bhuman verification\b/i;
const CAPTCHA_TITLE = /^(?:just a moment|attention required)/i;
const PUSH_TEXT = /\bapprove (?:the |this )?(?:sign-?in|log-?in)(?: request)? (?:on|from) your\b|\bcheck your (?:phone|device) (?:to|and) (?:approve|confirm)\b|\bwe sent a (?:push )?notification to your\b|\bwaiting for (?:your )?approval\b/i;
const CODE_TEXT = /\b(?:enter|type) the (?:\d+-digit |six-digit |verification |security )?code\b|\bauthenticator app\b|\btwo-factor\b|\b2-step verification\b|\bone-time (?:pass)?code\b|\bverification code\b/i;
const EXPIRED_TEXT = /\bsession (?:has |was )?(?:expired|timed out|ended)\b|\bsigned out (?:due to|because of|after) inactivity\b|\bplease (?:sign|log) in again\b/i;
const AGE_TEXT = /\b(?:verify|confirm) your age\b|\bage verification\b|\bare you (?:over |at least )?(?:18|21)\b|\byou must be (?:at least )?(?:18|21)\b/i;
const CONSENT_TEXT = /\b(?:consent to|agree to (?:the|our) terms|accept (?:the|our) terms)\b/i;
const COOKIE_TEXT = /\bcookies?\b/i;
const SIGN_IN_TEXT = /\b(?:sign|log)[ -]?in\b|\blogin\b|\bauthenticat/i;
/** Statuses a server answers when the session is gone (419: Laravel's expired token, 440: IIS's login time-out). */
const SIGNED_OUT_STATUS = new Set([401, 419, 440]);
/** Query parameters a login wall puts the address to return to in. */
const RETURN_PARAM = /^(?:next|return_?to|returnurl|return|redirect(?:_?to|_?uri|url)?|continue|came_?from|goto|dest(?:ination)?|back_?url)$/i;
const LOGIN_PATH = /(?:^|[/_.-])(?:log-?in|sign-?in|auth(?:enticate)?|session|sso)(?:$|[/_.-])/i;

/**
 * @typedef {object} DetectContext
 * @property {string} [urlBefore] the tab's URL when the step began (absent: the run's first look)
 * @property {number[]} [writeStatuses] the statuses of the writes the step caused
 * @property {{ password: boolean, code: boolean }} [given] what the person already gave the run
 * @property {string[]} [dismissed] moments the person said were handled (kind + " " + URL): not asked again
 * @property {boolean} [asking] the person has the tab: does the page still ask? (any sign-in form counts)
 */

/**
 * @param {HandoffSignals | null | undefined} s @param {DetectContext} [ctx]
 * @returns {HandoffMoment | null}
 */
export function detectMoment(s, ctx = {}) {
  if (!s || typeof s.url !== 'string') return null;
  const m = challenge(s) ?? secondFactor(s, ctx) ?? signIn(s, ctx) ?? gate(s);
  if (!m || ctx.dismissed?.includes(`${m.kind} ${s.url}`)) return null;
  return m;
}

/** @param {HandoffSignals} s @returns {HandoffMoment | null} */
function challenge(s) {
  const frame = s.frames.find((f) => CAPTCHA_FRAME.test(f));
  const mark = s.marks.find((c) => CAPTCHA_MARK.test(c));
  const said = CAPTCHA_TEXT.test(lines(s)) || CAPTCHA_TITLE.test(s.title);
  if (!frame && !mark && !said) return null;
  return moment('captcha', s, [frame ? 'a challenge widget frame' : mark ? 'a challenge widget' : 'the page asks to verify a human']);
}

/** @param {HandoffSignals} s @param {DetectContext} ctx @returns {HandoffMoment | null} */
function secondFactor(s, ctx) {
  const text = lines(s);
  if (PUSH_TEXT.test(text)) return moment('second_factor', s, ['the page waits for an approval on another device'], 'push');
  if (ctx.given?.code && !ctx.asking) return null;
  if (s.otpFields > 0) return moment('second_factor', s, ['a one-time code field'], 'code');
  if (s.codeFields > 0 && CODE_TEXT.test(text)) return moment('second_factor', s, ['the page asks for a verification code'], 'code');
  return null;
}

/** @param {HandoffSignals} s @param {DetectContext} ctx @returns {HandoffMoment | null} */
function signIn(s, ctx) {
  const statusOut = s.status !== undefined && SIGNED_OUT_STATUS.has(s.status);
  const writeOut = (ctx.writeStatuses ?? []).some((st) => SIGNED_OUT_STATUS.has(st));
  // A sign-in form: a password field on a page that is about signing in (an account page that shows a password field is not one).
  const form = s.passwordFields > 0 && s.newPasswordFields === 0 && (isLoginUrl(s.url) || SIGN_IN_TEXT.test(`${s.title}\n${s.headings.join('\n')}`));
  const expiredText = EXPIRED_TEXT.test(lines(s));
  if (!form && !statusOut && !writeOut) return null;
  // The person gave the run their password ("if you are signed out, sign in with …"): the agent may sign in with it.
  if (ctx.given?.password && !ctx.asking) return null;
  const moved = ctx.urlBefore !== undefined && noHash(ctx.urlBefore) !== noHash(s.url);
  const wasInside = moved && sameSite(ctx.urlBefore ?? '', s.url) && !isLoginUrl(ctx.urlBefore ?? '');
  if (statusOut || writeOut || (form && (expiredText || wasInside))) {
    const why = statusOut ? `the page answered ${s.status}` : writeOut ? 'the site refused a change: signed out' : expiredText ? 'the page says the session ended' : 'the site sent the run to its sign-in page';
    return moment('session_expired', s, [why]);
  }
  if (form && (moved || hasReturnParam(s.url) || ctx.asking)) return moment('sign_in', s, [moved ? 'the step led to a sign-in form' : 'the site asks to sign in before it shows the page']);
  return null;
}

/** @param {HandoffSignals} s @returns {HandoffMoment | null} */
function gate(s) {
  const heads = s.headings.join('\n');
  if (AGE_TEXT.test(heads)) return moment('age_gate', s, ['the page asks for your age']);
  if (CONSENT_TEXT.test(heads) && !COOKIE_TEXT.test(heads)) return moment('consent', s, ['the page asks for your consent']);
  return null;
}

/** @param {HandoffKind} kind @param {HandoffSignals} s @param {string[]} evidence @param {'push' | 'code'} [factor] @returns {HandoffMoment} */
function moment(kind, s, evidence, factor) {
  return { kind, site: hostOf(s.url), url: s.url, evidence, ...(factor ? { factor } : {}) };
}

/** Headings and the text sample, for the patterns. @param {HandoffSignals} s */
function lines(s) { return `${s.headings.join('\n')}\n${s.text}`; }

/** @param {string} url */
function noHash(url) { return url.split('#')[0]; }

/** @param {string} url */
export function hostOf(url) { try { return new URL(url).host; } catch { return ''; } }

/** @param {string} a @param {string} b */
function sameSite(a, b) {
  const ha = hostOf(a), hb = hostOf(b);
  return ha !== '' && ha === hb;
}

/** A sign-in page by its address. @param {string} url */
export function isLoginUrl(url) {
  try { return LOGIN_PATH.test(new URL(url).pathname) || hasReturnParam(url); } catch { return false; }
}

/** The URL names where to go after signing in (next=, return_to=, …). @param {string} url */
function hasReturnParam(url) {
  try { return [...new URL(url).searchParams.keys()].some((k) => RETURN_PARAM.test(k)); } catch { return false; }
}

/** A password ("password hunter2", "pw: x") or a one-time code ("code 123456") in the person's words. */
const PASSWORD_GIVEN = /\b(?:password|passphrase|passcode|pw|pwd)\b(?:\s+is)?\s*[:=]?\s*(?:"[^"\s]{4,}"|'[^'\s]{4,}'|[^\s"',;]{4,})/i;
const CODE_GIVEN = /\b(?:code|otp|pin)\b(?:\s+is)?\s*[:=]?\s*(?:\d{4,8}\b|\[secret \d+\])/i;

/**
 * What the person gave the run in their own words: then the agent may sign in (or enter the code)
 * itself, and the sign-in form is not a moment for them.
 * @param {string} text @returns {{ password: boolean, code: boolean }}
 */
export function personCredentials(text) {
  const t = typeof text === 'string' ? text : '';
  const pw = PASSWORD_GIVEN.exec(t);
  // "the password I gave you earlier" names no password.
  const password = !!pw && !/\b(?:password|passphrase|passcode|pw|pwd)\b(?:\s+is)?\s*[:=]?\s*(?:i|you|we|that|the|my|your|from|for|to|and|of|in|is|it|field|box)\b/i.test(pw[0]);
  return { password, code: CODE_GIVEN.test(t) };
}
