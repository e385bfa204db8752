// The one place that says which paths differ between the two extension trees.
// Everything else under src/chrome is shared code, edited there and copied to src/firefox
// by scripts/sync.mjs; `npm run parity` fails when a copy has drifted.

/** Paths (relative to a tree root) that belong to one tree only. A trailing slash means a folder. */
export const TREE_SPECIFIC = [
  'manifest.json',
  'background.js',
  'background.html',
  'platform/',
  'cdp/',
  'offscreen/',
  'vendor/',
];

/** @param {string} rel a path relative to a tree root, with forward slashes */
export function isTreeSpecific(rel) {
  return TREE_SPECIFIC.some((p) => (p.endsWith('/') ? rel.startsWith(p) : rel === p));
}
