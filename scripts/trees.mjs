// The one place that says which paths differ between the two extension trees.
// Everything else under src/chrome is shared code, edited there and copied to src/firefox
// by scripts/sync.mjs; `npm run parity` fails when a copy has drifted.
import { CONTENT_SCRIPTS } from './content-join.mjs';

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

/**
 * The classic content scripts the manifests load, which npm run sync joins in each tree from that
 * tree's modules (content/src/ and its platform/): made per tree, never copied.
 */
export const JOINED = CONTENT_SCRIPTS.map((s) => s.out);

/** @param {string} rel a path relative to a tree root, with forward slashes */
export function isTreeSpecific(rel) {
  return JOINED.includes(rel) || TREE_SPECIFIC.some((p) => (p.endsWith('/') ? rel.startsWith(p) : rel === p));
}
