// The memory one browser takes: the proportional set size (PSS: shared pages divided among the
// processes that share them, so the sum over processes is fair) of every process of the browser.
// The browser is found by its profile folder on its command line, then its child processes by parent.
// Linux only (/proc); elsewhere it answers 0.
import { readdir, readFile } from 'node:fs/promises';

/** @param {string} profile @returns {Promise<number>} bytes */
export async function browserMemory(profile) {
  const procs = await processes();
  const roots = procs.filter((p) => p.cmdline.includes(profile)).map((p) => p.pid);
  const mine = new Set(roots);
  // Children are listed by parent; a few passes reach grandchildren (zygotes, content processes).
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs) if (!mine.has(p.pid) && mine.has(p.ppid)) { mine.add(p.pid); grew = true; }
  }
  let total = 0;
  for (const pid of mine) total += await pss(pid);
  return total;
}

/** @returns {Promise<{ pid: number, ppid: number, cmdline: string }[]>} */
async function processes() {
  const names = await readdir('/proc').catch(() => /** @type {string[]} */ ([]));
  const out = [];
  for (const n of names) {
    if (!/^\d+$/.test(n)) continue;
    try {
      const stat = await readFile(`/proc/${n}/stat`, 'utf8');
      // The command name in parentheses may hold spaces: the fields after it are fixed.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmdline = (await readFile(`/proc/${n}/cmdline`, 'utf8')).replaceAll('\0', ' ');
      out.push({ pid: Number(n), ppid, cmdline });
    } catch { /* the process ended while listed */ }
  }
  return out;
}

/** @param {number} pid @returns {Promise<number>} bytes */
async function pss(pid) {
  const text = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
  const kb = /^Pss:\s+(\d+) kB/m.exec(text)?.[1];
  return kb ? Number(kb) * 1024 : 0;
}
