// Form widgets that need more than a click or keystrokes: setting a value outright (date, range,
// fields that fight keystrokes), native selects (several options in a <select multiple>) and ARIA
// comboboxes/listboxes, checkboxes and radios, and file inputs (found from their label or the styled
// button that opens them) filled through DataTransfer. Drags are in content/drag.js, scrolling in
// content/scroll.js.
import { tw } from './tabwright.js';
import * as Dom from './dom.js';
import * as Drag from './drag.js';
import * as Input from './input.js';
import * as Keys from './keys.js';
import * as Pointer from './pointer.js';
import * as Roles from './roles.js';
import * as Secrets from './secrets.js';
import { fail } from '../../agent/error-codes.js';

/** @typedef {import('../../types/core').ToolResult} ToolResult */
/** @typedef {import('../../types/core').ToolErr} ToolErr */
/** @typedef {import('../../types/core').ActionTarget} ActionTarget */
const nextFrame = () => Input.nextFrame();
/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** @param {Element} el @param {string} type */
function fire(el, type) { el.dispatchEvent(new Event(type, { bubbles: true, composed: true })); }

/**
 * Set a field's value in one step: the native setter plus input and change, which React's value
 * tracker and Vue's v-model both accept. For date, range, color and fields whose key handlers mangle typing.
 * @param {Element} el @param {string} value @returns {ToolResult}
 */
function setField(el, value) {
  if (el instanceof HTMLSelectElement) return selectNative(el, { value });
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    if (el.readOnly) return fail('READ_ONLY', Input.describe(el));
    el.focus({ preventScroll: true });
    Keys.setNativeValue(el, value);
    el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertReplacementText', data: value }));
    fire(el, 'change');
    // A date or number input silently rejects a malformed value; say so instead of pretending.
    if (el.value !== value && !(el instanceof HTMLInputElement && el.type === 'range')) {
      const secret = Secrets.isSecretField(el);
      const form = el instanceof HTMLInputElement && el.type === 'date' ? 'dates use the form YYYY-MM-DD' : 'check the expected format';
      return fail('VALUE_REJECTED', `${Input.describe(el)} did not accept ${secret ? 'the value' : `"${value}"`}, and now holds "${Keys.fieldValue(el)}"; ${form}`);
    }
    el.blur();
    return { ok: true, data: { value: Keys.fieldValue(el) } };
  }
  if (el instanceof HTMLElement && el.isContentEditable) {
    Keys.focusField(el, true);
    Keys.insertText(el, value);
    return { ok: true, data: { value: Keys.fieldValue(el) } };
  }
  return fail('NOT_EDITABLE', `${Input.describe(el)} is not a field`);
}

/** @typedef {{ label?: string, value?: string, index?: number }} Want */
/** @typedef {Want & { labels?: string[], values?: string[] }} WantMany */
/** @param {string | null | undefined} s */
const norm = (s) => Dom.clean(s).toLowerCase();

/**
 * The one option a wish names: by index, by value, or by label, where an exact label beats partial
 * ones and a part that matches several options (and no option exactly) is refused, naming them.
 * @param {{ label: string, value: string }[]} options @param {Want} want @param {string} where
 * @returns {{ i: number } | ToolErr}
 */
function pickOption(options, want, where) {
  const none = () => fail('NO_SUCH_OPTION', `${where} has no option ${JSON.stringify(want)}; its options: ${options.slice(0, 30).map((o) => JSON.stringify(Dom.clean(o.label))).join(', ')}`);
  if (typeof want.index === 'number') return want.index < options.length ? { i: want.index } : none();
  if (want.value !== undefined) {
    const i = options.findIndex((o) => o.value === want.value);
    if (i >= 0 || want.label === undefined) return i >= 0 ? { i } : none();
  }
  if (want.label === undefined) return none();
  const w = norm(want.label);
  const exact = options.map((o, i) => ({ o, i })).filter(({ o }) => norm(o.label) === w);
  // Two options that read the same (a "Springfield" per state) are told apart by value or index,
  // never by taking the first: the wrong one would be chosen silently.
  if (exact.length > 1) return fail('AMBIGUOUS_OPTION', `${exact.length} options of ${where} read "${want.label}": ${exact.slice(0, 20).map(({ o, i }) => `index ${i}${o.value !== undefined ? ` value ${JSON.stringify(o.value)}` : ''}`).join('; ')}`);
  if (exact.length) return { i: exact[0].i };
  // A partial label is how people name options ("Norway" for "Norway (+47)"), when only one fits.
  const partial = options.map((o, i) => ({ o, i })).filter(({ o }) => norm(o.label).includes(w));
  if (partial.length === 1) return { i: partial[0].i };
  if (partial.length > 1) return fail('AMBIGUOUS_OPTION', `"${want.label}" matches several options of ${where}: ${partial.slice(0, 20).map(({ o }) => JSON.stringify(Dom.clean(o.label))).join(', ')}`);
  return none();
}

/** The single wishes a request names, one per label or value. @param {WantMany} want @returns {Want[]} */
function wishes(want) {
  if (want.labels?.length || want.values?.length) return [...(want.labels ?? []).map((label) => ({ label })), ...(want.values ?? []).map((value) => ({ value }))];
  return [{ label: want.label, value: want.value, index: want.index }];
}

/**
 * A native select: the option (or, in a <select multiple>, the options: they replace the selection)
 * chosen, then one input and one change event, as a user's choice fires.
 * @param {HTMLSelectElement} sel @param {WantMany} want @returns {ToolResult}
 */
function selectNative(sel, want) {
  const opts = [...sel.options];
  const items = opts.map((o) => ({ label: o.label || o.text, value: o.value }));
  const all = wishes(want);
  if (all.length > 1 && !sel.multiple) return fail('INVALID_ARGUMENTS', `${Input.describe(sel)} takes one option and ${all.length} were given: give one label or value`);
  /** @type {Set<number>} */
  const chosen = new Set();
  for (const w of all) {
    const r = pickOption(items, w, Input.describe(sel));
    if (!('i' in r)) return r;
    if (opts[r.i].disabled) return fail('DISABLED', `the option "${Dom.clean(opts[r.i].text)}"`);
    chosen.add(r.i);
  }
  sel.focus({ preventScroll: true });
  if (sel.multiple) {
    const changed = opts.some((o, i) => o.selected !== chosen.has(i));
    opts.forEach((o, i) => { o.selected = chosen.has(i); });
    if (changed) { fire(sel, 'input'); fire(sel, 'change'); }
    const picked = opts.filter((o) => o.selected);
    return { ok: true, data: { selected: picked.map((o) => Dom.clean(o.text)), values: picked.map((o) => o.value), changed } };
  }
  const i = [...chosen][0];
  Keys.setNativeValue(sel, opts[i].value);
  sel.selectedIndex = i;
  fire(sel, 'input');
  fire(sel, 'change');
  return { ok: true, data: { selected: Dom.clean(opts[i].text), value: opts[i].value } };
}

/** An ARIA option's label and value. @param {Element} o */
const ariaItem = (o) => ({ label: o.getAttribute('aria-label') || /** @type {HTMLElement} */ (o).innerText || o.textContent || '', value: o.getAttribute('data-value') ?? o.getAttribute('value') ?? '' });

/** The listbox a combobox controls (aria-controls / aria-owns / a listbox inside or next to it). @param {Element} combo */
function listboxOf(combo) {
  const ids = (combo.getAttribute('aria-controls') || combo.getAttribute('aria-owns') || '').split(/\s+/).filter(Boolean);
  for (const id of ids) {
    const el = (combo.getRootNode() instanceof ShadowRoot ? /** @type {ShadowRoot} */ (combo.getRootNode()).getElementById(id) : null) ?? document.getElementById(id);
    if (el) return el.matches('[role=listbox],[role=tree],[role=grid],[role=menu]') ? el : el.querySelector('[role=listbox]') ?? el;
  }
  return combo.querySelector('[role=listbox]') ?? combo.parentElement?.querySelector('[role=listbox]') ?? null;
}

/** @param {Element | null} list */
function visibleOptions(list) {
  const scope = list ?? document;
  return [...scope.querySelectorAll('[role=option],[role=menuitem],[role=treeitem]')].filter((o) => Dom.visibleBox(o));
}

/**
 * An ARIA combobox: open it (click, or type the label to filter when it is an editable box), wait for
 * the options (they often load asynchronously), click the matching one. Per the ARIA 1.2 combobox pattern.
 * @param {Element} combo @param {Want} want @returns {Promise<ToolResult>}
 */
async function selectAria(combo, want) {
  const editable = combo instanceof HTMLInputElement || combo instanceof HTMLTextAreaElement;
  const box = combo.getBoundingClientRect();
  const point = { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  if (editable && want.label) {
    Keys.focusField(combo, true);
    const r = await Keys.typeSynthetic(combo, want.label, false);
    if (!r.ok) return r;
  } else if (combo.getAttribute('aria-expanded') !== 'true' || !visibleOptions(listboxOf(combo)).length) {
    Pointer.syntheticClick(combo, point, {});
  }
  const deadline = performance.now() + 5000;
  for (;;) {
    const list = listboxOf(combo);
    const options = visibleOptions(list);
    // Options load and filter asynchronously: an ambiguous label may narrow down; it is refused at the deadline.
    const r = options.length ? pickOption(options.map(ariaItem), want, Input.describe(combo)) : null;
    const pick = r && 'i' in r ? options[r.i] : undefined;
    if (pick) {
      if (pick.getAttribute('aria-disabled') === 'true') return fail('DISABLED', `the option "${Dom.clean(pick.textContent)}"`);
      pick.scrollIntoView({ block: 'nearest', behavior: 'instant' });
      const b = pick.getBoundingClientRect();
      Pointer.syntheticClick(pick, { x: b.left + b.width / 2, y: b.top + b.height / 2 }, {});
      await nextFrame();
      return { ok: true, data: { selected: Dom.clean(/** @type {HTMLElement} */ (pick).innerText || pick.textContent), value: Keys.fieldValue(combo) || undefined } };
    }
    if (performance.now() > deadline) {
      if (r && !('i' in r) && r.code === 'AMBIGUOUS_OPTION') return r;
      return fail('NO_SUCH_OPTION', `no option ${JSON.stringify(want)} appeared within 5 s; visible options: ${options.slice(0, 20).map((o) => JSON.stringify(Dom.clean(o.textContent))).join(', ') || 'none'}`);
    }
    await sleep(50);
  }
}

/** @param {Element} el */
function checkedState(el) {
  if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) return el.checked;
  const aria = el.getAttribute('aria-checked') ?? el.getAttribute('aria-pressed') ?? el.getAttribute('aria-selected');
  return aria === 'true';
}

/**
 * @param {ActionTarget} target @param {boolean} want
 * @returns {Promise<ToolResult>}
 */
async function setChecked(target, want) {
  const found = Input.find(target);
  if (!('el' in found)) return found;
  let el = found.el;
  // A label names a checkbox; checking the label means checking its control.
  if (el instanceof HTMLLabelElement && el.control) el = el.control;
  // Styled checkboxes hide the real input (display:none, opacity 0, 1 px) and draw the label: click the label.
  /** @type {ActionTarget} */
  let clickAt = target;
  if (el instanceof HTMLInputElement && el.labels?.length) {
    const r = await Input.prepare(target, { allowDisabled: false });
    const label = [...el.labels].find((l) => Dom.visibleBox(l));
    if (!('el' in r) && r.code !== 'DISABLED' && label) clickAt = { selector: Input.mark(label) };
    else if (!('el' in r)) return r;
  } else {
    const r = await Input.prepare(target);
    if (!('el' in r)) return r;
  }
  const isBox = (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) || el.matches('[role=checkbox],[role=radio],[role=switch],[role=menuitemcheckbox],[role=menuitemradio],[aria-pressed]');
  if (!isBox) return fail('NOT_CHECKABLE', target.ref ?? Input.describe(el));
  if (checkedState(el) === want) return { ok: true, data: { checked: want, changed: false } };
  if (!want && el instanceof HTMLInputElement && el.type === 'radio') return fail('NOT_CHECKABLE', 'a radio button is unchecked by checking another one in its group');
  return { ok: true, data: { needsClick: true, clickAt } };
}

/** @param {ActionTarget} target */
async function checkedOf(target) {
  const f = Input.find(target);
  if (!('el' in f)) return f;
  let el = f.el;
  if (el instanceof HTMLLabelElement && el.control) el = el.control;
  return { ok: true, data: checkedState(el) };
}

/** @typedef {{ name: string, content?: string, base64?: string, mimeType?: string }} GivenFile */

/**
 * Where a drag's objects are made. Firefox hides from the page the files a content script put in
 * a DataTransfer (each item keeps the principal that added it, and the page's does not cover the
 * extension's: the page saw two items and no files), so there the transfer and the event are the
 * page's own, made through Xray vision. Elsewhere the content script's own constructors serve.
 */
const G = /** @type {any} */ (globalThis);
const pageSide = G.wrappedJSObject && typeof G.cloneInto === 'function'
  ? { win: G.wrappedJSObject, into: (/** @type {any} */ v) => G.cloneInto(v, window, { wrapReflectors: true }) }
  : null;

/** The files given as content, in a DataTransfer (what a chooser or a drag carries). @param {GivenFile[]} files @param {boolean} [forPage] made on the page's side, for a drop */
function transferOf(files, forPage = false) {
  const side = forPage && pageSide ? pageSide : { win: G, into: (/** @type {any} */ v) => v };
  const dt = new side.win.DataTransfer();
  for (const f of files) {
    const bytes = f.base64 !== undefined ? Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0)) : new TextEncoder().encode(f.content ?? '');
    dt.items.add(new side.win.File(side.into([bytes]), f.name, side.into({ type: f.mimeType ?? 'application/octet-stream' })));
  }
  return /** @type {DataTransfer} */ (dt);
}

/**
 * A drag of files from outside the page arriving over el: dragenter, then dragover, which a drop
 * target cancels (HTML's drag-and-drop model: "to accept a drop, the drop target has to listen to
 * dragover and cancel it"). Whether it did, and where.
 * @param {Element} el @param {DataTransfer} dt
 */
function dragOver(el, dt) {
  const b = el.getBoundingClientRect();
  const at = { clientX: b.left + b.width / 2, clientY: b.top + b.height / 2 };
  const side = pageSide ?? { win: G, into: (/** @type {any} */ v) => v };
  const fire = (/** @type {string} */ type) => el.dispatchEvent(new side.win.DragEvent(type, side.into({ bubbles: true, cancelable: true, composed: true, dataTransfer: dt, ...at })));
  fire('dragenter');
  const accepted = !fire('dragover');
  return { accepted, fire };
}

/**
 * Files dropped on a drop zone that has no file input (logos, attachments, imports): the drop
 * events a person's drag from the desktop fires, carrying the files. Null when el is no drop target.
 * @param {Element} el @param {GivenFile[]} files @returns {ToolResult | null}
 */
function dropFiles(el, files) {
  const dt = transferOf(files, true);
  dt.dropEffect = 'copy';
  const { accepted, fire } = dragOver(el, dt);
  if (!accepted) { fire('dragleave'); return null; }
  fire('drop');
  return { ok: true, data: { dropped: Input.describe(el), files: [...dt.files].map((f) => ({ name: f.name, size: f.size })) } };
}

/** Whether el takes a drop of files (its dragover is cancelled), without dropping anything. @param {Element} el */
function takesDrop(el) {
  const dt = transferOf([{ name: 'probe', content: '' }], true);
  const { accepted, fire } = dragOver(el, dt);
  fire('dragleave');
  return accepted;
}

/**
 * Files given as content (name, text or base64) set on a file input through DataTransfer, then input
 * and change, which is what a user's choice fires.
 * @param {Element} el @param {{ name: string, content?: string, base64?: string, mimeType?: string }[]} files @returns {ToolResult}
 */
function setFiles(el, files) {
  if (!(el instanceof HTMLInputElement) || el.type !== 'file') return fail('NOT_FILE_INPUT', Input.describe(el));
  const dt = transferOf(files);
  if (!el.multiple && dt.files.length > 1) return fail('INVALID_ARGUMENTS', `${Input.describe(el)} takes one file; ${dt.files.length} were given`);
  el.files = dt.files;
  fire(el, 'input');
  fire(el, 'change');
  return { ok: true, data: { files: [...el.files].map((f) => ({ name: f.name, size: f.size })) } };
}

/** @param {Element} el */
const isFileInput = (el) => el instanceof HTMLInputElement && el.type === 'file';

/** The file inputs in and under el, through shadow roots. @param {Element} el */
const fileInputsIn = (el) => [...Dom.deepElements(el)].filter(isFileInput);

/** The file input an element plainly names: itself, its label's control, the one inside it. @param {Element} el @returns {HTMLInputElement | null} */
function namedFileInput(el) {
  if (isFileInput(el)) return /** @type {HTMLInputElement} */ (el);
  const label = el.closest('label');
  if (label?.control && isFileInput(label.control)) return /** @type {HTMLInputElement} */ (label.control);
  const inside = fileInputsIn(el);
  return inside.length === 1 ? /** @type {HTMLInputElement} */ (inside[0]) : null;
}

/**
 * The file input a styled button opens from script (input.click() or showPicker()): click the button
 * while the input hooks of content/page-world.js holds the chooser back and reports the input. Null when the click
 * opened no chooser.
 * @param {ActionTarget} target @returns {Promise<HTMLInputElement | null | ToolErr>}
 */
async function chooserOpenedBy(target) {
  const r = await Input.prepare(target);
  if (!('el' in r)) return r;
  /** @type {HTMLInputElement | null} */
  let chosen = null;
  const stop = Drag.hear(r.el, [tw.pageChannel.name('file-chooser')], (/** @type {string} */ _t, /** @type {Element} */ el) => { if (isFileInput(el)) chosen = /** @type {HTMLInputElement} */ (el); });
  document.dispatchEvent(new CustomEvent(tw.pageChannel.name('files-arm')));
  try {
    Pointer.syntheticClick(r.el, r.point, {});
    // Some pages open the chooser a moment later (after a state update).
    for (let i = 0; i < 10 && !chosen; i++) await sleep(30);
  } finally {
    stop();
    document.dispatchEvent(new CustomEvent(tw.pageChannel.name('files-disarm')));
  }
  return chosen;
}

/** Without the hooks: the page's file input, when it has exactly one (guessing among several could fill the wrong one). */
function onlyFileInput() {
  const all = fileInputsIn(document.documentElement);
  return all.length === 1 ? /** @type {HTMLInputElement} */ (all[0]) : null;
}

/**
 * The file input a target names: the input itself (usually hidden), its label, a wrapper around it,
 * or the styled button that opens it.
 * @param {ActionTarget} target @returns {Promise<{ input: HTMLInputElement } | ToolErr>}
 */
async function fileInputFor(target) {
  const f = Input.find(target);
  if (!('el' in f)) return f;
  const named = namedFileInput(f.el);
  if (named) return { input: named };
  // Where the hooks cannot tell (a tab opened before the extension), the page's only file input.
  const opened = Drag.hooksPresent() ? await chooserOpenedBy(target) : onlyFileInput();
  if (opened && 'ok' in opened) return opened;
  if (opened) return { input: opened };
  return fail('NOT_FILE_INPUT', `${target.ref ?? Input.describe(f.el)}: clicking it opened no file chooser`);
}

/** Custom range widgets (wai-aria's slider and spinbutton patterns) move by arrow keys, not by a value. */
const KEYED_RANGE = new Set(['slider', 'spinbutton']);
/** Key presses at most for one set_field on a slider (a 0–100 slider by 1 takes 100). */
const MAX_PRESSES = 400;

/**
 * A custom slider set the way its keyboard pattern allows (wai-aria APG: arrows step it): focus
 * it, then press ArrowRight or ArrowLeft (ArrowUp or ArrowDown for a spinbutton) until
 * aria-valuenow reaches the value, stopping when a press moves it no more or would pass it.
 * @param {Element} el @param {string} value @returns {Promise<ToolResult>}
 */
async function setByKeys(el, value) {
  const want = Number(value);
  const now = () => Number(el.getAttribute('aria-valuenow'));
  const range = `${el.getAttribute('aria-valuemin') ?? '?'}–${el.getAttribute('aria-valuemax') ?? '?'}`;
  if (!Number.isFinite(want)) return fail('INVALID_ARGUMENTS', `${Input.describe(el)} is a slider: give a number, within its range ${range}`);
  if (!Number.isFinite(now())) return fail('SLIDER_NO_VALUE', Input.describe(el));
  /** @type {HTMLElement} */ (el).focus({ preventScroll: true });
  const spin = Roles.roleOf(el) === 'spinbutton';
  for (let i = 0; i < MAX_PRESSES && now() !== want; i++) {
    const at = now();
    const up = at < want;
    Keys.syntheticKey(spin ? (up ? 'ArrowUp' : 'ArrowDown') : up ? 'ArrowRight' : 'ArrowLeft', {});
    await Input.nextTask();
    const moved = now();
    // Stuck (an end, or a slider that ignores keys), or one more step went past the value: stop at the nearest.
    if (moved === at) break;
    if (up ? moved > want : moved < want) {
      if (Math.abs(moved - want) > Math.abs(at - want)) { Keys.syntheticKey(spin ? (up ? 'ArrowDown' : 'ArrowUp') : up ? 'ArrowLeft' : 'ArrowRight', {}); await Input.nextTask(); }
      break;
    }
  }
  const got = now();
  if (got === want) return { ok: true, data: { value: el.getAttribute('aria-valuetext') || String(got), by: 'arrow keys' } };
  return fail('VALUE_REJECTED', `${Input.describe(el)} moved by arrow keys to ${got}, not ${want}: its range is ${range}, and its steps may not land on ${want}`);
}

export { setField, selectNative, selectAria, setChecked, setFiles, fileInputFor };
Object.assign(tw.handlers, {
  'content.setField': async (/** @type {{ target: ActionTarget, value: string }} */ msg) => {
    const r = await Input.prepare(msg.target, { needPoint: false });
    if (!('el' in r)) return r;
    if (KEYED_RANGE.has(Roles.roleOf(r.el)) && !(r.el instanceof HTMLInputElement)) return setByKeys(r.el, msg.value);
    return setField(r.el, msg.value);
  },
  'content.select': async (/** @type {{ target: ActionTarget, option: WantMany }} */ msg) => {
    const r = await Input.prepare(msg.target);
    if (!('el' in r)) return r;
    const el = r.el;
    if (el instanceof HTMLSelectElement) return selectNative(el, msg.option);
    const combo = el.closest('[role=combobox]') ?? el.querySelector('[role=combobox]') ?? (el.matches('[role=listbox]') ? el : null) ?? (el instanceof HTMLInputElement && el.getAttribute('aria-autocomplete') ? el : null);
    if (!combo) return fail('NOT_A_SELECT', msg.target.ref ?? Input.describe(el));
    const all = wishes(msg.option);
    if (all.length > 1) return fail('INVALID_ARGUMENTS', `several options at once work on a native <select multiple>; ${msg.target.ref ?? Input.describe(el)} is an ARIA ${combo.getAttribute('role') ?? 'widget'}: click each option in turn, holding Control if the list needs it`);
    if (combo.matches('[role=listbox]')) {
      const opts = visibleOptions(combo);
      const r = pickOption(opts.map(ariaItem), all[0], Input.describe(combo));
      if (!('i' in r)) return r;
      const pick = opts[r.i];
      const b = pick.getBoundingClientRect();
      Pointer.syntheticClick(pick, { x: b.left + b.width / 2, y: b.top + b.height / 2 }, {});
      return { ok: true, data: { selected: Dom.clean(pick.textContent) } };
    }
    return selectAria(combo, all[0]);
  },
  'content.checkState': async (/** @type {{ target: ActionTarget, checked: boolean }} */ msg) => setChecked(msg.target, msg.checked),
  'content.checked': (/** @type {{ target: ActionTarget }} */ msg) => checkedOf(msg.target),
  'content.setFiles': async (/** @type {{ target: ActionTarget, files: GivenFile[] }} */ msg) => {
    // File inputs are usually hidden behind a label or a styled button: no visibility or cover check on the input.
    const found = Input.find(msg.target);
    // A drop zone with no file input of its own takes the files as a drop; one that also opens a
    // chooser gets them in its input, as a person choosing them would.
    if ('el' in found && !namedFileInput(found.el)) {
      const dropped = dropFiles(found.el, msg.files);
      if (dropped) return dropped;
    }
    const f = await fileInputFor(msg.target);
    if (!('input' in f)) return f;
    return setFiles(f.input, msg.files);
  },
  /** Mark the file input a target names, for CDP DOM.setFileInputFiles. */
  'content.fileInput': async (/** @type {{ target: ActionTarget }} */ msg) => {
    const found = Input.find(msg.target);
    if ('el' in found && !namedFileInput(found.el) && takesDrop(found.el)) {
      return fail('DROP_ZONE_NEEDS_CONTENT', msg.target.ref ?? Input.describe(found.el));
    }
    const f = await fileInputFor(msg.target);
    if (!('input' in f)) return f;
    return { ok: true, data: { selector: Input.mark(f.input), name: Input.describe(f.input), multiple: f.input.multiple } };
  },
});
