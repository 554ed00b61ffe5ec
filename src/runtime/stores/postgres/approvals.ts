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
import { APPROVAL_COLUMN_COUNT, APPROVAL_COLUMNS, approvalFromRow, approvalToValues, type ApprovalRow } from '../rows.js';
import { consume, lockApproval, type PgShell } from './connection.js';
import { params } from './statements.js';

export type ApprovalMethods = Pick<Store, 'putRequest' | 'getRequest' | 'listRequests' | 'pageRequests' | 'addAnswer' | 'claimApproval'>;

/** The approval-request methods of the Postgres store. */
export function postgresApprovals(shell: PgShell): ApprovalMethods {
  const { S, Q, query, transaction } = shell;

  /** The claim decided by the rule on the locked row (a refusal, or a principal equal only after normalisation). */
  const claimLocked = (callId: string, now: number, expect: ClaimBinding | undefined): Promise<ClaimResult> =>
    transaction('claimApproval', async (c) => {
      const { result, write } = claimTransition(await lockApproval(Q, c, callId), expect, now);
      if (write) await consume(Q, c, write);
      return result;
    });

  return {
    async putRequest(request: NewApprovalRequest): Promise<ApprovalRequest> {
      const created: ApprovalRequest = { ...request, state: 'pending', answers: [] };
      const inserted = await query(
        'putRequest',
        `INSERT INTO ${S}.approvals (${APPROVAL_COLUMNS}) VALUES (${params(APPROVAL_COLUMN_COUNT)}) ON CONFLICT (call_id) DO NOTHING RETURNING ${APPROVAL_COLUMNS}`,
        approvalToValues(created),
      );
      if (inserted.rows[0]) return approvalFromRow(inserted.rows[0] as ApprovalRow);
      const existing = await query('putRequest', { ...Q.approvalByCallId, values: [request.callId] });
      return approvalFromRow(existing.rows[0] as ApprovalRow);
    },

    async getRequest(callId: string): Promise<ApprovalRequest | null> {
      const r = await query('getRequest', { ...Q.approvalByCallId, values: [callId] });
      return r.rows[0] ? approvalFromRow(r.rows[0] as ApprovalRow) : null;
    },

    async listRequests(filter?: { state?: ApprovalState }): Promise<ApprovalRequest[]> {
      const r =
        filter?.state === undefined
          ? await query('listRequests', `SELECT ${APPROVAL_COLUMNS} FROM ${S}.approvals ORDER BY created_at, call_id COLLATE "C"`)
          : await query('listRequests', `SELECT ${APPROVAL_COLUMNS} FROM ${S}.approvals WHERE state = $1 ORDER BY created_at, call_id COLLATE "C"`, [
              filter.state,
            ]);
      return r.rows.map((row) => approvalFromRow(row as ApprovalRow));
    },

    async pageRequests(filter: { states?: ApprovalState[] }, page: { limit: number; offset: number }): Promise<RequestPage> {
      const states = filter.states ?? [];
      const where = states.length > 0 ? 'WHERE state = ANY($1::text[])' : '';
      const values: unknown[] = states.length > 0 ? [states] : [];
      const n = values.length;
      const items = await query(
        'pageRequests',
        `SELECT ${APPROVAL_COLUMNS} FROM ${S}.approvals ${where} ORDER BY created_at DESC, call_id COLLATE "C" DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
        [...values, page.limit, page.offset],
      );
      const count = await query('pageRequests', `SELECT count(*)::int AS n FROM ${S}.approvals ${where}`, values);
      return { items: items.rows.map((row) => approvalFromRow(row as ApprovalRow)), total: (count.rows[0] as { n: number }).n };
    },

    async addAnswer(callId: string, answer: ApprovalAnswer): Promise<AddAnswerResult> {
      return transaction('addAnswer', async (c) => {
        const request = await lockApproval(Q, c, callId);
        if (!request) return { outcome: 'unknown' } as const;
        const outcome = answerOutcome(request, answer);
        if (outcome !== 'recorded') return { outcome, request };
        const next = withAnswer(request, answer);
        const u = await c.query(`UPDATE ${S}.approvals SET state = $1, answers = $2, decided_at = $3 WHERE call_id = $4 AND state = 'pending'`, [
          next.state,
          JSON.stringify(next.answers),
          next.decidedAt ?? null,
          callId,
        ]);
        if (u.rowCount !== 1) throw new Error(`addAnswer: the request ${callId} changed under a row lock`);
        return { outcome: 'recorded', request: next } as const;
      });
    },

    async claimApproval(callId: string, now: number, expect?: ClaimBinding): Promise<ClaimResult> {
      // The rule's success case as one statement, UPDATE … RETURNING (exact binding columns); a
      // refusal, or a principal equal only after normalisation, is decided on the locked row.
      const exact = exactBinding(expect);
      if (expect === undefined || exact) {
        const r =
          expect === undefined
            ? await query('claimApproval', { ...Q.claimAny, values: [callId, now] })
            : await query('claimApproval', { ...Q.claimBound, values: [callId, now, exact!.action, exact!.argsHash, exact!.policyHash, exact!.principal] });
        if (r.rowCount === 1) return { outcome: 'claimed', request: approvalFromRow(r.rows[0] as ApprovalRow) };
      }
      return claimLocked(callId, now, expect);
    },
  };
}
