#!/usr/bin/env node
// tabwright-mcp: lets an MCP client (Claude Code, Claude Desktop, Cursor, Codex…) use the user's
// own browser through Tabwright, under Tabwright's confirmations. It speaks MCP over stdio to the
// client that starts it, and listens on 127.0.0.1 for Tabwright's background to dial in (the
// extension's Settings > MCP bridge). stdout is the MCP channel: everything else goes to stderr.
// Set-up and security model: docs/MCP.md.
import { readFile } from 'node:fs/promises';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createExtensionLink } from './ws-link.js';
import { createMcpServer } from './mcp-server.js';
import { defaultStatePath, loadState, saveState } from './state.js';

const DEFAULT_PORT = 17373;
const USAGE = `tabwright-mcp [--port N] [--name NAME] [--state FILE] [--forget]
  --port N      first port to listen on, on 127.0.0.1 (default ${DEFAULT_PORT}, or $TABWRIGHT_MCP_PORT); the next 3 are tried when it is taken
  --name NAME   the name Tabwright shows for this client (default: the name the MCP client gives)
  --state FILE  where the pairing is kept (default ${defaultStatePath()}, or $TABWRIGHT_MCP_STATE)
  --forget      forget the pairing and print a new code`;

/** @param {string[]} argv */
function parseArgs(argv) {
  /** @type {{ port: number, name: string | null, state: string, forget: boolean }} */
  const o = { port: Number(process.env.TABWRIGHT_MCP_PORT) || DEFAULT_PORT, name: null, state: process.env.TABWRIGHT_MCP_STATE || defaultStatePath(), forget: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--port') o.port = Number(argv[++i]);
    else if (a === '--name') o.name = String(argv[++i] ?? '').slice(0, 100);
    else if (a === '--state') o.state = String(argv[++i] ?? '');
    else if (a === '--forget') o.forget = true;
    else if (a === '--help' || a === '-h') { process.stderr.write(`${USAGE}\n`); process.exit(0); }
    else { process.stderr.write(`tabwright-mcp: unknown option ${a}\n${USAGE}\n`); process.exit(2); }
  }
  if (!Number.isInteger(o.port) || o.port < 1024 || o.port > 65530) { process.stderr.write('tabwright-mcp: --port must be a whole number from 1024 to 65530\n'); process.exit(2); }
  return o;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const log = (/** @type {string} */ line) => process.stderr.write(`tabwright-mcp: ${line}\n`);
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
  const state = await loadState(opts.state);
  if (opts.forget) delete state.secret;
  await saveState(opts.state, state);
  let clientName = opts.name ?? 'MCP client';
  /** @type {ReturnType<typeof createMcpServer> | null} */
  let mcp = null;
  const link = createExtensionLink({
    port: opts.port, state, save: (s) => saveState(opts.state, s), name: () => clientName, log,
    onEvent: () => { void mcp?.toolsChanged(); },
  });
  await link.start();
  mcp = createMcpServer({ link, version: pkg.version, onClientName: (n) => { if (!opts.name) { clientName = n.slice(0, 100); link.renamed(); } } });
  const transport = new StdioServerTransport();
  const quit = async () => { await link.close().catch(() => {}); process.exit(0); };
  transport.onclose = () => { void quit(); };
  process.stdin.on('end', () => { void quit(); });
  process.on('SIGINT', () => { void quit(); });
  process.on('SIGTERM', () => { void quit(); });
  await mcp.server.connect(transport);
}

main().catch((err) => {
  process.stderr.write(`tabwright-mcp: ${err instanceof Error ? err.message : err}\n`);
  process.exit(1);
});
