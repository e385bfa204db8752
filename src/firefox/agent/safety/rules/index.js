// The safety policy's rules, in the order they are asked (rule.js: the first that decides gives
// the verdict). Each file holds what its rules decide and why; docs/SECURITY.md says what they
// cover and what they cannot.
/** @import { CallRule, RequestRule } from './rule.js' */
import { readOnlyChanges, readOnlyOtherSite } from './read-only-mode.js';
import { futureJob } from './future-job.js';
import { skillSave } from './skill-save.js';
import { pageTool } from './page-tool.js';
import { fetchWrite } from './fetch-write.js';
import { runCode } from './run-code.js';
import { destination } from './destination.js';
import { typedSecret } from './typed-secret.js';
import { sensitiveSite } from './sensitive-site.js';
import { siteConfirm } from './site-confirm.js';
import { secretLeak } from './secret-leak.js';
import { downloadSite, executableDownload, undeclaredDownload } from './download.js';
import { unheldSocket } from './unheld-socket.js';
import { navigationRead, subresourceRead } from './read.js';
import { writeOutOfScope } from './write-out-of-scope.js';
import { duplicateWrite } from './duplicate-write.js';
import { serverWrite } from './write.js';

/**
 * Before a tool call runs. A mode that only reads refuses first; what always asks (a job, a skill,
 * a page's tool, the agent's own write) asks before the checks of what a step carries or where it
 * acts; code, a destination and a typed secret may pass, and the site's own rules come last.
 * @type {readonly CallRule[]}
 */
export const CALL_RULES = [
  readOnlyChanges, readOnlyOtherSite,
  futureJob, skillSave, pageTool, fetchWrite,
  runCode, destination, typedSecret,
  sensitiveSite, siteConfirm,
];

/**
 * A request the page sent during a step. A secret going elsewhere is asked about whatever else the
 * request is; downloads and sockets nothing can hold are judged on their own; reads by where they
 * go and what they carry; writes by the task's sites, then as duplicates, then as writes.
 * @type {readonly RequestRule[]}
 */
export const REQUEST_RULES = [
  secretLeak,
  executableDownload, undeclaredDownload, downloadSite,
  unheldSocket,
  navigationRead, subresourceRead,
  writeOutOfScope, duplicateWrite, serverWrite,
];
