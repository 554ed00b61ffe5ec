/**
 * Values as a reader of a report sees them: JSON, integers of any size as their digits, missing
 * shown as such. Written here rather than with lossless-json: `check` loads this (through the
 * policy rules) in its plain CommonJS bundle, which loads no ES-module package.
 */
export function showValue(value: unknown): string {
  if (value === undefined) return '(missing)';
  return json(value);
}

function json(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : json(v))).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${json(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? String(value);
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
