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
import type { Manifest } from '../manifest/types.js';
import { compareAction, type ActionComparison } from '../policy/exact/compare.js';
import { TooComplex } from '../policy/exact/patterns.js';
import type { Policy, PolicyAction } from '../policy/types.js';
import { argSchemas } from './arg-schemas.js';
import type { ChangeClass } from './classify.js';
import { createDecider, type Decider } from './decider.js';
import { type RegionDiff, regionDiffs } from './diff-regions.js';
import { actionSettings, policySettings, type SettingChange } from './diff-settings.js';
import { manifestChanges, type Remap } from './diff-tools.js';
import { withSentArguments } from './witness-sent.js';

export type { SettingChange } from './diff-settings.js';
export type { ChangeClass } from './classify.js';
export type { RegionDiff, WitnessCall } from './diff-regions.js';

export interface ActionDiff {
  /** The action, or for `remapped` the tool (`tool refund`) whose action the manifest changed. */
  action: string;
  kind: 'added' | 'removed' | 'changed' | 'remapped';
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
    remapped: number;
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
  /**
   * The manifests of both versions (the base's null: that revision had none): each tool decides
   * through the action its manifest maps it to, so a tool mapped to another action is compared too.
   */
  manifests?: [Manifest | null, Manifest];
}

/** "No policy": every call denied (unknown_action). */
function nothing(schemaVersion: number): Policy {
  return { schemaVersion, mode: 'enforce', controls: {}, actions: {}, hash: 'none', file: '(none)' };
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

function actionDiff(id: string, base: Policy, head: Policy, deciders: () => [Decider, Decider], options: DiffOptions, now: number): ActionDiff | undefined {
  const a = Object.hasOwn(base.actions, id) ? base.actions[id] : undefined;
  const b = Object.hasOwn(head.actions, id) ? head.actions[id] : undefined;
  const schema = options.schemas?.byAction.get(id);
  const comparison = compared(id, () =>
    compareAction(id, { policy: base, action: a }, { policy: head, action: b }, { schema: argSchemas(schema?.params), now }),
  );
  const authority = base.authority !== undefined || head.authority !== undefined;
  const regions = withSentArguments(regionDiffs(comparison, [id, id], deciders, authority, now), schema?.params);
  const settings = a && b ? actionSettings(a, b) : [];
  if (regions.length === 0 && settings.length === 0 && a && b) return undefined;
  const kind = !a ? 'added' : !b ? 'removed' : 'changed';
  return { action: id, kind, settings, regions, truncated: comparison.truncated, ...schemaOf(id, options.schemas) };
}

function compared(id: string, compare: () => ActionComparison): ActionComparison {
  try {
    return compare();
  } catch (error) {
    if (error instanceof TooComplex)
      throw new UserError(`${id}: ${error.message}, so diff cannot judge it exactly\nhint: write fewer or simpler grant patterns for this action`);
    throw error;
  }
}

/**
 * A tool the manifest maps to another action: its calls, decided before under the old action and
 * now under the new one (each with its own grants), within the new action's schema. Listed even
 * when no call changes: the mapping did.
 */
function remapDiff(r: Remap, base: Policy, head: Policy, options: DiffOptions, now: number): ActionDiff {
  const a = Object.hasOwn(base.actions, r.before) ? base.actions[r.before] : undefined;
  const b = Object.hasOwn(head.actions, r.after) ? head.actions[r.after] : undefined;
  const schema = options.schemas?.byAction.get(r.after);
  const comparison = compared(r.tool, () =>
    compareAction(r.tool, { policy: base, action: a, id: r.before }, { policy: head, action: b, id: r.after }, { schema: argSchemas(schema?.params), now }),
  );
  let made: [Decider, Decider] | undefined;
  const deciders = (): [Decider, Decider] => (made ??= [createDecider(only(base, [r.before])), createDecider(only(head, [r.after]))]);
  const authority = base.authority !== undefined || head.authority !== undefined;
  const regions = withSentArguments(regionDiffs(comparison, [r.before, r.after], deciders, authority, now), schema?.params);
  const settings: SettingChange[] = [{ field: 'action', before: r.before, after: r.after, class: 'other' }];
  return { action: r.tool, kind: 'remapped', settings, regions, truncated: comparison.truncated, ...schemaOf(r.after, options.schemas) };
}

/** Whether anything outside the action itself that decides its calls changed (grants, controls, environment). */
function contextChanged(base: Policy, head: Policy): boolean {
  return meaning(base.authority) !== meaning(head.authority) || meaning(base.controls) !== meaning(head.controls) || base.environment !== head.environment;
}

export function diffPolicies(base: Policy | null, head: Policy, options: DiffOptions = {}): PolicyDiff {
  const now = options.now ?? Date.now();
  const from = base ?? nothing(head.schemaVersion);
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
  if (options.manifests) {
    const [mb, mh] = options.manifests;
    const tools = manifestChanges(mb, mh);
    for (const r of tools.remaps) actions.push(remapDiff(r, from, head, options, now));
    settings.push(...tools.settings);
  }
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
      remapped: actions.filter((a) => a.kind === 'remapped').length,
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

/**
 * A project whose manifest is gone at the head: its tools no longer go through any policy (the
 * SDK's own `tool()` again, as `check` at a workspace root cannot tell from a package it never
 * knew), so every call its policy decided now runs undecided: looser, whatever the policy said.
 */
export function diffGone(base: Policy | null): PolicyDiff {
  const actions = Object.keys(base?.actions ?? {}).length;
  const settings: SettingChange[] = [
    {
      field: 'policy',
      before: base ? `${actions} action${actions === 1 ? '' : 's'}` : 'none',
      after: 'no manifest',
      class: 'looser',
      why: "the project's manifest is gone: no policy decides its tools' calls",
    },
  ];
  const head = nothing(base?.schemaVersion ?? 1);
  const zero = { added: 0, removed: 0, changed: 0, remapped: 0, regions: 0, looser: 0, tighter: 0, other: 0, tighterSettings: 0, otherSettings: 0 };
  return { base, head, settings, actions: [], schemaNote: null, summary: { ...zero, looserSettings: 1 } };
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
