import { chainedEntry, newDecisionKey } from '../decision-log.js';
import { GENESIS_HASH } from '../receipts-hash.js';
import type { DecisionBody, DecisionEntry, DecisionLogStore, DecisionQuery, PrunedDecision, PruneStore } from '../types.js';
import { decisionFromRow, PRUNED_ACTION, tombstoneOf } from './decision-log-rows.js';
import type { SqliteConnection, SqliteStatement } from './sqlite-driver.js';

/** Migration 3 of the SQLite store: the decision log and its head (the last seq and hash, kept when retention empties the table). */
export const SQLITE_DECISION_LOG_SQL = `
  CREATE TABLE decisions (
    seq INTEGER PRIMARY KEY,
    at INTEGER NOT NULL,
    action TEXT NOT NULL,
    hash TEXT NOT NULL,
    entry TEXT NOT NULL
  ) STRICT;
  CREATE INDEX decisions_by_at ON decisions (at);
  CREATE TABLE decision_head (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seq INTEGER NOT NULL,
    hash TEXT NOT NULL
  ) STRICT;
  INSERT INTO decision_head (id, seq, hash) VALUES (1, 0, '${GENESIS_HASH}');
`;

/** Migration 4: the store's secret decision key (one row, made by the first append of a labelled argument). */
export const SQLITE_DECISION_KEY_SQL = `
  CREATE TABLE decision_key (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    key TEXT NOT NULL
  ) STRICT;
`;

/** The SQLite store's way in: `write` runs in one BEGIN IMMEDIATE transaction, `read` outside one; both fail closed as StoreErrors. */
export interface SqliteAccess {
  write<T>(operation: string, fn: (db: SqliteConnection) => T): Promise<T>;
  read<T>(operation: string, fn: (db: SqliteConnection) => T): Promise<T>;
}

interface Statements {
  head: SqliteStatement;
  setHead: SqliteStatement;
  insert: SqliteStatement;
}

type DecisionPruning = Pick<PruneStore, 'decisionHead' | 'deleteDecisions' | 'tombstoneDecisions' | 'listPrunedDecisions'>;

/** The SQLite store's decision log: each append one transaction under the write lock (head read, insert, head moved); pruned only by an operator's prune. */
export function sqliteDecisionLog(access: SqliteAccess): DecisionLogStore & DecisionPruning {
  let prepared: { db: SqliteConnection; s: Statements } | undefined;
  const statements = (db: SqliteConnection): Statements => {
    if (prepared?.db !== db) {
      prepared = {
        db,
        s: {
          head: db.prepare('SELECT seq, hash FROM decision_head WHERE id = 1'),
          setHead: db.prepare('UPDATE decision_head SET seq = ?, hash = ? WHERE id = 1'),
          insert: db.prepare('INSERT INTO decisions (seq, at, action, hash, entry) VALUES (?, ?, ?, ?, ?)'),
        },
      };
    }
    return prepared.s;
  };
  let key: string | undefined;
  return {
    async decisionKey(): Promise<string> {
      // made under the write lock: two processes opening one file read the same key
      key ??= await access.write('decisionKey', (db) => {
        db.prepare('INSERT OR IGNORE INTO decision_key (id, key) VALUES (1, ?)').run(newDecisionKey());
        return (db.prepare('SELECT key FROM decision_key WHERE id = 1').get() as { key: string }).key;
      });
      return key;
    },
    appendDecision(body: DecisionBody): Promise<DecisionEntry> {
      return access.write('appendDecision', (db) => {
        const s = statements(db);
        const entry = chainedEntry(body, s.head.get() as { seq: number; hash: string });
        s.insert.run(entry.seq, entry.at, entry.action, entry.hash, JSON.stringify(entry));
        s.setHead.run(entry.seq, entry.hash);
        return entry;
      });
    },
    listDecisions(query?: DecisionQuery): Promise<DecisionEntry[]> {
      return access.read('listDecisions', (db) => {
        const rows = db
          .prepare(`SELECT entry FROM decisions WHERE seq > ? AND at >= ? AND (? IS NULL OR action = ?) AND action <> '${PRUNED_ACTION}' ORDER BY seq LIMIT ?`)
          .all(query?.afterSeq ?? 0, query?.since ?? Number.MIN_SAFE_INTEGER, query?.action ?? null, query?.action ?? null, query?.limit ?? -1) as Array<{
          entry: string;
        }>;
        return rows.map(decisionFromRow);
      });
    },
    decisionHead: () => access.read('decisionHead', (db) => statements(db).head.get() as { seq: number; hash: string }),
    deleteDecisions: (through) => access.write('deleteDecisions', (db) => Number(db.prepare('DELETE FROM decisions WHERE seq <= ?').run(through).changes)),
    tombstoneDecisions: (seqs, tenant) =>
      access.write('tombstoneDecisions', (db) => {
        const get = db.prepare(`SELECT seq, at, hash, entry FROM decisions WHERE seq = ? AND action <> '${PRUNED_ACTION}'`);
        const set = db.prepare('UPDATE decisions SET action = ?, entry = ? WHERE seq = ?');
        let n = 0;
        for (const seq of seqs) {
          const row = get.get(seq) as { entry: string } | undefined;
          if (!row) continue;
          const stone = tombstoneOf(decisionFromRow(row), tenant);
          set.run(PRUNED_ACTION, JSON.stringify(stone), seq);
          n += 1;
        }
        return n;
      }),
    listPrunedDecisions: () =>
      access.read('listPrunedDecisions', (db) =>
        (db.prepare(`SELECT entry FROM decisions WHERE action = '${PRUNED_ACTION}' ORDER BY seq`).all() as Array<{ entry: string }>).map(
          (row) => decisionFromRow(row) as unknown as PrunedDecision,
        ),
      ),
  };
}
