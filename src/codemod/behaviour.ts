import type { Policy, PolicyAction, Rule } from '../policy/types.js';
import { isRealtimeEntry } from '../scan/realtime.js';
import type { SdkToolCall } from '../scan/types.js';

/** One way a tool behaves differently once it is `protectedTool(...)` (the codemod's summary lists them). */
export interface BehaviourChange {
  /** Stable id, for `--json` readers. */
  kind: 'body-failure-stops-run' | 'error-function-kept' | 'approve-through-control' | 'needs-approval-removed' | 'effect-once' | 'observe-only';
  text: string;
}

/** Rules a call can reach: up to and including the first catch-all. */
function reachableRules(action: PolicyAction): Rule[] {
  const out: Rule[] = [];
  for (const rule of action.rules) {
    out.push(rule);
    if (rule.when.length === 0) break;
  }
  return out;
}

/** Whether the policy can send a call of this action to a human (enforce mode, an `approve` rule a call can reach). */
export function canPause(policy: Policy, action: PolicyAction): boolean {
  return policy.mode !== 'observe' && reachableRules(action).some((r) => r.decision === 'approve');
}

/**
 * What changes at run time for an SDK `tool()` the codemod rewrites to `protectedTool(action, …)`,
 * judged from its options as written and the policy. Pure. A user reads these before merging the
 * rewrite: nothing about the tool's behaviour should change silently.
 */
export function behaviourChanges(call: SdkToolCall, policy: Policy, action: PolicyAction, needsApprovalRemoved: boolean): BehaviourChange[] {
  const changes: BehaviourChange[] = [];
  // a tool from the realtime entry runs in a RealtimeSession: no run() to reject, no RunState to approve
  const realtime = isRealtimeEntry(call.binding.module);
  const errorFunction = call.options.properties.errorFunction;
  const structured = call.options.properties.outputSchema !== undefined;
  if (!errorFunction && !structured) {
    changes.push({
      kind: 'body-failure-stops-run',
      text:
        (realtime
          ? "an exception thrown by its execute now reaches the session's `error` event (the model gets no answer for that call) instead of the SDK's "
          : "an exception thrown by its execute now stops the run (run() rejects with it) instead of reaching the model as the SDK's ") +
        'generic "An error occurred while running the tool" text; pass an `errorFunction` to report failures to the model',
    });
  } else if (errorFunction && errorFunction.valueKind !== 'null') {
    changes.push({
      kind: 'error-function-kept',
      text: "its errorFunction still handles its own failures, but never this library's refusals (ActionDenied, ApprovalMismatch, DuplicateEffect, AmbiguousEffect): they reach the caller",
    });
  }
  if (policy.mode === 'observe') {
    changes.push({ kind: 'observe-only', text: 'mode: observe: every call runs as before; receipts record what enforce would have decided' });
  } else if (canPause(policy, action)) {
    changes.push({
      kind: 'approve-through-control',
      text: realtime
        ? "calls the policy sends to a human pause with the session's tool_approval_requested event and are filed in the store as they pause (`ctrlrun-gen approvals list`); " +
          'let an operator answer (`ctrlrun-gen serve`, `ctrlrun-gen approvals`), then control.resolveRealtime(session, item): session.approve(item) alone no longer authorizes them (ApprovalMismatch)'
        : 'calls the policy sends to a human pause the run and are filed in the store as they pause (`ctrlrun-gen approvals list`); answer them with control.approve(state, item, { approver }) / control.reject(...) ' +
          "or `ctrlrun-gen approvals approve|deny`: the SDK's state.approve(item) no longer authorizes them (the call fails with ApprovalMismatch)",
    });
  }
  if (needsApprovalRemoved) {
    changes.push({
      kind: 'needs-approval-removed',
      text: `its needsApproval was removed: ${policy.mode === 'observe' ? 'nothing asks a human in observe mode' : 'ctrlrun.yaml decides which calls need a human'}`,
    });
  }
  if (action.effect && policy.mode === 'enforce') {
    changes.push({
      kind: 'effect-once',
      text: `each effect key (${action.effect.source}) runs at most once: a repeat fails with DuplicateEffect, and after a failed or unknown outcome with AmbiguousEffect until someone resolves it`,
    });
  }
  return changes;
}
