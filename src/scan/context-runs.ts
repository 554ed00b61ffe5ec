import type { FileScan, RunCall } from './types.js';

/** A run whose context lacks what the control's identity reads: every protected call of it is refused. */
export interface RunLackingContext {
  file: string;
  run: RunCall;
  /** The context keys the identity reads that this run does not pass. */
  missing: string[];
}

/**
 * What the repo's identities read of the run context: the keys (`['user']`), `[]` when some
 * identity reads the context in a way check cannot follow (then only runs with no context at all
 * are named), or undefined when no identity needs a context (or none was found).
 */
export function identityNeeds(scans: readonly FileScan[]): string[] | undefined {
  const reads = scans.flatMap((s) => s.identityReads ?? []);
  if (reads.length === 0 || reads.some((r) => r.reads.kind === 'none')) return undefined;
  const keys = new Set(reads.flatMap((r) => (r.reads.kind === 'keys' ? r.reads.keys : [])));
  return [...keys];
}

/**
 * Whether a run's agent can reach a protected tool (loop finding 7): it calls one of the generated
 * module, or a `tool()` whose name the manifest maps (the codemod protects it); when the file does
 * not show all its tools (`unknown`, or not followed), yes: the run stays named.
 */
export function reachesProtected(run: RunCall, mapped: ReadonlySet<string>): boolean {
  const reach = run.reach;
  if (reach === undefined || reach.kind === 'unknown') return true;
  return reach.protectedCall || reach.names.some((n) => mapped.has(n));
}

/**
 * The runs that pass no context the identity needs (issue 21, item 4): no context at all, or an
 * object literal without any key the identity reads. A resumed run (its input a RunState) keeps the
 * context it started with; a context check cannot read is not named. With `mapped` (the manifest's
 * function tool names), only runs whose agent can reach a protected tool.
 */
export function runsLackingContext(scans: readonly FileScan[], mapped?: ReadonlySet<string>): RunLackingContext[] {
  const needs = identityNeeds(scans);
  if (needs === undefined) return [];
  const out: RunLackingContext[] = [];
  for (const scan of scans) {
    for (const run of scan.runCalls ?? []) {
      if (run.resumes || run.context.kind === 'opaque') continue;
      if (mapped !== undefined && !reachesProtected(run, mapped)) continue;
      if (run.context.kind === 'none') out.push({ file: scan.file, run, missing: needs });
      else if (needs.length > 0 && !needs.some((k) => (run.context as { keys: string[] }).keys.includes(k))) out.push({ file: scan.file, run, missing: needs });
    }
  }
  return out;
}
