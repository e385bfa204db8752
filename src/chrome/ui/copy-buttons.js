// Copy buttons on a finished answer (its markdown) and on each of its code blocks (the code).
// Icon-only, so the answer's own text stays exactly the answer; the label is for screen readers.
import { copyIcon } from './icons.js';

/** @param {string} text */
async function copy(text) {
  try { await navigator.clipboard.writeText(text); return true; } catch {
    // Older Firefox sidebars: the selection route.
    const area = Object.assign(document.createElement('textarea'), { value: text });
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/**
 * @param {string} className @param {string} label @param {() => string} text what to copy
 * @param {(key: string) => string} t
 */
function button(className, label, text, t) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = `ghost icon copy ${className}`;
  b.setAttribute('aria-label', label);
  b.title = label;
  b.append(copyIcon());
  b.addEventListener('click', async () => {
    const ok = await copy(text());
    b.dataset.copied = ok ? 'yes' : 'no';
    b.title = ok ? t('copied') : t('copyFailed');
    b.setAttribute('aria-label', b.title);
    setTimeout(() => { delete b.dataset.copied; b.title = label; b.setAttribute('aria-label', label); }, 1500);
  });
  return b;
}

/**
 * @param {HTMLElement} el a rendered answer @param {string} markdown what it was rendered from
 * @param {(key: string) => string} t
 */
export function addCopyButtons(el, markdown, t) {
  for (const pre of el.querySelectorAll('pre')) {
    const wrap = document.createElement('div');
    wrap.className = 'code-wrap';
    pre.replaceWith(wrap);
    wrap.append(pre, button('copy-code', t('copyCode'), () => pre.textContent ?? '', t));
  }
  if (markdown.trim()) el.append(button('copy-answer', t('copyAnswer'), () => markdown, t));
}
