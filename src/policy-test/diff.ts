/**
 * What a policy change does, found without recorded traffic: actions added, removed and changed,
 * and for each the witness calls (witness.ts) whose decision differs between the two versions,
 * each decided by the runtime's own decision (decider.ts) under both.
 */
import type { Decision, Policy, PolicyAction } from '../policy/types.js';
import type { CallDecision } from '../runtime/types.js';
import { createDecider, type Decider } from './decider.js';
import { isLooser } from './oversight.js';
import type { ActionSchemas } from '../generate/tool-schemas.js';
import { witnessCalls, type WitnessArgs } from './witness.js';

export interface DecisionChange {
  args: WitnessArgs;
  before: CallDecision;
  after: CallDecision;
  looser: boolean;
}

export interface SettingChange {
  /** `effect`, `resource`, `approvals_required`, `max_attempts`, `controls`, `data`, `upstream`, `mcp`. */
  field: string;
  before: string;
  after: string;
  looser: boolean;
}

export interface ActionDiff {
  action: string;
  kind: 'added' | 'removed' | 'changed';
  settings: SettingChange[];
  /** Witness calls whose decision differs, in a stable order. */
  calls: DecisionChange[];
  /** How many witness calls were decided under both versions. */
  witnesses: number;
  /** The tools whose schema the witnesses stay within, or why none was read (absent: the diff was made without schemas). */
  schema?: { tools: string[] } | { unread: string };
}

export interface PolicyDiff {
  base: Policy;
  head: Policy;
  /** Policy-wide settings that changed (`mode`, `environment`, `authority`). */
  settings: SettingChange[];
  actions: ActionDiff[];
  /** Why the witnesses are not limited to any tool's schema (DiffOptions.unlimited), or null. */
  schemaNote: string | null;
  summary: { added: number; removed: number; changed: number; callsChanged: number; looserCalls: number; tighterCalls: number; looserSettings: number };
}

export interface DiffOptions {
  /** The mapped tools' parameter schemas: witnesses stay within them (absent: not limited). */
  schemas?: ActionSchemas;
  /** Why no schema was read at all (no manifest), shown once in the report. */
  unlimited?: string;
}

function show(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? 'none';
}

/** An action's meaning, locations aside (a moved rule is not a change). */
function meaning(action: PolicyAction): string {
  return JSON.stringify(action, (k, v: unknown) => (k === 'loc' ? undefined : typeof v === 'bigint' ? `${v}n` : v));
}

function settingChanges(a: PolicyAction | undefined, b: PolicyAction | undefined): SettingChange[] {
  if (!a || !b) return [];
  const out: SettingChange[] = [];
  const field = (name: string, x: unknown, y: unknown, looser = false): void => {
    const before = show(x);
    const after = show(y);
    if (before !== after) out.push({ field: name, before, after, looser });
  };
  field('effect', a.effect?.source ?? null, b.effect?.source ?? null, a.effect !== undefined && b.effect === undefined);
  field('resource', a.resource?.source ?? null, b.resource?.source ?? null);
  field('approvals_required', a.approvalsRequired, b.approvalsRequired, b.approvalsRequired < a.approvalsRequired);
  field('max_attempts', a.maxAttempts, b.maxAttempts, a.maxAttempts !== null && (b.maxAttempts === null || b.maxAttempts > a.maxAttempts));
  field('controls', a.controls, b.controls);
  field('data', a.data ?? [], b.data ?? []);
  field('upstream', a.upstream ?? null, b.upstream ?? null, a.upstream !== undefined && b.upstream === undefined);
  field('mcp', a.mcp, b.mcp);
  return out;
}

function policySettings(a: Policy, b: Policy): SettingChange[] {
  const out: SettingChange[] = [];
  if (a.mode !== b.mode) out.push({ field: 'mode', before: a.mode, after: b.mode, looser: b.mode === 'observe' });
  if ((a.environment ?? null) !== (b.environment ?? null))
    out.push({ field: 'environment', before: show(a.environment ?? null), after: show(b.environment ?? null), looser: false });
  const grants = (p: Policy) => JSON.stringify(p.authority ?? null, (k, v: unknown) => (k === 'loc' ? undefined : typeof v === 'bigint' ? `${v}n` : v));
  if (grants(a) !== grants(b)) {
    const describe = (p: Policy) => (p.authority ? `${p.authority.grants.length} grant${p.authority.grants.length === 1 ? '' : 's'}` : 'none');
    // dropping `authority:` lets every principal propose every action
    out.push({ field: 'authority', before: describe(a), after: describe(b), looser: a.authority !== undefined && b.authority === undefined });
  }
  return out;
}

function decisionChanges(
  id: string,
  versions: PolicyAction[],
  base: Decider,
  head: Decider,
  options: DiffOptions,
): { calls: DecisionChange[]; witnesses: number } {
  const calls: DecisionChange[] = [];
  const witnesses = witnessCalls(versions, { schema: options.schemas?.byAction.get(id) });
  for (const args of witnesses) {
    const before = base.decide({ action: id, args });
    const after = head.decide({ action: id, args });
    if (before.decision !== after.decision) calls.push({ args, before, after, looser: isLooser(before.decision as Decision, after.decision as Decision) });
  }
  return { calls, witnesses: witnesses.length };
}

export function diffPolicies(base: Policy, head: Policy, options: DiffOptions = {}): PolicyDiff {
  const before = createDecider(base);
  const after = createDecider(head);
  const ids = [...new Set([...Object.keys(base.actions), ...Object.keys(head.actions)])].sort();
  const actions: ActionDiff[] = [];
  for (const id of ids) {
    const a = Object.hasOwn(base.actions, id) ? base.actions[id] : undefined;
    const b = Object.hasOwn(head.actions, id) ? head.actions[id] : undefined;
    if (a && b && meaning(a) === meaning(b)) continue;
    const kind = !a ? 'added' : !b ? 'removed' : 'changed';
    const versions = [a, b].filter((x): x is PolicyAction => x !== undefined);
    const { calls, witnesses } = decisionChanges(id, versions, before, after, options);
    actions.push({ action: id, kind, settings: settingChanges(a, b), calls, witnesses, ...schemaOf(id, options.schemas) });
  }
  const settings = policySettings(base, head);
  const all = actions.flatMap((a) => a.calls);
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
      callsChanged: all.length,
      looserCalls: all.filter((c) => c.looser).length,
      tighterCalls: all.filter((c) => !c.looser).length,
      looserSettings: [...settings, ...actions.flatMap((a) => a.settings)].filter((s) => s.looser).length,
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
  return { any: diff.actions.length > 0 || diff.settings.length > 0, looser: diff.summary.looserCalls + diff.summary.looserSettings > 0 };
}
