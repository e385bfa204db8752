// The panel's record button (Chrome): records the panel's tab to a WebM in the downloads folder.
// Shown only where the browser can record; while any tab records, a red pill with the time so far
// stays in the header at every width, and pressing it stops. The background pushes the state
// ({ type: 'recording' }), so the pill also follows a recording the agent started (record_tab).
// Chrome refuses tab capture started by a click in the side panel on a tab where the person has not
// invoked Tabwright (its toolbar button or record key); then the same click opens Chrome's own share
// picker (panel-capture.js) and the tab the person picks is recorded. A picker closed without a pick
// leaves, in the status line, how to record without it (the record key) until a recording starts.
/** @import { RouterRequest, RouterReply } from '../types/messages' */
/** @import { RecordingStatus } from '../types/platform' */
import { offerStream, pickTab } from './panel-capture.js';

/**
 * @param {{ button: HTMLButtonElement, item: HTMLElement, pill: HTMLButtonElement, time: HTMLElement, t: (key: string, subs?: string[]) => string,
 *   request: (req: RouterRequest) => Promise<RouterReply<any>>, tabId: () => number | null, showStatus: (text: string) => void, audio: () => boolean }} els
 */
export function createRecorderButton({ button, item, pill, time, t, request, tabId, showStatus, audio }) {
  /** @type {(RecordingStatus & { available: boolean }) | null} */
  let status = null;
  /** @type {ReturnType<typeof setInterval> | null} */
  let tick = null;
  /** The status line shows what to do to record (the refusal), until a recording starts. */
  let hinted = false;

  function draw() {
    const available = status?.available === true;
    const recording = status?.recording === true;
    button.hidden = !available;
    item.hidden = !available;
    button.setAttribute('aria-pressed', String(recording));
    const label = recording ? t('recordStopTitle') : t('recordTitle');
    button.title = label;
    button.setAttribute('aria-label', label);
    item.textContent = label;
    pill.hidden = !recording;
    if (recording && hinted) { hinted = false; showStatus(''); }
    if (tick) clearInterval(tick);
    tick = null;
    if (recording && status?.startedAt) {
      const started = status.startedAt;
      const update = () => { time.textContent = clock(Date.now() - started); };
      update();
      tick = setInterval(update, 1000);
      pill.setAttribute('aria-label', `${t('recordStopTitle')} (${time.textContent})`);
    }
  }

  async function toggle() {
    const id = tabId();
    if (status?.recording) {
      const r = await request({ type: 'recorder.stop' });
      if (!r.ok) showStatus(r.message);
      return;
    }
    if (id === null) return;
    const r = await request({ type: 'recorder.start', tabId: id });
    if (!r.ok && r.code === 'RECORDING_NOT_ALLOWED' && await webPage(id)) return recordPicked(id, r.message);
    if (!r.ok) {
      hinted = r.code === 'RECORDING_NOT_ALLOWED';
      showStatus(hinted ? await refusal(t, id, r.message) : r.message);
      return;
    }
    status = { available: true, ...r.data };
    draw();
  }

  /**
   * Tab capture was refused: Chrome's share picker, still within the click's gesture; the picked
   * stream is recorded once the background starts it. @param {number} id @param {string} said
   */
  async function recordPicked(id, said) {
    let stream;
    try { stream = await pickTab(audio()); } catch (err) { showStatus(err instanceof Error ? err.message : String(err)); return; }
    if (!stream) {
      hinted = true;
      showStatus(await refusal(t, id, said));
      return;
    }
    const offer = await offerStream(stream, id);
    const r = await request({ type: 'recorder.start', tabId: id });
    if (!r.ok) { offer.drop(); showStatus(r.message); return; }
    status = { available: true, ...r.data };
    draw();
  }


  button.addEventListener('click', toggle);
  pill.addEventListener('click', toggle);

  return {
    async refresh() {
      const r = await request({ type: 'recorder.status' });
      status = r.ok ? r.data : null;
      draw();
    },
    /** @param {RecordingStatus & { available: boolean }} next */
    update(next) { status = next; draw(); },
  };
}

/** @param {number} ms the time so far, as m:ss */
function clock(ms) { const s = Math.max(0, Math.floor(ms / 1000)); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`; }

/** Is the tab a web page (Chrome records no browser page)? @param {number} id */
async function webPage(id) {
  const tab = await browser.tabs.get(id).catch(() => null);
  return !!tab?.url && /^(https?|file|data):/i.test(tab.url);
}

/**
 * What to do after Chrome's picker closed without a pick, in the panel's language, with the record
 * key the person has; a browser page, which nothing makes recordable, keeps the background's sentence.
 * @param {(key: string, subs?: string[]) => string} t @param {number} id @param {string} said
 */
async function refusal(t, id, said) {
  if (!(await webPage(id))) return said;
  const commands = await browser.commands.getAll().catch(() => []);
  const key = commands.find((c) => c.name === 'record-tab')?.shortcut ?? '';
  return key ? t('recordPressKey', [key]) : t('recordSetKey');
}
