import type { ApprovalRequest, ClaimResult, Consumption, EffectRecord, Halt, Receipt, ReserveResult } from '../../types.js';

/**
 * What the in-memory store holds: one process, gone when the process ends. Every method of the
 * store runs to completion without awaiting in the middle, so each is atomic under Node's single
 * thread.
 */
export interface MemoryState {
  requests: Map<string, ApprovalRequest>;
  effects: Map<string, EffectRecord>;
  receipts: Receipt[];
  /** The budget ledger (insertion order). */
  ledger: Consumption[];
  /** The operators' halts in force, and the epoch every set and lift raises. */
  halts: Map<string, Halt>;
  haltEpoch: number;
  closed: boolean;
}

export function newMemoryState(): MemoryState {
  return { requests: new Map(), effects: new Map(), receipts: [], ledger: [], halts: new Map(), haltEpoch: 0, closed: false };
}

/** Every method but `close` refuses once the store is closed. */
export function open(state: MemoryState): void {
  if (state.closed) throw new Error('memoryStore: the store is closed');
}

/** Releases the held charges of an effect that became failed (a compare-and-set per row: never twice). */
export function release(state: MemoryState, key: string, now: number): void {
  for (const row of state.ledger) if (row.effectKey === key && row.releasedAt === null) row.releasedAt = now;
}

/**
 * A copy of a stored value. Values go in and out as copies: a caller mutating what it got back
 * never changes the store. The records are flat apart from `answers` / `approvers` (arrays of
 * flat values), so a shallow copy of those is a deep copy, and much cheaper than structuredClone
 * on the per-call path.
 */
export function copy<T>(value: T): T {
  const out = { ...value } as Record<string, unknown>;
  if (Array.isArray(out.answers)) out.answers = (out.answers as object[]).map((a) => ({ ...a }));
  if (Array.isArray(out.approvers)) out.approvers = [...(out.approvers as unknown[])];
  // a request's door holds the tool's schema (filed only for paused calls: off the allow path)
  if (out.door !== undefined) out.door = copyPlain(out.door);
  return out as T;
}

/**
 * A deep copy of plain data (objects, arrays, primitives), as structuredClone would make it and
 * several times cheaper for the small flat records written per call (a decision log entry); any
 * other object (a Date, a Map) inside is copied by structuredClone itself.
 */
export function copyPlain<T>(value: T, depth = 0): T {
  if (value === null || typeof value !== 'object') return value;
  if (depth > 64) return structuredClone(value);
  if (Array.isArray(value)) return value.map((v) => copyPlain(v, depth + 1)) as T;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  // a spread (V8 clones the object's layout at once), then only the object fields replaced by
  // their copies: several times cheaper than setting each key on a new object. The string-keyed
  // own enumerable fields, as Object.keys gives them: symbol-keyed ones are not kept.
  const out: Record<string | symbol, unknown> = { ...(value as Record<string, unknown>) };
  for (const key in out) {
    if (!hasOwn.call(out, key)) continue; // (a for-in sees inherited enumerable properties too)
    const v = out[key];
    if (v !== null && typeof v === 'object') out[key] = copyPlain(v, depth + 1);
  }
  for (const symbol of Object.getOwnPropertySymbols(out)) delete out[symbol];
  return out as T;
}

// `hasOwnProperty.call`, not Object.hasOwn: V8 answers it from the for-in's own cache
const hasOwn = Object.prototype.hasOwnProperty;

export function copyClaim<T extends ClaimResult>(claim: T): T {
  return claim.outcome === 'unknown' ? claim : { ...claim, request: copy(claim.request) };
}

export function copyReserve(result: ReserveResult): ReserveResult {
  switch (result.outcome) {
    case 'budget_exhausted':
      return { outcome: result.outcome, charge: { ...result.charge } };
    case 'claim_refused':
      return { outcome: result.outcome, claim: copyClaim(result.claim) };
    case 'reserved':
      return result.claimed
        ? { outcome: 'reserved', effect: copy(result.effect), claimed: copy(result.claimed) }
        : { outcome: 'reserved', effect: copy(result.effect) };
    default:
      return { outcome: result.outcome, effect: copy(result.effect) };
  }
}

/** Orders strings by code unit (the SQL stores order with COLLATE "C" / SQLite's BINARY). */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
