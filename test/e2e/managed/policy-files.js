// A managed policy applied the way an administrator applies it, without touching what other tests
// see. Firefox: a private copy of its install folder (hard links, so it is fast and small) whose
// distribution/policies.json carries the policy under 3rdparty.Extensions; nothing system-wide
// changes. Chromium: a file in /etc/chromium/policies/managed (Chromium reads no other place), named
// for this test and keyed to this checkout's unpacked extension id, removed when the test ends.
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, basename } from 'node:path';
import { promisify } from 'node:util';
import { CHROME_EXT, GECKO_ID, unpackedExtensionId } from '../harness/browsers.js';

const run = promisify(execFile);
export const CHROMIUM_POLICY_DIR = '/etc/chromium/policies/managed';
export const CHROMIUM_POLICY_FILE = join(CHROMIUM_POLICY_DIR, 'tabwright-e2e-managed-policy.json');

/**
 * Writes Chromium's policy file for this checkout's extension. @param {Record<string, unknown>} policy
 * @returns {Promise<() => Promise<void>>} removes it
 */
export async function applyChromiumPolicy(policy) {
  await mkdir(CHROMIUM_POLICY_DIR, { recursive: true });
  await writeFile(CHROMIUM_POLICY_FILE, JSON.stringify({ '3rdparty': { extensions: { [unpackedExtensionId(CHROME_EXT)]: policy } } }, null, 2));
  return () => rm(CHROMIUM_POLICY_FILE, { force: true });
}

/**
 * A private Firefox with the policy in its distribution folder.
 * @param {Record<string, unknown>} policy @param {string} [firefox] the system's Firefox binary
 * @returns {Promise<{ executablePath: string, remove: () => Promise<void> }>}
 */
export async function privateFirefoxWithPolicy(policy, firefox = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr') {
  const binary = await realpath(firefox);
  const installDir = dirname(binary);
  const dir = await mkdtemp(join(tmpdir(), 'tw-ff-policy-'));
  const copy = join(dir, 'firefox');
  // Hard links where the file system allows (the same disk), a real copy otherwise.
  await run('cp', ['-al', installDir, copy]).catch(() => run('cp', ['-a', installDir, copy]));
  // distribution/ is a link into /usr/share on Debian: the copy gets a folder of its own.
  await rm(join(copy, 'distribution'), { recursive: true, force: true });
  await mkdir(join(copy, 'distribution'));
  await writeFile(join(copy, 'distribution', 'policies.json'), JSON.stringify({ policies: { '3rdparty': { Extensions: { [GECKO_ID]: policy } } } }, null, 2));
  return { executablePath: join(copy, basename(binary)), remove: () => rm(dir, { recursive: true, force: true }) };
}
