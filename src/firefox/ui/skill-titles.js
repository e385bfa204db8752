// The bundled skills' titles in the person's language, for the chips and the "/" menu. A skill the
// person wrote (or changed: its source is no longer "bundled") keeps the title it was given.
/** @import { Skill } from '../types/knowledge' */

/** Keys written out so the i18n test sees them. @type {Record<string, (t: (key: string) => string) => string>} */
const BUNDLED = {
  'accessibility-check': (t) => t('skillTitle_accessibility_check'),
  'compare-prices': (t) => t('skillTitle_compare_prices'),
  'contact-info': (t) => t('skillTitle_contact_info'),
  'draft-reply': (t) => t('skillTitle_draft_reply'),
  'explain-simply': (t) => t('skillTitle_explain_simply'),
  'extract-table': (t) => t('skillTitle_extract_table'),
  'fill-form': (t) => t('skillTitle_fill_form'),
  'github-pr-review': (t) => t('skillTitle_github_pr_review'),
  'key-dates': (t) => t('skillTitle_key_dates'),
  'summarize-page': (t) => t('skillTitle_summarize_page'),
  'track-price': (t) => t('skillTitle_track_price'),
  'translate-summary': (t) => t('skillTitle_translate_summary'),
  'triage-inbox': (t) => t('skillTitle_triage_inbox'),
};

/**
 * @param {Pick<Skill, 'name' | 'title' | 'source'>} skill @param {(key: string) => string} t
 */
export function skillTitle(skill, t) {
  const title = skill.source === 'bundled' ? BUNDLED[skill.name]?.(t) : undefined;
  return title && !title.startsWith('skillTitle_') ? title : skill.title;
}
