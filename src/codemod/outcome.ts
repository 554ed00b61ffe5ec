import type { CodemodFinding, CodemodResult, Located } from './types.js';

/**
 * Why the codemod exits 1 (issue 40 item 7), each a reason a script can read: the exit code stays
 * SPEC §6's (1 for any of these), and the JSON says which remain. `unparseable` alone means every
 * tool the manifest maps was rewritten and some file could not be read or parsed (it may hold tools).
 */
export type ExitReason = 'conflicts' | 'unmapped' | 'not-rewritable' | 'unparseable' | 'changed-on-disk';

/** Each finding that keeps the exit code at 1, by the reason it counts under. */
const REASON: Partial<Record<CodemodFinding['kind'], ExitReason>> = {
  conflict: 'conflicts',
  unmapped: 'unmapped',
  'no-literal-name': 'not-rewritable',
  unanalysable: 'not-rewritable',
  'unknown-action': 'not-rewritable',
  'parse-error': 'unparseable',
  unreadable: 'unparseable',
};

/** The reason a finding counts under (a door left counts by its own reason), or undefined when it does not block. */
export function exitReasonOf(f: CodemodFinding): ExitReason | undefined {
  if (f.kind === 'door-left') return f.reason === 'conflict' ? 'conflicts' : f.reason === 'unmapped' ? 'unmapped' : 'not-rewritable';
  return REASON[f.kind];
}

/** One line of the outcome: where (absolute file), what, and why. */
export interface OutcomeEntry {
  file: string;
  line: number;
  column: number;
  /** The tool (or door) name, when the finding has one. */
  tool?: string;
  action?: string;
  /** The finding's kind (`conflict`, `parse-error`, `door-rewritten`…). */
  kind: CodemodFinding['kind'];
  /** Why, for what is left (the conflict's message, the parser's). */
  message?: string;
  /** A conflict's cause (`needs-approval`, `generate`, `app-approvals`), a door's kind. */
  cause?: string;
  /** An `app-approvals` conflict: where the app answers (the first few), and how many more. */
  answers?: Located[];
  moreAnswers?: number;
}

/** What a script reads of a run: what was (or would be) rewritten, what is left and why, and the exit's reasons. */
export interface Outcome {
  rewritten: OutcomeEntry[];
  conflicts: OutcomeEntry[];
  unmapped: OutcomeEntry[];
  notRewritable: OutcomeEntry[];
  unparseable: OutcomeEntry[];
  exitReasons: ExitReason[];
}

/** The outcome of a codemod run (pure). `changedOnDisk`: files that changed while it ran (nothing written). */
export function outcomeOf(result: Pick<CodemodResult, 'findings'>, changedOnDisk: readonly string[] = []): Outcome {
  const out: Outcome = { rewritten: [], conflicts: [], unmapped: [], notRewritable: [], unparseable: [], exitReasons: [] };
  const lists: Record<Exclude<ExitReason, 'changed-on-disk'>, OutcomeEntry[]> = {
    conflicts: out.conflicts,
    unmapped: out.unmapped,
    'not-rewritable': out.notRewritable,
    unparseable: out.unparseable,
  };
  for (const f of result.findings) {
    const entry = entryOf(f);
    if (f.kind === 'rewritten' || f.kind === 'door-rewritten') out.rewritten.push(entry);
    const reason = exitReasonOf(f);
    if (reason !== undefined && reason !== 'changed-on-disk') lists[reason].push(entry);
  }
  for (const reason of ['conflicts', 'unmapped', 'not-rewritable', 'unparseable'] as const) if (lists[reason].length > 0) out.exitReasons.push(reason);
  if (changedOnDisk.length > 0) out.exitReasons.push('changed-on-disk');
  return out;
}

function entryOf(f: CodemodFinding): OutcomeEntry {
  const entry: OutcomeEntry = { file: f.file, line: f.line, column: f.column, kind: f.kind };
  if ('tool' in f && f.tool !== undefined) entry.tool = f.tool;
  if (f.kind === 'door-rewritten' || f.kind === 'door-left') {
    if (f.name !== undefined) entry.tool = f.name;
    entry.cause = f.door;
  }
  if ('action' in f && f.action !== undefined) entry.action = f.action;
  if ('message' in f) entry.message = f.message;
  if (f.kind === 'conflict') {
    entry.cause = f.cause ?? 'needs-approval';
    if (f.answers) entry.answers = f.answers.map(({ file, line, column }) => ({ file, line, column }));
    if (f.moreAnswers !== undefined) entry.moreAnswers = f.moreAnswers;
  }
  return entry;
}
