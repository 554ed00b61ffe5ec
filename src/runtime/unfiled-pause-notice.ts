import { noticeOnce, type Notice } from './no-principal-notice.js';

/**
 * The first paused call a control cannot file where it pauses also says so to the developer, once
 * per control (issue 21, item 5): `needsApproval` sees the SDK's parse, and a call it cannot bind
 * exactly (an integer beyond 2^53, rounded by JSON.parse) waits for `control.request(state)`. Until
 * then `approvals list` does not show it, so the developer is told where the silence comes from.
 */
const told = new WeakSet<object>();

/** Calls `notice` (default `console.warn`) the first time `owner` (a control's internals) pauses a call it cannot file. */
export function noticeUnfiledPause(owner: object, action: string, notice: Notice | undefined): void {
  noticeOnce(told, owner, () => unfiledPauseLine(action), notice);
}

/** The line: what happened, why, and the call that files it. */
export function unfiledPauseLine(action: string): string {
  return (
    `ctrlrun: a call to ${action} paused for a person's approval but is not filed in the store yet: ` +
    "its arguments cannot be bound exactly from the SDK's parse (an integer beyond 2^53, which JSON.parse rounds, or an optional property the tool's schema does not describe). " +
    '`approvals list` shows it once the app calls `control.request(result.state)`; taking such numbers as strings avoids it (said once per control).'
  );
}
