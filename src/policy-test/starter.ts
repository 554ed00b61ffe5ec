/**
 * The starter `ctrlrun.test.yaml` init writes: per rule, the calls at the boundaries of its
 * conditions (each comparison's boundary and the value just past it, each `in` value, the argument
 * missing), each expecting what the policy decides today. A snapshot to review, not a proof: the
 * author reads each expectation and fixes the ones the policy gets wrong.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parsePolicy } from '../policy/load.js';
import type { Condition, Policy, PolicyAction } from '../policy/types.js';
import { TEST_FILE, TEST_SCHEMA } from './cases.js';
import { createDecider, type Decider } from './decider.js';
import { matchedRule } from './run-tests.js';
import { showValue } from './show.js';
import { argumentCandidates, callKey, MISSING, satisfyingCalls, type WitnessArgs } from './witness.js';
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

function actionCases(action: PolicyAction, decider: Decider): StarterCase[] {
  const candidates = argumentCandidates([action]);
  const labels = new Map(action.data ?? []);
  const out: StarterCase[] = [];
  const seen = new Set<string>();
  const add = (name: string, args: WitnessArgs): void => {
    const k = callKey(args);
    if (seen.has(k)) return;
    seen.add(k);
    out.push({ name, action: action.id, args });
  };
  const templateArgs = (args: WitnessArgs): WitnessArgs => {
    const filled = { ...args };
    for (const t of [action.resource, action.effect]) {
      for (const p of t?.parts ?? []) {
        if (p.kind !== 'arg' || p.arg in filled || (p.arg === 'resource' && t === action.effect)) continue;
        const v = (candidates.get(p.arg) ?? []).find(
          (x): x is string | number | bigint => x !== MISSING && ((typeof x === 'string' && x !== '') || isInteger(x)),
        );
        filled[p.arg] = v ?? `${p.arg}-1`;
      }
    }
    return filled;
  };
  for (const rule of action.rules) {
    const where = action.bare ? `${action.id}: decision ${rule.decision}` : `${action.id} rule ${rule.index} (${rule.decision})`;
    // the first boundary call the rule itself decides (an earlier rule may take the first one)
    let call: WitnessArgs | undefined;
    for (const s of satisfyingCalls(rule, candidates, labels)) {
      const args = templateArgs(s);
      call ??= args;
      if (matchedRule(decider.decide({ action: action.id, args })) === rule.index) {
        call = args;
        break;
      }
    }
    if (!call) continue; // no call satisfies it: `validate` reports the rule
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

/** The starter file's text for `policy`, its `policy:` written relative to the test file. */
export function starterTestText(policy: Policy, policyPath = 'ctrlrun.yaml'): string {
  const decider = createDecider(policy);
  const lines = [
    '# yaml-language-server: $schema=./node_modules/ctrlrun-gen/policy-test.schema.json',
    `# Written by ctrlrun-gen init: per rule, calls at the edges of its conditions, each expecting what`,
    '# the policy decides today. Read every expectation; `npx ctrlrun-gen test --coverage` runs them.',
    `schema: ${TEST_SCHEMA}`,
    `policy: ${JSON.stringify(policyPath)}`,
  ];
  const cases = Object.values(policy.actions).flatMap((a) => actionCases(a, decider));
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
 * user fixes the policy first).
 */
export function writeStarterTests(
  dir: string,
  policyFile: string,
  write: (rel: string, text: string) => void,
  readText: (file: string) => string | undefined = (f) => readFileSync(f, 'utf8'),
): void {
  if (existsSync(path.join(dir, TEST_FILE))) return;
  const file = path.join(dir, policyFile);
  const text = readText(file);
  if (text === undefined) return;
  const loaded = parsePolicy(text, file);
  if (!loaded.value) return;
  write(TEST_FILE, starterTestText(loaded.value, policyFile));
}
