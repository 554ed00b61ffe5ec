import type { Operator, TemplatePart } from './types.js';

/**
 * The vocabulary of `ctrlrun.yaml` (SPEC §2): which keys exist where, from which schema version,
 * the operators, the reserved subjects and the name patterns. Data only; the loader enforces it.
 */

export const LATEST_POLICY_VERSION = 6;
export const POLICY_SCHEMA_PREFIX = 'ctrlrun.policy/v';

/** Key -> the schema version that introduced it. v3 introduces no key of this subset (docs/DECISIONS.md). */
export const TOP_LEVEL_KEYS: Readonly<Record<string, number>> = { schema: 1, mode: 1, environment: 1, controls: 4, actions: 1 };
export const ACTION_KEYS: Readonly<Record<string, number>> = {
  decision: 1,
  rules: 1,
  effect: 2,
  resource: 2,
  controls: 4,
  max_attempts: 5,
  approvals_required: 6,
};
export const RULE_KEYS: Readonly<Record<string, number>> = { when: 1, decision: 1 };
export const CONTROL_KEYS: Readonly<Record<string, number>> = { title: 4, approver_role: 4 };

/** CTRLRun keys this project does not implement: refused by name, never ignored. */
export const UNSUPPORTED_KEYS: readonly string[] = ['authority', 'budgets', 'tasks', 'upstream', 'data'];
export const UNSUPPORTED_KEY_PREFIX = 'data_scope_';

export function isUnsupportedKey(key: string): boolean {
  return UNSUPPORTED_KEYS.includes(key) || key === 'data_scope' || key.startsWith(UNSUPPORTED_KEY_PREFIX);
}

export const DECISIONS = ['allow', 'approve', 'deny'] as const;
export const MODES = ['enforce', 'observe'] as const;

export const OPERATORS: readonly Operator[] = ['eq', 'neq', 'in', 'lt', 'lte', 'gt', 'gte'];
export const ORDER_OPERATORS: readonly Operator[] = ['lt', 'lte', 'gt', 'gte'];

/** Subjects a `when` may not test: the policy never sees who is asking. */
export const RESERVED_SUBJECTS: readonly string[] = [
  'agent',
  'user',
  'claims',
  'issuer',
  'expires_at',
  'action_id',
  'environment',
  'principal',
  'resource',
  'data_scope',
];

/** Action and control ids: lowercase words joined by single `.`, `_` or `-` (`stripe.refund`, `payments-approval`). */
export const ID_PATTERN = /^[a-z0-9]+(?:[._-][a-z0-9]+)*$/;
export const ID_MAX_LENGTH = 128;
/** Argument names in `when` keys and `{placeholders}`: identifiers. */
export const ARG_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const APPROVALS_REQUIRED_MAX = 10;
export const MAX_ATTEMPTS_MAX = 100;

export type ConditionKeyParse =
  | { ok: true; arg: string; op: Operator }
  | { ok: false; reason: 'no-operator'; suffix: string }
  | { ok: false; reason: 'no-arg'; op: Operator }
  | { ok: false; reason: 'bad-arg'; arg: string; op: Operator };

/** `<arg>_<op>`, split on the LAST `_`: `min_amount_gte` is (`min_amount`, `gte`). */
export function parseConditionKey(key: string): ConditionKeyParse {
  const cut = key.lastIndexOf('_');
  const suffix = cut < 0 ? key : key.slice(cut + 1);
  if (cut < 0 || !(OPERATORS as readonly string[]).includes(suffix)) return { ok: false, reason: 'no-operator', suffix };
  const op = suffix as Operator;
  const arg = key.slice(0, cut);
  if (arg === '') return { ok: false, reason: 'no-arg', op };
  if (!ARG_PATTERN.test(arg)) return { ok: false, reason: 'bad-arg', arg, op };
  return { ok: true, arg, op };
}

export interface TemplateError {
  /** 0-based index in the template text. */
  index: number;
  message: string;
}

/**
 * `{arg}` placeholders in literal text. There is no escape: every `{` opens a placeholder that
 * must close with `}` around an argument name; a `}` outside a placeholder is refused.
 */
export function parseTemplate(source: string): { parts: TemplatePart[]; errors: TemplateError[] } {
  const parts: TemplatePart[] = [];
  const errors: TemplateError[] = [];
  let text = '';
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '}') {
      errors.push({ index: i, message: 'a `}` closes no placeholder' });
      i++;
      continue;
    }
    if (c !== '{') {
      text += c;
      i++;
      continue;
    }
    const close = source.indexOf('}', i + 1);
    const nextOpen = source.indexOf('{', i + 1);
    if (close < 0 || (nextOpen >= 0 && nextOpen < close)) {
      errors.push({ index: i, message: 'a `{` is never closed' });
      i++;
      continue;
    }
    const name = source.slice(i + 1, close);
    if (!ARG_PATTERN.test(name)) {
      errors.push({ index: i, message: name === '' ? 'an empty placeholder `{}`' : `\`{${name}}\` is not an argument name` });
    } else {
      if (text !== '') parts.push({ kind: 'text', text });
      text = '';
      parts.push({ kind: 'arg', arg: name });
    }
    i = close + 1;
  }
  if (text !== '') parts.push({ kind: 'text', text });
  return { parts, errors };
}
