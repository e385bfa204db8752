// What Tabwright knows about a site (its adapter's guidance, its skills) reaches the model once per
// site: in the run's first user message for the site it starts on, and in a step's result when the
// step takes the tab to a site with another guide. The tier announcement rides along at the start.
/** @import { SiteGuide } from '../adapters/site-guide.js' */
/** @import { Run } from './prepare.js' */
import { guideSent, withGuide } from '../adapters/site-guide.js';

/**
 * The guide of the site the run starts on goes into the run's first user message, unless the
 * conversation already has it. Sets the run's guide key. @param {Run} run
 */
export async function startGuide(run) {
  const { opts, ctx, messages } = run;
  if (!opts.siteGuide) return;
  const tab = await ctx.browser.getTab(ctx.tabId).catch(() => null);
  const guide = tab?.url ? await guideFor(run, tab.url) : null;
  if (!guide) return;
  if (!guideSent(messages, guide)) {
    const last = messages.findLastIndex((m) => m.role === 'user');
    if (last >= 0) {
      messages[last] = withGuide(messages[last], guide);
      emitGuide(run, guide);
    }
  }
  run.guideKey = guide.key;
}

/**
 * A step that changed the tab's URL: the new site's guide, when it has another one the
 * conversation has not had yet, to be added to the step's result.
 * @param {Run} run @param {string | undefined} before @param {string | undefined} after
 * @returns {Promise<string | null>} the guide's text to add
 */
export async function guideAfterStep(run, before, after) {
  if (!after || after === before) return null;
  const guide = await guideFor(run, after);
  if ((guide?.key ?? null) === run.guideKey) return null;
  run.guideKey = guide?.key ?? null;
  if (!guide || guideSent(run.messages, guide)) return null;
  emitGuide(run, guide);
  return guide.text;
}

/**
 * A tier other than the full set is said in the panel, and a read-only one to the model too (its
 * task may ask for acting it cannot do). @param {Run} run
 */
export function announceTier(run) {
  const { tiering, tier, provider, contextWindow, emit, messages, mode } = run;
  if (tiering.tier === 'full') return;
  const who = `${provider.label}${provider.model ? ` (${provider.model})` : ''}`;
  const window = `${contextWindow.toLocaleString('en-US')}-token`;
  if (tiering.tier === 'compact') {
    emit({ type: 'notice', code: 'TOOLS_COMPACT', message: `${who} has a ${window} context window: it is offered ${tier.tools.length} core tools with short descriptions, so a page outline still fits.` });
    return;
  }
  emit({ type: 'notice', code: 'TOOLS_READ_ONLY', message: `${who} has a ${window} context window, too small for the acting tools and a page outline together: this run can only read the page. Choose a model with a larger window in Settings → Provider to act.` });
  const last = messages.findLastIndex((m) => m.role === 'user');
  if (mode !== 'ask' && last >= 0 && typeof messages[last].content === 'string') {
    messages[last] = { ...messages[last], content: `${messages[last].content}\n\n[Tabwright, not the user] Only reading tools are available to you in this run (your context window is small). Read the page and answer; say what the user would have to do themselves.` };
  }
}

/** @param {Run} run @param {string} url @returns {Promise<SiteGuide | null>} */
function guideFor(run, url) {
  return run.opts.siteGuide ? run.opts.siteGuide(url).catch(() => null) : Promise.resolve(null);
}

/** @param {Run} run @param {SiteGuide} guide */
function emitGuide(run, guide) {
  run.emit({ type: 'guidance', key: guide.key, name: guide.name, site: guide.site, adapterId: guide.adapterId, skills: guide.skills, text: guide.text });
}
