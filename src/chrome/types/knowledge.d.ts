// Shapes of what Tabwright knows about sites (adapters, docs/ADAPTERS.md) and the user's reusable
// prompts (skills, docs/SKILLS.md). Browser-free.
import type { Mode } from './core';

export type AdapterCategory = 'mail' | 'calendar' | 'chat' | 'code' | 'tracker' | 'docs' | 'cloud' | 'crm' | 'payments' | 'shop' | 'travel' | 'social' | 'video' | 'maps' | 'finance' | 'government' | 'jobs' | 'search' | 'other';

/** Where an adapter or skill comes from: shipped with the extension, written by the user, or learned by the agent (with the user's confirmation). */
export type KnowledgeSource = 'bundled' | 'user' | 'agent';

export interface Adapter {
  id: string;
  name: string;
  category: AdapterCategory;
  /** URL patterns as written (agent/url-patterns.js) */
  match: string[];
  risk: 'normal' | 'high';
  /** tool names suggested on this site */
  tools: string[];
  locale?: string;
  /** the guidance text (Markdown) */
  guidance: string;
  source: KnowledgeSource;
}

/** The user's adapter settings (storage.local `adapters`): their own files and the ids turned off. */
export interface AdapterSettings {
  /** the user's adapter files, as written (same format as the bundled ones) */
  custom: string[];
  disabled: string[];
}

export interface SkillParameter {
  name: string;
  description: string;
  /** absent: the user must give a value */
  default?: string;
}

export interface Skill {
  name: string;
  title: string;
  description: string;
  mode: Mode;
  match: string[];
  /** the only tools a run of this skill is offered (done and clarify always); empty: the mode's tools */
  tools: string[];
  parameters: SkillParameter[];
  /** the prompt, with {{parameter}} placeholders */
  body: string;
  source: KnowledgeSource;
  /** ms since the epoch, for skills kept in IndexedDB */
  updatedAt?: number;
  /** a bundled skill the user turned off */
  disabled?: boolean;
}
