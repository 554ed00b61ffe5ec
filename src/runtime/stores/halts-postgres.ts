import type { HaltState, HaltStore } from '../types.js';
import type { PostgresAccess } from './decision-log-postgres.js';
import { HALT_COLUMNS, type HaltRow, haltState, haltValues } from './halts-rows.js';

/**
 * Migration 6 of the Postgres store: the operators' halts in force. The halt epoch is a column of the
 * receipt head row, which every append locks: a set or lift raises it under that lock, so an append
 * conditional on the epoch reads it with the lock it takes anyway (no statement of its own).
 */
export const postgresHaltsSql = (S: string): string => `
  CREATE TABLE ${S}.halts (
    id text PRIMARY KEY,
    target text NOT NULL,
    value text,
    hard boolean NOT NULL,
    reason text NOT NULL,
    by_name text NOT NULL,
    at bigint NOT NULL
  );
  ALTER TABLE ${S}.receipt_head ADD COLUMN halt_epoch bigint NOT NULL DEFAULT 0;
`;

type Querier = { query(text: string, values?: unknown[]): Promise<{ rows: any[]; rowCount: number | null }> };

async function stateOf(c: Querier, S: string, epoch?: string | number): Promise<HaltState> {
  const at = epoch ?? (await c.query(`SELECT halt_epoch FROM ${S}.receipt_head WHERE id = 1`)).rows[0].halt_epoch;
  return haltState(at, (await c.query(`SELECT ${HALT_COLUMNS} FROM ${S}.halts ORDER BY at, id`)).rows as HaltRow[]);
}

/** Raises the epoch under the head row's lock (which the change's transaction then holds to its commit). */
async function raise(c: Querier, S: string): Promise<string | number> {
  return (await c.query(`UPDATE ${S}.receipt_head SET halt_epoch = halt_epoch + 1 WHERE id = 1 RETURNING halt_epoch`)).rows[0].halt_epoch;
}

/** The halts of the Postgres store. */
export function postgresHalts(access: PostgresAccess): HaltStore {
  const { S } = access;
  return {
    // one statement, one snapshot: the epoch and the halts agree
    async readHalts() {
      const r = await access.query(
        'readHalts',
        `SELECT h.epoch, ${HALT_COLUMNS.split(', ')
          .map((c) => `x.${c}`)
          .join(', ')} FROM (SELECT halt_epoch AS epoch FROM ${S}.receipt_head WHERE id = 1) h LEFT JOIN ${S}.halts x ON true ORDER BY x.at, x.id`,
        [],
      );
      const rows = r.rows as Array<HaltRow & { epoch: string | number }>;
      return haltState(
        rows[0]?.epoch ?? 0,
        rows.filter((row) => row.id !== null),
      );
    },
    putHalt: (halt) =>
      access.transaction('putHalt', async (c) => {
        const added = await c.query(
          `INSERT INTO ${S}.halts (${HALT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
          haltValues(halt, halt.hard),
        );
        return stateOf(c, S, added.rowCount === 1 ? await raise(c, S) : undefined);
      }),
    liftHalt: (id) =>
      access.transaction('liftHalt', async (c) => {
        const removed = (await c.query(`DELETE FROM ${S}.halts WHERE id = $1 RETURNING ${HALT_COLUMNS}`, [id])).rows as HaltRow[];
        const state = await stateOf(c, S, removed.length === 1 ? await raise(c, S) : undefined);
        return { lifted: removed.length === 1 ? haltState(0, removed).halts[0]! : null, state };
      }),
  };
}
