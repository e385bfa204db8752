// What a secret looks like, written once for the core and the content scripts (browser-free).
//
//   MASK                         '••••••': what every secret is replaced by, everywhere
//   isSecretAutocomplete(v)      an autocomplete token list naming a password, one-time code or card secret
//   isSecretName(s)              a field name or id that names one (password, otp, cvv, api key, token…)
//   looksLikeToken(s)            s contains a string that looks like an API key or token
//   findTokens(s)                the token-looking strings in s, in order
//   maskTokens(s)                s with every token-looking string replaced by MASK
//   TOKEN_RE, tokenAt(m, s)      the candidate pattern and the test of one candidate (findTokens tries
//                                TOKEN_RE only where a candidate can start)
//
// Tokens: provider keys by prefix (sk-…, sk_live_/sk_test_/rk_…, pk_live_, whsec_, ghp_/gho_/ghu_/ghs_/
// ghr_, github_pat_, xoxa-/xoxb-/xoxp-…, AKIA/ASIA + 16, AIza + 35, JWT eyJ….eyJ….…), the credential
// after "Bearer ", and two generic shapes: hex of 32+ characters with letters and digits, and
// base64url of 40+ characters with upper case, lower case and digits that changes class often (random,
// not CamelCase words or a kebab-case slug). Decided and tested (test/unit/secrets.test.js):
// - ordinary words, slugs, CamelCase identifiers, numbers and UUIDs are not tokens (a UUID is an id: an
//   order, a document; 36 characters with hyphens between short groups);
// - a generic (hex or base64url) string right after "/" is a URL path segment (a commit hash in a git
//   URL, a document id) and is not masked; in a query value (?key=…) or in text it is. A prefixed key
//   is masked wherever it stands;
// - a full commit hash shown as text (40 hex) is masked: it cannot be told from a hex API key;
// - a key in dash- or underscore-separated groups is masked (groupedAt: two groups mixing letters and
//   digits, or upper-case groups of one length); dashed words, dates, numbers and UUIDs are not.
//
// The content layer imports this module as it is (content/src/secrets.js): npm run sync joins it,
// with whatever it imports, into the content script every page loads.

const MASK = '••••••';

/** autocomplete tokens of secret fields (WHATWG autofill): passwords, one-time codes, card number, code, expiry */
const SECRET_AUTOCOMPLETE = /(?:^|\s)(?:current-password|new-password|one-time-code|cc-number|cc-csc|cc-exp(?:-month|-year)?)(?:\s|$)/i;

/**
 * Field names and ids of secrets, on words: camelCase and snake_case split first, so "userOtp" and
 * "card_pin" count and "footprint", "spin" or "passenger" do not.
 */
const SECRET_NAME = /(?:^|[^a-z])(?:pass(?!enger|port)|pwd|otp|one.?time|totp|2fa|mfa|cvv|cvc|csc|card.?num|ccnum|pin(?![a-z])|secret|api.?key|token)/;

/** @param {string | null | undefined} v an autocomplete attribute */
function isSecretAutocomplete(v) {
  return Boolean(v) && SECRET_AUTOCOMPLETE.test(/** @type {string} */ (v));
}

/** @param {string | null | undefined} s a field's name or id */
function isSecretName(s) {
  if (!s) return false;
  return SECRET_NAME.test(s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase());
}

/**
 * Candidates, checked one by one (tokenAt): 1 sk-…, 2 other prefixed keys and JWTs, 3 Slack, 4 a
 * generic run of 32+ base64url characters, 5 the credential after "Bearer ", 6 a key written in 4+
 * groups joined by one separator, "-" or "_" (7). The prefixed keys, the generic run and the groups
 * stand alone (no word character or hyphen either side).
 */
const TOKEN_RE = /(?<![A-Za-z0-9_-])(?:(sk-[A-Za-z0-9_-]{16,})|((?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|pk_live_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,}|(?:AKIA|ASIA)[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)|(xox[abposr]-[A-Za-z0-9-]{10,})|([A-Za-z0-9_-]{32,}))(?![A-Za-z0-9_-])|(?<=\b[Bb]earer\s{1,4})([A-Za-z0-9._~+/-]{20,}=*)|(?<![A-Za-z0-9_-])([A-Za-z0-9]{2,}([-_])(?:[A-Za-z0-9]{2,}\7){2,}[A-Za-z0-9]{2,})(?![A-Za-z0-9_-])/g;
/** TOKEN_RE tried at one position (its lookbehinds still see what comes before). */
const TOKEN_AT = new RegExp(TOKEN_RE.source, 'y');
/** Where candidate 5 can start: right after "Bearer" and its spaces. */
const BEARER = /\b[Bb]earer\s{1,4}/g;
/** The shortest run of key characters a candidate 1 to 4 starts with (a JWT's "eyJ" and 8). */
const MIN_RUN = 11;
/** Every candidate holds a run of at least this many key characters: shorter text has no token. */
const HINT_RUN = 16;

/** Letters and digits both. @param {string} s */
function lettersAndDigits(s) {
  return /[0-9]/.test(s) && /[A-Za-z]/.test(s);
}

/** Random-looking hex: 32+ characters, one case, letters and digits. @param {string} s */
function randomHex(s) {
  return s.length >= 32 && (/^[0-9a-f]+$/.test(s) || /^[0-9A-F]+$/.test(s)) && lettersAndDigits(s);
}

/**
 * Random-looking base64url: 40+ characters with upper, lower and digits, few separators, and a
 * character class (upper, lower, digit) that changes at least every third character on average
 * (random text changes about two times in three; CamelCase words about one in four).
 * @param {string} s
 */
function randomBase64(s) {
  if (s.length < 40 || !/[A-Z]/.test(s) || !/[a-z]/.test(s) || !/[0-9]/.test(s)) return false;
  let switches = 0, seps = 0, prev = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const k = c >= 48 && c <= 57 ? 0 : c >= 65 && c <= 90 ? 1 : c >= 97 && c <= 122 ? 2 : 3;
    if (k === 3) { seps++; continue; }
    if (prev !== -1 && k !== prev) switches++;
    prev = k;
  }
  return seps * 10 <= s.length && switches * 3 >= s.length;
}

/**
 * Whether the candidate match m of TOKEN_RE is a token.
 * @param {RegExpExecArray} m @param {string} s the searched string
 */
function tokenAt(m, s) {
  if (m[1]) {
    // sk-…: a key's body (not "sk-learn-…" words): 16 letters or digits in a row, or 12 with both.
    const body = m[1].slice(3);
    if (/[A-Za-z0-9]{16}/.test(body) || (lettersAndDigits(body) && /[A-Za-z0-9]{12}/.test(body))) return true;
    return (m[1].length >= 32 && genericAt(m[1], m.index, s)) || groupedAt(m[1], m.index, s);
  }
  if (m[2]) return true;
  if (m[3]) return /[0-9]/.test(m[3]);
  if (m[4]) return genericAt(m[4], m.index, s) || groupedAt(m[4], m.index, s);
  if (m[6]) return groupedAt(m[6], m.index, s);
  return lettersAndDigits(m[5]);
}

/**
 * A key written in groups ("sk-live-4f9a-82bc-19de-7f3a-c0ffee12", "ABCD-EFGH-IJKL-MNOP-QRST"): 4+
 * groups of 2+ letters or digits joined by one separator, 16+ of them in all, and either two groups
 * that mix letters and digits or groups of one length (4+) in upper case. Not a key: dashed words
 * and slugs (lower-case words), numbers (dates, phone and card numbers), a UUID (an identifier: 8-4-4-4-12
 * hex), and, like the generic shapes, a URL path segment.
 * @param {string} t @param {number} at @param {string} s
 */
function groupedAt(t, at, s) {
  if (at > 0 && s.charCodeAt(at - 1) === 47 /* / */) return false;
  const dash = t.includes('-'), under = t.includes('_');
  if (dash === under) return false;
  const groups = t.split(dash ? '-' : '_');
  if (groups.length < 4 || groups.some((g) => !/^[A-Za-z0-9]{2,}$/.test(g)) || groups.join('').length < 16) return false;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(t) || /^[0-9_-]+$/.test(t)) return false;
  if (groups.filter(lettersAndDigits).length >= 2) return true;
  const len = groups[0].length;
  return len >= 4 && groups.every((g) => g.length === len && /^[A-Z0-9]+$/.test(g));
}

/** A generic candidate: not a URL path segment, and random hex or base64url. @param {string} t @param {number} at @param {string} s */
function genericAt(t, at, s) {
  if (at > 0 && s.charCodeAt(at - 1) === 47 /* / */) return false;
  return randomHex(t) || randomBase64(t);
}

/** @param {string} s @returns {{ start: number, end: number, text: string }[]} the token-looking strings in s */
function findTokens(s) {
  /** @type {{ start: number, end: number, text: string }[]} */
  const out = [];
  if (!s || s.length < HINT_RUN) return out;
  const starts = candidateStarts(s);
  if (!starts) return out;
  let end = 0;
  for (const at of starts) {
    if (at < end) continue;
    TOKEN_AT.lastIndex = at;
    const m = TOKEN_AT.exec(s);
    if (!m) continue;
    end = at + m[0].length;
    if (tokenAt(m, s)) out.push({ start: at, end, text: m[0] });
  }
  return out;
}

/** A run of key characters as long as a candidate needs at least (MIN_RUN), then one as long as every candidate holds (HINT_RUN). */
const RUN = new RegExp(`[A-Za-z0-9_-]{${MIN_RUN},}`, 'g');
const HINT = new RegExp(`[A-Za-z0-9_-]{${HINT_RUN}}`);

/**
 * The positions where TOKEN_RE can match, in order, or null when no run of key characters is long
 * enough for any token. TOKEN_RE tried at every position of a long page outline cost as much as a
 * tenth of building it, and it can only match where a run of MIN_RUN or more starts, or right after
 * "Bearer " (test/unit/secrets.test.js compares both ways on random text). The runs are found by
 * the regular expression engine, not a loop over the char codes: a snapshot masks its whole text
 * (10,000 characters on a median page), and until the JIT has compiled such a loop, after several
 * snapshots, it cost more than the rest of the masking.
 * @param {string} s @returns {number[] | null}
 */
function candidateStarts(s) {
  if (!HINT.test(s)) return null;
  /** @type {number[]} */
  const at = [];
  RUN.lastIndex = 0;
  for (let m = RUN.exec(s); m; m = RUN.exec(s)) at.push(m.index);
  if (!s.includes('earer')) return at;
  BEARER.lastIndex = 0;
  const before = at.length;
  for (let m = BEARER.exec(s); m; m = BEARER.exec(s)) at.push(m.index + m[0].length);
  return at.length > before ? at.sort((a, b) => a - b) : at;
}

/** @param {string} s */
function looksLikeToken(s) {
  return findTokens(s).length > 0;
}

/** @param {string} s @returns {string} s with every token-looking string replaced by MASK */
function maskTokens(s) {
  const found = findTokens(s);
  if (!found.length) return s;
  let out = '', from = 0;
  for (const t of found) { out += s.slice(from, t.start) + MASK; from = t.end; }
  return out + s.slice(from);
}

export { MASK, SECRET_AUTOCOMPLETE, SECRET_NAME, TOKEN_RE, isSecretAutocomplete, isSecretName, tokenAt, findTokens, looksLikeToken, maskTokens };
