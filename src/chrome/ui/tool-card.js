// A tool call as a collapsible card: the call and its arguments, then the result, with any
// screenshot in the result shown as an image (only inline data: images, never a remote URL).
/** @import { TranscriptItem } from '../types/messages' */
import { t } from './i18n.js';
import { maskSecretArgs } from '../service/secret-args.js';
import { toolSentence } from './tool-sentence.js';

const IMAGE_URL = /^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/=]+$/;

/** @param {string} src @param {string} name */
function thumbnail(src, name) {
  const img = document.createElement('img');
  img.className = 'thumb';
  img.src = src;
  img.alt = t('screenshotAlt', [name]);
  img.title = t('screenshotEnlarge');
  img.addEventListener('click', (e) => { e.preventDefault(); img.classList.toggle('large'); });
  return img;
}

/**
 * Pull images out of a tool result's data: data: URLs and { type: 'image', mediaType, data } parts.
 * Returns the data with each image replaced by a placeholder, and the image URLs.
 * @param {unknown} data @returns {{ rest: unknown, images: string[] }}
 */
export function splitImages(data) {
  /** @type {string[]} */
  const images = [];
  /** @param {unknown} v @param {number} depth @returns {unknown} */
  const walk = (v, depth) => {
    if (typeof v === 'string' && IMAGE_URL.test(v)) { images.push(v); return `[${t('imageShown')}]`; }
    if (!v || typeof v !== 'object' || depth > 4) return v;
    const o = /** @type {Record<string, unknown>} */ (v);
    if (o.type === 'image' && typeof o.data === 'string' && typeof o.mediaType === 'string') {
      const url = `data:${o.mediaType};base64,${o.data}`;
      if (IMAGE_URL.test(url)) { images.push(url); return `[${t('imageShown')}]`; }
    }
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, walk(x, depth + 1)]));
  };
  return { rest: walk(data, 0), images };
}

/** @param {unknown} v */
const pretty = (v) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));

/** @param {unknown} args */
export function briefArgs(args) {
  if (!args || typeof args !== 'object') return '';
  const s = Object.entries(args).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ');
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

/** @param {string} label @param {string} text @param {string} cls */
function section(label, text, cls) {
  const wrap = document.createElement('section');
  wrap.className = cls;
  const h = document.createElement('h4');
  h.textContent = label;
  const pre = document.createElement('pre');
  pre.textContent = text;
  wrap.append(h, pre);
  return wrap;
}

/** @param {Extract<TranscriptItem, { kind: 'tool' }>} shown @returns {HTMLDetailsElement} */
export function renderToolCard(shown) {
  const item = /** @type {typeof shown} */ (maskSecretArgs(shown));
  const el = document.createElement('details');
  const state = !item.result ? 'pending' : item.result.ok ? 'ok' : 'failed';
  el.className = `tool ${state}`;
  el.dataset.tool = item.name;
  el.dataset.kind = item.shows ?? 'other';
  const summary = document.createElement('summary');
  // What happened, said for people; the tool's name and raw arguments stay inside.
  const says = document.createElement('span');
  says.className = 'says';
  says.textContent = toolSentence(item, t);
  const time = document.createElement('span');
  time.className = 'time';
  if (item.ms !== undefined) time.textContent = item.ms < 1000 ? `${item.ms} ms` : `${(item.ms / 1000).toFixed(1)} s`;
  // The state is drawn as an icon; screen readers hear it as a word.
  const sr = document.createElement('span');
  sr.className = 'sr-only';
  sr.textContent = { ok: t('toolOk'), failed: t('toolFailed'), pending: t('toolPending') }[state];
  summary.append(says, ' ', time, sr);
  // What the model was shown after this step, small enough to glance at; a click opens it large.
  if (item.shot && IMAGE_URL.test(item.shot)) summary.append(thumbnail(item.shot, item.name));
  const name = document.createElement('p');
  name.className = 'name';
  name.textContent = `${item.name} ${briefArgs(item.args)}`;
  el.append(summary, name, section(t('toolArguments'), pretty(item.args), 'args'));
  if (item.result) {
    if (item.result.ok) {
      const { rest, images } = splitImages(item.result.data);
      el.append(section(t('toolResult'), pretty(rest), 'result'));
      for (const src of images) {
        const img = document.createElement('img');
        img.className = 'shot';
        img.src = src;
        img.alt = t('screenshotAlt', [item.name]);
        el.append(img);
      }
    } else {
      el.append(section(t('toolError'), `${item.result.code}: ${item.result.message}`, 'result'));
    }
  }
  return el;
}
