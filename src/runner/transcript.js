// Reading a tab's transcript from outside: one progress line per step, and whether the run waits
// for a person (the same cards the panel shows: a write to confirm, a question, a plan to approve).

/**
 * A progress line for a transcript item, or '' for items that say nothing about progress.
 * The line changes when the item does (a tool step gets its result), so it is told again.
 * @param {any} item @returns {string}
 */
export function stepLine(item) {
  switch (item?.kind) {
    case 'tool': {
      const target = item.target ? ` ${item.target.role} "${item.target.name}"` : '';
      const result = item.result === undefined ? '…' : item.result.ok ? 'ok' : `${item.result.code}: ${item.result.message}`;
      return `step ${item.name}${target}: ${result}`;
    }
    case 'error': return `error ${item.code}: ${item.message}`;
    case 'confirm': return `waiting for a person: ${item.action} (${item.status})`;
    case 'clarify': return `a question for a person: ${item.question} (${item.status})`;
    case 'assistant': return item.final ? `answer: ${String(item.text ?? '').split('\n')[0].slice(0, 200)}` : '';
    default: return '';
  }
}

/**
 * What a person must do before the run can go on, or null.
 * @param {any[]} items @returns {{ kind: 'confirmation' | 'question' | 'plan' | 'person' | 'budget', reason: string, id: string } | null}
 */
export function personNeeded(items) {
  for (const item of items) {
    if (item.kind === 'confirm' && item.status === 'pending') {
      return { kind: 'confirmation', id: item.id, reason: `${item.action} on ${item.site} waits for a person to allow it (${item.reason})${item.cause ? `; the step: ${item.cause}` : ''}.` };
    }
    if (item.kind === 'clarify' && item.status === 'pending') return { kind: 'question', id: item.id, reason: `The run asks: ${item.question}` };
    if (item.kind === 'plan' && item.status === 'pending') return { kind: 'plan', id: item.id, reason: `A plan of ${item.steps?.length ?? 0} steps waits for a person to approve it.` };
    // The site needs the person (a sign-in, a code, a challenge), or the run reached a budget: nobody here can.
    if (item.kind === 'handoff' && item.status === 'waiting') return { kind: 'person', id: item.id, reason: `The site needs a person: ${item.moment?.kind ?? 'a sign-in or a challenge'} on ${item.moment?.site ?? 'the site'}.` };
    if (item.kind === 'budget' && item.status === 'pending') return { kind: 'budget', id: item.id, reason: 'The run reached its budget; a person must raise the cap.' };
  }
  return null;
}
