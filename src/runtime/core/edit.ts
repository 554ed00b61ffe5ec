import { canonicalHash } from '../canonical.js';
import { parseArguments } from '../arguments.js';
import { editNote, editOf } from '../edits.js';
import { ActionDenied } from '../errors.js';
import type { ApprovalRequest } from '../types.js';
import { argsOf, decideOn } from './decision.js';
import type { CoreScope } from './scope.js';
import type { CallFacts, EditedRun, ReceiptFieldsOf } from './types.js';

/** An approved call as it runs: its facts (the edited call's, when the approval carries an edit) and how its body runs. */
export interface RunningCall {
  facts: CallFacts;
  edited?: EditedRun;
}

/** An edit the run refuses: the receipt (on the proposed call's facts) and the error. */
export interface EditRefusal {
  receipt: ReceiptFieldsOf;
  error: ActionDenied;
}

/**
 * The approved call, once its approval is known usable (core/authorize.ts): as proposed, or, when
 * its approvals carry an edit, the edited call decided again here, under this run's policy, with
 * this call's principal and task, as the model's arguments were: the door must run edits, the
 * approved text must be what its hash binds, the tool's own schema must accept it (what the body
 * gets), and the policy must not deny it (its effect key, resource and grant are the edited call's).
 * Refusals are returned, not thrown: the caller writes their receipt and throws. Pure but for the
 * clock.
 */
export function runningCall(scope: CoreScope, proposal: CallFacts, request: ApprovalRequest): RunningCall | EditRefusal {
  const edit = editOf(request);
  if (edit === null) return { facts: proposal };
  const where = { action: scope.action, callId: proposal.callId };
  const no = (code: string, why: string): EditRefusal => ({
    receipt: { result: 'refused', reason: code },
    error: new ActionDenied(code, `ctrlrun: ${scope.action} did not run: its approval carries edited arguments, and ${why}; it did not run.`, where),
  });
  if (!scope.edits) return no('edit_unsupported', 'this door runs only the arguments the model wrote');
  const parsed = parseArguments(edit.args);
  if (!parsed.ok || canonicalHash(parsed.value) !== edit.argsHash) return no('edit_mismatch', 'the edited arguments stored are not the ones their hash binds');
  const fromSchema = scope.args.policyArgs(edit.args, parsed);
  if (!fromSchema.ok) return no('edit_invalid', `the tool's schema refuses them${fromSchema.problem ? ` (${fromSchema.problem})` : ''}`);
  const who = proposal.principal === null ? null : { principal: proposal.principal, subject: proposal.subject ?? { agent: proposal.principal, user: null } };
  const decided = decideOn(scope.decision, scope.internals.clock, edit.args, undefined, who, proposal.task ?? null, parsed);
  if (decided.decision.decision === 'deny')
    return no('edit_denied', `the policy denies the edited call (${decided.decision.detail ?? decided.decision.reason})`);
  const ran = argsOf(decided);
  const facts: CallFacts = {
    callId: proposal.callId,
    argsHash: ran.argsHash,
    argsJson: ran.argsJson,
    principal: proposal.principal,
    decision: decided.decision,
    grant: decided.grant,
    args: decided.args,
    subject: proposal.subject,
    task: proposal.task,
    edit: {
      proposed_args_hash: proposal.argsHash ?? request.argsHash,
      approved_args_hash: edit.argsHash,
      ran_args_hash: ran.argsHash ?? edit.argsHash,
      edited_by: edit.editedBy,
    },
  };
  return { facts, edited: { input: fromSchema.value, text: edit.args, note: editNote(request.args, edit.args, edit.editedBy) } };
}

export function isEditRefusal(x: RunningCall | EditRefusal): x is EditRefusal {
  return 'error' in x;
}
