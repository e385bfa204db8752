// The settings page: providers (add, edit, test, pick a model), a model per role, behaviour, site
// permissions, export and import. Driven by the router's settings.get / settings.set only.
/** @import { Settings, ProviderSettings, RoleModel } from '../types/messages' */
import { t, localize } from './i18n.js';
import { exportSettings, parseImport } from '../service/settings-io.js';
import { MAX_IMPORT_BYTES } from '../service/settings-schema.js';
import { DEFAULT_MAX_RUNS } from '../service/run-slots.js';
import { createProviderCard, readProviderCard } from './options-providers.js';
import { setupKnowledge } from './options-knowledge.js';
import { setupMcp } from './options-mcp.js';
import { saveFile } from './save-file.js';
import { showLocks, fillJobSwitches, readJobSwitches, watchJobSwitches, withoutLocked } from './options-org.js';
import { fillBudget, readBudget } from './options-budget.js';

const ROLES = /** @type {const} */ (['planner', 'executor', 'vision']);
const form = /** @type {HTMLFormElement} */ (document.getElementById('settings-form'));
const result = /** @type {HTMLElement} */ (document.getElementById('result'));
const providersEl = /** @type {HTMLElement} */ (document.getElementById('providers'));
const rolesEl = /** @type {HTMLElement} */ (document.getElementById('roles'));
/** @param {string} id */
const field = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

/** @type {Settings | null} */
let current = null;

/** @param {import('../types/messages').RouterRequest} req */
async function request(req) {
  try { return await browser.runtime.sendMessage(req); } catch (err) {
    return { ok: false, code: 'NO_BACKGROUND', message: t('errNoBackground') };
  }
}

/** @param {string} text @param {boolean} [failed] */
function say(text, failed = false) {
  result.textContent = text;
  result.classList.toggle('failed', failed);
}

/** Settings from before the provider list had one: the single provider becomes the list. @param {Settings} s */
function providerList(s) {
  if (s.providers?.length) return s.providers;
  return [{ ...s.provider, id: s.provider.id ?? 'default', name: s.provider.name ?? '' }];
}

/** @param {Settings} s */
function fill(s) {
  current = s;
  const activeId = s.provider.id ?? 'default';
  providersEl.replaceChildren(...providerList(s).map((p) => createProviderCard(p, p.id === activeId, request, preferWorking)));
  fillRoles(s);
  field('defaultMode').value = s.defaultMode;
  field('maxSteps').value = String(s.maxSteps);
  field('maxRunsAtOnce').value = String(s.maxRunsAtOnce ?? DEFAULT_MAX_RUNS);
  field('screenshotPolicy').value = s.screenshotPolicy ?? 'auto';
  field('sitesAllow').value = (s.sites?.allow ?? []).join('\n');
  field('sitesConfirm').value = (s.sites?.confirm ?? []).join('\n');
  field('strictSecrets').checked = s.strictSecrets === true;
  field('closeJobTabs').checked = s.closeJobTabs !== false;
  field('devTools').checked = s.devTools === true;
  const rec = s.recorder ?? { maxSeconds: 300, maxMB: 200, audio: false };
  field('recMaxMinutes').value = String(Math.max(1, Math.round(rec.maxSeconds / 60)));
  field('recMaxMB').value = String(rec.maxMB);
  field('recAudio').checked = rec.audio;
  // Traces: on, 100 runs, 30 days unless the user changed them.
  const tr = s.traces ?? { record: true, keepRuns: 100, keepDays: 30 };
  field('traceRecord').checked = tr.record;
  field('traceKeepRuns').value = String(tr.keepRuns);
  field('traceKeepDays').value = String(tr.keepDays);
  fillJobSwitches(s);
  void fillBudget(s, request);
  showLocks(s, t);
}

/** @param {Settings} s */
function fillRoles(s) {
  const providers = readProviders();
  const names = { planner: t('rolePlanner'), executor: t('roleExecutor'), vision: t('roleVision') };
  rolesEl.replaceChildren(...ROLES.map((role) => {
    const row = document.createElement('div');
    row.className = 'role';
    row.dataset.role = role;
    const label = document.createElement('label');
    label.htmlFor = `role-${role}`;
    label.textContent = names[role];
    const select = document.createElement('select');
    select.id = `role-${role}`;
    select.className = 'role-provider';
    fillRoleProviders(select, providers);
    const model = document.createElement('input');
    model.className = 'role-model';
    model.setAttribute('aria-label', t('roleModelLabel', [names[role]]));
    model.placeholder = t('modelLabel');
    const saved = s.roles?.[role];
    select.value = saved?.providerId ?? '';
    model.value = saved?.model ?? '';
    row.append(label, select, model);
    return row;
  }));
}

/** @param {HTMLSelectElement} select @param {ProviderSettings[]} providers */
function fillRoleProviders(select, providers) {
  const chosen = select.value;
  select.replaceChildren(
    Object.assign(document.createElement('option'), { value: '', textContent: t('roleActiveProvider') }),
    ...providers.map((p) => Object.assign(document.createElement('option'), { value: p.id ?? '', textContent: p.name || p.baseUrl || '…' })),
  );
  select.value = providers.some((p) => p.id === chosen) ? chosen : '';
}

/** The role pickers follow the provider list as it is edited. */
function refreshRoleProviders() {
  const providers = readProviders();
  for (const select of rolesEl.querySelectorAll('select.role-provider')) fillRoleProviders(/** @type {HTMLSelectElement} */ (select), providers);
}
providersEl.addEventListener('input', (e) => { if (/** @type {HTMLElement} */ (e.target).matches('.name, .baseUrl')) refreshRoleProviders(); });

function readProviders() {
  return [...providersEl.querySelectorAll('fieldset.provider')].map((card) => readProviderCard(/** @type {HTMLElement} */ (card)));
}

/** @param {string} text */
const lines = (text) => text.split('\n').map((l) => l.trim().toLowerCase()).filter(Boolean);
// A host, optionally with a leading "*." for its subdomains and a port: what the agent can match exactly.
const HOST_PATTERN = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/;

/** @returns {{ ok: true, settings: Partial<Settings> } | { ok: false, message: string }} */
function collect() {
  const providers = readProviders();
  const active = /** @type {HTMLInputElement | null} */ (providersEl.querySelector('input[name=active]:checked'));
  const activeCard = active?.closest('fieldset.provider');
  const activeId = activeCard ? /** @type {HTMLElement} */ (activeCard).dataset.id : providers[0]?.id;
  const provider = providers.find((p) => p.id === activeId) ?? providers[0];
  if (!provider) return { ok: false, message: t('errNoProvider') };
  for (const p of providers) {
    try { const u = new URL(p.baseUrl); if (!/^https?:$/.test(u.protocol)) throw new Error(); } catch {
      return { ok: false, message: t('errBaseUrl', [p.name || p.baseUrl || '?']) };
    }
    if (!p.model) return { ok: false, message: t('errModel', [p.name || p.baseUrl]) };
  }
  const allow = lines(field('sitesAllow').value);
  const confirm = lines(field('sitesConfirm').value);
  const bad = [...allow, ...confirm].find((h) => !HOST_PATTERN.test(h));
  if (bad) return { ok: false, message: t('errSitePattern', [bad]) };
  /** @type {NonNullable<Settings['roles']>} */
  const roles = {};
  for (const row of rolesEl.querySelectorAll('.role')) {
    const role = /** @type {typeof ROLES[number]} */ (/** @type {HTMLElement} */ (row).dataset.role);
    /** @type {RoleModel} */
    const r = { providerId: /** @type {HTMLSelectElement} */ (row.querySelector('.role-provider')).value, model: /** @type {HTMLInputElement} */ (row.querySelector('.role-model')).value.trim() };
    if (r.providerId || r.model) roles[role] = r;
  }
  const steps = Number(field('maxSteps').value);
  if (!Number.isInteger(steps) || steps < 1 || steps > 1000) return { ok: false, message: t('errSteps') };
  const budget = readBudget();
  if (!budget.ok) return budget;
  const atOnce = Number(field('maxRunsAtOnce').value);
  if (!Number.isInteger(atOnce) || atOnce < 1 || atOnce > 20) return { ok: false, message: t('errMaxRuns') };
  return {
    ok: true,
    settings: {
      provider, providers, roles,
      defaultMode: field('defaultMode').value === 'ask' ? 'ask' : 'act',
      maxSteps: steps,
      maxRunsAtOnce: atOnce,
      screenshotPolicy: /** @type {any} */ (field('screenshotPolicy').value),
      sites: { allow, confirm },
      strictSecrets: field('strictSecrets').checked,
      closeJobTabs: field('closeJobTabs').checked,
      devTools: field('devTools').checked,
      recorder: { maxSeconds: Math.round(Number(field('recMaxMinutes').value) * 60), maxMB: Math.round(Number(field('recMaxMB').value)), audio: field('recAudio').checked },
      traces: { record: field('traceRecord').checked, keepRuns: Number(field('traceKeepRuns').value), keepDays: Number(field('traceKeepDays').value) },
      jobs: readJobSwitches(),
      budget: budget.budget,
    },
  };
}

/** @param {Partial<Settings>} settings */
async function save(settings) {
  const reply = await request({ type: 'settings.set', settings });
  if (reply.ok) { fill(reply.data); say(t('saved')); } else say(reply.message, true);
  return reply.ok;
}

for (const [id, page] of [['open-traces', 'ui/traces.html'], ['open-workflows', 'ui/workflows.html']]) {
  document.getElementById(id)?.addEventListener('click', () => browser.tabs.create({ url: browser.runtime.getURL(page) }));
}

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const c = collect();
  if (!c.ok) { say(c.message, true); return; }
  await save(withoutLocked(c.settings, current));
});

/**
 * A provider that answered its test becomes the active one when the active one does not work
 * (never answered, or failed): adding a working provider is never a dead end.
 * @param {HTMLElement} card
 */
async function preferWorking(card) {
  const active = /** @type {HTMLElement | null} */ (providersEl.querySelector('input[name=active]:checked')?.closest('fieldset.provider') ?? null);
  if (!active || active === card) return;
  if (active.dataset.working !== 'yes') {
    const reply = await request({ type: 'provider.models', provider: readProviderCard(active) });
    active.dataset.working = reply.ok ? 'yes' : 'no';
  }
  if (active.dataset.working === 'yes') return;
  const radio = /** @type {HTMLInputElement} */ (card.querySelector('input[name=active]'));
  radio.checked = true;
  radio.dispatchEvent(new Event('change', { bubbles: true }));
  say(t('providerMadeActive', [readProviderCard(card).name || kindLabel(card)]));
}

/** @param {HTMLElement} card */
function kindLabel(card) {
  return /** @type {HTMLSelectElement} */ (card.querySelector('.kind')).selectedOptions[0]?.textContent ?? '';
}

document.getElementById('add-provider')?.addEventListener('click', () => {
  const p = /** @type {ProviderSettings} */ ({ kind: 'openai', id: `p${Date.now().toString(36)}`, name: '', baseUrl: '', model: '', apiKey: '' });
  const card = createProviderCard(p, providersEl.children.length === 0, request, preferWorking);
  providersEl.append(card);
  refreshRoleProviders();
  /** @type {HTMLInputElement} */ (card.querySelector('.name')).focus();
});

providersEl.addEventListener('click', (e) => {
  const btn = /** @type {HTMLElement} */ (e.target).closest('.remove');
  if (!btn) return;
  if (providersEl.children.length <= 1) { say(t('errNoProvider'), true); return; }
  btn.closest('fieldset.provider')?.remove();
  refreshRoleProviders();
  if (!providersEl.querySelector('input[name=active]:checked')) {
    const first = /** @type {HTMLInputElement | null} */ (providersEl.querySelector('input[name=active]'));
    if (first) first.checked = true;
  }
});

document.getElementById('export')?.addEventListener('click', async () => {
  const reply = await request({ type: 'settings.get' });
  if (!reply.ok) { say(reply.message, true); return; }
  saveFile('tabwright-settings.json', exportSettings(reply.data));
  say(t('exported'));
});

field('import-file').addEventListener('change', async () => {
  const file = field('import-file').files?.[0];
  if (!file || !current) return;
  // A settings export is a few kilobytes: a big file is refused before it is read.
  if (file.size > MAX_IMPORT_BYTES) {
    field('import-file').value = '';
    say(t('importTooLarge', [(file.size / 1e6).toFixed(1)]), true);
    return;
  }
  const parsed = parseImport(await file.text(), current);
  field('import-file').value = '';
  if (!parsed.ok) { say(parsed.message, true); return; }
  if (await save(parsed.settings)) say(parsed.dropped.length ? `${t('imported')} ${t('importDropped', [parsed.dropped.join(', ')])}` : t('imported'));
});

async function load() {
  localize();
  const reply = await request({ type: 'settings.get' });
  if (!reply.ok) { say(reply.message, true); return; }
  fill(reply.data);
  // The recorder's caps only where the browser can record (Chrome).
  const rec = await request({ type: 'recorder.status' });
  const canRecord = Boolean(rec.ok && rec.data.available);
  field('recorder-fields').hidden = !canRecord;
  // Where nothing records (Firefox), the section's title does not promise recording.
  if (!canRecord) /** @type {HTMLElement} */ (document.querySelector('#devtools-fieldset > legend')).textContent = t('devToolsOnlyLegend');
  await setupKnowledge({ t, request });
  await setupMcp({ t, request });
  // The MCP section fills its own switches: the organization's locks go over them afterwards.
  showLocks(reply.data, t);
  watchJobSwitches(request, say, t);
  document.body.dataset.ready = 'true';
}

load();
