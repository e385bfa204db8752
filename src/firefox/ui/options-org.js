// Settings under an organization's policy: each control the policy set is disabled and says "Set by
// your organization"; a note above the form names the sites where acting is blocked and the providers
// allowed. Also the Scheduled jobs switches (pause all, ask before every run), saved the moment they
// change: pausing everything must not wait for a Save further down the page.
/** @import { Settings, RouterRequest, RouterReply } from '../types/messages' */

/** The controls of each setting path the policy may lock. */
const CONTROLS = /** @type {Record<string, string[]>} */ ({
  defaultMode: ['defaultMode'],
  devTools: ['devTools'],
  strictSecrets: ['strictSecrets'],
  traces: ['traceRecord', 'traceKeepRuns', 'traceKeepDays'],
  recorder: ['recMaxMinutes', 'recMaxMB', 'recAudio'],
  mcp: ['mcp-enabled', 'mcp-port', 'mcp-code', 'mcp-pair'],
  webmcp: ['webmcp-enabled'],
  'jobs.pauseAll': ['jobsPauseAll'],
  'jobs.askBeforeRun': ['jobsAskFirst'],
  scheduler: ['jobsPauseAll', 'jobsAskFirst'],
});

/** @param {string} id */
const el = (id) => /** @type {HTMLInputElement | null} */ (document.getElementById(id));

/**
 * Disables what the policy set and marks it; a setting no longer locked (a policy lifted) is freed.
 * @param {Settings} s @param {(key: string, subs?: string | string[]) => string} t
 */
export function showLocks(s, t) {
  for (const mark of document.querySelectorAll('.org-lock')) mark.remove();
  const locked = new Set(s.managed?.locked ?? []);
  for (const ids of Object.values(CONTROLS)) {
    for (const id of ids) {
      const control = el(id);
      if (!control) continue;
      const isLocked = [...locked].some((l) => CONTROLS[l]?.includes(id));
      control.disabled = isLocked;
      if (isLocked) markLocked(control, t);
    }
  }
  showOrgNote(s, t);
}

/** @param {HTMLInputElement} control @param {(key: string) => string} t */
function markLocked(control, t) {
  control.dataset.locked = 'organization';
  // Next to the words that name the control: its label (a checkbox sits inside one), else the control.
  const label = control.closest('label') ?? document.querySelector(`label[for="${control.id}"]`);
  const at = label ?? control;
  if (at.querySelector?.('.org-lock') || at.nextElementSibling?.classList.contains('org-lock')) return;
  const mark = document.createElement('span');
  mark.className = 'org-lock';
  mark.textContent = t('orgLocked');
  if (label) label.append(' ', mark);
  else control.after(mark);
}

/** @param {Settings} s @param {(key: string, subs?: string | string[]) => string} t */
function showOrgNote(s, t) {
  let note = document.getElementById('org-note');
  const m = s.managed;
  if (!m) { note?.remove(); return; }
  if (!note) {
    note = document.createElement('section');
    note.id = 'org-note';
    note.setAttribute('role', 'note');
    document.getElementById('settings-form')?.before(note);
  }
  const lines = [t('orgManaged')];
  if (m.blockSites.length) lines.push(t('orgBlockedSites', [m.blockSites.join(', ')]));
  if (m.confirmSites.length) lines.push(t('orgConfirmSites', [m.confirmSites.join(', ')]));
  if (m.providerKinds || m.baseUrls) lines.push(t('orgProviders', [[...(m.providerKinds ?? []), ...(m.baseUrls ?? [])].join(', ')]));
  if (m.askOnly) lines.push(t('orgAskOnly'));
  if (m.off.length) lines.push(t('orgFeaturesOff', [m.off.join(', ')]));
  note.replaceChildren(...lines.map((line) => Object.assign(document.createElement('p'), { textContent: line })));
}

/** The jobs switches as the settings hold them. @param {Settings} s */
export function fillJobSwitches(s) {
  const pause = el('jobsPauseAll');
  const ask = el('jobsAskFirst');
  if (pause) pause.checked = s.jobs?.pauseAll === true;
  if (ask) ask.checked = s.jobs?.askBeforeRun === true;
}

/** The jobs switches for a save of the whole form. @returns {NonNullable<Settings['jobs']>} */
export function readJobSwitches() {
  return { pauseAll: el('jobsPauseAll')?.checked === true, askBeforeRun: el('jobsAskFirst')?.checked === true };
}

/**
 * Saves a jobs switch as soon as it changes; a refused save (set by the organization) puts it back.
 * @param {(req: RouterRequest) => Promise<RouterReply<any>>} request @param {(text: string, failed?: boolean) => void} say
 * @param {(key: string) => string} t
 */
export function watchJobSwitches(request, say, t) {
  for (const id of ['jobsPauseAll', 'jobsAskFirst']) {
    el(id)?.addEventListener('change', async () => {
      const reply = await request({ type: 'settings.set', settings: { jobs: readJobSwitches() } });
      if (reply.ok) { fillJobSwitches(reply.data); say(t('saved')); } else { say(reply.message, true); const back = await request({ type: 'settings.get' }); if (back.ok) fillJobSwitches(back.data); }
    });
  }
}

/**
 * The form's fields without those the organization set: the page does not send what it may not change
 * (a value its controls cannot show, a locked mode of plan, would otherwise be refused as a change).
 * @param {Partial<Settings>} settings @param {Settings | null} current @returns {Partial<Settings>}
 */
export function withoutLocked(settings, current) {
  const locked = current?.managed?.locked ?? [];
  if (!locked.length) return settings;
  const out = /** @type {Record<string, unknown>} */ ({ ...settings });
  for (const key of locked) if (!key.includes('.')) delete out[key];
  if (settings.jobs) {
    const jobs = /** @type {Record<string, unknown>} */ ({ ...settings.jobs });
    for (const key of locked) if (key.startsWith('jobs.')) delete jobs[key.slice(5)];
    out.jobs = jobs;
  }
  return /** @type {Partial<Settings>} */ (out);
}
