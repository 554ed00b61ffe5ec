import { answerCall } from '../scan/answer-call.js';
import type { FileScan } from '../scan/types.js';
import type { CodemodFinding, Located } from './types.js';

/**
 * Where the app answers its own interruptions through the SDK (issue 40 item 4): `state.approve(item)`,
 * `state.reject(item)`, `approveTool`/`rejectTool`, an `alwaysApprove`. Once a tool is protected,
 * such an answer authorizes nothing (SPEC §5.4): every call of it the policy sends to a human would
 * be refused with ApprovalMismatch. The codemod leaves the tools that can pause as they are and
 * says why, rather than break the app's approval flow without a word.
 *
 * The answer is not rewritten to `control.approve(state, item, { approver })`: the approver is the
 * person who answered, known only to the app (its sign-in, the request that carries the click),
 * never the model's arguments, and nothing in the code says who that is. A name the codemod made up
 * would put a false name on every receipt.
 */
export interface AppAnswer extends Located {
  /** The call as written (`result.state.approve(item)`), for the message. */
  call: string;
  /** The Control's answer that replaces it, for the message. */
  instead: string;
  /** Why a call check cannot tell from the SDK's is taken for it (a helper's untyped parameter). */
  unsure?: string;
}

/** Every SDK answer to an interruption in the scanned files, in file then position order. */
export function appAnswers(root: string, files: readonly FileScan[], resolve: (root: string, file: string) => string): AppAnswer[] {
  const out: AppAnswer[] = [];
  for (const scan of files) {
    const file = resolve(root, scan.file);
    for (const a of scan.sdkApprovals ?? []) {
      const answer = a.method.startsWith('approve') ? 'approve' : 'reject';
      out.push({
        file,
        line: a.span.line,
        column: a.span.column,
        call: answerCall(a),
        // a key may name either answer (`state[verdict](item)`): both of the Control's are named
        instead:
          a.key !== undefined
            ? `await control.approve(${a.receiver}, ${a.item}, { approver }) or await control.reject(${a.receiver}, ${a.item}, { approver, message })`
            : `await control.${answer}(${a.receiver}, ${a.item}, { approver${answer === 'reject' ? ', message' : ''} })`,
        ...(a.unsure !== undefined ? { unsure: a.unsure } : {}),
      });
    }
    for (const s of scan.stickyApprovals) {
      out.push({
        file,
        line: s.span.line,
        column: s.span.column,
        call: `${s.method}(…, { alwaysApprove: true })`,
        instead: 'await control.approve(state, item, { approver })',
      });
    }
  }
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column));
}

/** How many answers a conflict lists by place; the rest are counted (`and N more`). */
export const ANSWERS_LISTED = 10;

/**
 * The conflict of a tool the policy can send to a human in an app that answers through the SDK
 * (`canPause`), naming the first answer and what replaces it, and listing where each answer is (the
 * first ANSWERS_LISTED, the rest counted): every one of them must change before the tool can be
 * protected, as check lists them; undefined when there is none.
 */
export function appAnswerConflict(
  answers: readonly AppAnswer[] | undefined,
  canPause: boolean,
  tool: Located & { tool: string; action: string },
): Extract<CodemodFinding, { kind: 'conflict' }> | undefined {
  const answer = answers?.[0];
  if (!answer || !canPause) return undefined;
  const more = answers.length - 1;
  const unlisted = answers.length - ANSWERS_LISTED;
  return {
    kind: 'conflict',
    cause: 'app-approvals',
    ...tool,
    message: `${answer.call}${more > 0 ? ` and ${more} more` : ''}${answer.unsure !== undefined ? ` (${answer.unsure})` : ''}: once protected, each call of it the policy sends to a human would be refused with ApprovalMismatch`,
    related: {
      file: answer.file,
      line: answer.line,
      column: answer.column,
      message: `answer through the control instead: ${answer.instead}, the approver being the person who answered (from your app's sign-in, never the model's arguments); then run the codemod again`,
    },
    answers: answers.slice(0, ANSWERS_LISTED).map((a) => ({ file: a.file, line: a.line, column: a.column, call: a.call })),
    ...(unlisted > 0 ? { moreAnswers: unlisted } : {}),
  };
}
