// Form tools: set_field, select_option, check/uncheck, upload_file.
/** @import { Tool, ToolContext, ToolResult, ActionTarget } from '../../types/core' */
import { TARGET_PROPS, act, content, noTarget, targetOf } from './act.js';
import { clickTarget } from './input.js';

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
  async run(args, ctx) {
    const target = targetOf(args);
    if (!target) return noTarget('the field');
    return act(ctx, () => content(ctx, { type: 'content.setField', target, value: String(args.value) }));
  },
};

/** @type {Tool} */
export const selectOption = {
  name: 'select_option',
  description: 'Choose an option in a dropdown: a native <select> or an ARIA combobox/listbox (it opens it, waits for options that load asynchronously, and clicks the match). Give the option by label, value or index.',
  parameters: {
    type: 'object',
    properties: {
      ...TARGET_PROPS,
      label: { type: 'string', description: 'The option\'s visible text (a unique part of it is enough).' },
      value: { type: 'string', description: 'Or: the option\'s value attribute.' },
      index: { type: 'integer', minimum: 0, description: 'Or: its position, from 0.' },
    },
    additionalProperties: false,
  },
  effects: ['reads_page', 'acts_on_page'],
  async run(args, ctx) {
    const target = targetOf(args);
    if (!target) return noTarget('the dropdown');
    if (args.label === undefined && args.value === undefined && args.index === undefined) return { ok: false, code: 'INVALID_ARGUMENTS', message: 'Say which option: label, value or index.' };
    return act(ctx, () => content(ctx, { type: 'content.select', target, option: { label: args.label, value: args.value, index: args.index } }));
  },
};

/**
 * @param {ToolContext} ctx @param {ActionTarget} target @param {boolean} want
 * @returns {Promise<ToolResult>}
 */
async function setChecked(ctx, target, want) {
  const s = await content(ctx, { type: 'content.checkState', target, checked: want });
  if (!s.ok) return s;
  const d = /** @type {{ needsClick?: boolean, clickAt?: ActionTarget }} */ (s.data);
  if (!d.needsClick) return { ok: true, data: { checked: want, changed: false } };
  const clicked = await clickTarget(ctx, d.clickAt ?? target, {});
  if (!clicked.ok) return clicked;
  const now = await content(ctx, { type: 'content.checked', target });
  if (now.ok && now.data !== want) {
    return { ok: false, code: 'STATE_UNCHANGED', message: `Clicked it, but it is still ${want ? 'unchecked' : 'checked'}. The page may need something else first; take a snapshot.` };
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
  description: 'Put files into a file input (<input type=file>, often hidden behind a styled button: target it by ref or selector "input[type=file]"). Each file is either {path} (a file on this computer; Chrome only) or {name, content} (text) / {name, base64, mime_type}.',
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
  async run(args, ctx) {
    const target = targetOf(args) ?? { selector: 'input[type=file]' };
    /** @type {{ path?: string, name?: string, content?: string, base64?: string, mime_type?: string }[]} */
    const files = args.files;
    if (!files.length) return { ok: false, code: 'INVALID_ARGUMENTS', message: 'Give at least one file.' };
    const paths = files.filter((f) => f.path).map((f) => /** @type {string} */ (f.path));
    if (paths.length && paths.length !== files.length) return { ok: false, code: 'INVALID_ARGUMENTS', message: 'Give either paths or contents for all files, not a mix.' };
    if (files.some((f) => !f.path && !f.name)) return { ok: false, code: 'INVALID_ARGUMENTS', message: 'A file given by content needs a name.' };
    return act(ctx, async () => {
      if (paths.length) {
        const setPaths = ctx.browser.setFilePaths;
        if (!setPaths) return { ok: false, code: 'UNSUPPORTED', message: 'This browser does not let extensions read files from disk by path. Give the file as {name, content} or {name, base64} instead.' };
        const m = await content(ctx, { type: 'content.mark', target });
        if (!m.ok) return m;
        const d = /** @type {{ selector: string, tag: string, type: string | null }} */ (m.data);
        if (d.tag !== 'input' || d.type !== 'file') return { ok: false, code: 'NOT_FILE_INPUT', message: 'That element is not a file input. Target the <input type=file> (selector "input[type=file]").' };
        try { await setPaths(ctx.tabId, d.selector, paths); } catch (err) {
          return { ok: false, code: 'UPLOAD_FAILED', message: `Could not set the files: ${err instanceof Error ? err.message : err}. Check the paths exist.` };
        }
        return { ok: true, data: { files: paths.map((p) => p.split(/[\\/]/).pop()) } };
      }
      return content(ctx, { type: 'content.setFiles', target, files: files.map((f) => ({ name: f.name, content: f.content, base64: f.base64, mimeType: f.mime_type })) });
    });
  },
};
