// Runs in the page's own world (manifest "world": "MAIN", document_start) and does nothing until the
// isolated content script arms it for one synthetic action:
// - pointer capture: while a synthetic drag is armed with its pointerId, setPointerCapture(id) records
//   the capturing element and tells the isolated script (a "tabwright:pointer-capture" event on that
//   element) instead of asking the browser, which knows no such active pointer and would throw or
//   ignore it; hasPointerCapture and releasePointerCapture answer for it. content/drag.js then sends
//   the moves and the release to that element, as real capture would.
// - file choosers: while armed, a file input's click() or showPicker() opens no picker; the input is
//   told ("tabwright:file-chooser" on it) so upload_file can fill the input a styled button opens.
// Talks to the isolated world through DOM events only, so no extension API is exposed to the page.
(() => {
  const KEY = Symbol.for('tabwright.inputHooks');
  const g = /** @type {any} */ (globalThis);
  if (g[KEY]) return;
  g[KEY] = true;

  /** The synthetic pointer's id while a drag is armed; null otherwise. @type {number | null} */
  let pointerId = null;
  /** @type {Element | null} */
  let captured = null;
  let files = false;

  /** @param {EventTarget} el @param {string} type */
  const tell = (el, type) => el.dispatchEvent(new CustomEvent(type, { bubbles: true, composed: true }));
  const on = EventTarget.prototype.addEventListener;
  on.call(document, 'tabwright:input-hooks?', () => tell(document, 'tabwright:input-hooks!'));
  on.call(document, 'tabwright:capture-arm', (e) => { pointerId = Number(/** @type {CustomEvent} */ (e).detail); captured = null; });
  on.call(document, 'tabwright:capture-disarm', () => { pointerId = null; captured = null; });
  on.call(document, 'tabwright:files-arm', () => { files = true; });
  on.call(document, 'tabwright:files-disarm', () => { files = false; });

  const proto = Element.prototype;
  const { setPointerCapture, releasePointerCapture, hasPointerCapture } = proto;
  /** @param {unknown} id */
  const ours = (id) => pointerId !== null && Number(id) === pointerId;
  proto.setPointerCapture = function (/** @type {number} */ id) {
    if (!ours(id)) return setPointerCapture.call(this, id);
    captured = this;
    tell(this, 'tabwright:pointer-capture');
  };
  proto.releasePointerCapture = function (/** @type {number} */ id) {
    if (!ours(id)) return releasePointerCapture.call(this, id);
    if (captured === this) { captured = null; tell(this, 'tabwright:pointer-release'); }
  };
  proto.hasPointerCapture = function (/** @type {number} */ id) {
    return ours(id) ? captured === this : hasPointerCapture.call(this, id);
  };

  const input = HTMLInputElement.prototype;
  const { showPicker } = input;
  const click = HTMLElement.prototype.click;
  /** @param {unknown} el */
  const chooser = (el) => files && el instanceof HTMLInputElement && el.type === 'file';
  HTMLElement.prototype.click = function () {
    if (!chooser(this)) return click.call(this);
    tell(this, 'tabwright:file-chooser');
  };
  if (showPicker) {
    input.showPicker = function () {
      if (!chooser(this)) return showPicker.call(this);
      tell(this, 'tabwright:file-chooser');
    };
  }
})();
