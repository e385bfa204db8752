// A workflow file as the extension exports it (the workflows page's Export: { format:
// "tabwright-workflows", v: 1, workflows: [...] }) or one workflow alone; the extension checks it
// again on import (agent/workflows/workflow-format.js), so this only picks one and names it.
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';

/**
 * @param {unknown} data @param {string} [name] which workflow of a file that holds several
 * @returns {any} the workflow, with an id (a file written by hand may have none: one is made from its name)
 */
export function pickWorkflow(data, name) {
  const d = /** @type {any} */ (data ?? {});
  const list = Array.isArray(d.workflows) ? d.workflows : d.v === 1 && Array.isArray(d.steps) ? [d] : null;
  if (!list?.length) throw new Error('That file is not a Tabwright workflow export (nor one workflow).');
  const wf = name ? list.find((/** @type {any} */ w) => w.name === name || w.id === name) : list[0];
  if (!wf) throw new Error(`The file has no workflow "${name}"; it has ${list.map((/** @type {any} */ w) => `"${w.name}"`).join(', ')}.`);
  if (!name && list.length > 1) throw new Error(`The file holds ${list.length} workflows: choose one with --name.`);
  const id = wf.id || `wf-${createHash('sha256').update(String(wf.name)).digest('hex').slice(0, 16)}`;
  return { ...wf, id, createdAt: wf.createdAt ?? 0, updatedAt: wf.updatedAt ?? 0 };
}

/** @param {string} path @param {string} [name] */
export async function readWorkflow(path, name) {
  let data;
  try { data = JSON.parse(await readFile(path, 'utf8')); } catch (err) {
    throw new Error(`Could not read ${path} as JSON: ${err instanceof Error ? err.message : err}`);
  }
  return pickWorkflow(data, name);
}
