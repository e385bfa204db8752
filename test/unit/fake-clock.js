// A manual clock for debounce tests: timers fire only when the test advances time.
export function fakeClock() {
  let now = 0;
  let seq = 0;
  /** @type {Map<number, { at: number, fn: () => void }>} */
  const timers = new Map();
  return {
    now: () => now,
    /** @param {() => void} fn @param {number} ms */
    setTimeout(fn, ms) { const id = ++seq; timers.set(id, { at: now + ms, fn }); return id; },
    /** @param {any} id */
    clearTimeout(id) { timers.delete(id); },
    /** Advance time, firing due timers in order. @param {number} ms */
    async tick(ms) {
      now += ms;
      for (const [id, t] of [...timers.entries()].sort((a, b) => a[1].at - b[1].at)) {
        if (t.at <= now) { timers.delete(id); t.fn(); }
      }
      await new Promise((r) => setTimeout(r, 0));
    },
    pending: () => timers.size,
  };
}
