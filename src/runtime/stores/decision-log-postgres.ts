import { chainedEntry, newDecisionKey } from '../decision-log.js';
import { GENESIS_HASH } from '../receipts-hash.js';
import type { DecisionBody, DecisionEntry, DecisionLogStore, DecisionQuery, PrunedDecision, PruneStore } from '../types.js';
import { decisionFromRow, PRUNED_ACTION, tombstoneOf } from './decision-log-rows.js';

/** Migration 3 of the Postgres store (`S` the quoted schema): the decision log and its head row, locked by each append. */
export const postgresDecisionLogSql = (S: string): string => `
  CREATE TABLE ${S}.decisions (
    seq bigint PRIMARY KEY,
    at bigint NOT NULL,
    action text NOT NULL,
    hash text NOT NULL,
    entry text NOT NULL
  );
  CREATE INDEX decisions_by_at ON ${S}.decisions (at);
  CREATE TABLE ${S}.decision_head (
    id integer PRIMARY KEY CHECK (id = 1),
    seq bigint NOT NULL,
    hash text NOT NULL
  );
  INSERT INTO ${S}.decision_head (id, seq, hash) VALUES (1, 0, '${GENESIS_HASH}');
`;

/** Migration 4: the store's secret decision key (one row, made by the first append of a labelled argument). */
export const postgresDecisionKeySql = (S: string): string => `
  CREATE TABLE ${S}.decision_key (
    id integer PRIMARY KEY CHECK (id = 1),
    key text NOT NULL
  );
`;

type Rows = { rows: any[]; rowCount: number | null };
interface Querier {
  query(text: string, values?: unknown[]): Promise<Rows>;
}

/** The Postgres store's way in: one transaction on one connection, or one query on the pool; both fail closed as StoreErrors. */
export interface PostgresAccess {
  /** The quoted schema. */
  S: string;
  transaction<T>(operation: string, fn: (client: Querier) => Promise<T>): Promise<T>;
  query(operation: string, text: string, values?: unknown[]): Promise<Rows>;
}

type DecisionPruning = Pick<PruneStore, 'decisionHead' | 'deleteDecisions' | 'tombstoneDecisions' | 'listPrunedDecisions'>;

/** The Postgres store's decision log: appended under a lock on the head row, so seq and prev_hash never fork across processes. */
export function postgresDecisionLog(access: PostgresAccess): DecisionLogStore & DecisionPruning {
  const { S } = access;
  let key: string | undefined;
  return {
    async decisionKey(): Promise<string> {
      // the first writer's key wins (ON CONFLICT): every process of the store reads the same one
      key ??= await access.transaction('decisionKey', async (c) => {
        await c.query(`INSERT INTO ${S}.decision_key (id, key) VALUES (1, $1) ON CONFLICT (id) DO NOTHING`, [newDecisionKey()]);
        return ((await c.query(`SELECT key FROM ${S}.decision_key WHERE id = 1`)).rows[0] as { key: string }).key;
      });
      return key;
    },
    appendDecision(body: DecisionBody): Promise<DecisionEntry> {
      return access.transaction('appendDecision', async (c) => {
        const head = (await c.query(`SELECT seq, hash FROM ${S}.decision_head WHERE id = 1 FOR UPDATE`)).rows[0] as { seq: string | number; hash: string };
        const entry = chainedEntry(body, { seq: Number(head.seq), hash: head.hash });
        await c.query(`INSERT INTO ${S}.decisions (seq, at, action, hash, entry) VALUES ($1, $2, $3, $4, $5)`, [
          entry.seq,
          entry.at,
          entry.action,
          entry.hash,
          JSON.stringify(entry),
        ]);
        await c.query(`UPDATE ${S}.decision_head SET seq = $1, hash = $2 WHERE id = 1`, [entry.seq, entry.hash]);
        return entry;
      });
    },
    async listDecisions(query?: DecisionQuery): Promise<DecisionEntry[]> {
      const r = await access.query(
        'listDecisions',
        `SELECT entry FROM ${S}.decisions WHERE seq > $1 AND ($2::bigint IS NULL OR at >= $2) AND ($3::text IS NULL OR action = $3) AND action <> $5 ORDER BY seq LIMIT $4`,
        [query?.afterSeq ?? 0, query?.since ?? null, query?.action ?? null, query?.limit ?? null, PRUNED_ACTION],
      );
      return r.rows.map((row) => decisionFromRow(row as { entry: string }));
    },
    async decisionHead() {
      const row = (await access.query('decisionHead', `SELECT seq, hash FROM ${S}.decision_head WHERE id = 1`)).rows[0] as {
        seq: string | number;
        hash: string;
      };
      return { seq: Number(row.seq), hash: row.hash };
    },
    async deleteDecisions(through) {
      return (await access.query('deleteDecisions', `DELETE FROM ${S}.decisions WHERE seq <= $1`, [through])).rowCount ?? 0;
    },
    tombstoneDecisions: (seqs, tenant) =>
      access.transaction('tombstoneDecisions', async (c) => {
        const rows = (await c.query(`SELECT entry FROM ${S}.decisions WHERE seq = ANY($1::bigint[]) AND action <> $2 FOR UPDATE`, [seqs, PRUNED_ACTION])).rows;
        for (const row of rows) {
          const stone = tombstoneOf(decisionFromRow(row as { entry: string }), tenant);
          await c.query(`UPDATE ${S}.decisions SET action = $1, entry = $2 WHERE seq = $3`, [PRUNED_ACTION, JSON.stringify(stone), stone.seq]);
        }
        return rows.length;
      }),
    async listPrunedDecisions() {
      const r = await access.query('listPrunedDecisions', `SELECT entry FROM ${S}.decisions WHERE action = $1 ORDER BY seq`, [PRUNED_ACTION]);
      return r.rows.map((row) => decisionFromRow(row as { entry: string }) as unknown as PrunedDecision);
    },
  };
}
