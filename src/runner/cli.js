#!/usr/bin/env node
// `tabwright`: Tabwright without a person at the browser. `run` runs one workflow or task in a
// headless browser; `worker` takes runs from a BullMQ queue on Redis; `enqueue` puts runs on it.
// docs/SCALE.md says how to run them at scale. Each command is loaded only when named (`run`
// needs no Redis client).
import { UsageError } from './args.js';
import { EXIT } from './result.js';

/** @type {Record<string, () => Promise<{ command: (argv: string[]) => Promise<number>, usage: string }>>} */
const COMMANDS = {
  run: async () => { const m = await import('./run-command.js'); return { command: m.runCommand, usage: m.RUN_USAGE }; },
  worker: async () => { const m = await import('./queue/worker-command.js'); return { command: m.workerCommand, usage: m.WORKER_USAGE }; },
  enqueue: async () => { const m = await import('./queue/enqueue-command.js'); return { command: m.enqueueCommand, usage: m.ENQUEUE_USAGE }; },
};

const [name, ...rest] = process.argv.slice(2);
const load = COMMANDS[name ?? ''];
if (!load) {
  process.stderr.write(`tabwright run | worker | enqueue (tabwright COMMAND --help for its options)\n`);
  process.exit(name === '--help' || name === 'help' ? 0 : EXIT.usage);
}
const { command, usage } = await load();
if (rest.includes('--help')) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
try {
  process.exitCode = await command(rest);
} catch (err) {
  const bad = err instanceof UsageError;
  process.stderr.write(`tabwright: ${err instanceof Error ? err.message : err}\n${bad ? `\n${usage}\n` : ''}`);
  process.exitCode = bad ? EXIT.usage : EXIT.error;
}
