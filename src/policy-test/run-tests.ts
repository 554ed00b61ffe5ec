/**
 * Runs a policy's test cases through the runtime's decision (decider.ts) and measures which actions
 * and rules they reach. Pure: the decider is passed in.
 */
import type { Policy, SourceLocation } from '../policy/types.js';
import type { CallDecision } from '../runtime/types.js';
import { EXPECT_KEYS, type ExpectKey, type TestCase, type TestSuite } from './cases.js';
import { didYouMean } from '../policy/suggest.js';
import type { Decider } from './decider.js';
import type { ToolGate, ToolRefusal } from './tool-gate.js';

export interface Mismatch {
  /** An expected field, or `action`: the case names an action the policy does not have. */
  field: ExpectKey | 'action';
  expected: unknown;
  actual: unknown;
  loc: SourceLocation;
  /** The mismatch in a sentence, when expected/actual say it badly (`action`). */
  message?: string;
}

export interface CaseResult {
  case: TestCase;
  /** The runtime's decision, or the tool's refusal of the arguments before any rule. */
  actual: CallDecision | ToolRefusal;
  mismatches: Mismatch[];
}

export interface RuleRef {
  action: string;
  rule: number;
  loc: SourceLocation;
}

export interface Coverage {
  /** Rules (an action written `decision: X` counts as one) some case reaches, out of all of them. */
  rulesReached: number;
  rulesTotal: number;
  /** 0..100, one decimal. 100 for a policy with no rules. */
  percent: number;
  actionsUnreached: Array<{ action: string; loc: SourceLocation }>;
  rulesUnreached: RuleRef[];
}

export interface TestRun {
  suite: TestSuite;
  policy: Policy;
  results: CaseResult[];
  passed: number;
  failed: number;
  coverage: Coverage;
}

export interface RunOptions {
  /** The tools' own check of the arguments, before any rule (tool-gate.ts): a call it refuses gets no decision. */
  gate?: ToolGate | undefined;
}

export function runTests(suite: TestSuite, decider: Decider, options: RunOptions = {}): TestRun {
  const gate = options.gate;
  // one pass: each case decided, checked, counted and marked on the coverage as it is run
  const policy = decider.policy;
  const results: CaseResult[] = [];
  const reached = new Map<string, Set<number>>();
  let failed = 0;
  let lastAction: string | undefined;
  let rules: Set<number> | undefined;
  let lastRule: number | null = null;
  for (const c of suite.cases) {
    // a case is a PolicyCall (action, args, principal, environment, task): decided as it is; the
    // decision called from this loop, not through a helper, so the compiler can inline it whole
    const gated = gate?.(c.action, c.args) ?? null;
    // arguments the tool's schema fills in are decided as filled, as at run time
    const actual = gated === null ? decider.decide(c) : 'filled' in gated ? decider.decide({ ...c, args: gated.filled }) : gated;
    // a case about an action the policy lacks is a typo unless it expects that very denial
    const unknown = !Object.hasOwn(policy.actions, c.action) && c.expect.reason !== 'unknown_action';
    const mismatches = unknown ? unknownAction(c, policy) : passes(c.expect, actual) ? NO_MISMATCHES : mismatchesOf(c, actual);
    const r: CaseResult = { case: c, actual, mismatches };
    results.push(r);
    if (r.mismatches.length > 0) failed += 1;
    // cases come in runs of one action, and mostly of one rule: a set is touched when either changes
    if (c.action !== lastAction) {
      lastAction = c.action;
      rules = reachedRules(reached, policy, c.action);
      lastRule = null;
    }
    // authority refusals happen before the rules: they reach the action, not a rule
    const rule = rules === undefined ? null : matchedRule(r.actual);
    if (rule !== null && rule !== lastRule) {
      rules!.add(rule);
      lastRule = rule;
    }
  }
  return { suite, policy, results, passed: results.length - failed, failed, coverage: coverageOf(policy, reached) };
}

/** The rules reached so far of a listed action (its entry made on first sight), undefined for an unlisted one. */
function reachedRules(reached: Map<string, Set<number>>, policy: Policy, action: string): Set<number> | undefined {
  if (!Object.hasOwn(policy.actions, action)) return undefined;
  let rules = reached.get(action);
  if (rules === undefined) {
    rules = new Set();
    reached.set(action, rules);
  }
  return rules;
}

/** A case naming an action the policy does not list (`acounts.close`), with the nearest that it does. */
function unknownAction(c: TestCase, policy: Policy): Mismatch[] {
  const ids = Object.keys(policy.actions);
  const hint = ids.length === 0 ? 'the policy lists no action' : didYouMean(c.action, ids, 'actions');
  return [
    {
      field: 'action',
      expected: 'an action of the policy',
      actual: c.action,
      loc: c.actionLoc ?? c.loc,
      message: `the policy has no action \`${c.action}\` (a call to it is denied unknown_action); ${hint} (a case that means to test the denial expects reason: unknown_action)`,
    },
  ];
}

/** The passing cases' mismatches: one frozen empty list, not one per case (10,000 cases, 10,000 arrays). */
const NO_MISMATCHES: Mismatch[] = Object.freeze([]) as unknown as Mismatch[];

/**
 * Whether a decision meets a case's expectation: each field by name, in the order readExpect writes
 * them (a field left out is undefined, `rule: null` is null), no loop over each case's keys.
 */
function passes(e: TestCase['expect'], actual: CaseResult['actual']): boolean {
  return (
    e.decision === actual.decision &&
    (e.rule === undefined || e.rule === actual.rule) &&
    (e.reason === undefined || e.reason === actual.reason) &&
    (e.effect_key === undefined || e.effect_key === actual.effectKey) &&
    (e.resource === undefined || e.resource === actual.resource)
  );
}

/** A failing case's mismatches, in the order of EXPECT_KEYS. */
function mismatchesOf(c: TestCase, actual: CaseResult['actual']): Mismatch[] {
  const mismatches: Mismatch[] = [];
  for (const key of EXPECT_KEYS) {
    const expected = c.expect[key];
    const got = actualField(actual, key);
    if (expected !== undefined && expected !== got) mismatches.push({ field: key, expected, actual: got, loc: c.expectLocs[key] ?? c.loc });
  }
  return mismatches;
}

/** The decision's value of an expected field (`effect_key` is the decision's `effectKey`). */
function actualField(actual: CaseResult['actual'], field: ExpectKey): unknown {
  switch (field) {
    case 'effect_key':
      return actual.effectKey;
    default:
      return actual[field];
  }
}

/** The rule a decision matched (a bare action's one rule is rule 0), or null. */
export function matchedRule(decision: Pick<CallDecision, 'rule'> & { reason: string }): number | null {
  if (decision.reason === 'decision') return 0;
  return decision.rule;
}

/** Coverage of the rules reached (action -> the rules some case reached; an action some case named has an entry). */
export function coverageOf(policy: Policy, reached: ReadonlyMap<string, ReadonlySet<number>>): Coverage {
  const rulesUnreached: RuleRef[] = [];
  const actionsUnreached: Coverage['actionsUnreached'] = [];
  let total = 0;
  for (const action of Object.values(policy.actions)) {
    const rules = reached.get(action.id);
    if (rules === undefined) actionsUnreached.push({ action: action.id, loc: action.loc });
    for (const rule of action.rules) {
      total += 1;
      if (!rules?.has(rule.index)) rulesUnreached.push({ action: action.id, rule: rule.index, loc: rule.loc });
    }
  }
  const hit = total - rulesUnreached.length;
  const percent = total === 0 ? 100 : Math.floor((hit / total) * 1000) / 10;
  return { rulesReached: hit, rulesTotal: total, percent, actionsUnreached, rulesUnreached };
}
