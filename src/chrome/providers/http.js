// The one HTTP path every native provider shares: base URL joining, auth headers, a time-out on
// the response headers, and failures mapped to ProviderError values that name the provider.
import { ProviderError, httpError, networkError, providerTimeout, stopped } from './errors.js';

/**
 * @typedef {object} HttpOptions
 * @property {string} baseUrl
 * @property {string} label
 * @property {typeof fetch} fetch
 * @property {number} [timeoutMs]
 * @property {() => Record<string, string>} headers
 * @property {string} [query] appended to every URL, e.g. Azure's "api-version=…"
 */

/** @param {HttpOptions} opts */
export function createHttp(opts) {
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 90_000;

  /** @param {string} path */
  function url(path) {
    const full = `${baseUrl}${path}`;
    if (!opts.query) return full;
    return full + (full.includes('?') ? '&' : '?') + opts.query;
  }

  /**
   * @param {string} path
   * @param {{ method: string, body?: unknown }} init
   * @param {AbortSignal} [signal]
   * @returns {Promise<{ res: Response, abort: () => void }>}
   */
  async function send(path, init, signal) {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
    let res;
    try {
      res = await opts.fetch(url(path), {
        method: init.method,
        headers: opts.headers(),
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
        signal: combined,
      });
    } catch (err) {
      if (timeout.signal.aborted && !signal?.aborted) throw timeoutError();
      throw networkError(opts.label, err, signal);
    } finally {
      clearTimeout(timer);
    }
    if (!res.ok) throw httpError(opts.label, res.status, await res.text().catch(() => ''), res.headers);
    return { res, abort: () => timeout.abort() };
  }

  function timeoutError() {
    return providerTimeout(opts.label, timeoutMs, false);
  }

  /** @param {string} path @param {{ method: string, body?: unknown }} init @param {AbortSignal} [signal] */
  async function request(path, init, signal) {
    return (await send(path, init, signal)).res;
  }

  /**
   * POST and parse the streamed answer. The time-out applies again between events, so a server
   * that stalls mid-answer ends in TIMEOUT instead of hanging the run.
   * @template T
   * @param {string} path @param {unknown} body @param {AbortSignal | undefined} signal
   * @param {(stream: ReadableStream<Uint8Array>) => AsyncGenerator<T>} parse
   * @returns {AsyncGenerator<T>}
   */
  async function* stream(path, body, signal, parse) {
    const { res, abort } = await send(path, { method: 'POST', body }, signal);
    if (!res.body) throw new ProviderError('BAD_RESPONSE', `${opts.label} sent an empty response.`, { retryable: true });
    const events = parse(/** @type {ReadableStream<Uint8Array>} */ (res.body));
    try {
      while (true) {
        /** @type {ReturnType<typeof setTimeout> | undefined} */
        let timer;
        const stalled = new Promise((_resolve, reject) => { timer = setTimeout(() => reject(STALLED), timeoutMs); });
        /** @type {IteratorResult<T>} */
        let r;
        try {
          r = /** @type {IteratorResult<T>} */ (await Promise.race([events.next(), stalled]));
        } catch (err) {
          if (err === STALLED) {
            abort();
            throw providerTimeout(opts.label, timeoutMs, true);
          }
          if (err instanceof ProviderError) throw err;
          if (signal?.aborted) throw stopped();
          throw new ProviderError('STREAM_CUT', `The connection to ${opts.label} broke mid-answer. Try again.`, { retryable: true, detail: String(err) });
        } finally {
          clearTimeout(timer);
        }
        if (r.done) return;
        yield r.value;
      }
    } finally {
      // Stop the parser (releases the body) whether we finished, failed or the consumer stopped.
      events.return(undefined).catch(() => {});
    }
  }

  /** @param {string} path @param {AbortSignal} [signal] */
  async function getJSON(path, signal) {
    const res = await request(path, { method: 'GET' }, signal);
    return res.json();
  }

  return { request, stream, getJSON, baseUrl };
}

const STALLED = Symbol('stalled');

/** The stream ended without the format's end marker. @param {string} label @param {AbortSignal} [signal] */
export function incomplete(label, signal) {
  if (signal?.aborted) return stopped();
  return new ProviderError('STREAM_CUT', `${label} ended the answer before it was complete. Try again.`, { retryable: true });
}

/** @param {string} label @param {string} data */
export function badChunk(label, data) {
  return new ProviderError('BAD_RESPONSE', `${label} sent a stream chunk that is not JSON.`, { retryable: true, detail: data.slice(0, 200) });
}

/** @param {string} label @param {string} msg */
export function midStreamError(label, msg) {
  return new ProviderError('SERVER_ERROR', `${label} reported an error mid-stream: "${msg}". Try again.`, { retryable: true, detail: msg });
}

/** Lines of newline-delimited JSON (Ollama's stream). @param {ReadableStream<Uint8Array>} body */
export async function* readLines(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (line) yield line;
      }
    }
    if (buffer.trim()) yield buffer.trim();
  } finally {
    reader.releaseLock();
  }
}
