// The card sentence of a call whose name no tool has (an old transcript, a page's own tool): "Used <name>".
/** @import { ToolSays } from '../../types/core' */

/** @type {ToolSays} */
export const SAYS_USED = (t, c) => t('toolSays_other', c.name);
