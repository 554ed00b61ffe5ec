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
import { APPROVAL_COLUMNS, approvalFromRow, approvalToValues, type ApprovalRow } from '../rows.js';
import type { SqliteShell } from './connection.js';
import { approvalOf, consume, marks } from './statements.js';

export type ApprovalMethods = Pick<Store, 'putRequest' | 'getRequest' | 'listRequests' | 'pageRequests' | 'addAnswer' | 'claimApproval'>;

/** The approval-request methods of the SQLite store: each change one BEGIN IMMEDIATE transaction. */
export function sqliteApprovals({ write, read }: SqliteShell): ApprovalMethods {
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

    async claimApproval(callId: string, now: number, expect?: ClaimBinding): Promise<ClaimResult> {
      return write('claimApproval', (s): ClaimResult => {
        // The rule's success case as one conditional UPDATE … RETURNING (exact binding columns);
        // anything else (a refusal, a principal equal only after normalisation) is decided below.
        const exact = exactBinding(expect);
        const row = (
          expect === undefined
            ? s.claimAny.get(now, callId)
            : exact
              ? s.claimBound.get(now, callId, exact.action, exact.argsHash, exact.policyHash, exact.principal)
              : undefined
        ) as ApprovalRow | undefined;
        if (row) return { outcome: 'claimed', request: approvalFromRow(row) };
        const { result, write: next } = claimTransition(approvalOf(s, callId), expect, now);
        if (next) consume(s, next);
        return result;
      });
    },
  };
}
