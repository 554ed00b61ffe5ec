import type { RunContext } from '@openai/agents';

/**
 * The first call a control refuses for want of a principal also says so to the developer, once per
 * control (issue 21: apps that call `run(agent, input)` with no context had every protected call
 * refused with only a receipt to show for it). The refusal itself is unchanged: the model still
 * gets it, the receipt still records it. Keyed by the control's internals, so two controls (or two
 * tests) each say it once; nothing else is kept.
 */
const told = new WeakSet<object>();

export type Notice = (line: string) => void;

/** Calls `notice` (default `console.warn`) the first time `owner` (a control's internals) has no principal. */
export function noticeNoPrincipal(owner: object, runContext: RunContext<unknown> | undefined, notice: Notice | undefined): void {
  noticeOnce(told, owner, () => noPrincipalLine(runContext), notice);
}

/** Says `line()` through `notice` (default `console.warn`) the first time `owner` is not in `told`: one line per control. */
export function noticeOnce(told: WeakSet<object>, owner: object, line: () => string, notice: Notice | undefined): void {
  if (told.has(owner)) return;
  told.add(owner);
  (notice ?? defaultNotice)(line());
}

/** The line: what happened, why it most often happens, and the two ways out. */
export function noPrincipalLine(runContext: RunContext<unknown> | undefined): string {
  const context = runContext?.context;
  // the SDK's RunContext holds `{}` when run() was given no context
  const none = context === undefined || context === null || (typeof context === 'object' && Object.keys(context).length === 0);
  const why = none ? ': the run has no context (run() was called without `context`)' : '';
  return (
    `ctrlrun: a protected call was refused (no_principal): identity(runContext) returned no principal${why}. ` +
    "Pass who the run acts for in run()'s options (`run(agent, input, { context: { user: '<id>' } })`) or change `identity` in your control; " +
    'every such call is refused and recorded in the receipts (said once per control).'
  );
}

const defaultNotice: Notice = (line) => console.warn(line);
