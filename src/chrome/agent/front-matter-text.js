// A front matter file written back from its fields (the settings page's editor starts from it, the
// skills tool shows a skill as its file). Kept apart from the parser so that what only writes (the
// tool registry, which the panel loads for its tool sentences) does not load js-yaml (130 KB).

/**
 * Writes a front matter file back (the settings page's editor starts from it).
 * @param {Record<string, unknown>} data @param {string} body
 */
export function formatFrontMatter(data, body) {
  const lines = [];
  for (const [k, v] of Object.entries(data)) {
    if (v === undefined || v === null || (Array.isArray(v) && !v.length)) continue;
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) lines.push(`${k}: [${v.map(yamlScalar).join(', ')}]`);
    else if (Array.isArray(v)) {
      lines.push(`${k}:`);
      for (const item of v) {
        const entries = Object.entries(/** @type {Record<string, unknown>} */ (item));
        entries.forEach(([ik, iv], i) => lines.push(`${i ? '    ' : '  - '}${ik}: ${yamlScalar(String(iv))}`));
      }
    } else lines.push(`${k}: ${typeof v === 'string' ? yamlScalar(v) : String(v)}`);
  }
  return `---\n${lines.join('\n')}\n---\n${body.trim()}\n`;
}

/** A string as a YAML scalar: plain when safe, else double-quoted JSON. @param {string} s */
function yamlScalar(s) {
  return /^[A-Za-z0-9][\w ./()&'+-]*$/.test(s) && !/[:#]|\s$/.test(s) && !/^(true|false|null|yes|no|on|off|~|[\d.+-]+)$/i.test(s) ? s : JSON.stringify(s);
}
