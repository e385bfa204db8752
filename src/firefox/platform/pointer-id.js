// The mouse's pointerId in this browser, which the synthetic pointer events of content/pointer.js
// carry so that a page's setPointerCapture(e.pointerId) names a real pointer. Joined into this
// tree's content script by npm run sync: the content layer never asks which browser it is in.
/** Firefox numbers the mouse 0. */
export const MOUSE_POINTER_ID = 0;
