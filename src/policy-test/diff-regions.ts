/**
 * A region of a comparison as `diff` reports it: a witness call, decided by both versions'
 * generated modules (a disagreement with the procedure is an internal error, never a silent pass),
 * and the change classified. Shared by the per-action diff and the per-tool one (a tool mapped to
 * another action: each version decides the witness under its own action id).
 */
import type { ActionComparison, RegionChange } from '../policy/exact/compare.js';
import { describeRegion, type VariableText } from '../policy/exact/describe.js';
import { type CallOutcome, DEFAULT_ENVIRONMENT, outcomeKey } from '../policy/exact/model.js';
import { ABSENT } from '../policy/exact/values.js';
import type { Operand } from '../policy/types.js';
import { classify, type ChangeClass } from './classify.js';
import type { DecidedCall, Decider, PolicyCall } from './decider.js';

/** A call as the diff shows it: the arguments, and who asks, where, for what and when when grants read them. */
export interface WitnessCall {
  args: Record<string, Operand>;
  principal?: { agent: string; user: string | null };
  /** null: the control names none (the policy's own environment applies). */
  environment?: string | null;
  task?: string | null;
  /** ISO 8601, when a grant's expiry tells times apart. */
  at?: string;
  /**
   * The arguments the model sends to make this call, where they differ from `args`: an argument
   * only the tool's fill-in gives its value (`.min(1).default(0)`: 0 is refused when sent) is left
   * out (witness-sent.ts).
   */
  sent?: Record<string, Operand>;
  /**
   * The arguments only a `.catch()` gives their value (`.min(1).default(5).catch(0)`: 0): the model
   * sends a value the schema refuses (that one will do) and the tool puts the catch's in its place.
   */
  replaced?: string[];
}

export interface RegionDiff {
  /** The calls of the region, variable by variable (the ones not named are free). */
  where: VariableText[];
  witness: WitnessCall;
  /** The witness decided by each version's generated module. */
  before: DecidedCall;
  after: DecidedCall;
  class: ChangeClass;
  what: string[];
}

function witnessCall(change: RegionChange, comparison: ActionComparison, authority: boolean, now: number): WitnessCall & { call: PolicyCall } {
  const { model } = comparison;
  const args: Record<string, Operand> = {};
  let agent = 'agent';
  let user: string | null = null;
  let environment: string | null = null;
  let task: string | null = null;
  let at = now;
  let timed = false;
  for (const v of model.variables) {
    const value = change.witness[v.index];
    if (v.kind === 'arg') {
      if (value !== ABSENT) args[v.name] = value as Operand;
    } else if (v.kind === 'agent') agent = value as string;
    else if (v.kind === 'user') user = value as string | null;
    else if (v.kind === 'environment') environment = value === DEFAULT_ENVIRONMENT ? null : (value as string);
    else if (v.kind === 'task') task = value as string | null;
    else {
      at = value as number;
      timed = true;
    }
  }
  const who = authority ? { principal: { agent, user }, environment, task } : {};
  return { args, ...who, ...(timed ? { at: new Date(at).toISOString() } : {}), call: { action: model.action, args, ...who, at } };
}

/** The decided call agrees with the procedure's outcome: the same decision, and for a call that runs the same reason and budgets. */
function confirms(decided: DecidedCall, outcome: CallOutcome): boolean {
  if (decided.decision !== outcome.decision) return false;
  if (outcome.decision === 'deny') return true;
  return decided.reason === outcome.reason && (decided.grant ?? null) === outcome.grant;
}

/** Each region with its witness confirmed by both modules (`ids`: the action each version decides it under). */
export function regionDiffs(
  comparison: ActionComparison,
  ids: readonly [string, string],
  deciders: () => [Decider, Decider],
  authority: boolean,
  now: number,
): RegionDiff[] {
  return comparison.changes.map((change): RegionDiff => {
    const w = witnessCall(change, comparison, authority, now);
    const [b0, b1] = deciders();
    const before = b0.decide({ ...w.call, action: ids[0] });
    const after = b1.decide({ ...w.call, action: ids[1] });
    if (!confirms(before, change.before) || !confirms(after, change.after)) {
      throw new Error(
        `diff's decision procedure and the generated module disagree on ${comparison.model.action} ${JSON.stringify(w.args, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}: ` +
          `expected ${outcomeKey(change.before)} → ${outcomeKey(change.after)}, the modules decide ${before.decision} (${before.reason}) → ${after.decision} (${after.reason})`,
      );
    }
    const { call: _call, ...witness } = w;
    return { where: describeRegion(comparison.model, comparison.atoms, change.atoms), witness, before, after, ...classify(change.before, change.after) };
  });
}
