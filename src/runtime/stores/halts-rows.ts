import type { Halt, HaltState } from '../types.js';

/** A halt as SQLite and Postgres store it (halts-sqlite.ts, halts-postgres.ts). */
export interface HaltRow {
  id: string;
  target: string;
  value: string | null;
  hard: number | boolean;
  reason: string;
  by_name: string;
  at: number | string;
}

export const HALT_COLUMNS = 'id, target, value, hard, reason, by_name, at';

export const haltFromRow = (r: HaltRow): Halt => ({
  id: r.id,
  target: r.target as Halt['target'],
  value: r.value,
  hard: r.hard === true || Number(r.hard) === 1,
  reason: r.reason,
  by: r.by_name,
  at: Number(r.at),
});

export const haltValues = (h: Halt, hard: number | boolean): unknown[] => [h.id, h.target, h.value, hard, h.reason, h.by, h.at];

/** The state from the epoch and the rows, oldest halt first. */
export function haltState(epoch: number | string, rows: HaltRow[]): HaltState {
  return { epoch: Number(epoch), halts: rows.map(haltFromRow) };
}
