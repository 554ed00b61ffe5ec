import type { HaltState, HaltStore } from '../types.js';
import type { SqliteAccess } from './decision-log-sqlite.js';
import { HALT_COLUMNS, type HaltRow, haltState, haltValues } from './halts-rows.js';
import type { SqliteConnection } from './sqlite-driver.js';

/**
 * Migration 6 of the SQLite store: the operators' halts in force, and the halt epoch every set and
 * lift raises in the same transaction (a conditional receipt append compares it under the write lock).
 */
export const SQLITE_HALTS_SQL = `
  CREATE TABLE halts (
    id TEXT PRIMARY KEY,
    target TEXT NOT NULL,
    value TEXT,
    hard INTEGER NOT NULL,
    reason TEXT NOT NULL,
    by_name TEXT NOT NULL,
    at INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE halt_epoch (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    epoch INTEGER NOT NULL
  ) STRICT;
  INSERT INTO halt_epoch (id, epoch) VALUES (1, 0);
`;

export const SQLITE_HALT_EPOCH = 'SELECT epoch FROM halt_epoch WHERE id = 1';

function stateOf(db: SqliteConnection): HaltState {
  const epoch = (db.prepare(SQLITE_HALT_EPOCH).get() as { epoch: number }).epoch;
  return haltState(epoch, db.prepare(`SELECT ${HALT_COLUMNS} FROM halts ORDER BY at, id`).all() as HaltRow[]);
}

/** The halts of the SQLite store. */
export function sqliteHalts(access: SqliteAccess): HaltStore {
  return {
    readHalts: () => access.read('readHalts', stateOf),
    putHalt: (halt) =>
      access.write('putHalt', (db) => {
        const added = db
          .prepare(`INSERT INTO halts (${HALT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`)
          .run(...haltValues(halt, halt.hard ? 1 : 0));
        if (Number(added.changes) === 1) db.prepare('UPDATE halt_epoch SET epoch = epoch + 1 WHERE id = 1').run();
        return stateOf(db);
      }),
    liftHalt: (id) =>
      access.write('liftHalt', (db) => {
        const row = db.prepare(`DELETE FROM halts WHERE id = ? RETURNING ${HALT_COLUMNS}`).all(id) as HaltRow[];
        if (row.length === 1) db.prepare('UPDATE halt_epoch SET epoch = epoch + 1 WHERE id = 1').run();
        const state = stateOf(db);
        return { lifted: row.length === 1 ? haltState(0, row).halts[0]! : null, state };
      }),
  };
}
