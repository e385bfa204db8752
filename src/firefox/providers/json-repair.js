// JSON as models write it: strict first; then, only when that fails, the fixes that cannot change
// meaning (single quotes, trailing commas, unquoted keys, Python literals, brackets left open at the
// end). Used for native tool calls' slightly malformed arguments and for calls found in text.

/**
 * Strict JSON first; then, only if that fails, fixes that cannot change meaning: single-quoted
 * strings, trailing commas, unquoted keys, Python literals, and missing closing brackets at the end.
 * @param {string} raw
 * @returns {{ ok: true, value: unknown, repaired: boolean } | { ok: false, error: string }}
 */
export function repairJSON(raw) {
  const text = stripFence(raw.trim());
  try { return { ok: true, value: JSON.parse(text), repaired: text !== raw.trim() }; } catch (err) {
    const fixed = closeBrackets(requote(text)
      .replace(/,\s*([}\]])/g, '$1')
      .replace(/([{,]\s*)([A-Za-z_][\w-]*)\s*:/g, '$1"$2":')
      .replace(/:\s*True\b/g, ': true').replace(/:\s*False\b/g, ': false').replace(/:\s*None\b/g, ': null'));
    try { return { ok: true, value: JSON.parse(fixed), repaired: true }; } catch {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  }
}

/** @param {string} s */
function stripFence(s) {
  const m = /^```[\w-]*\s*\n?([\s\S]*?)\n?```$/.exec(s);
  return m ? m[1].trim() : s;
}

/** Single-quoted strings → double-quoted, outside double-quoted strings. @param {string} s */
function requote(s) {
  let out = '';
  /** @type {string | null} */
  let quote = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === '\\') { out += c + (s[i + 1] ?? ''); i++; continue; }
      if (c === quote) { quote = null; out += '"'; continue; }
      out += quote === "'" && c === '"' ? '\\"' : c;
      continue;
    }
    if (c === '"' || c === "'") { quote = c; out += '"'; continue; }
    out += c;
  }
  return out;
}

/** Append the closers of brackets left open at the end of the text. @param {string} s */
function closeBrackets(s) {
  const stack = [];
  let inStr = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inStr) { if (c === '\\') i++; else if (c === '"') inStr = false; continue; }
    if (c === '"') inStr = true;
    else if (c === '{') stack.push('}');
    else if (c === '[') stack.push(']');
    else if (c === '}' || c === ']') stack.pop();
  }
  return inStr ? s : s + stack.reverse().join('');
}
