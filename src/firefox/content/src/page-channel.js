// The private channel between the content scripts and their helpers in the page's own world
// (listener-tracker.js, page-hooks.js). Those talk through DOM events, which a page can send and
// listen to as well: so every event name carries a random key, handed over at document_start,
// before any script of the page has run (the main-world helpers are declared first in the
// manifests and listen once for it). A page never sees the key, so it can neither listen in nor
// fake a dialog, a console dump or a listener note, nor steer the dialog policy.
// Isolated world, document_start.
import { tw } from './tabwright.js';

const bytes = crypto.getRandomValues(new Uint8Array(12));
const key = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
// The hand-over: the main-world helpers adopt the first key they hear, then stop listening.
document.dispatchEvent(new CustomEvent('tabwright:key', { detail: key }));
/** An event name on the channel. @param {string} kind */
const name = (kind) => `tabwright-${key}:${kind}`;
tw.pageChannel = { name };
