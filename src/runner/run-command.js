// `tabwright run`: one workflow file or one task, in a headless browser of its own, with the verdict
// and the trace as JSON on stdout and the progress on stderr. The exit code is the verdict's (result.js).
import { parseArgs, valuesOf, numberArg, UsageError } from './args.js';
import { readWorkflow } from './workflow-file.js';
import { launchBrowser } from './browser.js';
import { runOnce } from './drive.js';
import { providerFromEnv, runnerSettings } from './provider-env.js';
import { EXIT } from './result.js';

export const RUN_USAGE = `tabwright run WORKFLOW.json [--name NAME] [--value name=value]...
tabwright run --task "TEXT" --url URL [--mode act|ask]
  --browser chromium|firefox   the browser (default chromium)
  --profile DIR                a profile folder to use and keep (default: a temporary one)
  --allow-site HOST[:PORT]     a site where writes go without asking a person (repeatable)
  --timeout SECONDS            stop the run after this long (default 300)
  --settle-ms MS               how long the request hold stays past the last acting step (default 5000)
  --no-trace                   leave the trace out of the JSON
A model, when a step needs one, comes from TABWRIGHT_PROVIDER, TABWRIGHT_BASE_URL, TABWRIGHT_MODEL, TABWRIGHT_API_KEY.
Exit: 0 verified, 1 failed, 2 not verified, 3 needs a person, 4 could not run, 64 usage.`;

/** @param {string[]} argv @returns {Promise<number>} the exit code */
export async function runCommand(argv) {
  const a = parseArgs(argv, { lists: ['value', 'allow-site'], switches: ['no-trace', 'headed'] });
  const kind = a.flags.browser ?? 'chromium';
  if (kind !== 'chromium' && kind !== 'firefox') throw new UsageError(`--browser must be chromium or firefox, not "${kind}".`);
  if (!a.words[0] && !a.flags.task) throw new UsageError('Give a workflow file or --task.');
  const workflow = a.words[0] ? await readWorkflow(a.words[0], a.flags.name) : undefined;
  const timeoutMs = numberArg(a.flags.timeout, 300, '--timeout') * 1000;
  const say = (/** @type {string} */ line) => process.stderr.write(`tabwright: ${line}\n`);
  say(`starting ${kind}`);
  const b = await launchBrowser({ kind, profile: a.flags.profile, headed: a.switches.has('headed') });
  try {
    const set = await b.ask({ type: 'settings.set', settings: runnerSettings({ provider: providerFromEnv(process.env), allowSites: a.lists['allow-site'] ?? [], settleMs: a.flags['settle-ms'] ? numberArg(a.flags['settle-ms'], 5000, '--settle-ms') : undefined }) });
    if (!set?.ok) throw new Error(`The settings were refused: ${set?.message}`);
    const result = await runOnce(b, { workflow, values: valuesOf(a.lists.value ?? []), task: a.flags.task, url: a.flags.url, mode: /** @type {any} */ (a.flags.mode) }, { onProgress: say, timeoutMs });
    say(`verdict: ${result.verdict}${result.needsPerson ? ` (${result.needsPerson.reason})` : result.error ? ` (${result.error.code}: ${result.error.message})` : ''}`);
    process.stdout.write(`${JSON.stringify(a.switches.has('no-trace') ? { ...result, trace: undefined } : result, null, 2)}\n`);
    return EXIT[result.verdict];
  } finally {
    await b.close();
  }
}
