// The card sentence of a tool that has none of its own (types/core.d.ts ToolSays): "Used <tool>".
/** @import { ToolSays } from '../../types/core' */

/** @type {ToolSays} */
export const SAYS_USED = (t, c) => t('toolSays_other', c.name);
