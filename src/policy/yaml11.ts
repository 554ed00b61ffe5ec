/**
 * Plain (unquoted, untagged) YAML scalars resolved as CTRLRun reads them: PyYAML's `safe_load`,
 * YAML 1.1. The `yaml` package parses the policy with its failsafe schema (every scalar a string)
 * and the reader resolves plain scalars here, so `no` is `false`, `017` is 15, `0b11` is 3,
 * `1_000` is 1000 and `1:30` is 90, exactly as PyYAML's resolver and constructor do; `1e3` (no
 * dot), `0o17` and `y` stay strings. Quoted and block scalars are always strings.
 */

export type Resolved =
  | { kind: 'null' }
  | { kind: 'bool'; value: boolean }
  | { kind: 'int'; value: number | bigint }
  | { kind: 'float'; source: string }
  | { kind: 'non-finite'; source: string }
  | { kind: 'timestamp'; source: string }
  /** PyYAML's constructor fails on it (`0b_`, `0x_`, `=`, `<<` outside a mapping): the document is refused. */
  | { kind: 'invalid'; source: string; why: string }
  | { kind: 'string'; value: string };

const BOOL = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const NULL = /^(?:~|null|Null|NULL|)$/;
const INT = /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const FLOAT =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const TIMESTAMP =
  /^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$/;

/** PyYAML's implicit resolution of a plain scalar, in its resolver's order (bool, float, int, merge, null, timestamp, value). */
export function resolvePlain(text: string): Resolved {
  if (BOOL.test(text)) return { kind: 'bool', value: ['yes', 'true', 'on'].includes(text.toLowerCase()) };
  if (FLOAT.test(text)) return /inf|nan/i.test(text) ? { kind: 'non-finite', source: text } : { kind: 'float', source: text };
  if (INT.test(text)) return constructInt(text);
  if (text === '<<') return { kind: 'invalid', source: text, why: 'a merge key (`<<`) is not supported in a policy' };
  if (NULL.test(text)) return { kind: 'null' };
  if (TIMESTAMP.test(text)) return { kind: 'timestamp', source: text };
  if (text === '=') return { kind: 'invalid', source: text, why: 'YAML 1.1 reads a plain `=` as a value key, which a policy cannot hold (quote it)' };
  return { kind: 'string', value: text };
}

/** PyYAML's `construct_yaml_int`: `_` dropped; `0b`, `0x`, leading-`0` octal, `:` base 60, else decimal. */
function constructInt(text: string): Resolved {
  let value = text.replace(/_/g, '');
  let sign = 1n;
  if (value[0] === '-') sign = -1n;
  if (value[0] === '-' || value[0] === '+') value = value.slice(1);
  let n: bigint;
  if (value === '0') n = 0n;
  else if (value.startsWith('0b')) {
    if (value.length === 2) return { kind: 'invalid', source: text, why: `\`${text}\` has no binary digits` };
    n = BigInt(value);
  } else if (value.startsWith('0x')) {
    if (value.length === 2) return { kind: 'invalid', source: text, why: `\`${text}\` has no hexadecimal digits` };
    n = BigInt(value);
  } else if (value[0] === '0') n = BigInt(`0o${value.slice(1) === '' ? '0' : value.slice(1)}`);
  else if (value.includes(':')) {
    n = 0n;
    let base = 1n;
    for (const part of value.split(':').reverse()) {
      n += BigInt(part) * base;
      base *= 60n;
    }
  } else n = BigInt(value);
  n *= sign;
  const safe = n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER);
  return { kind: 'int', value: safe ? Number(n) : n };
}
