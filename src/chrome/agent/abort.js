// Abort that is prompt even when the awaited work ignores the signal (a content script that never
// answers, a provider stream stuck between chunks): the run stops within a second, whatever it waits on.

export class AbortedError extends Error {
  constructor() { super('The run was stopped.'); this.name = 'AbortedError'; }
}

/**
 * @template T
 * @param {Promise<T>} promise
 * @param {AbortSignal} [signal]
 * @returns {Promise<T>}
 */
export function raceAbort(promise, signal) {
  if (!signal) return promise;
  if (signal.aborted) { promise.catch(() => {}); return Promise.reject(new AbortedError()); }
  return new Promise((resolve, reject) => {
    const onAbort = () => { promise.catch(() => {}); reject(new AbortedError()); };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => { signal.removeEventListener('abort', onAbort); resolve(v); },
      (e) => { signal.removeEventListener('abort', onAbort); reject(e); },
    );
  });
}

/**
 * The promise's value, or the fallback after ms: for a question whose answer helps but must never
 * hold the run up (a page that does not answer).
 * @template T, F
 * @param {Promise<T>} promise @param {number} ms @param {F} fallback
 * @returns {Promise<T | F>}
 */
export function withTimeout(promise, ms, fallback) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve(fallback), ms); });
  return /** @type {Promise<T | F>} */ (Promise.race([promise.catch(() => fallback), late]).finally(() => clearTimeout(timer)));
}
