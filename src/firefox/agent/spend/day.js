// The day a daily budget counts: the calendar day in the browser's local time, so the budget turns
// over at the person's midnight, not UTC's. Browser-free (the clock is passed in).

/** The local calendar day of an instant, as YYYY-MM-DD. @param {number} ms */
export function localDay(ms) {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
