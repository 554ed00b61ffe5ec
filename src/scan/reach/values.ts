import type { ReachValue } from '../types.js';
import type { PathStep } from './bindings.js';

// The few operations on `ReachValue`s that conversion and evaluation share.

export const NONE: ReachValue = { k: 'none' };
export const unknown = (why: string): ReachValue => ({ k: 'unknown', why });

/** The union of values, flattened; `none` when empty. */
export function all(values: ReachValue[]): ReachValue {
  const of = values.flatMap((v) => (v.k === 'all' ? v.of : v.k === 'none' ? [] : [v]));
  if (of.length === 0) return NONE;
  return of.length === 1 ? of[0]! : { k: 'all', of };
}

export function member(of: ReachValue, name: PathStep): ReachValue {
  if (of.k === 'none' || of.k === 'unknown') return of;
  return name === undefined ? { k: 'member', of } : { k: 'member', of, name };
}
