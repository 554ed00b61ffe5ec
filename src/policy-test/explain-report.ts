/**
 * `explain`'s reports: which rule decides a call and why, entry by entry, as text (colored on a
 * terminal) or JSON; and, where the tool's parameter schema was read, whether the tool refuses the
 * arguments before any rule (the runtime's check, tool-gate.ts). Pure: the CLI loads and prints.
 */
import { stringify as stringifyLossless } from 'lossless-json';
import pc from 'picocolors';
import { displayPath } from '../format-diagnostics.js';
import { type ConditionTrace, type Explanation, isInteger } from '../policy/evaluate.js';
import { didYouMean } from '../policy/suggest.js';
import type { Policy } from '../policy/types.js';
import type { ToolRefusal } from './tool-gate.js';

export interface ExplainView {
  policy: Policy;
  /** The policy file's text, for the matched rule's line. */
  source: string;
  cwd: string;
  color: boolean;
  /** The tool's refusal of the arguments before any rule, when its schema was read and refuses them. */
  refusal?: ToolRefusal | null;
}

/** Why an entry did not hold, when the reason is the argument itself rather than the comparison. */
export function whyNot(trace: Pick<ConditionTrace, 'op' | 'expected' | 'actual'>): string | undefined {
  const a = trace.actual;
  if (a === undefined) return 'missing';
  if (['lt', 'lte', 'gt', 'gte'].includes(trace.op)) return isInteger(a) ? undefined : `${describe(a)}, not an integer`;
  if (trace.op === 'neq') return undefined;
  const wanted = Array.isArray(trace.expected) || trace.expected === null ? undefined : typeof trace.expected;
  if (wanted !== undefined && typeof a !== wanted && !(wanted === 'number' && typeof a === 'bigint') && !(wanted === 'bigint' && typeof a === 'number')) {
    return `${describe(a)}, the rule compares ${wanted === 'number' || wanted === 'bigint' ? 'an integer' : wanted === 'object' ? 'a mapping' : `a ${wanted}`}`;
  }
  return undefined;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'number' || typeof v === 'bigint') return 'an integer';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}

function show(v: unknown): string {
  if (v === undefined) return '(missing)';
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  try {
    return stringifyLossless(v) ?? String(v);
  } catch {
    return String(v);
  }
}

function sourceLine(source: string, line: number): string | undefined {
  return source.split(/\r?\n/)[line - 1]?.trim();
}

export function explainText(e: Explanation, view: ExplainView): string {
  const { policy, source } = view;
  const ctx = view;
  const c = pc.createColors(view.color);
  const out: string[] = [];
  const decisionColor = e.decision === 'allow' ? c.green : e.decision === 'approve' ? c.yellow : c.red;
  const policyFile = displayPath(policy.file, ctx.cwd);
  if (view.refusal) {
    out.push(`${c.bold(e.action)}: ${c.red('refused by the tool')} (invalid_arguments)`);
    out.push(`  ${view.refusal.detail}.`, `  ${c.dim('What the policy would decide, were the arguments accepted:')}`, '');
  }
  if (e.reason === 'unknown_action') {
    out.push(`${c.bold(e.action)}: ${decisionColor('deny')} (unknown_action)`);
    out.push(`  ${policyFile} lists no action \`${e.action}\`; a call to it is denied.`);
    const ids = Object.keys(policy.actions);
    if (ids.length > 0) out.push(`  ${c.cyan('hint')}: ${didYouMean(e.action, ids, 'actions')}`);
  } else if (e.reason === 'invalid_argument' || e.reason === 'resource_template' || e.reason === 'effect_key_error') {
    out.push(`${c.bold(e.action)}: ${decisionColor('deny')} (${e.reason})`);
    out.push(`  refused before any rule: ${e.detail ?? 'the arguments were refused'}.`);
    if (e.reason === 'resource_template') out.push(`  ${c.dim("CTRLRun resolves the resource template first, before it checks the arguments' values.")}`);
    if (e.reason === 'effect_key_error')
      out.push(`  ${c.dim('CTRLRun resolves the effect template before the rules: an unresolved key is a denial whatever they say.')}`);
  } else {
    const why =
      e.reason === 'decision'
        ? "the action's `decision`"
        : e.reason === 'no_matching_rule'
          ? 'no_matching_rule: no rule matched, and no match is a deny'
          : `${e.reason} matched`;
    out.push(`${c.bold(e.action)}: ${decisionColor(e.decision)} (${why})`);
    if (e.ruleLoc) {
      const line = sourceLine(source, e.ruleLoc.line);
      out.push(`  ${policyFile}:${e.ruleLoc.line}:${e.ruleLoc.column}${line ? `  ${c.dim(line)}` : ''}`);
    }
    const action = policy.actions[e.action]!;
    if (e.decision === 'approve') {
      const controls = action.controls.length > 0 ? `; controls: ${action.controls.join(', ')}` : '';
      out.push(`  needs ${action.approvalsRequired} approver${action.approvalsRequired === 1 ? '' : 's'} other than the requester${controls}`);
    }
    if (e.effectKey !== null) out.push(`  effect key: ${e.effectKey}`);
    if (e.resource !== null) out.push(`  resource: ${e.resource}`);
    out.push('');
    const width = Math.max(0, ...e.conditions.map((t) => `${t.key}: ${show(t.expected)}`.length));
    for (const rule of action.rules) {
      const matchedIndex = e.ruleLoc === undefined ? null : (e.rule ?? 0);
      if (matchedIndex !== null && rule.index > matchedIndex) break;
      const matched = rule.index === matchedIndex;
      out.push(`rule ${rule.index}  ${policyFile}:${rule.loc.line}  -> ${rule.decision}  ${matched ? c.green('matched') : c.dim('did not match')}`);
      const traces = e.conditions.filter((t) => t.ruleIndex === rule.index);
      if (traces.length === 0) out.push(`  (no conditions: always matches)`);
      for (const t of traces) {
        const mark = t.held ? c.green('✓') : c.red('✗');
        const reason = t.held || t.actual === undefined ? undefined : whyNot(t);
        out.push(`  ${mark} ${`${t.key}: ${show(t.expected)}`.padEnd(width)}   ${t.arg} = ${show(t.actual)}${reason ? c.dim(` (${reason})`) : ''}`);
      }
    }
  }
  if (policy.mode === 'observe') out.push('', `${c.yellow('note')}: mode is observe: nothing is blocked or paused; receipts record this decision.`);
  out.push('', c.dim(`policy ${policyFile}, hash ${policy.hash}`));
  return `${out.join('\n')}\n`;
}

export function explainJson(e: Explanation, view: ExplainView): string {
  const { policy, source } = view;
  const ctx = view;
  const body = {
    action: e.action,
    decision: e.decision,
    reason: e.reason,
    rule: e.rule,
    effectKey: e.effectKey,
    resource: e.resource,
    ...(e.detail !== undefined ? { detail: e.detail } : {}),
    ruleLocation: e.ruleLoc ? { file: displayPath(e.ruleLoc.file, ctx.cwd), line: e.ruleLoc.line, column: e.ruleLoc.column } : null,
    ruleSource: e.ruleLoc ? (sourceLine(source, e.ruleLoc.line) ?? null) : null,
    conditions: e.conditions.map((t) => ({
      rule: t.ruleIndex,
      key: t.key,
      arg: t.arg,
      op: t.op,
      expected: t.expected,
      present: t.actual !== undefined,
      actual: t.actual === undefined ? null : jsonSafe(t.actual),
      held: t.held,
      ...(t.held ? {} : { why: whyNot(t) ?? null }),
    })),
    approvalsRequired: Object.hasOwn(policy.actions, e.action) ? policy.actions[e.action]!.approvalsRequired : null,
    mode: policy.mode,
    policy: { file: displayPath(policy.file, ctx.cwd), hash: policy.hash },
    // the tool refuses these arguments before any rule: what runs is this refusal, not the decision above
    ...(view.refusal ? { toolRefuses: { reason: view.refusal.reason, detail: view.refusal.detail } } : {}),
  };
  // lossless-json's stringify writes a bigint as its digits (JSON integers have no size limit).
  return `${stringifyLossless(body, undefined, 2) ?? 'null'}\n`;
}

function jsonSafe(v: unknown): unknown {
  return typeof v === 'number' && !Number.isFinite(v) ? String(v) : v;
}
