/**
 * How a change of one call's outcome moves oversight: looser (the call runs with less of it than
 * before), tighter, or other (it changes what is recorded, not who may do what). Looser wins over
 * tighter when a change does both: the gate errs toward a person reading it. Pure.
 */
import type { CallOutcome } from '../policy/exact/model.js';
import type { Decision } from '../policy/types.js';

export type ChangeClass = 'looser' | 'tighter' | 'other';

/** How much a decision lets a call do on its own: deny < approve (a person decides) < allow. */
const FREEDOM: Record<Decision, number> = { deny: 0, approve: 1, allow: 2 };

export interface Classified {
  class: ChangeClass;
  /** What changed, each in a few words (`deny → allow`, `approvals_required 2 → 1`). */
  what: string[];
}

interface Budget {
  metric: string;
  limit: bigint;
  window: number;
}

function budgets(list: readonly string[]): Budget[] {
  return list.map((b) => {
    const [metric, limit, window] = b.split('/') as [string, string, string];
    return { metric, limit: BigInt(limit), window: Number(window) };
  });
}

/** Whether `b` bounds at least as much as `a`: the same metric, no higher a limit, over no shorter a window. */
function atLeastAsTight(b: Budget, a: Budget): boolean {
  return b.metric === a.metric && b.limit <= a.limit && b.window >= a.window;
}

/** Budgets: looser when a limit the call had is gone or relaxed; tighter when a new one binds it. */
function budgetClass(before: readonly string[], after: readonly string[]): ChangeClass | null {
  if (before.join(',') === after.join(',')) return null;
  const b = budgets(before);
  const a = budgets(after);
  if (b.some((old) => !a.some((now) => atLeastAsTight(now, old)))) return 'looser';
  if (a.some((now) => !b.some((old) => atLeastAsTight(old, now)))) return 'tighter';
  return 'other';
}

/**
 * The ledger a call's budgets are kept in: the store counts spend per grant id, so a call whose
 * budgets were charged to one grant and now to another (renamed, or another grant authorizing it)
 * starts from nothing spent: looser, whatever the limits. Null when the ledger is the same or the
 * call had no budget before (a budget now is then new: tighter, as budgetClass says).
 */
function ledgerClass(before: CallOutcome, after: CallOutcome): ChangeClass | null {
  if (before.budgets.length === 0 || after.budgets.length === 0 || before.grant === after.grant) return null;
  return 'looser';
}

/** Roles every approver must hold: one required before and not now (dropped, or replaced) is looser. */
function roleClass(before: readonly string[], after: readonly string[]): ChangeClass | null {
  if (before.join(',') === after.join(',')) return null;
  if (before.some((r) => !after.includes(r))) return 'looser';
  return 'tighter';
}

const list = (xs: readonly string[] | null) => (xs === null || xs.length === 0 ? 'none' : xs.join(', '));

export function classify(before: CallOutcome, after: CallOutcome): Classified {
  if (before.decision !== after.decision) {
    const looser = FREEDOM[after.decision] > FREEDOM[before.decision];
    return { class: looser ? 'looser' : 'tighter', what: [`${before.decision} → ${after.decision}`] };
  }
  const found: Array<[ChangeClass, string]> = [];
  if (before.approvals !== null && after.approvals !== null && before.approvals !== after.approvals)
    found.push([after.approvals < before.approvals ? 'looser' : 'tighter', `approvals_required ${before.approvals} → ${after.approvals}`]);
  const roles = roleClass(before.roles ?? [], after.roles ?? []);
  if (roles) found.push([roles, `approver roles ${list(before.roles)} → ${list(after.roles)}`]);
  const ledger = ledgerClass(before, after);
  const budget = budgetClass(before.budgets, after.budgets);
  if (ledger)
    found.push([
      ledger,
      `budgets kept under grant ${before.grant ?? 'none'} → under grant ${after.grant ?? 'none'}: the spend so far is not counted (budgets ${list(before.budgets)} → ${list(after.budgets)})`,
    ]);
  else if (budget) found.push([budget, `budgets ${list(before.budgets)} → ${list(after.budgets)} (grant ${after.grant ?? 'none'})`]);
  if (before.controls.join(',') !== after.controls.join(',')) found.push(['other', `controls ${list(before.controls)} → ${list(after.controls)}`]);
  if (before.reason !== after.reason) found.push(['other', `${before.decision} by ${before.reason} → by ${after.reason}`]);
  const cls: ChangeClass = found.some(([c]) => c === 'looser') ? 'looser' : found.some(([c]) => c === 'tighter') ? 'tighter' : 'other';
  return { class: cls, what: found.map(([, w]) => w) };
}
