import { importTokens, resolveSpecifier, type RepoLayout } from '../links.js';
import type { AgentReach, FileScan, ReachValue } from '../types.js';
import { evaluateReach, type ModuleSource } from './evaluate.js';
import type { FileReach } from './file-reach.js';
import { stateReturns, type StateReturns } from './state-returns.js';

/**
 * The repo's modules as the run reach follows them (issue 40, item 3): a specifier resolves as the
 * scan resolves imports (relative paths, tsconfig `paths`, package `imports`, workspace packages),
 * and a file's exports are read from its syntax tree, parsed on demand when the scan did not (a
 * barrel of agents names no SDK). A package outside the repo is unknown.
 */
export interface RepoFiles {
  layout: RepoLayout;
  /** Every listed file of the repo (absolute). */
  files: readonly string[];
  textOf: (abs: string) => string | undefined;
  reachOf: (abs: string) => FileReach | undefined;
}

export function moduleSource(repo: RepoFiles): ModuleSource & { returnsState: StateReturns } {
  const { layout, reachOf } = repo;
  const cache = new Map<string, { value: ReachValue; key: string } | { why: string }>();
  const exported = (specifier: string, fromAbs: string, name: string, depth: number): { value: ReachValue; key: string } | { why: string } => {
    const target = resolveSpecifier(layout, specifier, fromAbs);
    if (!target) return { why: `it is imported from '${specifier}', no file of the repo` };
    if (target.kind === 'bare') return { why: `it is imported from the package '${target.specifier}'` };
    const key = `${target.file}#${name}`;
    const known = cache.get(key);
    if (known) return known;
    const found = lookup(target.file, specifier, name, depth);
    cache.set(key, found);
    return found;
  };
  const lookup = (file: string, specifier: string, name: string, depth: number): { value: ReachValue; key: string } | { why: string } => {
    const reach = reachOf(file);
    if (!reach) return { why: `'${specifier}' cannot be read` };
    const own = reach.exported(name);
    if (own.value) return { value: own.value, key: `${file}#${name}` };
    if (name !== 'default' && depth < 16) {
      for (const star of own.stars) {
        const via = exported(star, file, name, depth + 1);
        if ('value' in via) return via;
      }
    }
    return { why: `'${specifier}' exports no \`${name}\`` };
  };
  return {
    returnsState: stateReturns(layout, repo.textOf),
    exported: (specifier, fromAbs, name) => exported(specifier, fromAbs, name, 0),
    callers: (fromAbs, fn, index) => {
      const names = reachOf(fromAbs)?.exportNamesOf(fn) ?? [];
      const values: ReachValue[] = [];
      for (const name of names) {
        const got = importersPass(repo, fromAbs, name, index, 0);
        if ('why' in got) return got;
        values.push(...got.values);
      }
      return { values };
    },
  };
}

/**
 * What the files importing export `name` of `target` pass as the `index`th argument of their calls
 * of it: the files whose text could import `target` (its import tokens) are read, and a file that
 * exports it again (a barrel) has its own importers asked.
 */
function importersPass(repo: RepoFiles, target: string, name: string, index: number, depth: number): { values: ReachValue[] } | { why: string } {
  if (depth > 8) return { why: `\`${name}\` is exported again too many times to follow` };
  const tokens = importTokens(target);
  const values: ReachValue[] = [];
  for (const file of repo.files) {
    if (file === target) continue;
    const text = repo.textOf(file);
    if (text === undefined || !tokens.some((t) => text.includes(t))) continue;
    const reach = repo.reachOf(file);
    if (!reach) continue;
    const isTarget = (specifier: string): boolean => {
      const t = resolveSpecifier(repo.layout, specifier, file);
      return t?.kind === 'file' && t.file === target;
    };
    const got = reach.importersPass(isTarget, name, index);
    if ('why' in got) return got;
    values.push(...got.values);
    for (const again of got.reexported) {
      const more = importersPass(repo, file, again, index, depth + 1);
      if ('why' in more) return more;
      values.push(...more.values);
    }
  }
  return { values };
}

/**
 * Every run of the scans, its reach followed across the repo, with what any file adds to agents'
 * parts; and a run whose input is an imported function handed a RunState resumes when that
 * function is declared to give the state back.
 */
export function resolveRunReach(scans: readonly FileScan[], source: ModuleSource & { returnsState?: StateReturns }): void {
  const loose = scans.flatMap((s) => s.looseParts ?? []);
  for (const scan of scans) {
    for (const run of scan.runCalls ?? []) {
      const through = run.resumeThrough;
      if (through && source.returnsState?.(through.specifier, through.from, through.name, through.index)) run.resumes = true;
      if (run.agentValue) run.reach = evaluateReach(run.agentValue, source, loose) satisfies AgentReach;
    }
  }
}
