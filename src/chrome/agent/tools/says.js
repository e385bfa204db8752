// The card sentence of a tool that has none of its own (types/core.d.ts ToolSays): "Used <tool>".
/** @import { ToolSays } from '../../types/core' */

/** @type {Readonly<ToolSays>} */
export const SAYS_USED = Object.freeze({ key: 'other', names: 'tool' });
