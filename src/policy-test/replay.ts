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

/** One call whose decision changes (`replay --all` lists them all, in the order read). */
export interface ChangedCall {
  call: RecordedCall;
  before: Decision;
  after: CallDecision;
  looser: boolean;
}

export interface ReplayResult {
  candidate: Policy;
  replayed: number;
  unchanged: number;
  changes: ReplayGroup[];
  /** Every changed call, when asked for (`all`). */
  calls?: ChangedCall[];
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

/** The arguments the candidate's rules (or templates) read, per action: worked out once per action, not per call. */
function readArgs(candidate: Policy): (action: string) => ReadonlySet<string> | undefined {
  const cache = new Map<string, ReadonlySet<string> | undefined>();
  return (action) => {
    if (cache.has(action)) return cache.get(action);
    let read: Set<string> | undefined;
    if (Object.hasOwn(candidate.actions, action)) {
      const a = candidate.actions[action]!;
      read = new Set<string>();
      for (const r of a.rules) for (const c of r.when) read.add(c.arg);
      for (const t of [a.effect, a.resource]) for (const p of t?.parts ?? []) if (p.kind === 'arg') read.add(p.arg);
    }
    cache.set(action, read);
    return read;
  };
}

/** Calls replayed one at a time (a store's pages as they are read: none kept but the examples), then the result. */
export interface ReplayTally {
  add(call: RecordedCall): void;
  result(): ReplayResult;
}

export function replayTally(candidate: Decider, baseline: Decider | null, options: { all?: boolean } = {}): ReplayTally {
  const groups = new Map<string, ReplayGroup>();
  const calls: ChangedCall[] | undefined = options.all ? [] : undefined;
  const undecidable = new Map<string, ReplayResult['undecidable'][number]>();
  const reads = readArgs(candidate.policy);
  let replayed = 0;
  let unchanged = 0;
  // consecutive calls mostly fall in the group of the call before: no key string for them
  let last: ReplayGroup | undefined;
  const add = (call: RecordedCall): void => {
    replayed += 1;
    if (call.hashed.length > 0) {
      const read = reads(call.action);
      const hashedRead = read === undefined ? [] : call.hashed.filter((h) => read.has(h));
      if (hashedRead.length > 0) {
        const key = `${call.action}\u0000${hashedRead.join(',')}`;
        const u = undecidable.get(key) ?? { action: call.action, args: hashedRead, count: 0, example: call };
        u.count += 1;
        undecidable.set(key, u);
        return;
      }
    }
    const input = { action: call.action, args: argsWithHashes(call), principal: call.principal, environment: call.environment, task: call.task };
    const after = candidate.decide(input);
    const base = call.recorded ? null : (baseline?.decide(input) ?? null);
    const before = call.recorded?.decision ?? base?.decision;
    if (before === undefined || before === after.decision) {
      unchanged += 1;
      return;
    }
    calls?.push({ call, before, after, looser: isLooser(before, after.decision) });
    if (last !== undefined && last.action === call.action && last.before === before && last.after === after.decision && last.reason === after.reason) {
      last.count += 1;
      return;
    }
    const key = `${call.action}\u0000${before}\u0000${after.decision}\u0000${after.reason}`;
    let g = groups.get(key);
    if (g === undefined) {
      g = {
        action: call.action,
        before,
        after: after.decision,
        reason: after.reason,
        looser: isLooser(before, after.decision),
        count: 0,
        example: { call, before: base, after },
      };
      groups.set(key, g);
    }
    g.count += 1;
    last = g;
  };
  return {
    add,
    result: () => ({ ...replayResult(candidate.policy, replayed, unchanged, groups, undecidable), ...(calls ? { calls } : {}) }),
  };
}

export function replayCalls(calls: readonly RecordedCall[], candidate: Decider, baseline: Decider | null, options: { all?: boolean } = {}): ReplayResult {
  const tally = replayTally(candidate, baseline, options);
  for (const call of calls) tally.add(call);
  return tally.result();
}

function replayResult(
  candidate: Policy,
  replayed: number,
  unchanged: number,
  groups: ReadonlyMap<string, ReplayGroup>,
  undecidable: ReadonlyMap<string, ReplayResult['undecidable'][number]>,
): ReplayResult {
  const changes = [...groups.values()].sort((a, b) => (a.action < b.action ? -1 : a.action > b.action ? 1 : b.count - a.count));
  const u = [...undecidable.values()];
  const sum = (list: ReplayGroup[]) => list.reduce((n, g) => n + g.count, 0);
  return {
    candidate,
    replayed,
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
