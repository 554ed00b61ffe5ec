import type {
  AddAnswerResult,
  ApprovalAnswer,
  ApprovalRequest,
  ApprovalState,
  ClaimBinding,
  ClaimResult,
  NewApprovalRequest,
  RequestPage,
  Store,
} from '../../types.js';
import { answerOutcome, claimTransition, exactBinding, withAnswer } from '../transitions.js';
import { APPROVAL_COLUMNS, approvalFromRow, approvalFromValues, approvalToValues, type ApprovalRow, type ApprovalValues } from '../rows.js';
import type { SqliteShell } from './connection.js';
import { approvalOf, consume, marks } from './statements.js';

const NONE: readonly ApprovalValues[] = [];

export type ApprovalMethods = Pick<Store, 'putRequest' | 'getRequest' | 'listRequests' | 'pageRequests' | 'addAnswer' | 'claimApproval'>;

/** The approval-request methods of the SQLite store: each change one BEGIN IMMEDIATE transaction, or one statement in autocommit. */
export function sqliteApprovals({ write, read, autocommit }: SqliteShell): ApprovalMethods {
  return {
    async putRequest(request: NewApprovalRequest): Promise<ApprovalRequest> {
      return write('putRequest', (s) => {
        const created: ApprovalRequest = { ...request, state: 'pending', answers: [] };
        s.insertApproval.run(...approvalToValues(created));
        return approvalOf(s, request.callId)!;
      });
    },

    async getRequest(callId: string): Promise<ApprovalRequest | null> {
      return read('getRequest', (s) => approvalOf(s, callId) ?? null);
    },

    async listRequests(filter?: { state?: ApprovalState }): Promise<ApprovalRequest[]> {
      return read('listRequests', (s) => {
        const rows = (filter?.state === undefined ? s.listApprovals.all() : s.listApprovalsByState.all(filter.state)) as ApprovalRow[];
        return rows.map(approvalFromRow);
      });
    },

    async pageRequests(filter: { states?: ApprovalState[] }, page: { limit: number; offset: number }): Promise<RequestPage> {
      return read('pageRequests', ({ db }) => {
        const states = filter.states ?? [];
        const where = states.length > 0 ? `WHERE state IN (${marks(states.length)})` : '';
        const items = (
          db
            .prepare(`SELECT ${APPROVAL_COLUMNS} FROM approvals ${where} ORDER BY created_at DESC, call_id DESC LIMIT ? OFFSET ?`)
            .all(...states, page.limit, page.offset) as ApprovalRow[]
        ).map(approvalFromRow);
        const total = (db.prepare(`SELECT count(*) AS n FROM approvals ${where}`).get(...states) as { n: number }).n;
        return { items, total };
      });
    },

    async addAnswer(callId: string, answer: ApprovalAnswer): Promise<AddAnswerResult> {
      return write('addAnswer', (s) => {
        const request = approvalOf(s, callId);
        if (!request) return { outcome: 'unknown' } as const;
        const outcome = answerOutcome(request, answer);
        if (outcome !== 'recorded') return { outcome, request };
        const next = withAnswer(request, answer);
        s.updateAnswers.run(next.state, JSON.stringify(next.answers), next.decidedAt ?? null, callId);
        return { outcome: 'recorded', request: next } as const;
      });
    },

    // not `async`: the shell's promise is the answer (an async wrapper would add turns to every claim)
    claimApproval(callId: string, now: number, expect?: ClaimBinding): Promise<ClaimResult> {
      return autocommit('claimApproval', (s): ClaimResult => {
        // The rule's success case as one conditional UPDATE … RETURNING in autocommit, its own
        // atomic, durable transaction (exact binding columns: equality implies the rule's match).
        // Run to its end with `all`, so a failed commit throws instead of answering `claimed`.
        const exact = exactBinding(expect);
        const rows = (
          expect === undefined
            ? s.claimAny.all(now, callId)
            : exact
              ? s.claimBound.all(now, callId, exact.action, exact.argsHash, exact.policyHash, exact.principal)
              : NONE
        ) as ApprovalValues[];
        if (rows.length === 1) return { outcome: 'claimed', request: approvalFromValues(rows[0]!) };
        // Anything else (a refusal, a principal equal only after normalisation) is decided by the
        // rule on the row read under the write lock, and written in the same transaction.
        return s.db.immediate(() => {
          const { result, write: next } = claimTransition(approvalOf(s, callId), expect, now);
          if (next) consume(s, next);
          return result;
        });
      });
    },
  };
}
