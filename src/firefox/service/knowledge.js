// What Tabwright knows about sites and what the user taught it: the adapter and skill catalogs built
// from the bundled files and the user's stores, rebuilt after every change, and what a run needs from
// them (the site guide, the sensitive-site test, the skill tools' access).
/** @import { SkillsAccess } from '../types/core' */
/** @import { StorageArea } from './settings.js' */
import { BUNDLED as BUNDLED_ADAPTERS } from '../bundled-adapters/bundled.js';
import { BUNDLED as BUNDLED_SKILLS } from '../bundled-skills/bundled.js';
import { createAdapterCatalog } from '../agent/adapters/catalog.js';
import { createSkillCatalog } from '../agent/skills/catalog.js';
import { siteGuide } from '../agent/adapters/site-guide.js';
import { ALL_TOOLS } from '../agent/tools/index.js';
import { createAdapterStore } from './adapters-store.js';
import { createSkillStore } from './skills-store.js';

/**
 * @param {object} deps
 * @param {StorageArea} deps.area storage.local
 * @param {ReturnType<typeof createSkillStore>} [deps.skillStore]
 */
export function createKnowledge({ area, skillStore }) {
  const toolNames = new Set(ALL_TOOLS.map((t) => t.name));
  const adapterStore = createAdapterStore(area, toolNames);
  const skillsDb = skillStore ?? createSkillStore({ toolNames });
  /** @type {Promise<ReturnType<typeof createAdapterCatalog>> | null} */
  let adapterCatalog = null;
  /** @type {Promise<ReturnType<typeof createSkillCatalog>> | null} */
  let skillCatalog = null;

  const adapters = () => (adapterCatalog ??= adapterStore.get().then((settings) => createAdapterCatalog({ bundled: BUNDLED_ADAPTERS, settings, toolNames })));
  const skills = () => (skillCatalog ??= Promise.all([skillsDb.all(), skillsDb.disabled()])
    .then(([stored, disabled]) => createSkillCatalog({ bundled: BUNDLED_SKILLS, stored, disabled, toolNames })));

  /**
   * Runs a change and rebuilds the catalog it touched.
   * @template T @param {'adapters' | 'skills'} which @param {() => Promise<T>} change @returns {Promise<T>}
   */
  async function changing(which, change) {
    try { return await change(); } finally {
      if (which === 'adapters') adapterCatalog = null; else skillCatalog = null;
    }
  }

  /** @type {SkillsAccess} */
  const skillsAccess = {
    forUrl: async (url) => (await skills()).forUrl(url),
    get: async (name) => (await skills()).get(name),
    async save(text, source) {
      const r = await changing('skills', () => skillsDb.save(text, source));
      if (!r.ok) return r;
      const skill = (await skills()).get(r.name);
      return skill ? { ok: true, skill } : { ok: false, errors: [{ field: 'name', message: 'The skill was saved but is turned off.' }] };
    },
  };

  return {
    adapters,
    skills,
    adapterStore,
    skillStore: skillsDb,
    changing,
    skillsAccess,
    /**
     * What a run is told about a site: its adapter's guidance and the skills saved for it.
     * @param {string} url
     */
    async siteGuide(url) {
      const [a, s] = await Promise.all([adapters(), skills()]);
      const siteSkills = s.forUrl(url).filter((k) => k.match.length);
      return siteGuide(url, a.forUrl(url), siteSkills);
    },
    /** A policy's sensitive-site test, from the catalog as it is now. */
    async sensitiveSites() {
      const a = await adapters();
      return (/** @type {string} */ url) => {
        const hit = a.forUrl(url);
        return hit?.risk === 'high' ? { name: hit.name } : null;
      };
    },
  };
}
