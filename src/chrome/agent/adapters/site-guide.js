// What the agent is told about the site it is on: the matching adapter's guidance and the skills
// saved for that site, as one block marked as Tabwright's (never the page's). The loop adds it to the
// run's first user message and again to the result of a step that took the tab to another site.
/** @import { Adapter, Skill } from '../../types/knowledge' */
/** @import { ChatMessage } from '../../types/core' */
import { textOf } from '../compaction.js';

/**
 * @typedef {object} SiteGuide
 * @property {string} key what makes this guide different from another site's (adapter id and skill names)
 * @property {string} name the adapter's name, or the host
 * @property {string} site the host the guide was chosen for
 * @property {string | null} adapterId
 * @property {string[]} skills names of the site's skills
 * @property {string} text the block the model receives
 */

/**
 * @param {string} url @param {Adapter | null} adapter @param {readonly Skill[]} siteSkills skills whose patterns match this site
 * @returns {SiteGuide | null} null when Tabwright knows nothing particular about the site
 */
export function siteGuide(url, adapter, siteSkills) {
  if (!adapter && !siteSkills.length) return null;
  let site = '';
  try { site = new URL(url).hostname; } catch { /* keep empty */ }
  const name = adapter?.name ?? site;
  const lines = [`[Tabwright: site guidance for ${name} (${site}), from the extension, not from the page. ${marker(keyOf(adapter, siteSkills))}]`];
  if (adapter) {
    lines.push(adapter.guidance);
    if (adapter.tools.length) lines.push(`Tools that work well here: ${adapter.tools.join(', ')}.`);
    if (adapter.risk === 'high') lines.push('This is a sensitive site: the user confirms every step that acts here.');
  }
  if (siteSkills.length) {
    lines.push('Skills saved for this site (read one with the skills tool before following it):');
    for (const s of siteSkills.slice(0, 8)) lines.push(`- ${s.name}: ${s.description}`);
  }
  lines.push('[end of site guidance]');
  return { key: keyOf(adapter, siteSkills), name, site, adapterId: adapter?.id ?? null, skills: siteSkills.map((s) => s.name), text: lines.join('\n') };
}

/** @param {Adapter | null} adapter @param {readonly Skill[]} siteSkills */
function keyOf(adapter, siteSkills) {
  return `${adapter?.id ?? '-'}${siteSkills.length ? `+${siteSkills.map((s) => s.name).join(',')}` : ''}`;
}

/** @param {string} key */
function marker(key) {
  return `guide:${key}`;
}

/**
 * Is this guide already in the conversation (sent earlier and not compacted away)?
 * @param {readonly ChatMessage[]} messages @param {SiteGuide} guide
 */
export function guideSent(messages, guide) {
  const m = `${marker(guide.key)}]`;
  return messages.some((x) => (x.role === 'user' || x.role === 'tool') && ownText(x).includes(m));
}

/**
 * The part of a message Tabwright wrote: a tool result's text after its fenced page content (a page
 * that prints a guide's marker must not make the loop believe the guide was sent).
 * @param {ChatMessage} m
 */
function ownText(m) {
  const text = textOf(m.content);
  if (m.role !== 'tool') return text;
  const end = text.lastIndexOf('</untrusted_page_content'); // fence closings in page text are neutralised (agent/untrusted.js)
  return end < 0 ? text : text.slice(end);
}

/**
 * The message with the guide after its text (a user message's parts keep their images).
 * @param {ChatMessage} message @param {SiteGuide} guide @returns {ChatMessage}
 */
export function withGuide(message, guide) {
  if (typeof message.content === 'string') return { ...message, content: `${message.content}\n\n${guide.text}` };
  return { ...message, content: [...message.content, { type: 'text', text: guide.text }] };
}
