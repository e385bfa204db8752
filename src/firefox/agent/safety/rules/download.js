// A download a step started: a program (by name, type or first bytes) asks at high severity on
// every site, the always-allowed ones too, since opened it runs with the person's rights; a file
// whose server does not say what it is asks; any other file asks only from outside the task's sites.
/** @import { RequestRule } from './rule.js' */
import { originOf, siteLabel } from '../scope.js';
import { executableKind, undeclaredDocument } from '../executables.js';
import { destinationAsk, shorten } from './cards.js';
import { allow, ask } from './rule.js';

/** @type {import('./rule.js').RequestRule['appliesTo']} */
const isDownload = ({ req }) => req.kind === 'download';

/** 'Download "a.pdf" from https://…'. @param {import('../../../types/safety').HeldRequest} req @param {(s: string) => string} mask */
function downloadAction(req, mask) {
  return `Download ${req.filename ? `"${req.filename}" ` : ''}from ${mask(shorten(req.url))}`;
}

/** @type {RequestRule} */
export const executableDownload = {
  name: 'executable_download',
  appliesTo: isDownload,
  decide({ req, ctx }, m) {
    const program = executableKind(req);
    if (!program) return null;
    return ask({ category: 'download', rule: 'executable_download', severity: 'high', action: downloadAction(req, m.mask), site: siteLabel(req.url),
      details: [{ label: 'file', value: req.filename || shorten(req.url) }, ...(req.mime ? [{ label: 'type', value: req.mime.split(';base64,')[0] }] : [])],
      cause: ctx.cause, reason: `The file is ${program}: opened, it runs with your rights on this computer.` });
  },
};

/** @type {RequestRule} */
export const undeclaredDownload = {
  name: 'undeclared_download',
  appliesTo: isDownload,
  decide({ req, ctx }, m) {
    // The browser shows no byte of a download before it is decided: a program named like a document is only told by its server's word.
    const unsure = undeclaredDocument(req);
    if (!unsure) return null;
    return ask({ category: 'download', rule: 'executable_download', severity: 'normal', action: downloadAction(req, m.mask), site: siteLabel(req.url),
      details: [{ label: 'file', value: req.filename || shorten(req.url) }, { label: 'type', value: /** @type {string} */ (req.mime) }],
      cause: ctx.cause, reason: `The server does not say what the file is (${unsure}): Tabwright cannot check that it is the document its name says and not a program. Allow it only if you expected this file.` });
  },
};

/** @type {RequestRule} */
export const downloadSite = {
  name: 'download_site',
  appliesTo: isDownload,
  decide({ req, ctx }, m) {
    if (m.scope.has(req.url)) return allow();
    const site = siteLabel(req.url);
    const scopeKey = originOf(req.url) ?? undefined;
    return destinationAsk(m, req.url, { category: 'leave', rule: 'leave_scope', severity: 'normal', action: downloadAction(req, m.mask), site, details: [], cause: ctx.cause,
      reason: `${site} is not one of this task's sites.`, scopeKey, scope: scopeKey ? { kind: 'site', site, severity: 'normal' } : undefined });
  },
};
