// Where a bridge keeps its identity and its pairing secret between runs: one small JSON file,
// readable by its owner only (mode 600, in a folder of mode 700). The secret is the only thing a
// program needs to pose as this bridge; docs/MCP.md says where the file is and how to forget it.
import { readFile, writeFile, mkdir, rename, chmod } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { homedir } from 'node:os';
import { newBridgeId } from '../chrome/mcp-protocol/pairing.js';

/**
 * @typedef {{ bridgeId: string, secret?: string }} BridgeState
 */

/** The default file: $XDG_CONFIG_HOME/tabwright/mcp-bridge.json (~/.config/… without it). */
export function defaultStatePath() {
  const base = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'tabwright', 'mcp-bridge.json');
}

/**
 * The stored state, or a new one (a new bridge id, unpaired) when there is none or it is unreadable.
 * @param {string} path @returns {Promise<BridgeState>}
 */
export async function loadState(path) {
  try {
    const data = JSON.parse(await readFile(path, 'utf8'));
    if (typeof data?.bridgeId === 'string' && /^[0-9a-f]{32}$/.test(data.bridgeId)) {
      return { bridgeId: data.bridgeId, ...(typeof data.secret === 'string' && /^[0-9a-f]{64}$/.test(data.secret) ? { secret: data.secret } : {}) };
    }
  } catch { /* none yet, or unreadable: start afresh */ }
  return { bridgeId: newBridgeId() };
}

/** Written whole to a temporary file, then renamed over the old one. @param {string} path @param {BridgeState} state */
export async function saveState(path, state) {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, path);
}
