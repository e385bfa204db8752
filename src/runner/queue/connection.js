// The Redis connection and the names the queue's parts share. BullMQ keeps its jobs under
// "<prefix>:<queue>:…"; the run ledger sits beside them under "<prefix>:run:<key>" and
// "<prefix>:result:<key>" (ledger.js).
import { Redis } from 'ioredis';

export const DEFAULT_QUEUE = 'tabwright-runs';
export const DEFAULT_PREFIX = 'tabwright';

/**
 * A connection as BullMQ's workers need it: commands wait while Redis is away instead of failing
 * (maxRetriesPerRequest: null), so a Redis restart pauses the workers rather than failing runs.
 * @param {string} url redis://host:port[/db]
 */
export function connect(url) {
  return new Redis(url, { maxRetriesPerRequest: null });
}
