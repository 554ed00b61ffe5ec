/**
 * Recorded calls re-decided under a candidate policy by the runtime's own decision (decider.ts):
 * what changes, by action, transition and rule, with counts and one example each. A call whose
 * arguments were recorded only as their hash is replayed when the candidate's rules for its action
 * read none of them, and is undecidable otherwise.
 */
import type { Decision, Policy } from '../policy/types.js';
import type { CallDecision } from '../runtime/types.js';
import type { RecordedCall } from './calls-file.js';
import type { Decider } from './decider.js';
import { isLooser } from './oversight.js';

export interface ReplayGroup {
  action: string;
  before: Decision;
  after: Decision;
  /** The candidate's reason (`rule[1]`, `no_matching_rule`, ...). */
  reason: string;
  looser: boolean;
  count: number;
  example: { call: RecordedCall; before: CallDecision | null; after: CallDecision };
}

export interface ReplayResult {
  candidate: Policy;
  replayed: number;
  unchanged: number;
  changes: ReplayGroup[];
  undecidable: Array<{ action: string; args: string[]; count: number; example: RecordedCall }>;
  summary: { changed: number; looser: number; tighter: number; undecidable: number };
}

/** A stand-in for a hashed value: present (the call had it; `data_scope` sees its label) and a string. */
const HASHED = 'sha256:(hashed)';

function argsWithHashes(call: RecordedCall): string {
  if (call.hashed.length === 0) return call.argsText;
  // the hashed arguments are present in the record as their hash: any value would do for a
  // candidate that does not read them; a fixed string keeps their presence
  try {
    const value = JSON.parse(call.argsText) as Record<string, unknown>;
    if (typeof value !== 'object' || value === null) return call.argsText;
    return call.argsText
      .replace(
        /^\s*\{/,
        `{${call.hashed
          .filter((h) => !Object.hasOwn(value, h))
          .map((h) => `${JSON.stringify(h)}:${JSON.stringify(HASHED)},`)
          .join('')}`,
      )
      .replace(/,\s*\}$/, '}');
  } catch {
    return call.argsText;
  }
}

/** The hashed arguments the candidate's rules (or templates) read for this action. */
function readsHashed(candidate: Policy, call: RecordedCall): string[] {
  if (call.hashed.length === 0 || !Object.hasOwn(candidate.actions, call.action)) return [];
  const a = candidate.actions[call.action]!;
  const read = new Set<string>();
  for (const r of a.rules) for (const c of r.when) read.add(c.arg);
  for (const t of [a.effect, a.resource]) for (const p of t?.parts ?? []) if (p.kind === 'arg') read.add(p.arg);
  return call.hashed.filter((h) => read.has(h));
}

export function replayCalls(calls: readonly RecordedCall[], candidate: Decider, baseline: Decider | null): ReplayResult {
  const groups = new Map<string, ReplayGroup>();
  const undecidable = new Map<string, ReplayResult['undecidable'][number]>();
  let unchanged = 0;
  for (const call of calls) {
    const hashedRead = readsHashed(candidate.policy, call);
    if (hashedRead.length > 0) {
      const key = `${call.action}\u0000${hashedRead.join(',')}`;
      const u = undecidable.get(key) ?? { action: call.action, args: hashedRead, count: 0, example: call };
      u.count += 1;
      undecidable.set(key, u);
      continue;
    }
    const input = { action: call.action, args: argsWithHashes(call), principal: call.principal, environment: call.environment, task: call.task };
    const after = candidate.decide(input);
    const base = call.recorded ? null : (baseline?.decide(input) ?? null);
    const before = call.recorded?.decision ?? base?.decision;
    if (before === undefined || before === after.decision) {
      unchanged += 1;
      continue;
    }
    const key = `${call.action}\u0000${before}\u0000${after.decision}\u0000${after.reason}`;
    const g = groups.get(key) ?? {
      action: call.action,
      before,
      after: after.decision,
      reason: after.reason,
      looser: isLooser(before, after.decision),
      count: 0,
      example: { call, before: base, after },
    };
    g.count += 1;
    groups.set(key, g);
  }
  const changes = [...groups.values()].sort((a, b) => (a.action < b.action ? -1 : a.action > b.action ? 1 : b.count - a.count));
  const u = [...undecidable.values()];
  const sum = (list: ReplayGroup[]) => list.reduce((n, g) => n + g.count, 0);
  return {
    candidate: candidate.policy,
    replayed: calls.length,
    unchanged,
    changes,
    undecidable: u,
    summary: {
      changed: sum(changes),
      looser: sum(changes.filter((g) => g.looser)),
      tighter: sum(changes.filter((g) => !g.looser)),
      undecidable: u.reduce((n, x) => n + x.count, 0),
    },
  };
}
