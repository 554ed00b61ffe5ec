import path from 'node:path';
import { isMap, isSeq, type Node, type YAMLSeq } from 'yaml';
import { type Diagnostic, UserError } from '../diagnostics.js';
import { declaresCtrlrunSchema, readCapped } from '../safe-read.js';
import { pemCertificates, sha256Hex } from './pem.js';
import { parseDuration, parseExpiry, patternMatches, patternProblem } from './authority.js';
import {
  ACTION_KEYS,
  AUTHORITY_KEYS,
  BUDGET_KEYS,
  DEFAULT_MAX_DELEGATION_DEPTH,
  GRANT_KEYS,
  MAX_WINDOW_SECONDS,
  SUBJECT_KEYS,
  UPSTREAM_KEYS,
  CONTROL_ID_FORBIDDEN,
  CONTROL_ID_MAX_LENGTH,
  CONTROL_KEYS,
  DATA_KEYS,
  DECISIONS,
  DERIVED_SUBJECTS,
  isUnsupportedKey,
  LATEST_POLICY_VERSION,
  MCP_KEYS,
  MODES,
  OPERATORS,
  ORDER_OPERATORS,
  parseConditionKey,
  parseTemplate,
  POLICY_CHANGE_ACTION,
  POLICY_SCHEMA_PREFIX,
  RESERVED_SUBJECTS,
  RULE_KEYS,
  TOP_LEVEL_KEYS,
  UNSUPPORTED_KEYS,
} from './grammar.js';
import { policyHash } from './hash.js';
import { didYouMean, nearest } from './suggest.js';
import type { Condition, Decision, Operand, Policy, PolicyAction, PolicyAuthority, PolicyBudget, PolicyControl, PolicyGrant, Rule, Template } from './types.js';
import { describeKind, type Entry, type LoadResult, readDocument, type YamlReader } from './yaml-reader.js';

export { policyHash, policyHashInput } from './hash.js';
export type { LoadResult } from './yaml-reader.js';

/** Policies larger than this are refused before parsing (a hand-written policy is a few KiB). */
export const MAX_POLICY_BYTES = 256 * 1024;

/** CTRLRun's `_SHA256`: `sha256:` and 64 lowercase hex digits. */
const SHA256_PIN = /^sha256:[0-9a-f]{64}$/;

/**
 * Reads a PEM file an `upstream.tls_cert_file` names: its text, or why it could not be read. The
 * loader's one piece of I/O, passed in so `parsePolicy` stays a function of its inputs.
 */
export type CertFileReader = (certFile: string) => { text: string } | { error: string };

/** Cert files resolved against the policy file's folder, read capped (a PEM is a few KiB). */
export function certFilesBeside(policyFile: string): CertFileReader {
  return (certFile) => {
    const read = readCapped(path.resolve(path.dirname(policyFile), certFile), MAX_CERT_FILE_BYTES);
    return read.ok ? { text: read.text } : { error: read.reason === 'not-found' ? 'no such file' : read.message };
  };
}

/** A PEM bundle larger than this is refused (a certificate is 1-3 KiB). */
export const MAX_CERT_FILE_BYTES = 1024 * 1024;

/**
 * Parses and checks `ctrlrun.yaml` text. Never throws for any input text. Its only I/O is
 * `readCertFile` for `upstream.tls_cert_file` (by default the files beside the policy file).
 */
export function parsePolicy(text: string, file: string, readCertFile: CertFileReader = certFilesBeside(file)): LoadResult<Policy> {
  const options = { maxBytes: MAX_POLICY_BYTES, what: 'policy', firstKeyHint: `schema: ${POLICY_SCHEMA_PREFIX}${LATEST_POLICY_VERSION}`, yaml11: true };
  return readDocument(text, file, options, (reader, root) => {
    const draft = new PolicyReader(reader, readCertFile).read(root);
    if (draft === undefined || reader.errorCount > 0) return undefined;
    const document = reader.plain(root, '') as Record<string, unknown>;
    return { ...draft, document, hash: policyHash({ ...draft, document }), file };
  });
}

/** Reads and parses a policy file; a missing/unreadable file is a diagnostic, not a throw. */
export function loadPolicyFile(file: string): LoadResult<Policy> {
  const read = readTextFile(file, 'policy', MAX_POLICY_BYTES);
  if ('diagnostic' in read) return { diagnostics: [read.diagnostic], source: '' };
  const foreign = notCtrlrunFile(read.text, file, 'policy', `schema: ${POLICY_SCHEMA_PREFIX}${LATEST_POLICY_VERSION}`);
  if (foreign !== undefined) return { diagnostics: [foreign], source: '' };
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

/**
 * Reads a small text file a command was pointed at: only a regular file (a device, FIFO or
 * `/proc` file is refused before a byte is read, so `/dev/zero` cannot hang it), at most
 * `maxBytes`. A missing, unreadable, special or oversized file is a diagnostic.
 */
export function readTextFile(file: string, what: string, maxBytes: number): { text: string } | { diagnostic: Diagnostic } {
  const fail = (message: string, code: string, hint: string): { diagnostic: Diagnostic } => ({
    diagnostic: { severity: 'error', file, line: 1, column: 1, message, code, hint },
  });
  const read = readCapped(file, maxBytes);
  if (read.ok) return { text: read.text };
  switch (read.reason) {
    case 'not-found':
      return fail(`the ${what} file does not exist`, 'file-not-found', `create it with \`ctrlrun-gen init\`, or point at it with --${what}`);
    case 'not-a-file':
    case 'system-file':
      return fail(
        `the ${what} path is not a file of the repository: ${read.message}; it was not read`,
        'not-a-file',
        `point --${what} (or the manifest's \`${what}:\`) at the ${what} file itself`,
      );
    case 'too-large':
      return fail(`the ${what} is too large: ${read.message}`, 'file-too-large', 'check the path; a hand-written file is a few KiB');
    case 'permission-denied':
      return fail(`cannot read the ${what}: permission denied`, 'unreadable', `let the user running ctrlrun-gen read it (\`chmod u+r\`, or run as its owner)`);
    default:
      return fail(`cannot read the ${what}: ${read.message}`, 'unreadable', "check the file's permissions");
  }
}

/**
 * A file that does not declare a ctrlrun schema is not reported on line by line: it may be a
 * `.env`, a key or `/proc/self/environ` named as a policy, and its lines must not reach a CI log.
 * One diagnostic, no code frame (undefined when the text declares the schema or is blank).
 */
export function notCtrlrunFile(text: string, file: string, what: string, firstKey: string): Diagnostic | undefined {
  if (text.trim() === '' || declaresCtrlrunSchema(text)) return undefined;
  return {
    severity: 'error',
    file,
    line: 1,
    column: 1,
    code: `not-a-${what}`,
    message: `this is not a ctrlrun ${what}: it has no \`${firstKey}\` line (nothing of the file is shown)`,
    hint: `check the path: the ${what} starts with \`${firstKey}\``,
  };
}

type PolicyDraft = Omit<Policy, 'hash' | 'file'>;

/** Walks the document once, reporting every problem, and builds the normalized policy. */
class PolicyReader {
  private version = LATEST_POLICY_VERSION;
  private declaredVersion: number | undefined;

  constructor(
    private readonly r: YamlReader,
    private readonly readCertFile: CertFileReader,
  ) {}

  read(root: Node): PolicyDraft | undefined {
    const r = this.r;
    if (!isMap(root)) {
      r.errorAt(
        root,
        '',
        'not-a-mapping',
        `the policy must be a mapping (\`schema:\`, \`actions:\`, ...), found ${describeKind(r.kindOf(root))}`,
        `start with \`schema: ${POLICY_SCHEMA_PREFIX}${LATEST_POLICY_VERSION}\``,
      );
      return undefined;
    }
    const map = root;
    const entries = r.entries(map, '');
    const byKey = new Map(entries.map((e) => [e.key, e]));

    const schema = byKey.get('schema');
    if (schema === undefined)
      r.errorAt(map, '', 'missing-key', 'the policy has no `schema`', `add \`schema: ${POLICY_SCHEMA_PREFIX}${LATEST_POLICY_VERSION}\` as the first line`);
    else this.readSchema(schema);

    this.checkKeys(entries, TOP_LEVEL_KEYS, 'the top level');

    let mode: Policy['mode'] = 'enforce';
    const modeEntry = byKey.get('mode');
    if (modeEntry) mode = this.readEnum(modeEntry, MODES) ?? 'enforce';

    let environment: string | undefined;
    const envEntry = byKey.get('environment');
    if (envEntry) environment = this.nonBlank(envEntry, 'an environment name (a non-blank string)');

    let version: string | undefined;
    const versionEntry = byKey.get('version');
    if (versionEntry) version = this.nonBlank(versionEntry, 'a version label (a non-blank string)');

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
    const authorityEntry = byKey.get('authority');
    const authority = authorityEntry && this.version >= TOP_LEVEL_KEYS.authority! ? this.readAuthority(authorityEntry) : undefined;
    if (this.declaredVersion === undefined) return undefined;
    this.checkReservedTemplates(actions);
    const draft: PolicyDraft = { schemaVersion: this.declaredVersion, mode, controls, actions };
    if (modeEntry) draft.modeLoc = r.locOf(modeEntry.at);
    if (authority !== undefined) {
      draft.authority = authority;
      this.warnUncoverable(authority, actions);
    }
    if (environment !== undefined) draft.environment = environment;
    if (version !== undefined) draft.version = version;
    return draft;
  }

  /**
   * CTRLRun: a grant that declares `resources` never covers a call without a resource, so an action
   * its patterns name but which has no `resource:` template is denied `no_authority` by that grant.
   * Legal, and an easy trap: warned.
   */
  private warnUncoverable(authority: PolicyAuthority, actions: Record<string, PolicyAction>): void {
    for (const grant of authority.grants) {
      if (grant.resources === null) continue;
      for (const action of Object.values(actions)) {
        if (action.resource || !grant.actions.some((p) => patternMatches(p, action.id, '.'))) continue;
        this.r.warnAt(
          this.r.offsetAt(grant.loc),
          `authority.grants`,
          'grant-needs-resource',
          `grant \`${grant.id}\` declares \`resources\`, and action \`${action.id}\`, which it names, has no \`resource:\` template: the grant never covers its calls (\`no_authority\`)`,
          `give ${action.id} a \`resource:\` template, or cover it with a grant without \`resources\``,
        );
      }
    }
  }

  /** A string that is not empty or only whitespace (CTRLRun's `environment`, `version`, `title`, `source`). */
  private nonBlank(entry: Entry, expected: string): string | undefined {
    const value = this.r.string(entry.value, entry.at, entry.path, expected);
    if (value === undefined) return undefined;
    if (value.trim() === '') {
      this.r.errorAt(entry.at, entry.path, 'blank-string', `expected ${expected}, found only whitespace`, 'give it a value, or remove the key');
      return undefined;
    }
    return value;
  }

  /** CTRLRun v6: only `ctrlrun.policy.change` may name itself in a template or key an effect `policy:…`. */
  private checkReservedTemplates(actions: Record<string, PolicyAction>): void {
    for (const action of Object.values(actions)) {
      if (action.id === POLICY_CHANGE_ACTION) continue;
      for (const name of ['resource', 'effect'] as const) {
        const t = action[name];
        if (t?.source.includes(POLICY_CHANGE_ACTION)) {
          this.r.errorAt(
            this.r.offsetAt(t.loc),
            `actions.${action.id}.${name}`,
            'reserved-name',
            `the ${name} template names \`${POLICY_CHANGE_ACTION}\`, which CTRLRun reserves for its policy-change flow`,
            'rename the template text: an action that could expand to the reserved name could mark a policy approved',
          );
        }
      }
      if (action.effect?.source.startsWith('policy:')) {
        this.r.errorAt(
          this.r.offsetAt(action.effect.loc),
          `actions.${action.id}.effect`,
          'reserved-name',
          'an effect template may not begin `policy:`: CTRLRun records policy approvals under that key',
          'choose another prefix for the effect key',
        );
      }
    }
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
        if (isUnsupportedKey(e.key)) {
          r.errorAt(
            e.keyNode,
            e.path,
            'unsupported-key',
            `\`${e.key}\` is not supported: ${UNSUPPORTED_KEYS[e.key]}`,
            'remove it: ctrlrun-gen refuses what it cannot honour rather than ignore it',
          );
        } else if (since > this.version) {
          r.errorAt(
            e.keyNode,
            e.path,
            'key-version',
            `\`${e.key}\` needs ${POLICY_SCHEMA_PREFIX}${since} or later; this file declares ${POLICY_SCHEMA_PREFIX}${this.version}`,
            `change \`schema:\` to \`${POLICY_SCHEMA_PREFIX}${since}\` (or newer)`,
          );
        }
      } else {
        const best = nearest(e.key, known);
        const versionNote = best !== undefined && table[best]! > this.version ? ` (it needs ${POLICY_SCHEMA_PREFIX}${table[best]})` : '';
        r.errorAt(
          e.keyNode,
          e.path,
          'unknown-key',
          `unknown key \`${e.key}\` in ${where}`,
          best !== undefined ? `did you mean \`${best}\`?${versionNote}` : didYouMean(e.key, known),
        );
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

  /** CTRLRun: an action id is any non-empty string; a control id also has at most 200 characters and no control characters. */
  private checkId(entry: Entry, what: 'action' | 'control'): boolean {
    const r = this.r;
    if (entry.key.trim() === '' && (what === 'control' || entry.key === '')) {
      r.errorAt(entry.keyNode, entry.path, 'bad-id', `${what} ids must be non-empty strings`, `name the ${what}`);
      return false;
    }
    if (what === 'control' && (entry.key.length > CONTROL_ID_MAX_LENGTH || CONTROL_ID_FORBIDDEN.test(entry.key))) {
      r.errorAt(
        entry.keyNode,
        entry.path,
        'bad-id',
        `\`${entry.key}\` is not a valid control id`,
        `a control id has at most ${CONTROL_ID_MAX_LENGTH} characters and no control characters or line breaks (it is printed one per line on receipts)`,
      );
      return false;
    }
    if (what === 'action' && entry.key === POLICY_CHANGE_ACTION && this.version < 6) {
      r.errorAt(
        entry.keyNode,
        entry.path,
        'key-version',
        `declaring \`${POLICY_CHANGE_ACTION}\` needs ${POLICY_SCHEMA_PREFIX}6 or later; this file declares ${POLICY_SCHEMA_PREFIX}${this.version}`,
        `change \`schema:\` to \`${POLICY_SCHEMA_PREFIX}6\` (or newer)`,
      );
      return false;
    }
    return true;
  }

  private readControls(entry: Entry): Record<string, PolicyControl> {
    const r = this.r;
    const out: Record<string, PolicyControl> = {};
    const map = r.map(entry.value, entry.at, entry.path, 'a mapping of control ids to controls');
    if (map === undefined) return out;
    for (const c of r.entries(map, 'controls')) {
      const idOk = this.checkId(c, 'control');
      const body = r.map(c.value, c.at, c.path, 'a mapping with a `title:` (and optional `source:`, `approver_role:`)');
      const control: PolicyControl = { id: c.key, loc: r.locOf(c.keyNode) };
      if (body) {
        const fields = r.entries(body, c.path);
        this.checkKeys(fields, CONTROL_KEYS, `control \`${c.key}\``);
        for (const f of fields) {
          if (f.key === 'title') {
            const title = this.nonBlank(f, 'a title (a non-blank string)');
            if (title !== undefined) control.title = title;
          } else if (f.key === 'source') {
            const source = this.nonBlank(f, 'a source (a non-blank string)');
            if (source !== undefined) control.source = source;
          } else if (f.key === 'approver_role') {
            const role = this.nonBlank(f, 'a role name (a non-blank string)');
            if (role !== undefined && role !== role.trim()) {
              r.errorAt(
                f.at,
                f.path,
                'bad-value',
                `the role \`${role}\` has leading or trailing whitespace`,
                'roles are matched byte for byte against a claim: remove the spaces',
              );
            } else if (role !== undefined) control.approverRole = role;
          }
        }
        if (!fields.some((f) => f.key === 'title'))
          r.errorAt(c.keyNode, c.path, 'missing-key', `control \`${c.key}\` has no \`title\``, 'add `title:` (what the control requires, in words)');
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
      bare: false,
      controls: [],
      approvalsRequired: 1,
      maxAttempts: null,
      mcp: { notExecutedOnError: false },
      rules: [],
      loc: r.locOf(entry.keyNode),
    };

    const decision = byKey.get('decision');
    const rules = byKey.get('rules');
    if (decision && rules) {
      r.errorAt(
        rules.keyNode,
        rules.path,
        'decision-and-rules',
        `action \`${entry.key}\` has both \`decision\` and \`rules\``,
        'keep one: `decision: X` is shorthand for a single rule without `when`',
        {
          ...r.locOf(decision.keyNode),
          message: '`decision` is here',
        },
      );
    } else if (!decision && !rules) {
      r.errorAt(
        entry.keyNode,
        entry.path,
        'missing-decision',
        `action \`${entry.key}\` has neither \`decision\` nor \`rules\``,
        'add `decision: deny` (or allow / approve), or a `rules:` list',
      );
    }
    if (decision) {
      const d = this.readDecision(decision);
      if (d && !rules) {
        action.rules = [{ index: 0, when: [], decision: d, controls: [], loc: r.locOf(decision.keyNode) }];
        action.bare = true;
      }
    }
    if (rules) {
      const list = this.readRules(rules, controls, controlsEntry);
      if (!decision) action.rules = list;
    }

    for (const name of ['effect', 'resource'] as const) {
      const f = byKey.get(name);
      if (f) {
        const t = this.readTemplate(f);
        if (t) action[name] = t;
      }
    }
    // CTRLRun: at least 1, no upper bound; `max_attempts` absent is no ceiling.
    const approvals = byKey.get('approvals_required');
    if (approvals) action.approvalsRequired = r.int(approvals.value, approvals.at, approvals.path, { min: 1 }) ?? 1;
    const attempts = byKey.get('max_attempts');
    if (attempts) action.maxAttempts = r.int(attempts.value, attempts.at, attempts.path, { min: 1 }) ?? null;
    const mcp = byKey.get('mcp');
    if (mcp) action.mcp = this.readMcp(mcp);
    const upstream = byKey.get('upstream');
    if (upstream && this.version >= ACTION_KEYS.upstream!) {
      const pin = this.readUpstream(upstream);
      if (pin) action.upstream = pin;
    }
    const data = byKey.get('data');
    if (data && this.version >= ACTION_KEYS.data!) {
      const labels = this.readData(data);
      if (labels) action.data = labels;
    }
    const controlRefs = byKey.get('controls');
    if (controlRefs) action.controls = this.readControlRefs(controlRefs, controls, controlsEntry);
    return idOk ? action : undefined;
  }

  /**
   * `data:` (v4, CTRLRun §7.4): argument name to label, as `name: label` or `name: { label: … }`.
   * Labels are the operator's words; `data_scope` is derived from them at evaluation. `redact:`
   * was cut from CTRLRun and is refused with its reason, never ignored.
   */
  private readData(entry: Entry): Array<[string, string]> | undefined {
    const r = this.r;
    const map = r.map(entry.value, entry.at, entry.path, 'a mapping of argument name to label (`diagnosis: phi`)');
    if (map === undefined) return undefined;
    const out: Array<[string, string]> = [];
    let ok = true;
    for (const f of r.entries(map, entry.path)) {
      if (f.key.trim() === '') {
        r.errorAt(f.keyNode, f.path, 'bad-id', 'argument names in `data` must be non-empty strings', 'name the argument');
        ok = false;
        continue;
      }
      if (DERIVED_SUBJECTS.includes(f.key)) {
        r.errorAt(
          f.keyNode,
          f.path,
          'reserved-subject',
          `\`${f.key}\` is derived by CTRLRun and may not be an argument name`,
          'rename the argument: `data_scope` is the set of labels of the arguments a call supplies',
        );
        ok = false;
        continue;
      }
      const k = r.kindOf(f.value);
      if (k.kind === 'string') {
        const label = this.nonBlank(f, 'a label (a non-blank string)');
        if (label === undefined) ok = false;
        else out.push([f.key, label]);
        continue;
      }
      const body = r.map(f.value, f.at, f.path, 'a label (`phi`) or a mapping with `label:`');
      if (body === undefined) {
        ok = false;
        continue;
      }
      const fields = r.entries(body, f.path);
      const redact = fields.find((x) => x.key === 'redact');
      if (redact) {
        r.errorAt(
          redact.keyNode,
          redact.path,
          'unsupported-key',
          '`redact` is not a data key: CTRLRun cut redaction (a value a deployment may not hold in its receipts it may not hold upstream either, and the approval carries the real value regardless)',
          'remove it: nothing is hidden from the receipts',
        );
        ok = false;
        continue;
      }
      this.checkKeys(fields, DATA_KEYS, `data \`${f.key}\``);
      const labelEntry = fields.find((x) => x.key === 'label');
      if (labelEntry === undefined) {
        r.errorAt(f.keyNode, f.path, 'missing-key', `data \`${f.key}\` has no \`label\``, `write \`label: phi\` (or the shorthand \`${f.key}: phi\`)`);
        ok = false;
        continue;
      }
      const label = this.nonBlank(labelEntry, 'a label (a non-blank string)');
      if (label === undefined) ok = false;
      else out.push([f.key, label]);
    }
    return ok ? out : undefined;
  }

  /**
   * The `upstream:` pin (v8), read as CTRLRun's `_parse_upstream` reads it: `null` is no pin;
   * `tls_cert_sha256` is a `sha256:` digest or a list of them (64 lowercase hex); `tls_cert_file`
   * a path or a list of paths, each an existing PEM file holding at least one certificate, and
   * where digests are pinned too, each file holds a certificate whose digest is pinned
   * (`_check_pin_correspondence`); `tool_schema_sha256` one digest or null.
   */
  private readUpstream(entry: Entry): PolicyAction['upstream'] {
    const r = this.r;
    if (r.kindOf(entry.value).kind === 'null') return {};
    const map = r.map(
      entry.value,
      entry.at,
      entry.path,
      'a mapping (`tls_cert_sha256: ["sha256:…"]`, `tls_cert_file: server.pem`, `tool_schema_sha256: "sha256:…"`)',
    );
    if (map === undefined) return undefined;
    const fields = r.entries(map, entry.path);
    this.checkKeys(fields, UPSTREAM_KEYS, '`upstream`');
    const out: NonNullable<PolicyAction['upstream']> = {};
    let ok = true;
    const byKey = new Map(fields.map((f) => [f.key, f]));
    const schemaPin = byKey.get('tool_schema_sha256');
    if (schemaPin && r.kindOf(schemaPin.value).kind !== 'null') {
      const pin = r.string(schemaPin.value, schemaPin.at, schemaPin.path, 'a schema hash (`sha256:` and 64 hex digits)');
      if (pin === undefined) ok = false;
      else if (!SHA256_PIN.test(pin)) {
        r.errorAt(
          schemaPin.at,
          schemaPin.path,
          'bad-value',
          `\`${pin}\` is not a schema hash`,
          "write `sha256:` and 64 lowercase hex digits, as `ctrlrun-gen` prints for the tool (CTRLRun's tool_schema_hash)",
        );
        ok = false;
      } else out.toolSchemaSha256 = pin;
    }
    const digests = this.stringOrList(
      byKey.get('tls_cert_sha256'),
      'a `sha256:` digest or a list of them (a list, so a rotation can carry the current and the next certificate)',
    );
    if (digests === undefined) ok = false;
    else {
      for (const d of digests) {
        if (!SHA256_PIN.test(d.value)) {
          r.errorAt(
            d.at,
            d.path,
            'bad-value',
            `\`${d.value}\` is not a certificate digest`,
            "write `sha256:` and 64 lowercase hex digits: the SHA-256 of the leaf certificate's DER bytes (`openssl x509 -in cert.pem -outform DER | sha256sum`)",
          );
          ok = false;
        }
      }
      if (digests.length > 0) out.tlsCertSha256 = digests.map((d) => d.value);
    }
    const files = this.stringOrList(byKey.get('tls_cert_file'), 'a path to a PEM file or a list of paths');
    if (files === undefined) ok = false;
    else if (files.length > 0) {
      const pems: string[] = [];
      for (const f of files) {
        const read = this.readCertFile(f.value);
        if ('error' in read) {
          r.errorAt(
            f.at,
            f.path,
            'cert-file',
            `\`${f.value}\` could not be read (${read.error}): a pin whose certificate is missing builds an empty trust store and refuses every connection`,
            "point `tls_cert_file` at the PEM file of the upstream's certificate (a path relative to the policy file)",
          );
          ok = false;
          continue;
        }
        const certs = pemCertificates(read.text);
        if (!certs.ok) {
          r.errorAt(
            f.at,
            f.path,
            'cert-file',
            `\`${f.value}\` is not PEM: ${certs.problem}`,
            'the file holds `-----BEGIN CERTIFICATE-----` blocks and nothing before the first one',
          );
          ok = false;
          continue;
        }
        if (certs.blocks.length === 0) {
          r.errorAt(f.at, f.path, 'cert-file', `\`${f.value}\` holds no certificate`, 'the file holds `-----BEGIN CERTIFICATE-----` blocks');
          ok = false;
          continue;
        }
        const pinned = out.tlsCertSha256 ?? [];
        if (pinned.length > 0) {
          const hashes = certs.blocks.map((b) => `sha256:${sha256Hex(b.der)}`);
          if (!hashes.some((h) => pinned.includes(h))) {
            r.errorAt(
              f.at,
              f.path,
              'cert-file-unpinned',
              `\`${f.value}\` hashes to ${[...hashes].sort()[0]}, which \`tls_cert_sha256\` does not name: the two halves pin the same certificates, or a rotation that moves one fails at the handshake`,
              'add the digest to `tls_cert_sha256`, or put the pinned certificate in the file',
            );
            ok = false;
            continue;
          }
        }
        for (const b of certs.blocks) pems.push(b.pem);
      }
      out.tlsCertFiles = files.map((f) => f.value);
      out.tlsCertPems = pems;
    }
    return ok ? out : undefined;
  }

  /** A string or a list of strings (absent: empty), each with where it was written. */
  private stringOrList(entry: Entry | undefined, expected: string): Array<{ value: string; at: Node; path: string }> | undefined {
    const r = this.r;
    if (entry === undefined) return [];
    const k = r.kindOf(entry.value);
    if (k.kind === 'string') return [{ value: k.value, at: entry.at, path: entry.path }];
    if (k.kind !== 'seq') {
      r.wrongKind(entry.value, entry.at, entry.path, expected);
      return undefined;
    }
    const out: Array<{ value: string; at: Node; path: string }> = [];
    let ok = true;
    for (const item of r.items(entry.value as YAMLSeq, entry.path)) {
      const v = r.string(item.node, item.at, item.path, 'a string');
      if (v === undefined) ok = false;
      else out.push({ value: v, at: item.at, path: item.path });
    }
    return ok ? out : undefined;
  }

  /** `authority:` (v3; grant `tasks`, `budgets` v7), read as CTRLRun's `_from_section` reads it. */
  private readAuthority(entry: Entry): PolicyAuthority | undefined {
    const r = this.r;
    const map = r.map(entry.value, entry.at, entry.path, 'a mapping with `grants:` (and an optional `max_delegation_depth:`)');
    if (map === undefined) return undefined;
    const fields = r.entries(map, entry.path);
    this.checkKeys(fields, AUTHORITY_KEYS, '`authority`');
    const byKey = new Map(fields.map((f) => [f.key, f]));
    let maxDelegationDepth = DEFAULT_MAX_DELEGATION_DEPTH;
    const depth = byKey.get('max_delegation_depth');
    if (depth) maxDelegationDepth = r.int(depth.value, depth.at, depth.path, { min: 0 }) ?? DEFAULT_MAX_DELEGATION_DEPTH;
    const grantsEntry = byKey.get('grants');
    if (grantsEntry === undefined) {
      r.errorAt(
        entry.keyNode,
        entry.path,
        'missing-key',
        '`authority` has no `grants`',
        'a section that governs every action must state what it permits: list the grants, or write `grants: []` to permit nothing',
      );
      return undefined;
    }
    const seq = r.seq(grantsEntry.value, grantsEntry.at, grantsEntry.path, 'a list of grants');
    if (seq === undefined) return undefined;
    const grants: PolicyGrant[] = [];
    const ids = new Set<string>();
    for (const item of r.items(seq, grantsEntry.path)) {
      const grant = this.readGrant(item.node, item.at, item.path);
      if (grant === undefined) continue;
      if (ids.has(grant.id)) {
        r.errorAt(
          item.at,
          item.path,
          'duplicate-grant',
          `grant id \`${grant.id}\` is used twice`,
          'give each grant its own id: a delegation names its parent by id',
        );
        continue;
      }
      ids.add(grant.id);
      grants.push(grant);
    }
    return { maxDelegationDepth, grants };
  }

  private readGrant(node: Node | null, at: Node, path: string): PolicyGrant | undefined {
    const r = this.r;
    const map = r.map(node, at, path, 'a grant (a mapping with `id`, `subject`, `actions`, …)');
    if (map === undefined) return undefined;
    const fields = r.entries(map, path);
    this.checkKeys(fields, GRANT_KEYS, 'a grant');
    const byKey = new Map(fields.map((f) => [f.key, f]));
    const before = r.errorCount;
    const idEntry = byKey.get('id');
    const id = this.readGrantId(idEntry, at, path);
    const subject = this.readSubject(byKey.get('subject'), at, path);
    const actionsEntry = byKey.get('actions');
    let actions: string[] = [];
    if (actionsEntry === undefined)
      r.errorAt(at, path, 'missing-key', 'the grant has no `actions`', 'list the action ids (or patterns: `stripe.*`, `stripe.**`) it permits');
    else actions = this.readPatterns(actionsEntry, '.') ?? [];
    const resourcesEntry = byKey.get('resources');
    const resources = resourcesEntry ? (this.readPatterns(resourcesEntry, ':') ?? []) : null;
    const tasksEntry = byKey.get('tasks');
    const tasks = tasksEntry ? (this.readPatterns(tasksEntry, ':') ?? []) : null;
    const envEntry = byKey.get('environments');
    const environments = envEntry ? this.readEnvironments(envEntry) : null;
    const constraintsEntry = byKey.get('constraints');
    let constraints: Condition[] = [];
    if (constraintsEntry) {
      const read = this.readWhen(constraintsEntry, false);
      constraints = read ?? [];
    }
    const expiresEntry = byKey.get('expires_at');
    const expiresAt = expiresEntry ? this.readExpiry(expiresEntry) : null;
    let delegable = false;
    const delegableEntry = byKey.get('delegable');
    if (delegableEntry) {
      const k = r.kindOf(delegableEntry.value);
      if (k.kind === 'bool') delegable = k.value;
      else r.wrongKind(delegableEntry.value, delegableEntry.at, delegableEntry.path, 'true or false');
    }
    if (delegable && expiresAt === null && expiresEntry === undefined) {
      r.errorAt(
        delegableEntry!.at,
        delegableEntry!.path,
        'missing-key',
        'a grant with `delegable: true` must declare `expires_at`',
        'add `expires_at:`: nothing else bounds the grants delegated beneath it',
      );
    }
    const budgetsEntry = byKey.get('budgets');
    const budgets = budgetsEntry ? this.readBudgets(budgetsEntry) : null;
    if (id === undefined || r.errorCount > before) return undefined;
    return { id, subject, actions, resources, constraints, environments, expiresAt, delegable, tasks, budgets, loc: r.locOf(idEntry?.keyNode ?? at) };
  }

  private readGrantId(idEntry: Entry | undefined, at: Node, path: string): string | undefined {
    const r = this.r;
    if (idEntry === undefined) {
      r.errorAt(at, path, 'missing-key', 'the grant has no `id`', 'add `id: <name>` (letters, digits, `.`, `_`, `-`)');
      return undefined;
    }
    const id = r.string(idEntry.value, idEntry.at, idEntry.path, 'a grant id');
    if (id !== undefined && (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id) || id.startsWith('dlg_'))) {
      r.errorAt(
        idEntry.at,
        idEntry.path,
        'bad-id',
        `\`${id}\` is not a valid grant id`,
        id.startsWith('dlg_')
          ? 'the `dlg_` prefix is reserved for delegations'
          : 'a grant id starts with a letter or digit, then letters, digits, `.`, `_`, `-`',
      );
    }
    return id;
  }

  private readSubject(subjectEntry: Entry | undefined, at: Node, path: string): PolicyGrant['subject'] {
    const r = this.r;
    const subject: PolicyGrant['subject'] = {};
    if (subjectEntry === undefined) {
      r.errorAt(at, path, 'missing-key', 'the grant has no `subject`', 'add `subject: { agent: <pattern> }` (and/or `user:`)');
      return subject;
    }
    const sm = r.map(subjectEntry.value, subjectEntry.at, subjectEntry.path, 'a mapping with `agent` and/or `user`');
    if (sm) {
      const sf = r.entries(sm, subjectEntry.path);
      this.checkKeys(sf, SUBJECT_KEYS, '`subject`');
      for (const f of sf) {
        if (f.key !== 'agent' && f.key !== 'user') continue;
        const pattern = this.readPattern(f.value, f.at, f.path, null);
        if (pattern !== undefined) subject[f.key] = pattern;
      }
      if (subject.agent === undefined && subject.user === undefined && !sf.some((f) => f.key === 'agent' || f.key === 'user')) {
        r.errorAt(
          subjectEntry.at,
          subjectEntry.path,
          'bad-value',
          'a subject must name an `agent` or a `user`',
          'a subject matching every principal is one nobody means to write: `agent: "*"` says "any agent" on purpose',
        );
      }
    }
    return subject;
  }

  private readEnvironments(envEntry: Entry): string[] {
    const r = this.r;
    const environments: string[] = [];
    const seq = r.seq(envEntry.value, envEntry.at, envEntry.path, 'a non-empty list of environment names');
    if (seq) {
      const items = r.items(seq, envEntry.path);
      if (items.length === 0)
        r.errorAt(
          envEntry.at,
          envEntry.path,
          'empty-list',
          '`environments: []` is refused',
          'list the environments, or remove the key (absent: any environment)',
        );
      for (const item of items) {
        const name = r.string(item.node, item.at, item.path, 'an environment name');
        if (name !== undefined) environments.push(name);
      }
    }
    return environments;
  }

  private readExpiry(expiresEntry: Entry): PolicyGrant['expiresAt'] {
    const r = this.r;
    const k = r.kindOf(expiresEntry.value);
    const text = k.kind === 'string' ? k.value : k.kind === 'timestamp' ? k.source : undefined;
    const parsed = text === undefined ? undefined : parseExpiry(text);
    if (parsed === undefined) {
      r.errorAt(
        expiresEntry.at,
        expiresEntry.path,
        'bad-value',
        '`expires_at` must be an ISO-8601 timestamp with an offset',
        'write it as `2027-01-01T00:00:00Z` (or with `+02:00`): an expiry in an unstated timezone cannot be checked',
      );
      return null;
    }
    return parsed;
  }

  /** A non-empty list of patterns (CTRLRun's grammar: a literal, a trailing `*`, a final `**`). */
  private readPatterns(entry: Entry, separator: '.' | ':'): string[] | undefined {
    const r = this.r;
    const seq = r.seq(entry.value, entry.at, entry.path, 'a non-empty list of patterns');
    if (seq === undefined) return undefined;
    const items = r.items(seq, entry.path);
    if (items.length === 0) {
      r.errorAt(entry.at, entry.path, 'empty-list', `\`${entry.key}: []\` is refused`, `list at least one pattern, or remove \`${entry.key}\``);
      return undefined;
    }
    const out: string[] = [];
    for (const item of items) {
      const p = this.readPattern(item.node, item.at, item.path, separator);
      if (p !== undefined) out.push(p);
    }
    return out;
  }

  private readPattern(node: Node | null, at: Node, path: string, separator: '.' | ':' | null): string | undefined {
    const r = this.r;
    const pattern = r.string(node, at, path, 'a pattern string');
    if (pattern === undefined) return undefined;
    const problem = patternProblem(pattern, separator);
    if (problem !== null) {
      r.errorAt(
        node ?? at,
        path,
        'bad-pattern',
        `\`${pattern}\` ${problem}`,
        'a pattern is a literal, a segment ending in one `*`, or a final `**` after literal segments',
      );
      return undefined;
    }
    return pattern;
  }

  private readBudgets(entry: Entry): PolicyBudget[] | null {
    const r = this.r;
    const seq = r.seq(entry.value, entry.at, entry.path, 'a non-empty list of `{metric, limit, window}` mappings');
    if (seq === undefined) return null;
    const items = r.items(seq, entry.path);
    if (items.length === 0)
      r.errorAt(entry.at, entry.path, 'empty-list', '`budgets: []` is refused', 'list the budgets, or remove the key (absent: nothing is budgeted)');
    const out: PolicyBudget[] = [];
    for (const item of items) {
      const map = r.map(item.node, item.at, item.path, 'a budget (`{metric: amount, limit: 100000, window: PT24H}`)');
      if (map === undefined) continue;
      const fields = r.entries(map, item.path);
      this.checkKeys(fields, BUDGET_KEYS, 'a budget');
      const byKey = new Map(fields.map((f) => [f.key, f]));
      for (const key of ['limit', 'metric', 'window']) {
        if (!byKey.has(key)) r.errorAt(item.at, item.path, 'missing-key', `the budget has no \`${key}\``, 'a budget is `{metric, limit, window}`');
      }
      const m = byKey.get('metric');
      const l = byKey.get('limit');
      const w = byKey.get('window');
      const metric = m ? this.nonBlank(m, 'a metric (`count`, or an argument name)') : undefined;
      let limit: number | bigint | undefined;
      if (l) {
        const k = r.kindOf(l.value);
        if (k.kind === 'int' && k.value >= 0) limit = k.value;
        else r.errorAt(l.at, l.path, 'bad-value', '`limit` must be a non-negative integer', 'budget money in minor units (`limit: 100000` for 1,000.00)');
      }
      let windowSeconds: number | undefined;
      if (w) {
        const text = r.string(w.value, w.at, w.path, 'an ISO-8601 duration (`PT24H`, `P1D`)');
        if (text !== undefined) {
          windowSeconds = parseDuration(text);
          if (windowSeconds === undefined || windowSeconds <= 0 || windowSeconds > MAX_WINDOW_SECONDS) {
            r.errorAt(
              w.at,
              w.path,
              'bad-value',
              `\`${text}\` is not a window this reader accepts`,
              'write `PT4H`, `PT30M`, `PT90S` or `P2D` (a positive duration of at most 100 years; months and years are not durations a clock can add)',
            );
            windowSeconds = undefined;
          }
        }
      }
      if (metric !== undefined && limit !== undefined && windowSeconds !== undefined) out.push({ metric, limit, windowSeconds });
    }
    return out;
  }

  /** The per-action `mcp:` mapping (v2+): loaded and carried; enforced where MCP tools are protected. */
  private readMcp(entry: Entry): PolicyAction['mcp'] {
    const r = this.r;
    const out = { notExecutedOnError: false };
    const map = r.map(entry.value, entry.at, entry.path, 'a mapping (`not_executed_on_error: true`)');
    if (map === undefined) return out;
    const fields = r.entries(map, entry.path);
    this.checkKeys(fields, MCP_KEYS, '`mcp`');
    for (const f of fields) {
      if (f.key !== 'not_executed_on_error') continue;
      const k = r.kindOf(f.value);
      if (k.kind === 'bool') out.notExecutedOnError = k.value;
      else r.wrongKind(f.value, f.at, f.path, 'true or false');
    }
    return out;
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
        r.warnAt(item.at, item.path, 'duplicate-control', `control \`${id}\` is listed twice (counted once)`, 'list each control once');
        continue;
      }
      if (!Object.hasOwn(controls, id)) {
        const defined = Object.keys(controls);
        const related = controlsEntry ? { ...r.locOf(controlsEntry.keyNode), message: 'controls are defined here' } : undefined;
        r.errorAt(
          item.at,
          item.path,
          'unknown-control',
          `control \`${id}\` is not defined`,
          defined.length === 0 ? `define it under a top-level \`controls:\` mapping (${POLICY_SCHEMA_PREFIX}4+)` : didYouMean(id, defined, 'defined controls'),
          related,
        );
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
    for (const part of parts) {
      if (part.kind === 'arg' && DERIVED_SUBJECTS.includes(part.arg)) {
        r.errorAt(
          entry.at,
          entry.path,
          'reserved-subject',
          `\`{${part.arg}}\` is derived by CTRLRun and may not be a template placeholder`,
          'rename the argument',
        );
        return undefined;
      }
    }
    for (const e of errors) {
      r.errorAt(
        r.offsetInScalar(entry.at, e.index),
        entry.path,
        'bad-template',
        `in template \`${source}\`: ${e.message}`,
        "a template is literal text with `{arg}` placeholders naming the tool's arguments; braces cannot be escaped",
      );
    }
    if (errors.length > 0) return undefined;
    return { source, parts, loc: r.locOf(entry.at) };
  }

  private readRules(entry: Entry, controls: Record<string, PolicyControl>, controlsEntry: Entry | undefined): Rule[] {
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
      const when = whenEntry ? this.readWhen(whenEntry, true) : [];
      const citedEntry = byKey.get('controls');
      const cited = citedEntry ? this.readControlRefs(citedEntry, controls, controlsEntry) : [];
      if (catchAll !== undefined) {
        r.warnAt(
          item.at,
          item.path,
          'unreachable-rule',
          `rule ${item.index} can never match: rule ${catchAll} before it matches everything`,
          'first match wins; move the catch-all rule last',
        );
      }
      if (when !== undefined && when.length === 0 && catchAll === undefined) catchAll = item.index;
      if (decision !== undefined && when !== undefined) rules.push({ index: item.index, when, decision, controls: cited, loc: r.locOf(item.at) });
    }
    return rules;
  }

  /** A rule's `when` (`derived`: it may test `data_scope`) or a grant's `constraints` (it may not). */
  private readWhen(entry: Entry, derived: boolean): Condition[] | undefined {
    const r = this.r;
    const map = r.map(entry.value, entry.at, entry.path, 'a non-empty mapping of `<arg>_<op>: value`');
    if (map === undefined) return undefined;
    if (map.items.length === 0) {
      // CTRLRun: `when: {}` is a truncated edit; the catch-all is spelled with no `when`.
      r.errorAt(
        entry.at,
        entry.path,
        'empty-when',
        '`when: {}` is refused: a `when` must hold at least one entry',
        'for a rule that always matches, remove `when` altogether',
      );
      return undefined;
    }
    const out: Condition[] = [];
    let ok = true;
    for (const f of r.entries(map, entry.path)) {
      const c = this.readCondition(f, derived);
      if (c) out.push(c);
      else ok = false;
    }
    return ok ? out : undefined;
  }

  private readCondition(f: Entry, derived: boolean): Condition | undefined {
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
        r.errorAt(
          f.keyNode,
          f.path,
          'bad-condition-key',
          `\`${parsed.arg}\` is not a valid argument name`,
          'argument names are identifiers: letters, digits and `_`, not starting with a digit',
        );
      }
      return undefined;
    }
    const { arg, op } = parsed;
    if (DERIVED_SUBJECTS.includes(arg) && !derived) {
      // CTRLRun: a grant's constraints never match on a data label (its §11)
      r.errorAt(
        f.keyNode,
        f.path,
        'reserved-subject',
        `\`${arg}\` is a reserved subject and cannot be tested in a grant's \`constraints\``,
        "test it in a rule's `when` instead: `data_scope` is derived from the action's `data:` labels for rules only",
      );
      return undefined;
    }
    if (RESERVED_SUBJECTS.includes(arg)) {
      r.errorAt(
        f.keyNode,
        f.path,
        'reserved-subject',
        `\`${arg}\` is a reserved subject and cannot be tested in a \`when\``,
        "the policy never sees who is asking: test the tool's own arguments; the principal comes from `identity` at run time",
      );
      return undefined;
    }
    const value = this.readConditionValue(f, op);
    if (value === undefined) return undefined;
    return { key: f.key, arg, op, value, loc: r.locOf(f.keyNode) };
  }

  /**
   * CTRLRun's operands: `lt lte gt gte` an integer (any size, never a boolean); `in` a list (empty:
   * never holds, warned) of values; `eq`/`neq` a value, a list of non-containers, or a mapping.
   * A value is null, a boolean, a string, an integer, or a list/mapping of values; never a float or a date.
   */
  private readConditionValue(f: Entry, op: Condition['op']): Operand | undefined {
    const r = this.r;
    if ((ORDER_OPERATORS as readonly string[]).includes(op)) {
      const k = r.kindOf(f.value);
      if (k.kind === 'int') return k.value;
      if (k.kind === 'string' || k.kind === 'bool') {
        r.errorAt(
          f.at,
          f.path,
          'not-integer',
          `\`${op}\` compares integers only; found ${k.kind === 'string' ? 'a string' : 'a boolean'}`,
          'use `eq`, `neq` or `in` for strings and booleans; write amounts in integer minor units',
        );
        return undefined;
      }
      r.wrongKind(f.value, f.at, f.path, 'an integer');
      return undefined;
    }
    if (op === 'in') {
      const seq = r.seq(f.value, f.at, f.path, 'a list of values (`[usd, eur]`)');
      if (seq === undefined) return undefined;
      const items = r.items(seq, f.path);
      if (items.length === 0) r.warnAt(f.at, f.path, 'empty-in', '`in: []` never holds', 'list the allowed values');
      const values: Operand[] = [];
      let ok = true;
      for (const item of items) {
        const v = this.readOperand(item.node, item.at, item.path, 0);
        if (v === undefined) ok = false;
        else values.push(v);
      }
      return ok ? values : undefined;
    }
    const value = this.readOperand(f.value, f.at, f.path, 0);
    if (Array.isArray(value)) {
      const nested = value.findIndex((v) => typeof v === 'object' && v !== null);
      if (nested >= 0) {
        r.errorAt(f.at, f.path, 'nested-operand', `a list operand of \`${op}\` holds values, not lists or mappings (item ${nested})`, 'write a flat list');
        return undefined;
      }
    }
    return value;
  }

  private readOperand(node: Node | null, at: Node, path: string, depth: number): Operand | undefined {
    const r = this.r;
    if (depth > 64) {
      r.errorAt(node ?? at, path, 'too-deep', 'this operand nests too deeply', 'a condition compares a value, a list or a small mapping');
      return undefined;
    }
    if (node !== null && isSeq(node)) {
      const out: Operand[] = [];
      let ok = true;
      for (const item of r.items(node, path)) {
        const v = this.readOperand(item.node, item.at, item.path, depth + 1);
        if (v === undefined) ok = false;
        else out.push(v);
      }
      return ok ? out : undefined;
    }
    if (node !== null && isMap(node)) {
      const out: Record<string, Operand> = {};
      let ok = true;
      for (const e of r.entries(node, path)) {
        const v = this.readOperand(e.value, e.at, e.path, depth + 1);
        if (v === undefined) ok = false;
        else Object.defineProperty(out, e.key, { value: v, enumerable: true, writable: true, configurable: true });
      }
      return ok ? out : undefined;
    }
    return r.scalar(node, at, path);
  }
}
