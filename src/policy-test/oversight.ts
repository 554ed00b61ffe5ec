import type { Decision } from '../policy/types.js';

/** How much a decision lets a call do on its own: deny < approve (a person decides) < allow. */
const FREEDOM: Record<Decision, number> = { deny: 0, approve: 1, allow: 2 };

/** A change under which the call runs with less oversight than before. */
export function isLooser(before: Decision, after: Decision): boolean {
  return FREEDOM[after] > FREEDOM[before];
}

export type FailOn = 'looser' | 'any' | 'never';

/** The exit code of a report under `--fail-on`: 1 when a change of that kind is in it. */
export function failCode(failOn: FailOn, changes: { any: boolean; looser: boolean }): 0 | 1 {
  if (failOn === 'never') return 0;
  if (failOn === 'any') return changes.any ? 1 : 0;
  return changes.looser ? 1 : 0;
}

export function transition(before: Decision, after: Decision): string {
  return `${before} → ${after}`;
}
