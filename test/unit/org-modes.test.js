// The panel's mode switch under an organization's Ask-only policy (ui/org-modes.js), on the
// panel's own markup: Act and Plan are not offered and Ask is chosen; without the policy all three are.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';
import { applyOrgModes } from '../../src/chrome/ui/org-modes.js';

/** The panel with a mode already chosen (the person's last one), then the policy applied. @param {any} settings @param {string} [chosen] */
function panelWith(settings, chosen = 'act') {
  const dom = new JSDOM(readFileSync(new URL('../../src/chrome/ui/panel.html', import.meta.url), 'utf8'));
  const saved = globalThis.document;
  globalThis.document = dom.window.document;
  try {
    /** @type {HTMLInputElement} */ (dom.window.document.querySelector(`input[name=mode][value=${chosen}]`)).checked = true;
    const changed = applyOrgModes(settings, (k) => ({ orgLocked: 'Set by your organization', orgAskOnly: 'Ask mode only' })[k] ?? k);
    const radios = [...dom.window.document.querySelectorAll('input[name=mode]')].map((r) => /** @type {HTMLInputElement} */ (r));
    return { changed, doc: dom.window.document, offered: radios.filter((r) => !r.disabled && !r.closest('label')?.hidden).map((r) => r.value), checked: radios.find((r) => r.checked)?.value };
  } finally { globalThis.document = saved; }
}

describe('panel modes under a managed policy', () => {
  it('Ask only: Act and Plan are not offered, Ask is chosen, and the switch says who set it', () => {
    const p = panelWith({ managed: { askOnly: true, locked: ['defaultMode'], off: [], blockSites: [], confirmSites: [] } });
    expect(p.offered).to.deep.equal(['ask']);
    expect(p.checked).to.equal('ask');
    expect(p.changed).to.equal(true);
    expect(/** @type {HTMLElement} */ (p.doc.getElementById('modes')).title).to.equal('Set by your organization: Ask mode only');
  });

  it('no policy: every mode is offered and the chosen one stays', () => {
    const p = panelWith({});
    expect(p.offered).to.deep.equal(['ask', 'act', 'plan']);
    expect(p.checked).to.equal('act');
    expect(p.changed).to.equal(false);
  });
});
