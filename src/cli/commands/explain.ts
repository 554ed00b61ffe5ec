import { existsSync } from 'node:fs';
import path from 'node:path';
import { stringify as stringifyLossless } from 'lossless-json';
import pc from 'picocolors';
import { UserError } from '../../diagnostics.js';
import { findManifest, loadProject, MANIFEST_FILE } from '../../manifest/load.js';
import { type ConditionTrace, evaluateJson, type Explanation, isInteger } from '../../policy/evaluate.js';
import { loadPolicyOrThrow } from '../../policy/load.js';
import { didYouMean } from '../../policy/suggest.js';
import type { Policy } from '../../policy/types.js';
import type { CliContext, CommandSpec } from '../context.js';
import { displayPath } from '../../format-diagnostics.js';
import { withProjectOptions } from '../project-options.js';

interface ExplainArgs {
  action: string;
  args?: string;
  policy?: string;
  manifest?: string;
  json?: boolean;
}

export const explainCommand: CommandSpec<ExplainArgs> = {
  command: 'explain <action>',
  describe: 'Explain which rule decides an action for given arguments, and why',
  builder: (y) =>
    withProjectOptions(y)
      .positional('action', { type: 'string', describe: 'The policy action (`stripe.refund`)' })
      .option('args', { type: 'string', default: '{}', describe: "The call's arguments as JSON" })
      .option('json', { type: 'boolean', default: false, describe: 'Print the explanation as JSON' }),
  examples: [
    ['ctrlrun-gen explain stripe.refund --args \'{"amount": 5000}\'', 'Which rule decides a refund of 5000, and why'],
    ['ctrlrun-gen explain stripe.refund --args \'{"amount": 5000}\' --json', 'The same, as JSON'],
    ['ctrlrun-gen explain files.delete --policy ctrlrun.yaml --args \'{"path": "/"}\'', 'Use a policy file directly'],
  ],
  run: async (args, ctx) => {
    const text = args.args ?? '{}';
    const callArgs = parseArgs(text);
    const { policy, source } = loadPolicyForExplain(args, ctx);
    // The arguments are read as the runtime reads the model's: losslessly (integers of any size; a float refuses the call).
    const explanation = evaluateJson(policy, args.action, text);
    // lossless-json's stringify writes a bigint as its digits (JSON integers have no size limit).
    if (args.json) ctx.stdout(`${stringifyLossless(toJson(explanation, policy, source, ctx), undefined, 2) ?? 'null'}\n`);
    else ctx.stdout(renderText(explanation, policy, source, callArgs, ctx));
    return 0;
  },
};

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UserError(`--args is not valid JSON (${(error as Error).message}); pass the call's arguments as a JSON object, e.g. --args '{"amount": 5000}'`);
  }
}

/** The policy named by --policy, else the project's (manifest found upward), else ./ctrlrun.yaml. */
function loadPolicyForExplain(args: ExplainArgs, ctx: CliContext): { policy: Policy; source: string } {
  let file: string | undefined;
  if (args.policy !== undefined) file = path.resolve(ctx.cwd, args.policy);
  else if (args.manifest !== undefined || findManifest(ctx.cwd) !== undefined) {
    const project = loadProject({ cwd: ctx.cwd, manifest: args.manifest });
    return { policy: project.policy, source: project.sources.get(project.policy.file) ?? '' };
  } else if (existsSync(path.join(ctx.cwd, 'ctrlrun.yaml'))) file = path.join(ctx.cwd, 'ctrlrun.yaml');
  if (file === undefined) {
    throw new UserError(`no ${MANIFEST_FILE} found in ${ctx.cwd} or any directory above it, and no ctrlrun.yaml here; pass --policy or --manifest`);
  }
  return loadPolicyOrThrow(file);
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

function renderText(e: Explanation, policy: Policy, source: string, callArgs: unknown, ctx: CliContext): string {
  const c = pc.createColors(ctx.color);
  const out: string[] = [];
  const decisionColor = e.decision === 'allow' ? c.green : e.decision === 'approve' ? c.yellow : c.red;
  const policyFile = displayPath(policy.file, ctx.cwd);
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
    void callArgs;
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

function toJson(e: Explanation, policy: Policy, source: string, ctx: CliContext): unknown {
  return {
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
  };
}

function jsonSafe(v: unknown): unknown {
  return typeof v === 'number' && !Number.isFinite(v) ? String(v) : v;
}
