import { approvalGrantCovering } from '../approval-grants.js';
import type { ApprovalGrant } from '../types.js';
import type { CoreScope } from './scope.js';
import type { CallFacts } from './types.js';

/**
 * The authority stage's second question, for a call the policy sends to a person and no request of
 * its own answers: does an approval grant let it run without a pause? Read from the store at the
 * call (a revocation takes effect at the next call), only for the principal and action, only the
 * grants active on the store's clock, then evaluated as the policy's `authority:` grants are
 * (`approvalGrantCovering`, with `evaluateAuthority`). Never asked of a call the policy allows or
 * denies: the allow path reads nothing more.
 */
export async function coveringGrant(scope: CoreScope, facts: Pick<CallFacts, 'principal' | 'decision' | 'args'>): Promise<ApprovalGrant | undefined> {
  const { store, clock } = scope.internals;
  if (typeof store.listGrants !== 'function' || facts.principal === null || facts.decision.decision !== 'approve') return undefined;
  const now = clock();
  const grants = await store.listGrants({ principal: facts.principal, action: scope.action, activeAt: now });
  if (grants.length === 0) return undefined;
  return approvalGrantCovering(grants, {
    action: scope.action,
    policyHash: scope.policy.hash,
    principal: facts.principal,
    decision: facts.decision,
    args: facts.args,
    now,
    environment: scope.decision.environment,
  });
}
