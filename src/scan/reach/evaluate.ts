import type { AgentReach, DoorLeaf, ReachValue } from '../types.js';
import { AGENT_PARTS } from './parts.js';

/**
 * The doors a `ReachValue` reaches, following imports across the repo's files (issue 40, item 3).
 * Without a module source (one file scanned alone), an import is unknown.
 */
export interface ModuleSource {
  /**
   * What a module exports under `name` ('default', or '*' for the whole module), asked by the
   * specifier and the absolute path of the file that imports it: a value, or why it cannot be read
   * (a package, a file outside the repo, no such export).
   */
  exported(specifier: string, fromAbs: string, name: string): { value: ReachValue; key: string } | { why: string };
  /** What the files importing the function `fn` of `fromAbs` pass as its `index`th argument, or why they cannot be listed. */
  callers(fromAbs: string, fn: string, index: number): { values: ReachValue[] } | { why: string };
}

/** Steps one evaluation may take before it gives up (unknown): a bound on pathological values. */
const BUDGET = 20_000;

interface Norm {
  leaves: DoorLeaf[];
  unknown: string[];
  objs: Array<Record<string, ReachValue>>;
  fns: ReachValue[];
  /** Whole modules (`import * as m`): their exports, by specifier and importer. */
  mods: Array<{ specifier: string; from: string }>;
}

const empty = (): Norm => ({ leaves: [], unknown: [], objs: [], fns: [], mods: [] });

function merge(into: Norm, n: Norm): Norm {
  into.leaves.push(...n.leaves);
  into.unknown.push(...n.unknown);
  into.objs.push(...n.objs);
  into.fns.push(...n.fns);
  into.mods.push(...n.mods);
  return into;
}

export function evaluateReach(value: ReachValue, source: ModuleSource | undefined, extra: readonly ReachValue[] = []): AgentReach {
  const ev = new Evaluation(source);
  const n = ev.norm(value);
  for (const x of extra) merge(n, ev.norm(x));
  const out = ev.settle(n);
  const leaves = dedupe(out.leaves);
  const hostedMcp = leaves.some((l) => l.door === 'protected' && l.via === 'protectHostedMcp');
  const base = { leaves, ...(hostedMcp ? { hostedMcp } : {}) };
  return out.unknown.length > 0 ? { kind: 'unknown', why: out.unknown[0]!, ...base } : { kind: 'tools', ...base };
}

class Evaluation {
  private steps = 0;
  /** Exports being followed (`<file>#<name>`): a cycle adds nothing new. */
  private readonly following = new Set<string>();

  constructor(private readonly source: ModuleSource | undefined) {}

  norm(v: ReachValue): Norm {
    if (++this.steps > BUDGET) return { ...empty(), unknown: ['the value is too large to follow'] };
    switch (v.k) {
      case 'door':
        return { ...empty(), leaves: [v.leaf] };
      case 'none':
        return empty();
      case 'unknown':
        return { ...empty(), unknown: [v.why] };
      case 'all':
        return v.of.reduce((acc, x) => merge(acc, this.norm(x)), empty());
      case 'obj':
        return { ...empty(), objs: [v.props] };
      case 'fn':
        return { ...empty(), fns: [v.returns] };
      case 'import':
        return this.imported(v.specifier, v.from, v.name);
      case 'member':
        return this.member(this.norm(v.of), v.name);
      case 'call':
        return this.call(this.norm(v.of));
      case 'callers':
        return this.callers(v.from, v.fn, v.index);
    }
  }

  private callers(from: string, fn: string, index: number): Norm {
    if (!this.source) return { ...empty(), unknown: [`it is passed to \`${fn}\` by other modules`] };
    const key = `callers:${from}#${fn}#${index}`;
    if (this.following.has(key)) return empty();
    const got = this.source.callers(from, fn, index);
    if ('why' in got) return { ...empty(), unknown: [got.why] };
    this.following.add(key);
    try {
      return got.values.reduce((acc, v) => merge(acc, this.norm(v)), empty());
    } finally {
      this.following.delete(key);
    }
  }

  private imported(specifier: string, from: string, name: string): Norm {
    if (!this.source) return { ...empty(), unknown: [`it is imported from '${specifier}'`] };
    if (name === '*') return { ...empty(), mods: [{ specifier, from }] };
    const got = this.source.exported(specifier, from, name);
    if ('why' in got) return { ...empty(), unknown: [got.why] };
    if (this.following.has(got.key)) return empty();
    this.following.add(got.key);
    try {
      return this.norm(got.value);
    } finally {
      this.following.delete(got.key);
    }
  }

  private member(n: Norm, name: string | undefined): Norm {
    // a door, or what is unknown, is its own member (an agent's `.tools` reach what the agent reaches)
    const out: Norm = { ...empty(), leaves: n.leaves, unknown: n.unknown };
    for (const props of n.objs) {
      if (name !== undefined) {
        const p = Object.hasOwn(props, name) ? props[name] : undefined;
        if (p) merge(out, this.norm(p));
      } else for (const p of Object.values(props)) merge(out, this.norm(p));
    }
    for (const m of n.mods) merge(out, name !== undefined ? this.imported(m.specifier, m.from, name) : { ...empty(), unknown: ['every export of a module'] });
    if (n.fns.length > 0) out.unknown.push('a property of a function');
    return out;
  }

  private call(n: Norm): Norm {
    const out: Norm = { ...empty(), unknown: n.unknown };
    for (const r of n.fns) merge(out, this.norm(r));
    if (n.leaves.length > 0 || n.objs.length > 0 || n.mods.length > 0) out.unknown.push('a call of a value that is no function of the repo');
    return out;
  }

  /**
   * What is left once no more structure is asked of it: an object reaches what its agent parts
   * (`tools`, `handoffs`, `mcpServers`) reach (a property set on an agent, `agent.needsApproval = …`,
   * adds nothing); a function where an agent or tool is expected is unknown.
   */
  settle(n: Norm, depth = 0): { leaves: DoorLeaf[]; unknown: string[] } {
    const leaves = [...n.leaves];
    const unknown = [...n.unknown];
    if (n.fns.length > 0) unknown.push('a function, not an agent or a tool');
    if (n.mods.length > 0) unknown.push('a whole module');
    for (const props of n.objs) {
      if (depth > 8) {
        unknown.push('an object nested too deep');
        break;
      }
      const parts = AGENT_PARTS.flatMap((k) => (Object.hasOwn(props, k) ? [props[k]!] : []));
      const inner = this.settle(
        parts.reduce((acc, p) => merge(acc, this.norm(p)), empty()),
        depth + 1,
      );
      leaves.push(...inner.leaves);
      unknown.push(...inner.unknown);
    }
    return { leaves, unknown };
  }
}

function dedupe(leaves: DoorLeaf[]): DoorLeaf[] {
  const seen = new Set<string>();
  return leaves.filter((l) => {
    const key = JSON.stringify(l);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
