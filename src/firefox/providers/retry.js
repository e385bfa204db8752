// Bounded retries around a provider's stream: 429 waits for Retry-After (or backs off), 5xx,
// network errors and streams cut before anything arrived are retried with exponential backoff; a
// time-out once at most (each attempt already waited the whole time-out). Each wait is reported (onWaiting) so the panel shows "waiting" rather than a hang.
// A stream that breaks after events were already passed on is not retried here: the loop has
// seen part of the answer, so the error goes up and the loop keeps the conversation unchanged.
/** @import { Provider } from '../types/core' */
import { ProviderError, stopped } from './errors.js';

/**
 * @typedef {object} Clock
 * @property {(ms: number, signal?: AbortSignal) => Promise<void>} sleep
 */

/**
 * @typedef {object} RetryOptions
 * @property {Clock} [clock] injected; tests pass a fake that records waits
 * @property {number} [maxRetries] retries after the first attempt (default 3)
 * @property {number} [baseDelayMs] first backoff (default 1000), doubled each attempt
 * @property {number} [maxDelayMs] longest wait honoured, Retry-After included (default 60000)
 * @property {(w: { ms: number, attempt: number, reason: string, message: string }) => void} [onWaiting]
 */

/** @type {Clock} */
export const realClock = {
  sleep: (ms, signal) => new Promise((resolve, reject) => {
    if (signal?.aborted) { reject(stopped()); return; }
    const t = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    const onAbort = () => { clearTimeout(t); reject(stopped()); };
    signal?.addEventListener('abort', onAbort, { once: true });
  }),
};

/**
 * @param {Provider} inner
 * @param {RetryOptions} [opts]
 * @returns {Provider}
 */
export function withRetries(inner, opts = {}) {
  const clock = opts.clock ?? realClock;
  const maxRetries = opts.maxRetries ?? 3;
  const base = opts.baseDelayMs ?? 1000;
  const cap = opts.maxDelayMs ?? 60_000;

  return {
    ...inner,
    async *chatStream(req) {
      for (let attempt = 0; ; attempt++) {
        let yielded = false;
        try {
          for await (const ev of inner.chatStream(req)) {
            yielded = true;
            yield ev;
          }
          return;
        } catch (err) {
          // A time-out is retried once at most: each attempt already waited the whole time-out.
          const limit = err instanceof ProviderError && err.code === 'TIMEOUT' ? Math.min(1, maxRetries) : maxRetries;
          if (!(err instanceof ProviderError) || !err.retryable || yielded || attempt >= limit || req.signal?.aborted) {
            if (err instanceof ProviderError && err.retryable && attempt > 0 && !yielded) {
              throw new ProviderError(err.code, `${err.message} (Gave up after ${attempt + 1} attempts.)`, { status: err.status, detail: err.detail });
            }
            throw err;
          }
          const backoff = Math.min(cap, base * 2 ** attempt);
          const ms = Math.min(cap, err.retryAfterMs ?? backoff);
          const reason = err.code;
          const secs = Math.max(1, Math.round(ms / 1000));
          const why = reason === 'RATE_LIMITED' ? 'is rate-limiting requests' : reason === 'SERVER_ERROR' ? 'had a server error' : 'could not be reached';
          // The time-out in force is in the provider's own sentence ("did not answer within 90 s").
          const message = reason === 'TIMEOUT'
            ? `${err.message.replace(/\. Try again.*$/s, '')}; waiting ${secs} s, then trying once more (the time-out is set in Settings → Provider).`
            : `${inner.label} ${why}; waiting ${secs} s before retry ${attempt + 1} of ${limit}.`;
          opts.onWaiting?.({ ms, attempt: attempt + 1, reason, message });
          await clock.sleep(ms, req.signal);
        }
      }
    },
    chat: inner.chat,
  };
}
