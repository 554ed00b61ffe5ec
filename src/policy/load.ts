import { readFileSync, statSync } from 'node:fs';
import { isMap, type Node } from 'yaml';
import { type Diagnostic, UserError } from '../diagnostics.js';
import {
  ACTION_KEYS,
  APPROVALS_REQUIRED_MAX,
  CONTROL_KEYS,
  DECISIONS,
  ID_MAX_LENGTH,
  ID_PATTERN,
  isUnsupportedKey,
  LATEST_POLICY_VERSION,
  MAX_ATTEMPTS_MAX,
  MODES,
  OPERATORS,
  ORDER_OPERATORS,
  parseConditionKey,
  parseTemplate,
  POLICY_SCHEMA_PREFIX,
  RESERVED_SUBJECTS,
  RULE_KEYS,
  TOP_LEVEL_KEYS,
} from './grammar.js';
import { policyHash } from './hash.js';
import { didYouMean, nearest } from './suggest.js';
import type { Condition, Decision, Policy, PolicyAction, PolicyControl, Rule, Scalar, Template } from './types.js';
import { describeKind, type Entry, type LoadResult, readDocument, type YamlReader } from './yaml-reader.js';

export { policyHash, policyHashInput } from './hash.js';
export type { LoadResult } from './yaml-reader.js';

/** Policies larger than this are refused before parsing (a hand-written policy is a few KiB). */
export const MAX_POLICY_BYTES = 256 * 1024;

/** Pure: parses and checks `ctrlrun.yaml` text. Never throws for any input text. */
export function parsePolicy(text: string, file: string): LoadResult<Policy> {
  const options = { maxBytes: MAX_POLICY_BYTES, what: 'policy', firstKeyHint: `schema: ${POLICY_SCHEMA_PREFIX}${LATEST_POLICY_VERSION}` };
  return readDocument(text, file, options, (reader, root) => {
    const draft = new PolicyReader(reader).read(root);
    if (draft === undefined || reader.errorCount > 0) return undefined;
    return { ...draft, hash: policyHash(draft), file };
  });
}

/** Reads and parses a policy file; a missing/unreadable file is a diagnostic, not a throw. */
export function loadPolicyFile(file: string): LoadResult<Policy> {
  const read = readTextFile(file, 'policy', MAX_POLICY_BYTES);
  if ('diagnostic' in read) return { diagnostics: [read.diagnostic], source: '' };
  return parsePolicy(read.text, file);
}

/** A policy file for a command that cannot go on without it: `UserError` carrying every diagnostic on any error. */
export function loadPolicyOrThrow(file: string): { policy: Policy; source: string; warnings: Diagnostic[] } {
  const loaded = loadPolicyFile(file);
  const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0 || loaded.value === undefined) {
    throw new UserError(`${errors.length} error${errors.length === 1 ? '' : 's'} in the policy`, loaded.diagnostics);
  }
  return { policy: loaded.value, source: loaded.source, warnings: loaded.diagnostics.filter((d) => d.severity === 'warning') };
}

/** Reads a small text file; a missing, unreadable or oversized file is a diagnostic. */
export function readTextFile(file: string, what: string, maxBytes: number): { text: string } | { diagnostic: Diagnostic } {
  const fail = (message: string, code: string, hint: string): { diagnostic: Diagnostic } => ({
    diagnostic: { severity: 'error', file, line: 1, column: 1, message, code, hint },
  });
  try {
    const stat = statSync(file);
    if (!stat.isFile()) return fail(`the ${what} path is not a file`, 'not-a-file', `point --${what} at the file itself`);
    if (stat.size > maxBytes) return fail(`the ${what} is ${stat.size} bytes; the limit is ${maxBytes}`, 'file-too-large', 'check the path; a hand-written file is a few KiB');
    return { text: readFileSync(file, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return fail(`the ${what} file does not exist`, 'file-not-found', `create it with \`ctrlrun-gen init\`, or point at it with --${what}`);
    return fail(`cannot read the ${what}: ${(error as Error).message}`, 'unreadable', 'check the file\'s permissions');
  }
}

type PolicyDraft = Omit<Policy, 'hash' | 'file'>;

/** Walks the document once, reporting every problem, and builds the normalized policy. */
class PolicyReader {
  private version = LATEST_POLICY_VERSION;
  private declaredVersion: number | undefined;

  constructor(private readonly r: YamlReader) {}

  read(root: Node): PolicyDraft | undefined {
    const r = this.r;
    if (!isMap(root)) {
      r.errorAt(root, '', 'not-a-mapping', `the policy must be a mapping (\`schema:\`, \`actions:\`, ...), found ${describeKind(r.kindOf(root))}`, `start with \`schema: ${POLICY_SCHEMA_PREFIX}${LATEST_POLICY_VERSION}\``);
      return undefined;
    }
    const map = root;
    const entries = r.entries(map, '');
    const byKey = new Map(entries.map((e) => [e.key, e]));

    const schema = byKey.get('schema');
    if (schema === undefined) r.errorAt(map, '', 'missing-key', 'the policy has no `schema`', `add \`schema: ${POLICY_SCHEMA_PREFIX}${LATEST_POLICY_VERSION}\` as the first line`);
    else this.readSchema(schema);

    this.checkKeys(entries, TOP_LEVEL_KEYS, 'the top level');

    let mode: Policy['mode'] = 'enforce';
    const modeEntry = byKey.get('mode');
    if (modeEntry) mode = this.readEnum(modeEntry, MODES) ?? 'enforce';

    let environment: string | undefined;
    const envEntry = byKey.get('environment');
    if (envEntry) environment = r.string(envEntry.value, envEntry.at, envEntry.path, 'an environment name (a string)');

    const controlsEntry = byKey.get('controls');
    const controls = controlsEntry ? this.readControls(controlsEntry) : {};

    const actions: Record<string, PolicyAction> = {};
    const actionsEntry = byKey.get('actions');
    if (actionsEntry === undefined) {
      r.errorAt(map, '', 'missing-key', 'the policy has no `actions`', 'add `actions:` with one entry per action (`stripe.refund: { decision: approve }`)');
    } else {
      const actionsMap = r.map(actionsEntry.value, actionsEntry.at, actionsEntry.path, 'a mapping of action ids to actions');
      if (actionsMap) {
        for (const entry of r.entries(actionsMap, 'actions')) {
          const action = this.readAction(entry, controls, controlsEntry);
          if (action) actions[action.id] = action;
        }
      }
    }
    if (this.declaredVersion === undefined) return undefined;
    const draft: PolicyDraft = { schemaVersion: this.declaredVersion, mode, controls, actions };
    if (environment !== undefined) draft.environment = environment;
    return draft;
  }

  private readSchema(entry: Entry): void {
    const r = this.r;
    const value = r.string(entry.value, entry.at, entry.path, `\`${POLICY_SCHEMA_PREFIX}N\` (N from 1 to ${LATEST_POLICY_VERSION})`);
    if (value === undefined) return;
    const match = /^ctrlrun\.policy\/v([0-9]+)$/.exec(value);
    const n = match ? Number(match[1]) : NaN;
    if (!match || n < 1 || n > LATEST_POLICY_VERSION) {
      const hint = value.startsWith('ctrlrun.tools/')
        ? 'this is the manifest schema; the policy is `ctrlrun.yaml` and the manifest `ctrlrun.tools.yaml`'
        : match
          ? `this version of ctrlrun-gen reads ${POLICY_SCHEMA_PREFIX}1 to ${POLICY_SCHEMA_PREFIX}${LATEST_POLICY_VERSION}`
          : `write \`${POLICY_SCHEMA_PREFIX}${LATEST_POLICY_VERSION}\``;
      r.errorAt(entry.at, entry.path, 'bad-schema', `unsupported schema \`${value}\``, hint);
      return;
    }
    this.declaredVersion = n;
    this.version = n;
  }

  /** Closed mappings: unknown keys, unsupported CTRLRun keys and keys newer than the declared version. */
  private checkKeys(entries: Entry[], table: Readonly<Record<string, number>>, where: string): void {
    const r = this.r;
    const known = Object.keys(table);
    for (const e of entries) {
      const since = table[e.key];
      if (since !== undefined && Object.hasOwn(table, e.key)) {
        if (since > this.version) {
          r.errorAt(e.keyNode, e.path, 'key-version', `\`${e.key}\` needs ${POLICY_SCHEMA_PREFIX}${since} or later; this file declares ${POLICY_SCHEMA_PREFIX}${this.version}`, `change \`schema:\` to \`${POLICY_SCHEMA_PREFIX}${since}\` (or newer)`);
        }
      } else if (isUnsupportedKey(e.key)) {
        r.errorAt(e.keyNode, e.path, 'unsupported-key', `\`${e.key}\` is a CTRLRun key that ctrlrun-gen does not support`, 'remove it: ctrlrun-gen refuses what it would otherwise silently ignore');
      } else {
        const best = nearest(e.key, known);
        const versionNote = best !== undefined && table[best]! > this.version ? ` (it needs ${POLICY_SCHEMA_PREFIX}${table[best]})` : '';
        r.errorAt(e.keyNode, e.path, 'unknown-key', `unknown key \`${e.key}\` in ${where}`, best !== undefined ? `did you mean \`${best}\`?${versionNote}` : didYouMean(e.key, known));
      }
    }
  }

  private readEnum<T extends string>(entry: Entry, values: readonly T[]): T | undefined {
    const r = this.r;
    const expected = `one of ${values.map((v) => `\`${v}\``).join(', ')}`;
    const k = r.kindOf(entry.value);
    if (k.kind !== 'string') {
      r.wrongKind(entry.value, entry.at, entry.path, expected);
      return undefined;
    }
    if (!(values as readonly string[]).includes(k.value)) {
      r.errorAt(entry.at, entry.path, 'bad-value', `\`${k.value}\` is not ${expected}`, didYouMean(k.value, values, 'valid values'));
      return undefined;
    }
    return k.value as T;
  }

  private checkId(entry: Entry, what: string): boolean {
    if (entry.key.length <= ID_MAX_LENGTH && ID_PATTERN.test(entry.key)) return true;
    this.r.errorAt(entry.keyNode, entry.path, 'bad-id', `\`${entry.key}\` is not a valid ${what} id`, `${what} ids are lowercase letters and digits in words joined by single \`.\`, \`_\` or \`-\` (\`stripe.refund\`), at most ${ID_MAX_LENGTH} characters`);
    return false;
  }

  private readControls(entry: Entry): Record<string, PolicyControl> {
    const r = this.r;
    const out: Record<string, PolicyControl> = {};
    const map = r.map(entry.value, entry.at, entry.path, 'a mapping of control ids to controls');
    if (map === undefined) return out;
    for (const c of r.entries(map, 'controls')) {
      const idOk = this.checkId(c, 'control');
      const body = r.map(c.value, c.at, c.path, 'a mapping (`title:`, `approver_role:`), or `{}`');
      const control: PolicyControl = { id: c.key, loc: r.locOf(c.keyNode) };
      if (body) {
        const fields = r.entries(body, c.path);
        this.checkKeys(fields, CONTROL_KEYS, `control \`${c.key}\``);
        for (const f of fields) {
          if (f.key === 'title') {
            const title = r.string(f.value, f.at, f.path);
            if (title !== undefined) control.title = title;
          } else if (f.key === 'approver_role') {
            const role = r.string(f.value, f.at, f.path, 'a role name (a string)');
            if (role !== undefined) control.approverRole = role;
          }
        }
      }
      if (idOk) out[c.key] = control;
    }
    return out;
  }

  private readAction(entry: Entry, controls: Record<string, PolicyControl>, controlsEntry: Entry | undefined): PolicyAction | undefined {
    const r = this.r;
    const idOk = this.checkId(entry, 'action');
    const body = r.map(entry.value, entry.at, entry.path, 'a mapping with `decision:` or `rules:`');
    if (body === undefined) return undefined;
    const fields = r.entries(body, entry.path);
    this.checkKeys(fields, ACTION_KEYS, `action \`${entry.key}\``);
    const byKey = new Map(fields.map((f) => [f.key, f]));
    const action: PolicyAction = {
      id: entry.key,
      controls: [],
      approvalsRequired: 1,
      maxAttempts: 1,
      rules: [],
      loc: r.locOf(entry.keyNode),
    };

    const decision = byKey.get('decision');
    const rules = byKey.get('rules');
    if (decision && rules) {
      r.errorAt(rules.keyNode, rules.path, 'decision-and-rules', `action \`${entry.key}\` has both \`decision\` and \`rules\``, 'keep one: `decision: X` is shorthand for a single rule without `when`', {
        ...r.locOf(decision.keyNode),
        message: '`decision` is here',
      });
    } else if (!decision && !rules) {
      r.errorAt(entry.keyNode, entry.path, 'missing-decision', `action \`${entry.key}\` has neither \`decision\` nor \`rules\``, 'add `decision: deny` (or allow / approve), or a `rules:` list');
    }
    if (decision) {
      const d = this.readDecision(decision);
      if (d && !rules) action.rules = [{ index: 0, when: [], decision: d, loc: r.locOf(decision.keyNode) }];
    }
    if (rules) {
      const list = this.readRules(rules);
      if (!decision) action.rules = list;
    }

    for (const name of ['effect', 'resource'] as const) {
      const f = byKey.get(name);
      if (f) {
        const t = this.readTemplate(f);
        if (t) action[name] = t;
      }
    }
    const approvals = byKey.get('approvals_required');
    if (approvals) action.approvalsRequired = r.int(approvals.value, approvals.at, approvals.path, { min: 1, max: APPROVALS_REQUIRED_MAX }) ?? 1;
    const attempts = byKey.get('max_attempts');
    if (attempts) action.maxAttempts = r.int(attempts.value, attempts.at, attempts.path, { min: 1, max: MAX_ATTEMPTS_MAX }) ?? 1;
    const controlRefs = byKey.get('controls');
    if (controlRefs) action.controls = this.readControlRefs(controlRefs, controls, controlsEntry);
    return idOk ? action : undefined;
  }

  private readDecision(entry: Entry): Decision | undefined {
    return this.readEnum(entry, DECISIONS);
  }

  private readControlRefs(entry: Entry, controls: Record<string, PolicyControl>, controlsEntry: Entry | undefined): string[] {
    const r = this.r;
    const seq = r.seq(entry.value, entry.at, entry.path, 'a list of control ids (`[payments-approval]`)');
    if (seq === undefined) return [];
    const out: string[] = [];
    for (const item of r.items(seq, entry.path)) {
      const id = r.string(item.node, item.at, item.path, 'a control id');
      if (id === undefined) continue;
      if (out.includes(id)) {
        r.errorAt(item.at, item.path, 'duplicate-control', `control \`${id}\` is listed twice`, 'list each control once');
        continue;
      }
      if (!Object.hasOwn(controls, id)) {
        const defined = Object.keys(controls);
        const related = controlsEntry ? { ...r.locOf(controlsEntry.keyNode), message: 'controls are defined here' } : undefined;
        r.errorAt(item.at, item.path, 'unknown-control', `control \`${id}\` is not defined`, defined.length === 0 ? `define it under a top-level \`controls:\` mapping (${POLICY_SCHEMA_PREFIX}4+)` : didYouMean(id, defined, 'defined controls'), related);
        continue;
      }
      out.push(id);
    }
    return out;
  }

  private readTemplate(entry: Entry): Template | undefined {
    const r = this.r;
    const source = r.string(entry.value, entry.at, entry.path, 'a template string (`refund:{payment_id}`)');
    if (source === undefined) return undefined;
    const { parts, errors } = parseTemplate(source);
    for (const e of errors) {
      r.errorAt(r.offsetInScalar(entry.at, e.index), entry.path, 'bad-template', `in template \`${source}\`: ${e.message}`, 'a template is literal text with `{arg}` placeholders naming the tool\'s arguments; braces cannot be escaped');
    }
    if (errors.length > 0) return undefined;
    return { source, parts, loc: r.locOf(entry.at) };
  }

  private readRules(entry: Entry): Rule[] {
    const r = this.r;
    const seq = r.seq(entry.value, entry.at, entry.path, 'a list of rules (`- when: {...}` / `decision: ...`)');
    if (seq === undefined) return [];
    const items = r.items(seq, entry.path);
    if (items.length === 0) {
      r.errorAt(entry.at, entry.path, 'empty-rules', 'an empty `rules` list denies everything', 'write `decision: deny` to say so, or add rules');
      return [];
    }
    const rules: Rule[] = [];
    let catchAll: number | undefined;
    for (const item of items) {
      const body = r.map(item.node, item.at, item.path, 'a rule (a mapping with `decision:` and an optional `when:`)');
      if (body === undefined) continue;
      const fields = r.entries(body, item.path);
      this.checkKeys(fields, RULE_KEYS, 'a rule');
      const byKey = new Map(fields.map((f) => [f.key, f]));
      const decisionEntry = byKey.get('decision');
      let decision: Decision | undefined;
      if (decisionEntry === undefined) r.errorAt(item.at, item.path, 'missing-key', 'the rule has no `decision`', 'add `decision: allow`, `approve` or `deny`');
      else decision = this.readDecision(decisionEntry);
      const whenEntry = byKey.get('when');
      const when = whenEntry ? this.readWhen(whenEntry) : [];
      if (catchAll !== undefined) {
        r.warnAt(item.at, item.path, 'unreachable-rule', `rule ${item.index} can never match: rule ${catchAll} before it matches everything`, 'first match wins; move the catch-all rule last');
      }
      if (when !== undefined && when.length === 0 && catchAll === undefined) catchAll = item.index;
      if (decision !== undefined && when !== undefined) rules.push({ index: item.index, when, decision, loc: r.locOf(item.at) });
    }
    return rules;
  }

  private readWhen(entry: Entry): Condition[] | undefined {
    const r = this.r;
    const map = r.map(entry.value, entry.at, entry.path, 'a mapping of `<arg>_<op>: value` (`{}` always matches)');
    if (map === undefined) return undefined;
    const out: Condition[] = [];
    let ok = true;
    for (const f of r.entries(map, entry.path)) {
      const c = this.readCondition(f);
      if (c) out.push(c);
      else ok = false;
    }
    return ok ? out : undefined;
  }

  private readCondition(f: Entry): Condition | undefined {
    const r = this.r;
    const parsed = parseConditionKey(f.key);
    if (!parsed.ok) {
      if (parsed.reason === 'no-operator') {
        const op = nearest(parsed.suffix, OPERATORS);
        const cut = f.key.lastIndexOf('_');
        const hint =
          op !== undefined && cut > 0
            ? `did you mean \`${f.key.slice(0, cut)}_${op}\`?`
            : `a \`when\` key is \`<arg>_<op>\` with <op> one of ${OPERATORS.join(' ')} (\`amount_lte\`)`;
        r.errorAt(f.keyNode, f.path, 'unknown-operator', `\`${f.key}\` does not end in \`_<op>\` with a known operator`, hint);
      } else if (parsed.reason === 'no-arg') {
        r.errorAt(f.keyNode, f.path, 'bad-condition-key', `\`${f.key}\` names no argument`, `write \`<arg>_${parsed.op}\`, e.g. \`amount_${parsed.op}\``);
      } else {
        r.errorAt(f.keyNode, f.path, 'bad-condition-key', `\`${parsed.arg}\` is not a valid argument name`, 'argument names are identifiers: letters, digits and `_`, not starting with a digit');
      }
      return undefined;
    }
    const { arg, op } = parsed;
    if (RESERVED_SUBJECTS.includes(arg)) {
      r.errorAt(f.keyNode, f.path, 'reserved-subject', `\`${arg}\` is a reserved subject and cannot be tested in a \`when\``, 'the policy never sees who is asking: test the tool\'s own arguments; the principal comes from `identity` at run time');
      return undefined;
    }
    const value = this.readConditionValue(f, op);
    if (value === undefined) return undefined;
    return { key: f.key, arg, op, value, loc: r.locOf(f.keyNode) };
  }

  private readConditionValue(f: Entry, op: Condition['op']): Scalar | Scalar[] | undefined {
    const r = this.r;
    if ((ORDER_OPERATORS as readonly string[]).includes(op)) {
      const k = r.kindOf(f.value);
      if (k.kind === 'int') return k.value;
      if (k.kind === 'string' || k.kind === 'bool') {
        r.errorAt(f.at, f.path, 'not-integer', `\`${op}\` compares integers only; found ${k.kind === 'string' ? 'a string' : 'a boolean'}`, 'use `eq`, `neq` or `in` for strings and booleans');
        return undefined;
      }
      r.wrongKind(f.value, f.at, f.path, 'an integer');
      return undefined;
    }
    if (op === 'in') {
      const seq = r.seq(f.value, f.at, f.path, 'a non-empty list of integers, strings or booleans (`[usd, eur]`)');
      if (seq === undefined) return undefined;
      const items = r.items(seq, f.path);
      if (items.length === 0) {
        r.errorAt(f.at, f.path, 'empty-in', '`in` takes a non-empty list: an empty one never holds', 'list the allowed values');
        return undefined;
      }
      const values: Scalar[] = [];
      let ok = true;
      for (const item of items) {
        const v = r.scalar(item.node, item.at, item.path);
        if (v === undefined) ok = false;
        else values.push(v);
      }
      return ok ? values : undefined;
    }
    return r.scalar(f.value, f.at, f.path);
  }
}
