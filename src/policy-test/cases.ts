/**
 * `ctrlrun.test.yaml`: the policy's tests, read with locations. Read as the policy is read (YAML 1.1
 * scalars, integers of any size), so a value written in a test means what it means in a rule.
 * Never throws on user input: every problem is a located Diagnostic.
 */
import path from 'node:path';
import { isMap, isScalar, isSeq, type Node } from 'yaml';
import type { Diagnostic } from '../diagnostics.js';
import { didYouMean } from '../policy/suggest.js';
import type { SourceLocation } from '../policy/types.js';
import { type Entry, type LoadResult, readDocument, type YamlReader } from '../policy/yaml-reader.js';

export const TEST_SCHEMA = 'ctrlrun.policy-test/v1';
export const TEST_FILE = 'ctrlrun.test.yaml';
export const MAX_TEST_BYTES = 4 * 1024 * 1024;

const TOP_KEYS = ['schema', 'policy', 'cases'];
const CASE_KEYS = ['name', 'action', 'args', 'principal', 'environment', 'task', 'expect'];
const PRINCIPAL_KEYS = ['agent', 'user'];
export const EXPECT_KEYS = ['decision', 'rule', 'reason', 'effect_key', 'resource'] as const;
export type ExpectKey = (typeof EXPECT_KEYS)[number];
const DECISIONS = ['allow', 'approve', 'deny'];

export interface Expected {
  decision: 'allow' | 'approve' | 'deny';
  rule?: number | null;
  reason?: string;
  effect_key?: string | null;
  resource?: string | null;
}

export interface TestCase {
  /** 0-based position in `cases`. */
  index: number;
  name: string;
  action: string;
  /** The arguments: values (from a mapping) or the JSON text (from a string, parsed as the runtime parses the model's). */
  args: unknown;
  principal: { agent: string; user: string | null } | null;
  environment: string | null;
  task: string | null;
  expect: Expected;
  loc: SourceLocation;
  /** Where each expected field is written, for the located diff. */
  expectLocs: Partial<Record<ExpectKey, SourceLocation>>;
  /** Where the action is named. */
  actionLoc?: SourceLocation;
}

export interface TestSuite {
  file: string;
  /** The `policy:` path, resolved from the test file's directory; undefined: the project's policy. */
  policy?: string;
  cases: TestCase[];
}

export function parseTestFile(text: string, file: string): LoadResult<TestSuite> {
  const options = { maxBytes: MAX_TEST_BYTES, what: 'policy test', firstKeyHint: `schema: ${TEST_SCHEMA}`, yaml11: true };
  return readDocument(text, file, options, (reader, root) => new SuiteReader(reader, file).read(root));
}

class SuiteReader {
  constructor(
    private readonly r: YamlReader,
    private readonly file: string,
  ) {}

  private closed(entries: Entry[], keys: readonly string[], where: string): Map<string, Entry> {
    for (const e of entries) {
      if (!keys.includes(e.key)) this.r.errorAt(e.keyNode, e.path, 'unknown-key', `unknown key \`${e.key}\` in ${where}`, didYouMean(e.key, keys));
    }
    return new Map(entries.map((e) => [e.key, e]));
  }

  read(root: Node): TestSuite | undefined {
    const r = this.r;
    const map = r.map(root, root, '', 'a mapping (`schema:`, `cases:`)');
    if (!map) return undefined;
    const top = this.closed(r.entries(map, ''), TOP_KEYS, 'the policy test file');
    const schema = top.get('schema');
    if (schema === undefined) r.errorAt(root, '', 'missing-key', 'the policy test file has no `schema`', `add \`schema: ${TEST_SCHEMA}\` as the first line`);
    else {
      const value = r.string(schema.value, schema.at, schema.path, `\`${TEST_SCHEMA}\``);
      if (value !== undefined && value !== TEST_SCHEMA)
        r.errorAt(schema.at, schema.path, 'bad-schema', `unsupported schema \`${value}\``, `write \`${TEST_SCHEMA}\``);
    }
    const suite: TestSuite = { file: this.file, cases: [] };
    const policy = top.get('policy');
    if (policy) {
      const p = r.string(policy.value, policy.at, policy.path, 'a path to the policy');
      if (p !== undefined) suite.policy = path.resolve(path.dirname(this.file), p);
    }
    const cases = top.get('cases');
    if (cases === undefined) {
      r.errorAt(
        root,
        '',
        'missing-key',
        'the policy test file has no `cases`',
        'add `cases:` with `- action: <id>` / `args: {...}` / `expect: { decision: allow }` entries',
      );
      return undefined;
    }
    const seq = r.seq(cases.value, cases.at, cases.path, 'a list of cases');
    if (!seq) return undefined;
    for (const item of r.items(seq, 'cases')) {
      const c = this.readCase(item.node, item.at, item.path, item.index);
      if (c) suite.cases.push(c);
    }
    return suite;
  }

  private readCase(node: Node | null, at: Node, where: string, index: number): TestCase | undefined {
    const r = this.r;
    const map = r.map(node, at, where, 'a case (`action:`, `args:`, `expect:`)');
    if (!map) return undefined;
    const e = this.closed(r.entries(map, where), CASE_KEYS, 'a case');
    const loc = r.locOf(map);
    const optionalString = (key: string): string | null | undefined => {
      const entry = e.get(key);
      if (!entry) return null;
      return r.string(entry.value, entry.at, entry.path);
    };
    const action = e.get('action');
    if (!action) r.errorAt(map, where, 'missing-key', 'the case has no `action`', 'name the policy action the call is to, e.g. `action: stripe.refund`');
    const actionId = action ? r.string(action.value, action.at, action.path, 'an action id') : undefined;
    const args = this.readArgs(e.get('args'), where);
    const principal = this.readPrincipal(e.get('principal'));
    const name = optionalString('name');
    const environment = optionalString('environment');
    const task = optionalString('task');
    const expect = this.readExpect(e.get('expect'), map, where);
    if (
      actionId === undefined ||
      args === undefined ||
      principal === undefined ||
      name === undefined ||
      environment === undefined ||
      task === undefined ||
      !expect
    )
      return undefined;
    return {
      index,
      name: name ?? `${actionId} #${index}`,
      action: actionId,
      args,
      principal,
      environment,
      task,
      expect: expect.value,
      expectLocs: expect.locs,
      loc,
      actionLoc: r.locOf(action!.value ?? action!.at),
    };
  }

  /** A mapping of values, or a string of JSON (for what YAML cannot say: a float, a duplicate key). */
  private readArgs(entry: Entry | undefined, where: string): unknown {
    if (!entry) return {};
    const r = this.r;
    const node = entry.value;
    if (node !== null && isScalar(node) && typeof node.value === 'string') return node.value;
    if (node === null || !isMap(node)) {
      r.wrongKind(node, entry.at, entry.path, "a mapping of the call's arguments, or their JSON text as a string");
      return undefined;
    }
    const bad = this.firstUnplain(node, entry.path);
    if (bad) {
      r.errorAt(
        bad.node,
        bad.path,
        'args-value',
        `this value cannot be an argument here (${bad.why})`,
        'write the arguments as a JSON string (`args: \'{"amount": 1.5}\'`) to test a float or another value YAML reads differently',
      );
      return undefined;
    }
    void where;
    return r.plain(node, entry.path);
  }

  private firstUnplain(node: Node | null, at: string): { node: Node; path: string; why: string } | undefined {
    if (node === null) return undefined;
    if (isMap(node)) {
      for (const e of this.r.entries(node, at)) {
        const bad = this.firstUnplain(e.value, e.path);
        if (bad) return bad;
      }
      return undefined;
    }
    if (isSeq(node)) {
      for (const item of this.r.items(node, at)) {
        const bad = this.firstUnplain(item.node, item.path);
        if (bad) return bad;
      }
      return undefined;
    }
    const k = this.r.kindOf(node);
    if (['string', 'bool', 'int', 'null'].includes(k.kind)) return undefined;
    return { node, path: at, why: k.kind === 'float' ? 'a float' : k.kind };
  }

  private readPrincipal(entry: Entry | undefined): { agent: string; user: string | null } | null | undefined {
    if (!entry) return null;
    const r = this.r;
    const map = r.map(entry.value, entry.at, entry.path, 'a mapping `{ agent, user }`');
    if (!map) return undefined;
    const e = this.closed(r.entries(map, entry.path), PRINCIPAL_KEYS, 'a principal');
    const agent = e.get('agent');
    if (!agent) {
      r.errorAt(
        map,
        entry.path,
        'missing-key',
        'the principal has no `agent`',
        'name the agent, as `identity()` of the control returns it: `agent: support-bot`',
      );
      return undefined;
    }
    const agentName = r.string(agent.value, agent.at, agent.path);
    const user = e.get('user');
    const userName = user ? r.string(user.value, user.at, user.path) : null;
    if (agentName === undefined || userName === undefined) return undefined;
    return { agent: agentName, user: userName };
  }

  private readExpect(entry: Entry | undefined, caseNode: Node, where: string): { value: Expected; locs: TestCase['expectLocs'] } | undefined {
    const r = this.r;
    if (!entry) {
      r.errorAt(caseNode, where, 'missing-key', 'the case has no `expect`', 'say what the policy must decide: `expect: { decision: allow }`');
      return undefined;
    }
    const map = r.map(entry.value, entry.at, entry.path, 'a mapping (`decision:`, and optionally `rule:`, `reason:`, `effect_key:`, `resource:`)');
    if (!map) return undefined;
    const e = this.closed(r.entries(map, entry.path), EXPECT_KEYS, '`expect`');
    const locs: TestCase['expectLocs'] = {};
    for (const [key, value] of e) locs[key as ExpectKey] = r.locOf(value.at);
    const decision = e.get('decision');
    if (!decision) {
      r.errorAt(map, entry.path, 'missing-key', '`expect` has no `decision`', 'add `decision: allow`, `approve` or `deny`');
      return undefined;
    }
    const d = r.string(decision.value, decision.at, decision.path, '`allow`, `approve` or `deny`');
    if (d !== undefined && !DECISIONS.includes(d))
      r.errorAt(decision.at, decision.path, 'bad-decision', `unknown decision \`${d}\``, didYouMean(d, DECISIONS, 'decisions'));
    if (d === undefined || !DECISIONS.includes(d)) return undefined;
    const value: Expected = { decision: d as Expected['decision'] };
    let ok = true;
    const rule = e.get('rule');
    if (rule) {
      if (r.kindOf(rule.value).kind === 'null') value.rule = null;
      else {
        const n = r.int(rule.value, rule.at, rule.path, { min: 0 });
        if (n === undefined) ok = false;
        else value.rule = n;
      }
    }
    const reason = e.get('reason');
    if (reason) {
      const s = r.string(reason.value, reason.at, reason.path, 'a reason word (`rule[0]`, `no_matching_rule`, ...)');
      if (s === undefined) ok = false;
      else value.reason = s;
    }
    for (const key of ['effect_key', 'resource'] as const) {
      const f = e.get(key);
      if (!f) continue;
      if (r.kindOf(f.value).kind === 'null') value[key] = null;
      else {
        const s = r.string(f.value, f.at, f.path);
        if (s === undefined) ok = false;
        else value[key] = s;
      }
    }
    return ok ? { value, locs } : undefined;
  }
}

export type { Diagnostic };
