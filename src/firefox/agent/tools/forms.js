// Form tools: set_field, select_option, check/uncheck, upload_file.
/** @import { Tool, ToolContext, ToolResult, ActionTarget } from '../../types/core' */
import { TARGET_PROPS, act, noTarget, targetOf } from './act.js';
import { clickTarget } from './input.js';
import { frameOfTarget } from './frames.js';
import { fail } from '../error-codes.js';

/** @type {Tool} */
export const setField = {
  name: 'set_field',
  description: 'Set a field\'s value in one step (date "YYYY-MM-DD", time, range/slider, color, or a text field whose key handling mangles typing). Fires input and change as a user edit does.',
  parameters: {
    type: 'object',
    properties: { ...TARGET_PROPS, value: { type: 'string', description: 'The new value, in the field\'s own format.' } },
    required: ['value'],
    additionalProperties: false,
  },
  effects: ['reads_page', 'acts_on_page', 'touches_secrets'],
  replay: 'targeted',
  entersData: true,
  typedArg: 'value',
  says: (t, c) => t('toolSays_type', c.element()),
  async run(args, ctx) {
    const target = targetOf(args);
    if (!target) return noTarget('the field');
    return act(ctx, () => ctx.browser.sendToContent(ctx.tabId, { type: 'content.setField', target, value: String(args.value) }));
  },
};

/** @type {Tool} */
export const selectOption = {
  name: 'select_option',
  compact: { description: "Choose an option of a dropdown by its ref and the option's label.", parameters: { type: 'object', properties: { ref: { type: 'string' }, label: { type: 'string' } }, required: ['ref', 'label'], additionalProperties: false } },
  description: 'Choose an option in a dropdown: a native <select> or an ARIA combobox/listbox (it opens it, waits for options that load asynchronously, and clicks the match). Give the option by label, value or index; for a <select multiple>, labels or values (arrays) replace the whole selection. A partial label must match one option only.',
  parameters: {
    type: 'object',
    properties: {
      ...TARGET_PROPS,
      label: { type: 'string', description: 'The option\'s visible text (an exact label, or a part that matches no other option).' },
      value: { type: 'string', description: 'Or: the option\'s value attribute.' },
      index: { type: 'integer', minimum: 0, description: 'Or: its position, from 0.' },
      labels: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'A <select multiple>: the labels of every option to select (the others are deselected).' },
      values: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'A <select multiple>: the values of every option to select (the others are deselected).' },
    },
    additionalProperties: false,
  },
  effects: ['reads_page', 'acts_on_page'],
  replay: 'targeted',
  entersData: true,
  says: (t, c) => t('toolSays_select_option', [c.option(), c.element()]),
  async run(args, ctx) {
    const target = targetOf(args);
    if (!target) return noTarget('the dropdown');
    const given = ['label', 'value', 'index', 'labels', 'values'].filter((k) => args[k] !== undefined);
    if (!given.length) return fail('INVALID_ARGUMENTS', 'say which option: label, value or index (labels or values for several)');
    if ((args.labels || args.values) && given.some((k) => k === 'label' || k === 'value' || k === 'index')) return fail('INVALID_ARGUMENTS', 'give either one option (label, value or index) or several (labels, values), not both');
    const option = { label: args.label, value: args.value, index: args.index, labels: args.labels, values: args.values };
    return act(ctx, () => ctx.browser.sendToContent(ctx.tabId, { type: 'content.select', target, option }));
  },
};

/**
 * @param {ToolContext} ctx @param {ActionTarget} target @param {boolean} want
 * @returns {Promise<ToolResult>}
 */
async function setChecked(ctx, target, want) {
  const s = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.checkState', target, checked: want });
  if (!s.ok) return s;
  const d = /** @type {{ needsClick?: boolean, clickAt?: ActionTarget }} */ (s.data);
  if (!d.needsClick) return { ok: true, data: { checked: want, changed: false } };
  const clicked = await clickTarget(ctx, d.clickAt ?? target, {});
  if (!clicked.ok) return clicked;
  const now = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.checked', target });
  if (now.ok && now.data !== want) {
    return fail('STATE_UNCHANGED', `it is still ${want ? 'unchecked' : 'checked'}; the page may need something else first, take a snapshot`);
  }
  return { ok: true, data: { checked: want, changed: true } };
}

/** @param {'check' | 'uncheck'} name @returns {Tool} */
function checkTool(name) {
  const want = name === 'check';
  return {
    name,
    description: want ? 'Make sure a checkbox, switch or radio button is checked (no-op when it already is).' : 'Make sure a checkbox or switch is unchecked (no-op when it already is).',
    parameters: { type: 'object', properties: { ...TARGET_PROPS }, additionalProperties: false },
    effects: ['reads_page', 'acts_on_page'],
    replay: 'targeted',
    entersData: true,
    says: (t, c) => (name === 'check' ? t('toolSays_check', c.element()) : t('toolSays_uncheck', c.element())),
    async run(args, ctx) {
      const target = targetOf(args);
      if (!target) return noTarget('the checkbox');
      return act(ctx, () => setChecked(ctx, target, want));
    },
  };
}
export const check = checkTool('check');
export const uncheck = checkTool('uncheck');

/** @type {Tool} */
export const uploadFile = {
  name: 'upload_file',
  description: 'Put files into a file input: target the input itself (often hidden), its label, or the visible button that opens it ("Choose photo"); without a target, the page\'s first <input type=file>. A drop zone with no file input ("Drop files here") gets the files dropped on it. Each file is either {path} (a file on this computer; Chrome only, file inputs only) or {name, content} (text) / {name, base64, mime_type}.',
  parameters: {
    type: 'object',
    properties: {
      ...TARGET_PROPS,
      files: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            path: { type: 'string' }, name: { type: 'string' }, content: { type: 'string' }, base64: { type: 'string' }, mime_type: { type: 'string' },
          },
          additionalProperties: false,
        },
      },
    },
    required: ['files'],
    additionalProperties: false,
  },
  effects: ['reads_page', 'acts_on_page'],
  entersData: true,
  says: (t, c) => {
    if (!c.ok) return t('toolSays_upload_failed', c.files?.() ?? '');
    return c.element() ? t('toolSays_upload_file', [c.files?.() ?? '', c.element()]) : t('toolSays_upload_file_any', c.files?.() ?? '');
  },
  async run(args, ctx) {
    const target = targetOf(args) ?? { selector: 'input[type=file]' };
    /** @type {{ path?: string, name?: string, content?: string, base64?: string, mime_type?: string }[]} */
    const files = args.files;
    if (!files.length) return fail('INVALID_ARGUMENTS', 'give at least one file');
    const paths = files.filter((f) => f.path).map((f) => /** @type {string} */ (f.path));
    if (paths.length && paths.length !== files.length) return fail('INVALID_ARGUMENTS', 'give either paths or contents for all files, not a mix');
    if (files.some((f) => !f.path && !f.name)) return fail('INVALID_ARGUMENTS', 'a file given by content needs a name');
    return act(ctx, async () => {
      if (paths.length) {
        const setPaths = ctx.browser.setFilePaths;
        if (!setPaths) return fail('UNSUPPORTED', 'extensions cannot read files from disk by path here; give the file as {name, content} or {name, base64}');
        if (frameOfTarget(target) !== 0) return fail('UNSUPPORTED', 'files by path go into a file input of the top page only; inside a frame, give the file as {name, content} or {name, base64}');
        // The input itself, or the one its label or styled button opens (content/widgets.js), marked for CDP.
        const m = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.fileInput', target });
        if (!m.ok) return m;
        const d = /** @type {{ selector: string, multiple: boolean }} */ (m.data);
        if (paths.length > 1 && !d.multiple) return fail('INVALID_ARGUMENTS', `that file input takes one file; ${paths.length} were given`);
        try { await setPaths(ctx.tabId, d.selector, paths); } catch (err) {
          return fail('UPLOAD_FAILED', `${err instanceof Error ? err.message : err}; check the paths exist`);
        }
        return { ok: true, data: { files: paths.map((p) => p.split(/[\\/]/).pop()) } };
      }
      return ctx.browser.sendToContent(ctx.tabId, { type: 'content.setFiles', target, files: files.map((f) => ({ name: f.name, content: f.content, base64: f.base64, mimeType: f.mime_type })) });
    });
  },
};
