// A skill as the text of its file (for editing, export and the skills tool's read), without the
// parser's js-yaml: skill-format.js reads the file back.
/** @import { Skill } from '../../types/knowledge' */
import { formatFrontMatter } from '../front-matter-text.js';

/** The file text of a skill (for editing and export). @param {Skill} s */
export function formatSkill(s) {
  return formatFrontMatter({
    name: s.name, title: s.title, description: s.description, mode: s.mode, match: s.match, tools: s.tools,
    parameters: s.parameters.map((p) => ({ name: p.name, description: p.description, ...(p.default !== undefined ? { default: p.default } : {}) })),
  }, s.body);
}
