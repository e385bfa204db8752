// A tool card's one-line sentence in the user's language: what the agent did, on which element (its
// role and name as the page gives them) or where, from the call's arguments and result. The raw
// arguments and result stay behind the card's disclosure.
/** @import { TranscriptItem } from '../types/messages' */

/**
 * @param {Extract<TranscriptItem, { kind: 'tool' }>} item (arguments already masked)
 * @param {(key: string, subs?: string | string[]) => string} t
 */
export function toolSentence(item, t) {
  const a = /** @type {Record<string, any>} */ (item.args && typeof item.args === 'object' ? item.args : {});
  const quote = (/** @type {unknown} */ s) => `“${String(s).length > 48 ? `${String(s).slice(0, 47)}…` : String(s)}”`;
  const target = item.target?.name ? quote(item.target.name) : a.ref ? `[${a.ref}]` : a.text && item.name === 'click' ? quote(a.text) : a.selector ? quote(a.selector) : '';
  const host = (/** @type {unknown} */ u) => { try { const x = new URL(String(u)); return `${x.host}${x.pathname === '/' ? '' : x.pathname}`.slice(0, 60); } catch { return String(u ?? ''); } };
  switch (item.name) {
    case 'snapshot': return t('toolSays_snapshot');
    case 'read_page': return t('toolSays_read_page');
    case 'screenshot': return t('toolSays_screenshot');
    case 'click': return t('toolSays_click', target);
    case 'hover': return t('toolSays_hover', target);
    case 'type': case 'set_field': return t('toolSays_type', target);
    case 'select_option': return t('toolSays_select_option', [quote(a.label ?? a.value ?? (a.labels ?? a.values ?? []).join(', ')), target]);
    case 'check': return t('toolSays_check', target);
    case 'uncheck': return t('toolSays_uncheck', target);
    case 'press_keys': return t('toolSays_press_keys', (Array.isArray(a.keys) ? a.keys : [a.keys]).join(' '));
    case 'scroll': return t('toolSays_scroll');
    case 'navigate': return t('toolSays_navigate', host(a.url));
    case 'go_back': return t('toolSays_go_back');
    case 'wait_for': return t('toolSays_wait_for');
    case 'tabs': return t('toolSays_tabs');
    case 'done': return t('toolSays_done');
    // "Scheduled" only when the job exists: a call that failed (or has no result yet) only tried.
    case 'schedule_task': return item.result?.ok ? t('toolSays_schedule_task', quote(a.title ?? '')) : t('toolSays_schedule_failed', quote(a.title ?? ''));
    case 'clarify': return t('toolSays_clarify');
    case 'execute_js': return t('toolSays_execute_js');
    case 'network_requests': return t('toolSays_network_requests');
    case 'inspect_styles': return t('toolSays_inspect_styles', target);
    case 'inject_css': return t('toolSays_inject_css');
    case 'record_tab': return t('toolSays_record_tab');
    case 'stop_recording': return t('toolSays_stop_recording');
    default: return t('toolSays_other', item.name);
  }
}
