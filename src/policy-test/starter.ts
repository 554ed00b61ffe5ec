/**
 * The starter `ctrlrun.test.yaml` init writes: per rule, the calls at the boundaries of its
 * conditions (each comparison's boundary and the value just past it, each `in` value, the argument
 * missing), each expecting what the policy decides today. A snapshot to review, not a proof: the
 * author reads each expectation and fixes the ones the policy gets wrong. When the tool's parameter
 * schema is known, every case is a call it accepts (the runtime refuses any other before the rules,
 * so no decision could be expected of it): the edges it refuses are named in a comment instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { acceptsCall, type ActionSchemas, type ToolSchema } from '../generate/tool-schemas.js';
import { parsePolicy } from '../policy/load.js';
import type { Condition, Policy, PolicyAction, Rule } from '../policy/types.js';
import { TEST_FILE, TEST_SCHEMA } from './cases.js';
import { createDecider, type Decider } from './decider.js';
import { matchedRule } from './run-tests.js';
import { showValue } from './show.js';
import { baseCall, callKey, type Candidate, MISSING, satisfyingCalls, schemaCandidates, type WitnessArgs } from './witness.js';
import { isInteger } from '../policy/evaluate.js';

interface StarterCase {
  name: string;
  action: string;
  args: WitnessArgs;
}

function outside(c: Condition): unknown {
  const v = c.value;
  if (!isInteger(v)) return undefined;
  const step = (d: number) => (typeof v === 'bigint' ? v + BigInt(d) : v + d);
  return { lt: v, lte: step(1), gt: v, gte: step(-1) }[c.op as 'lt'];
}

interface ActionCases {
  cases: StarterCase[];
  /** The cases left out because the tool's schema refuses their call (the runtime answers `invalid_arguments` before the rules). */
  refused: string[];
}

/**
 * Calls satisfying the rule, the boundary ones first. Under a schema, then each with one argument
 * the rule does not name moved to each of its candidates: a required argument must take a value, and
 * the one filled in may be one an earlier rule takes (without a schema the call leaves it out).
 */
function* ruleCalls(action: PolicyAction, rule: Rule, candidates: Map<string, Candidate[]>, schema: ToolSchema | undefined): Generator<WitnessArgs> {
  const bases = [...satisfyingCalls(rule, candidates, new Map(action.data ?? []))].map((s) => baseCall(s, [action], candidates, schema));
  yield* bases;
  if (!schema) return;
  const named = new Set(rule.when.map((c) => c.arg));
  for (const base of bases) {
    for (const [arg, values] of candidates) {
      if (named.has(arg)) continue;
      for (const v of values) {
        const next = { ...base };
        if (v === MISSING) delete next[arg];
        else next[arg] = v;
        yield next;
      }
    }
  }
}

/** The first call satisfying the rule that the rule itself decides (an earlier rule may take the first one), else the first. */
function ruleCall(
  action: PolicyAction,
  rule: Rule,
  decider: Decider,
  candidates: Map<string, Candidate[]>,
  schema: ToolSchema | undefined,
): WitnessArgs | undefined {
  let call: WitnessArgs | undefined;
  for (const args of ruleCalls(action, rule, candidates, schema)) {
    call ??= args;
    if (matchedRule(decider.decide({ action: action.id, args })) === rule.index) return args;
  }
  return call;
}

function actionCases(action: PolicyAction, decider: Decider, schema: ToolSchema | undefined): ActionCases {
  const candidates = schemaCandidates([action], schema);
  const out: ActionCases = { cases: [], refused: [] };
  const seen = new Set<string>();
  const add = (name: string, args: WitnessArgs): void => {
    const k = callKey(args);
    if (seen.has(k)) return;
    seen.add(k);
    if (schema && !acceptsCall(schema, args)) out.refused.push(name);
    else out.cases.push({ name, action: action.id, args });
  };
  for (const rule of action.rules) {
    const where = action.bare ? `${action.id}: decision ${rule.decision}` : `${action.id} rule ${rule.index} (${rule.decision})`;
    const call = ruleCall(action, rule, decider, candidates, schema);
    if (!call) continue; // no call (the schema accepts) satisfies it: `validate` reports the rule
    add(rule.when.length === 0 ? where : `${where}: ${rule.when.map((c) => `${c.key}: ${showValue(c.value)}`).join(', ')}`, call);
    for (const c of rule.when) {
      if (c.arg === 'data_scope') continue;
      const past = outside(c);
      if (past !== undefined) add(`${where}: just past ${c.key}: ${showValue(c.value)}`, { ...call, [c.arg]: past as WitnessArgs[string] });
      if (c.op === 'in' && Array.isArray(c.value)) for (const v of c.value) add(`${where}: ${c.arg} = ${showValue(v)}`, { ...call, [c.arg]: v });
      const missing = { ...call };
      delete missing[c.arg];
      add(`${where}: without ${c.arg}`, missing);
    }
  }
  return out;
}

export interface StarterOptions {
  /** `policy:` as written, relative to the test file. */
  policyPath?: string;
  /** The mapped tools' parameter schemas: each case is a call its tool's schema accepts. */
  schemas?: ActionSchemas;
}

/** The starter file's text for `policy`. */
export function starterTestText(policy: Policy, options: StarterOptions = {}): string {
  const decider = createDecider(policy);
  const lines = [
    '# yaml-language-server: $schema=./node_modules/ctrlrun-gen/policy-test.schema.json',
    `# Written by ctrlrun-gen init: per rule, calls at the edges of its conditions, each expecting what`,
    '# the policy decides today. Read every expectation; `npx ctrlrun-gen test --coverage` runs them.',
    `schema: ${TEST_SCHEMA}`,
    `policy: ${JSON.stringify(options.policyPath ?? 'ctrlrun.yaml')}`,
  ];
  const byAction = Object.values(policy.actions).map((a) => actionCases(a, decider, options.schemas?.byAction.get(a.id)));
  const cases = byAction.flatMap((a) => a.cases);
  // a call the schema refuses never reaches the policy: no case can expect a decision for it, so it is named, not written
  const refused = byAction.flatMap((a) => a.refused);
  if (refused.length > 0) {
    const note = [
      "# Not written: these edges are calls the tool's parameter schema refuses before any rule (the",
      '# runtime answers invalid_arguments, never a decision):',
    ];
    lines.splice(3, 0, ...note, ...refused.map((name) => `#   ${name}`));
  }
  if (cases.length === 0) return `${lines.join('\n')}\ncases: []\n`;
  lines.push('cases:');
  for (const c of cases) {
    const d = decider.decide({ action: c.action, args: c.args });
    lines.push(`  - name: ${JSON.stringify(c.name)}`, `    action: ${JSON.stringify(c.action)}`, `    args: ${showValue(c.args)}`);
    lines.push(`    expect: { decision: ${d.decision}, reason: ${JSON.stringify(d.reason)} }`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * init's step: a starter test file beside the policy in `dir`, unless one is there or the policy
 * does not load (init's own output always loads; a merged hand-written one may not, and then the
 * user fixes the policy first). `schemas`: the mapped tools' parameter schemas init reads from the
 * code, read only when the file is written.
 */
export function writeStarterTests(
  dir: string,
  policyFile: string,
  write: (rel: string, text: string) => void,
  options: { readText?: (file: string) => string | undefined; schemas?: () => ActionSchemas | undefined } = {},
): void {
  if (existsSync(path.join(dir, TEST_FILE))) return;
  const file = path.join(dir, policyFile);
  const text = (options.readText ?? ((f) => readFileSync(f, 'utf8')))(file);
  if (text === undefined) return;
  const loaded = parsePolicy(text, file);
  if (!loaded.value) return;
  const schemas = options.schemas?.();
  write(TEST_FILE, starterTestText(loaded.value, { policyPath: policyFile, ...(schemas ? { schemas } : {}) }));
}
