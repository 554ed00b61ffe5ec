import { answerOutcome, claimTransition, withAnswer } from '../transitions.js';
import type { AddAnswerResult, ApprovalAnswer, ApprovalRequest, ApprovalState, ClaimBinding, ClaimResult, NewApprovalRequest, Store } from '../../types.js';
import { byCodeUnit, copy, copyClaim, open, type MemoryState } from './state.js';

export type ApprovalMethods = Pick<Store, 'putRequest' | 'getRequest' | 'listRequests' | 'addAnswer' | 'claimApproval'>;

/** The approval-request half of the memory store: each method one synchronous turn over `state`. */
export function memoryApprovals(state: MemoryState): ApprovalMethods {
  const { requests } = state;
  return {
    async putRequest(request: NewApprovalRequest): Promise<ApprovalRequest> {
      open(state);
      const existing = requests.get(request.callId);
      if (existing) return copy(existing);
      const created: ApprovalRequest = { ...copy(request), state: 'pending', answers: [] };
      requests.set(request.callId, created);
      return copy(created);
    },

    async getRequest(callId: string): Promise<ApprovalRequest | null> {
      open(state);
      const found = requests.get(callId);
      return found ? copy(found) : null;
    },

    async listRequests(filter?: { state?: ApprovalState }): Promise<ApprovalRequest[]> {
      open(state);
      return [...requests.values()]
        .filter((r) => filter?.state === undefined || r.state === filter.state)
        .sort((a, b) => a.createdAt - b.createdAt || byCodeUnit(a.callId, b.callId))
        .map(copy);
    },

    async addAnswer(callId: string, answer: ApprovalAnswer): Promise<AddAnswerResult> {
      open(state);
      const request = requests.get(callId);
      if (!request) return { outcome: 'unknown' };
      const outcome = answerOutcome(request, answer);
      if (outcome !== 'recorded') return { outcome, request: copy(request) };
      const next = withAnswer(request, answer);
      requests.set(callId, next);
      return { outcome: 'recorded', request: copy(next) };
    },

    async claimApproval(callId: string, now: number, expect?: ClaimBinding): Promise<ClaimResult> {
      open(state);
      const { result, write } = claimTransition(requests.get(callId), expect, now);
      if (write) requests.set(callId, write);
      return copyClaim(result);
    },
  };
}
