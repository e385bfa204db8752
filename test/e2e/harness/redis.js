// A Redis of the test's own: redis-server (Debian's package) on a free port of 127.0.0.1, with a
// temporary folder and no persistence, stopped and removed at the end.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const port = /** @type {import('node:net').AddressInfo} */ (s.address()).port; s.close(() => resolve(port)); });
  });
}

export async function startRedis() {
  const dir = await mkdtemp(join(tmpdir(), 'tw-redis-'));
  const port = await freePort();
  const bin = process.env.REDIS_SERVER ?? 'redis-server';
  const child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise((resolve, reject) => {
    let out = '';
    const fail = (/** @type {unknown} */ why) => reject(new Error(`redis-server did not start (${why}); install it with apt-get install -y redis-server. ${out.slice(-400)}`));
    child.once('error', fail);
    child.once('exit', (code) => fail(`exit ${code}`));
    child.stdout.on('data', (d) => { out += d; if (out.includes('Ready to accept connections')) resolve(undefined); });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
