// Provider failures as values the user and the loop can act on: a code, the provider's name,
// and a sentence saying what to do next.

/** @typedef {'AUTH_FAILED'|'RATE_LIMITED'|'SERVER_ERROR'|'NETWORK_ERROR'|'TIMEOUT'|'BAD_REQUEST'|'NOT_FOUND'|'CONTEXT_OVERFLOW'|'STREAM_CUT'|'ABORTED'|'BAD_RESPONSE'} ProviderErrorCode */

export class ProviderError extends Error {
  /**
   * @param {ProviderErrorCode} code
   * @param {string} message a sentence for the user, naming the provider and what to fix
   * @param {{ status?: number, retryable?: boolean, retryAfterMs?: number, detail?: string }} [extra]
   */
  constructor(code, message, extra = {}) {
    super(message);
    this.name = 'ProviderError';
    this.code = code;
    this.status = extra.status;
    this.retryable = extra.retryable ?? false;
    this.retryAfterMs = extra.retryAfterMs;
    this.detail = extra.detail;
  }
}

/**
 * Map an HTTP failure to a ProviderError.
 * @param {string} label provider label, e.g. "OpenAI-compatible (http://localhost:11434/v1)"
 * @param {number} status
 * @param {string} bodyText the response body, for the server's own explanation
 * @param {Headers} [headers]
 */
export function httpError(label, status, bodyText, headers) {
  const detail = extractServerMessage(bodyText);
  const said = detail ? ` The server said: "${detail}".` : '';
  // Gemini answers a bad key with 400 INVALID_ARGUMENT and reason API_KEY_INVALID, not 401.
  // https://ai.google.dev/gemini-api/docs/troubleshooting
  if (status === 401 || status === 403 || (status === 400 && /API_KEY_INVALID|API key not valid/.test(bodyText))) {
    return new ProviderError('AUTH_FAILED',
      `${label} refused the request (${status}).${said} Open Settings → Provider and check the API key.`,
      { status, detail });
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(headers?.get('retry-after') ?? null);
    return new ProviderError('RATE_LIMITED',
      `${label} is rate-limiting requests (429).${said} Wait a moment and try again, or choose another model.`,
      { status, retryable: true, retryAfterMs, detail });
  }
  if (status === 404) {
    return new ProviderError('NOT_FOUND',
      `${label} answered 404.${said} Check the base URL and the model name in Settings → Provider.`,
      { status, detail });
  }
  if (status === 400 && /context|too long|maximum.*tokens|token limit/i.test(detail)) {
    return new ProviderError('CONTEXT_OVERFLOW',
      `${label} says the conversation is too long for the model's context window.${said}`,
      { status, detail });
  }
  if (status >= 500) {
    return new ProviderError('SERVER_ERROR',
      `${label} had a server error (${status}).${said} Try again in a moment.`,
      { status, retryable: true, detail });
  }
  return new ProviderError('BAD_REQUEST', `${label} rejected the request (${status}).${said}`, { status, detail });
}

/** @param {string} bodyText */
function extractServerMessage(bodyText) {
  if (!bodyText) return '';
  try {
    const body = JSON.parse(bodyText);
    const m = body?.error?.message ?? body?.message ?? body?.error;
    if (typeof m === 'string') return m.slice(0, 300);
  } catch { /* not JSON */ }
  return bodyText.slice(0, 300).trim();
}

/** @param {string|null} value seconds or an HTTP date */
export function parseRetryAfter(value) {
  if (!value) return undefined;
  const secs = Number(value);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/**
 * A fetch that failed before any response: network down, refused, or aborted.
 * @param {string} label
 * @param {unknown} err
 * @param {AbortSignal} [signal]
 */
export function networkError(label, err, signal) {
  if (signal?.aborted) return new ProviderError('ABORTED', 'The run was stopped.');
  const why = err instanceof Error ? err.message : String(err);
  return new ProviderError('NETWORK_ERROR',
    `Could not reach ${label} (${why}). Check that the server is running and the base URL in Settings → Provider is right.`,
    { retryable: true, detail: why });
}

/** The run was stopped while the provider was asked or answering. */
export function stopped() {
  return new ProviderError('ABORTED', 'The run was stopped.');
}

/** The browser's built-in model is missing: this browser has none, or not on this device. @param {string} label @param {boolean} browserHasIt */
export function builtinMissing(label, browserHasIt) {
  return new ProviderError('NOT_FOUND', browserHasIt
    ? `${label} is not supported on this device. Choose another provider in Settings → Provider.`
    : `${label} is not available in this browser. Choose another provider in Settings → Provider (Chrome 138+ on a supported device has it; Firefox does not).`);
}

/**
 * The provider went quiet: no answer at all, or a stream that stopped mid-answer, for the time-out.
 * @param {string} label @param {number} timeoutMs @param {boolean} midAnswer
 */
export function providerTimeout(label, timeoutMs, midAnswer) {
  const what = midAnswer ? `stopped sending mid-answer for ${Math.round(timeoutMs / 1000)} s` : `did not answer within ${Math.round(timeoutMs / 1000)} s`;
  return new ProviderError('TIMEOUT', `${label} ${what}. Try again, or raise the time-out in Settings → Provider.`, { retryable: true });
}
