/** Values as a reader of a report sees them: JSON, integers of any size as their digits, missing shown as such. */
import { stringify } from 'lossless-json';

export function showValue(value: unknown): string {
  if (value === undefined) return '(missing)';
  try {
    return stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A JSON-safe copy: a bigint becomes its digits as a string (JSON reports stay readable by JSON.parse). */
export function jsonSafe(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonSafe(v)]));
  return value;
}

/** The arguments of a call as one line of JSON (the text itself when the call carries its JSON text). */
export function showArgs(args: unknown): string {
  return typeof args === 'string' ? args : showValue(args);
}
