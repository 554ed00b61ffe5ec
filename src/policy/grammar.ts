import type { TemplatePart } from './types.js';

/**
 * The vocabulary of `ctrlrun.yaml` (SPEC §2): which keys exist where, from which schema version,
 * the operators, the reserved subjects and the name patterns. Data only; the loader enforces it.
 */

export const LATEST_POLICY_VERSION = 8;
export const POLICY_SCHEMA_PREFIX = 'ctrlrun.policy/v';

/**
 * Key -> the schema version that introduced it, as CTRLRun 0.12.2 gates them (a key used before its
 * version is a load error). `controls` on an action or a rule is not gated by itself: citing an id
 * needs the v4 registry.
 */
export const TOP_LEVEL_KEYS: Readonly<Record<string, number>> = { schema: 1, actions: 1, mode: 3, environment: 3, authority: 3, controls: 4, version: 4 };
export const ACTION_KEYS: Readonly<Record<string, number>> = {
  decision: 1,
  rules: 1,
  controls: 1,
  effect: 2,
  resource: 2,
  mcp: 2,
  data: 4,
  max_attempts: 5,
  approvals_required: 6,
  upstream: 8,
};
export const RULE_KEYS: Readonly<Record<string, number>> = { when: 1, decision: 1, controls: 1 };
export const CONTROL_KEYS: Readonly<Record<string, number>> = { title: 1, source: 1, approver_role: 6 };
export const MCP_KEYS: Readonly<Record<string, number>> = { not_executed_on_error: 2 };

export const AUTHORITY_KEYS: Readonly<Record<string, number>> = { max_delegation_depth: 3, grants: 3, break_glass: 3 };
export const GRANT_KEYS: Readonly<Record<string, number>> = {
  id: 3,
  subject: 3,
  actions: 3,
  resources: 3,
  constraints: 3,
  environments: 3,
  expires_at: 3,
  delegable: 3,
  tasks: 7,
  budgets: 7,
};
export const SUBJECT_KEYS: Readonly<Record<string, number>> = { agent: 3, user: 3 };
export const BUDGET_KEYS: Readonly<Record<string, number>> = { metric: 7, limit: 7, window: 7 };
export const UPSTREAM_KEYS: Readonly<Record<string, number>> = { tls_cert_sha256: 8, tls_cert_file: 8, tool_schema_sha256: 8 };
/** CTRLRun's default `max_delegation_depth`. */
export const DEFAULT_MAX_DELEGATION_DEPTH = 3;
/** CTRLRun's widest budget window: a hundred years, in seconds. */
export const MAX_WINDOW_SECONDS = 100 * 365 * 24 * 60 * 60;

/**
 * CTRLRun keys this SDK cannot honour, refused by name (never ignored): `break_glass` envelopes
 * (parents of delegations opened at run time, which ctrlrun-gen does not create).
 */
export const UNSUPPORTED_KEYS: Readonly<Record<string, string>> = {
  break_glass: 'break-glass envelopes are parents of delegations opened at run time, which ctrlrun-gen does not create',
};

export function isUnsupportedKey(key: string): boolean {
  return Object.hasOwn(UNSUPPORTED_KEYS, key);
}

/** The action name CTRLRun reserves for its policy-change flow (v6+), which no template may name. */
export const POLICY_CHANGE_ACTION = 'ctrlrun.policy.change';

export const DECISIONS = ['allow', 'approve', 'deny'] as const;
export const MODES = ['enforce', 'observe'] as const;

// `<arg>_<op>` and the operators, one definition with the runtime's (approval grants' bounds)
export { OPERATORS, ORDER_OPERATORS, parseConditionKey, type ConditionKeyParse } from '../runtime/conditions.js';

/** Subjects a `when` may not test: the policy never sees who is asking. */
export const RESERVED_SUBJECTS: readonly string[] = ['agent', 'user', 'claims', 'issuer', 'expires_at', 'action_id', 'environment', 'principal', 'resource'];
/**
 * Derived at evaluation (CTRLRun §7.4): `data_scope`, the labels (`data:`) of the arguments the call
 * supplies. A rule's `when` may test it; it may not be an argument name (a `data:` key), a template
 * placeholder, or a grant constraint's subject.
 */
export const DERIVED_SUBJECTS: readonly string[] = ['data_scope'];
export const DATA_KEYS: Readonly<Record<string, number>> = { label: 4 };

/** Control ids: at most this many characters, no control characters (CTRLRun's rule). */
export const CONTROL_ID_MAX_LENGTH = 200;
export const CONTROL_ID_FORBIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
/** Template placeholder names: Python's `[^\W\d]\w*` (a letter or `_`, then letters, digits, `_`; any script). */
export const ARG_PATTERN = /^[\p{L}\p{Nl}\p{No}_][\p{L}\p{N}_]*$/u;

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
