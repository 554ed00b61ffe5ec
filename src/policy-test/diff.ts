/**
 * What a policy change does, exactly: per action, every region of calls (within the tools'
 * parameter schemas) on which the two versions differ in who may do what, found by the decision
 * procedure (src/policy/exact), each with a witness call that both versions' generated modules
 * decide as reported (decider.ts; a disagreement is an internal error, never a silent pass), and
 * each classified looser, tighter or other; then the settings that changed. A base of null is "no
 * policy": every call denied, so a new permissive policy is looser, never waved through as new.
 */
import { UserError } from '../diagnostics.js';
import type { ActionSchemas } from '../generate/tool-schemas.js';
import { compareAction, type RegionChange } from '../policy/exact/compare.js';
import { describeRegion, type VariableText } from '../policy/exact/describe.js';
import { type CallOutcome, DEFAULT_ENVIRONMENT, outcomeKey } from '../policy/exact/model.js';
import { TooComplex } from '../policy/exact/patterns.js';
import { ABSENT } from '../policy/exact/values.js';
import type { Operand, Policy, PolicyAction } from '../policy/types.js';
import { argSchemas } from './arg-schemas.js';
import { classify, type ChangeClass } from './classify.js';
import { createDecider, type DecidedCall, type Decider, type PolicyCall } from './decider.js';
import { actionSettings, policySettings, type SettingChange } from './diff-settings.js';

export type { SettingChange } from './diff-settings.js';
export type { ChangeClass } from './classify.js';

/** A call as the diff shows it: the arguments, and who asks, where, for what and when when grants read them. */
export interface WitnessCall {
  args: Record<string, Operand>;
  principal?: { agent: string; user: string | null };
  /** null: the control names none (the policy's own environment applies). */
  environment?: string | null;
  task?: string | null;
  /** ISO 8601, when a grant's expiry tells times apart. */
  at?: string;
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

export interface ActionDiff {
  action: string;
  kind: 'added' | 'removed' | 'changed';
  settings: SettingChange[];
  regions: RegionDiff[];
  /** More regions than listed (the procedure stopped at its limit). */
  truncated: boolean;
  /** The tools whose schema bounds the calls, or why none was read (absent: the diff was made without schemas). */
  schema?: { tools: string[] } | { unread: string };
}

export interface PolicyDiff {
  /** null: no policy at the base (every call denied). */
  base: Policy | null;
  head: Policy;
  settings: SettingChange[];
  actions: ActionDiff[];
  schemaNote: string | null;
  summary: {
    added: number;
    removed: number;
    changed: number;
    regions: number;
    looser: number;
    tighter: number;
    other: number;
    looserSettings: number;
    tighterSettings: number;
    otherSettings: number;
  };
}

export interface DiffOptions {
  /** The mapped tools' parameter schemas: the calls considered stay within them (absent: any call). */
  schemas?: ActionSchemas;
  /** Why no schema was read at all (no manifest), shown once in the report. */
  unlimited?: string;
  /** The instant the diff speaks from (default now): no earlier instant is asked about. */
  now?: number;
  /** The two versions' deciders, when the caller has them already (each compiles a generated module). */
  deciders?: [Decider, Decider];
}

/** "No policy": every call denied (unknown_action). */
function nothing(head: Policy): Policy {
  return { schemaVersion: head.schemaVersion, mode: 'enforce', controls: {}, actions: {}, hash: 'none', file: '(none)' };
}

/**
 * The policy with only these actions: each action compiles to functions of its own, so their
 * generated module decides them as the whole policy's does, at a fraction of the compile.
 */
function only(policy: Policy, ids: readonly string[]): Policy {
  return { ...policy, actions: Object.fromEntries(ids.filter((id) => Object.hasOwn(policy.actions, id)).map((id) => [id, policy.actions[id]!])) };
}

/** An action's meaning, locations aside (a moved rule is not a change). */
function meaning(value: unknown): string {
  return JSON.stringify(value ?? null, (k, v: unknown) => (k === 'loc' ? undefined : typeof v === 'bigint' ? `${v}n` : v));
}

function witnessCall(change: RegionChange, comparison: ReturnType<typeof compareAction>, authority: boolean, now: number): WitnessCall & { call: PolicyCall } {
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

function actionDiff(id: string, base: Policy, head: Policy, deciders: () => [Decider, Decider], options: DiffOptions, now: number): ActionDiff | undefined {
  const a = Object.hasOwn(base.actions, id) ? base.actions[id] : undefined;
  const b = Object.hasOwn(head.actions, id) ? head.actions[id] : undefined;
  const schema = options.schemas?.byAction.get(id);
  let comparison: ReturnType<typeof compareAction>;
  try {
    comparison = compareAction(id, { policy: base, action: a }, { policy: head, action: b }, { schema: argSchemas(schema?.params), now });
  } catch (error) {
    if (error instanceof TooComplex)
      throw new UserError(`${id}: ${error.message}, so diff cannot judge it exactly\nhint: write fewer or simpler grant patterns for this action`);
    throw error;
  }
  const authority = base.authority !== undefined || head.authority !== undefined;
  const regions = comparison.changes.map((change): RegionDiff => {
    const w = witnessCall(change, comparison, authority, now);
    const [b0, b1] = deciders();
    const before = b0.decide(w.call);
    const after = b1.decide(w.call);
    if (!confirms(before, change.before) || !confirms(after, change.after)) {
      throw new Error(
        `diff's decision procedure and the generated module disagree on ${id} ${JSON.stringify(w.args, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}: ` +
          `expected ${outcomeKey(change.before)} → ${outcomeKey(change.after)}, the modules decide ${before.decision} (${before.reason}) → ${after.decision} (${after.reason})`,
      );
    }
    const { call: _call, ...witness } = w;
    return { where: describeRegion(comparison.model, comparison.atoms, change.atoms), witness, before, after, ...classified(change) };
  });
  const settings = a && b ? actionSettings(a, b) : [];
  if (regions.length === 0 && settings.length === 0 && a && b) return undefined;
  const kind = !a ? 'added' : !b ? 'removed' : 'changed';
  return { action: id, kind, settings, regions, truncated: comparison.truncated, ...schemaOf(id, options.schemas) };
}

function classified(change: RegionChange): { class: ChangeClass; what: string[] } {
  return classify(change.before, change.after);
}

/** Whether anything outside the action itself that decides its calls changed (grants, controls, environment). */
function contextChanged(base: Policy, head: Policy): boolean {
  return meaning(base.authority) !== meaning(head.authority) || meaning(base.controls) !== meaning(head.controls) || base.environment !== head.environment;
}

export function diffPolicies(base: Policy | null, head: Policy, options: DiffOptions = {}): PolicyDiff {
  const now = options.now ?? Date.now();
  const from = base ?? nothing(head);
  const context = contextChanged(from, head);
  const ids = [...new Set([...Object.keys(from.actions), ...Object.keys(head.actions)])].sort();
  const changed = ids.filter((id) => {
    const a: PolicyAction | undefined = Object.hasOwn(from.actions, id) ? from.actions[id] : undefined;
    const b: PolicyAction | undefined = Object.hasOwn(head.actions, id) ? head.actions[id] : undefined;
    return !(a && b && !context && meaning(a) === meaning(b));
  });
  // the generated modules of the actions that may change, compiled once and only when a witness is to be confirmed
  let made = options.deciders;
  const deciders = (): [Decider, Decider] => (made ??= [createDecider(only(from, changed)), createDecider(only(head, changed))]);
  const actions: ActionDiff[] = [];
  for (const id of changed) {
    const d = actionDiff(id, from, head, deciders, options, now);
    if (d) actions.push(d);
  }
  const settings = policySettings(base, head);
  const regions = actions.flatMap((a) => a.regions);
  const allSettings = [...settings, ...actions.flatMap((a) => a.settings)];
  const count = <T extends { class: ChangeClass }>(list: T[], c: ChangeClass) => list.filter((x) => x.class === c).length;
  return {
    base,
    head,
    settings,
    actions,
    schemaNote: options.unlimited ?? null,
    summary: {
      added: actions.filter((a) => a.kind === 'added').length,
      removed: actions.filter((a) => a.kind === 'removed').length,
      changed: actions.filter((a) => a.kind === 'changed').length,
      regions: regions.length,
      looser: count(regions, 'looser'),
      tighter: count(regions, 'tighter'),
      other: count(regions, 'other'),
      looserSettings: count(allSettings, 'looser'),
      tighterSettings: count(allSettings, 'tighter'),
      otherSettings: count(allSettings, 'other'),
    },
  };
}

function schemaOf(id: string, schemas: ActionSchemas | undefined): Pick<ActionDiff, 'schema'> {
  if (!schemas) return {};
  const known = schemas.byAction.get(id);
  if (known) return { schema: { tools: known.tools } };
  return { schema: { unread: schemas.unread.get(id) ?? 'no tool in the manifest maps it' } };
}

/** Whether the diff changes anything, and anything toward less oversight (for `--fail-on`). */
export function diffChanges(diff: PolicyDiff): { any: boolean; looser: boolean } {
  return {
    any: diff.actions.length > 0 || diff.settings.length > 0,
    looser: diff.summary.looser + diff.summary.looserSettings > 0,
  };
}
