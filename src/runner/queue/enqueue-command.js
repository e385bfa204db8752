// `tabwright enqueue`: one run of a workflow file onto the queue, under an idempotency key.
import { Queue } from 'bullmq';
import { parseArgs, valuesOf, numberArg, UsageError } from '../args.js';
import { readWorkflow } from '../workflow-file.js';
import { connect, DEFAULT_QUEUE, DEFAULT_PREFIX } from './connection.js';
import { enqueueRuns } from './enqueue.js';

export const ENQUEUE_USAGE = `tabwright enqueue WORKFLOW.json --key KEY [--name NAME] [--value name=value]...
  --redis URL            redis://host:port (default $TABWRIGHT_REDIS or redis://127.0.0.1:6379)
  --queue NAME           the queue (default ${DEFAULT_QUEUE})
  --key KEY              the idempotency key: the same key never writes twice
  --lookup-url URL       a GET whose answer shows --lookup-text once the run's write landed: a run
  --lookup-text TEXT     cut off mid-way is looked up there before it runs again (without one it is parked)
  --attempts N           tries in all (default 3); --backoff-ms MS the first wait, doubled each time (default 2000)`;

/** @param {string[]} argv @returns {Promise<number>} */
export async function enqueueCommand(argv) {
  const a = parseArgs(argv, { lists: ['value'] });
  if (!a.words[0] || !a.flags.key) throw new UsageError('Give a workflow file and --key.');
  if (!a.flags['lookup-url'] !== !a.flags['lookup-text']) throw new UsageError('--lookup-url and --lookup-text go together.');
  if (!/^[\w-]+$/.test(a.flags.key)) throw new UsageError(`"${a.flags.key}" cannot be an idempotency key: give letters, digits, - or _.`);
  const workflow = await readWorkflow(a.words[0], a.flags.name);
  const redis = connect(a.flags.redis ?? process.env.TABWRIGHT_REDIS ?? 'redis://127.0.0.1:6379');
  const queue = new Queue(a.flags.queue ?? DEFAULT_QUEUE, { connection: redis, prefix: DEFAULT_PREFIX });
  try {
    const lookup = a.flags['lookup-url'] ? { url: a.flags['lookup-url'], text: a.flags['lookup-text'] } : undefined;
    await enqueueRuns(queue, [{ key: a.flags.key, workflow, values: valuesOf(a.lists.value ?? []), ...(lookup ? { lookup } : {}) }],
      { attempts: numberArg(a.flags.attempts, 3, '--attempts'), backoffMs: numberArg(a.flags['backoff-ms'], 2000, '--backoff-ms') });
    process.stderr.write(`tabwright: queued ${a.flags.key}\n`);
    return 0;
  } finally {
    await queue.close();
    redis.disconnect();
  }
}
