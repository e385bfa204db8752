// The agent's own JavaScript in the page can do anything the page can (read every field, send
// requests): it asks, unless the person always allows the site (Settings → Site permissions) or
// allowed code there for this task. A sensitive site always asks, and so does code that reads what
// signs the person in and can send it; what the code sends is held like any acting step's requests.
/** @import { CallRule } from './rule.js' */
import { originOf, siteLabel } from '../scope.js';
import { matchesAny } from '../site-patterns.js';
import { covers } from '../policy-memory.js';
import { ask, has } from './rule.js';

/** Code that reads what signs the user in (cookies, storage)… */
const READS_SESSION = /document\s*\.\s*cookie|\bcookieStore\b|\b(?:local|session)Storage\b|\bindexedDB\b/;
/** …and can send it somewhere. */
const CAN_SEND = /\bfetch\s*\(|\bXMLHttpRequest\b|\bsendBeacon\b|\bWebSocket\b|\bEventSource\b|\bnew\s+Image\b|\.src\s*=|\bsetAttribute\s*\(\s*['"](?:src|href|action)|\blocation(?:\.href)?\s*=|\bwindow\.open\s*\(|\.submit\s*\(|\bimport\s*\(/;

/** @type {CallRule} */
export const runCode = {
  name: 'run_code',
  appliesTo: (f) => has(f, 'runs_code'),
  decide(f, m) {
    const key = `code ${originOf(f.url) ?? ''}`;
    const sensitive = m.opts.sensitiveSite?.(f.url);
    const code = String(f.args.code ?? '');
    // Code that reads what signs the user in and can send it anywhere can hand the session to
    // another site: high, asked on every site, and never covered by an answer for ordinary code.
    const exfil = READS_SESSION.test(code) && CAN_SEND.test(code);
    const severity = sensitive || exfil ? 'high' : 'normal';
    if (!sensitive && !exfil && (covers(m, key, severity) || matchesAny(m.allowSites, siteLabel(f.url)))) return null;
    const coverable = !sensitive && !exfil;
    return ask({
      category: 'code', rule: 'run_code', severity, action: 'Run JavaScript in the page', site: siteLabel(f.url),
      details: [{ label: 'code', value: code.length > 2_000 ? `${m.mask(code.slice(0, 2_000))}…` : m.mask(code) }],
      reason: exfil ? 'The agent\'s code reads the site\'s cookies or storage (what keeps you signed in) and can send data off the page: it could hand your session to another site.'
        : `The agent wants to run its own code in this page; code can read everything on the page and change it${sensitive ? `, and ${sensitive.name} is a sensitive site` : ''}.`,
      scopeKey: coverable ? key : undefined,
      scope: coverable ? { kind: 'code', site: siteLabel(f.url), severity } : undefined,
    });
  },
};
