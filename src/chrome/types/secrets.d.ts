// Secrets (docs/SECURITY.md): the content side's masking and the requests the background asks of it.
// The vault itself (agent/safety/secrets.js) is SecretVault in types/safety.d.ts.
import type { ActionTarget } from './core';

/** Tabwright.secrets in the content scripts (content/secrets.js). */
export interface ContentSecrets {
  /** the field is, or ever was, a password, one-time code, card secret… (once secret, always) */
  isSecretField(el: Element): boolean;
  /** what may leave the page of el's value: the mask for a secret field (empty stays empty), else the value with tokens masked */
  maskValue(el: Element, value: string): string;
  /** token-looking strings masked */
  maskText(s: string): string;
  /** maskText on every string of plain objects and arrays */
  maskDeep<T>(v: T): T;
  /** mask the secret fields of a deep clone of `from` (value attributes, textarea text, select options) */
  scrubClone(from: Element, clone: Element): void;
  /** this frame's secret field values (length ≥ 4) and the token-looking strings it shows */
  values(): string[];
  readonly MASK: string;
}

/** content.secrets → data */
export interface ContentSecretsData { values: string[]; origin: string }
/** content.secretField { target } → data */
export interface ContentSecretFieldData { secret: boolean; origin: string }
/** the requests */
export type SecretsRequest = { type: 'content.secrets' } | { type: 'content.secretField'; target: ActionTarget };
