/**
 * Checks the policy against the tools as declared in the code (SPEC §3): every `<arg>` of a `when`
 * and every `{arg}` of a template exists in the tool's parameters with a type the operator can
 * apply. Each diagnostic names both places (the policy or manifest, and the code) via `related`.
 */
import type { Diagnostic } from '../diagnostics.js';
import type { Manifest, ManifestTool } from '../manifest/types.js';
import { DERIVED_SUBJECTS } from '../policy/grammar.js';
import { nearest } from '../policy/suggest.js';
import type { Condition, Policy, PolicyAction, Scalar, SourceLocation, Template } from '../policy/types.js';
import type { ToolDeclaration } from './declarations.js';
import type { ToolParameter } from './params.js';
import { byCodeUnit } from './render.js';
import { RESOLVABLE_NAMES } from '../scan/names.js';
import { declarationKey, siteLabel } from '../manifest/computed.js';
import { doorProblems, sandboxToolHint } from './crosscheck-doors.js';

type FunctionTool = Extract<ManifestTool, { kind: 'function' | 'computed' }>;

/** How a diagnostic names the tool of an entry: `tool \`refund\``, or `the tool() calls at \`src/flows.ts\``. */
function toolLabel(entry: FunctionTool): string {
  return entry.kind === 'function' ? `tool \`${entry.tool}\`` : `the tool() at \`${siteLabel(entry.at)}\``;
}

/**
 * The cross-check, with the mapped tools it leaves unprotected: a tool whose declarations (or whose
 * absence) the policy cannot be checked against has errors of its own, which never stop the other
 * tools (issue 40: one field's refusal must not leave the repo's other tools open). `leftOut`: each
 * such tool name with its action and its first error; the errors are in `diagnostics` too. Errors
 * that are not one function tool's (a TLS pin no door can observe, a handoff's or sandbox's) are in `diagnostics` only: they stop generate.
 */
export interface CrossCheck {
  diagnostics: Diagnostic[];
  leftOut: Map<string, { action: string; error: Diagnostic }>;
  /** The errors that are no one tool's: generate refuses. */
  fatal: number;
}

export function crossCheck(policy: Policy, manifest: Manifest, declarations: ReadonlyMap<string, ToolDeclaration[]>): CrossCheck {
  // a TLS pin no door can observe, a handoff or sandbox entry: no function tool's, so generate refuses
  const shared = [...tlsPinProblems(policy, manifest), ...doorProblems(policy, manifest, declarations, checkDeclaration)];
  const out: Diagnostic[] = [...shared];
  const leftOut = new Map<string, { action: string; error: Diagnostic }>();
  for (const entry of manifest.tools) {
    if (entry.kind !== 'function' && entry.kind !== 'computed') continue;
    const own = checkEntry(policy, entry, declarations);
    const first = own.filter((d) => d.severity === 'error').sort(compareDiagnostics)[0];
    const key = declarationKey(entry)!;
    if (first && !leftOut.has(key)) leftOut.set(key, { action: entry.action, error: first });
    out.push(...own);
  }
  return { diagnostics: dedupe(out).sort(compareDiagnostics), leftOut, fatal: shared.filter((d) => d.severity === 'error').length };
}

/** One manifest entry's diagnostics: its tool found, and each declaration checked against the action. */
function checkEntry(policy: Policy, entry: FunctionTool, declarations: ReadonlyMap<string, ToolDeclaration[]>): Diagnostic[] {
  const action = policy.actions[entry.action];
  if (!action) return []; // the loader reports an action missing from the policy
  const found = declarations.get(declarationKey(entry)!) ?? [];
  if (found.length === 0) {
    return [
      {
        severity: 'error',
        code: 'tool-not-found',
        ...at(entry.loc),
        message:
          entry.kind === 'function'
            ? `tool \`${entry.tool}\` is mapped to \`${entry.action}\`, but no \`tool({ name: '${entry.tool}' })\` call was found in the repo`
            : `the tool() calls at \`${siteLabel(entry.at)}\` are mapped to \`${entry.action}\`, but no tool() call whose name is computed was found there`,
        hint:
          entry.kind === 'function'
            ? (sandboxToolHint(entry.tool) ??
              `the tool()'s \`name\` must be ${RESOLVABLE_NAMES}, with exactly this value; fix the spelling or remove the mapping`)
            : '`at:` names a file of the repository (relative to the manifest), and a line the `tool(` call starts on; a tool() whose name is a literal or a constant is mapped by `tool: <name>`',
        related: { ...at(action.loc), message: `the action \`${entry.action}\` it maps to` },
      },
    ];
  }
  return found.flatMap((declaration) => checkDeclaration(action, entry, declaration));
}

function checkDeclaration(action: PolicyAction, entry: FunctionTool, declaration: ToolDeclaration): Diagnostic[] {
  const out: Diagnostic[] = [];
  const result = declaration.parameters;
  if (!result.readable) {
    out.push({
      severity: 'warning',
      code: 'parameters-unreadable',
      ...at(result.loc),
      message: `the parameters of ${toolLabel(entry)} cannot be read statically (${result.reason}); the policy's arguments for \`${entry.action}\` are not checked against this declaration`,
      hint: 'declare them in this file as z.object({...}) or a JSON-schema object literal (or a const holding one)',
      related: { ...at(entry.loc), message: `mapped to \`${entry.action}\` here` },
    });
    return out;
  }
  const reads = readsOf(action);
  for (const p of result.parameters) {
    if (p.floatFill) out.push(floatFill(p, entry));
    const read = reads.get(p.name);
    if (p.transforms && read) out.push(transformingParameter(p, entry, read));
    else if (p.transforms && /^\.(default|catch|prefault)\(/.test(p.transforms) && action.rules.some((r) => r.decision === 'approve')) {
      out.push(computedFill(p, entry));
    }
  }
  const params = new Map(result.parameters.map((p) => [p.name, p]));
  const declared = result.parameters.map((p) => p.name);
  const declaredHere: Diagnostic['related'] = {
    ...at(result.loc),
    message: `${toolLabel(entry)} declares its parameters here (${declared.length === 0 ? 'none' : declared.join(', ')})`,
  };

  // `data:` labels arguments; a label on an argument the tool does not have never enters `data_scope`
  for (const [name] of action.data ?? []) {
    if (params.has(name)) continue;
    out.push({
      severity: 'error',
      code: 'unknown-argument',
      ...at(action.loc),
      path: `actions.${action.id}.data.${name}`,
      message: `\`data\` labels the argument \`${name}\`, which ${toolLabel(entry)} does not have: its label would never enter \`data_scope\``,
      hint: suggestion(name, declared),
      related: declaredHere,
    });
  }
  for (const rule of action.rules) {
    for (const c of rule.when) {
      if (DERIVED_SUBJECTS.includes(c.arg)) continue; // data_scope: derived from the `data:` labels, not an argument
      const p = params.get(c.arg);
      const path = `actions.${action.id}.rules[${rule.index}].when.${c.key}`;
      if (!p) {
        out.push({
          severity: 'error',
          code: 'unknown-argument',
          ...at(c.loc),
          path,
          message: `\`${c.key}\` tests the argument \`${c.arg}\`, which ${toolLabel(entry)} does not have`,
          hint: suggestion(c.arg, declared),
          related: declaredHere,
        });
        continue;
      }
      if (p.type === 'unknown') {
        out.push(unknownType(p, entry, c.loc, path));
        continue;
      }
      const problem = conditionProblem(c, p);
      if (problem) {
        out.push({
          severity: 'error',
          code: problem.code,
          ...at(c.loc),
          path,
          message: `\`${c.key}\`: ${problem.message}`,
          hint: problem.hint,
          related: { ...at(p.loc), message: `${toolLabel(entry)} declares \`${p.name}\` as ${describe(p)}` },
        });
      }
    }
  }

  for (const [what, template] of [
    ['effect', action.effect],
    ['resource', action.resource],
  ] as const) {
    if (!template) continue;
    out.push(...checkTemplate(what, template, action, entry, params, declared, declaredHere));
  }
  return out;
}

/** Where the action reads an argument (a `when`, a template, a `data:` label), by name: the first such place. */
function readsOf(action: PolicyAction): Map<string, { loc: SourceLocation; path: string }> {
  const out = new Map<string, { loc: SourceLocation; path: string }>();
  const add = (arg: string, loc: SourceLocation, path: string) => {
    if (!out.has(arg)) out.set(arg, { loc, path });
  };
  for (const rule of action.rules) for (const c of rule.when) add(c.arg, c.loc, `actions.${action.id}.rules[${rule.index}].when.${c.key}`);
  for (const [what, template] of [
    ['effect', action.effect],
    ['resource', action.resource],
  ] as const) {
    for (const part of template?.parts ?? []) if (part.kind === 'arg') add(part.arg, template!.loc, `actions.${action.id}.${what}`);
  }
  for (const [name] of action.data ?? []) add(name, action.loc, `actions.${action.id}.data.${name}`);
  return out;
}

/**
 * A parameter the policy reads whose schema step cannot be known statically (`.transform()`, a
 * computed `.default()`): the policy decides on what the body gets, and generate cannot check the
 * reading against it. Refused there only; the tool is left unprotected, the others are not.
 */
function transformingParameter(p: ToolParameter, entry: FunctionTool, read: { loc: SourceLocation; path: string }): Diagnostic {
  return {
    severity: 'error',
    code: 'schema-transforms-input',
    ...at(p.loc),
    message: `\`${p.name}\` of ${toolLabel(entry)} uses ${p.transforms}, whose result cannot be known statically, and \`${read.path}\` reads it: the policy decides on the value the body gets, which generate cannot check`,
    hint: `give ${p.transforms} a literal (\`.default('medium')\`), validate instead of transforming (\`.regex(/^[a-z]+$/)\`) and transform inside the body, or stop reading \`${p.name}\` in the policy`,
    related: { ...at(read.loc), message: 'read here' },
  };
}

/** A literal float filled in (`.default(0.5)`): CTRLRun refuses a float argument, so every call it fills is refused. */
function floatFill(p: ToolParameter, entry: FunctionTool): Diagnostic {
  return {
    severity: 'error',
    code: 'schema-default-float',
    ...at(p.loc),
    message: `\`${p.name}\` of ${toolLabel(entry)} fills in a float with ${p.floatFill}: the policy decides on what the body gets, and a float argument is refused (CTRLRun), so every call that leaves \`${p.name}\` out would be refused`,
    hint: 'fill in an integer (count the smallest unit: cents, basis points), a string or a boolean',
    related: { ...at(entry.loc), message: `mapped to \`${entry.action}\` here` },
  };
}

/**
 * A computed fill-in (`.default(() => new Date().toISOString())`) on an action that can pause: the
 * value is computed again when the approved call resumes; a different one (a clock, a random id)
 * makes the approval not match (ApprovalMismatch), the call does not run.
 */
function computedFill(p: ToolParameter, entry: FunctionTool): Diagnostic {
  return {
    severity: 'warning',
    code: 'schema-computed-default',
    ...at(p.loc),
    message: `\`${p.name}\` of ${toolLabel(entry)} is filled in by ${p.transforms}, computed for each call: a call the policy pauses is approved as it was computed then, and when it resumes a different value makes the approval not match (ApprovalMismatch)`,
    hint: "give it a literal (`.default('medium')`), or compute the value inside the body",
    related: { ...at(entry.loc), message: `mapped to \`${entry.action}\` here` },
  };
}

function checkTemplate(
  what: 'effect' | 'resource',
  template: Template,
  action: PolicyAction,
  entry: FunctionTool,
  params: Map<string, ToolParameter>,
  declared: string[],
  declaredHere: Diagnostic['related'],
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  const path = `actions.${action.id}.${what}`;
  for (const part of template.parts) {
    if (part.kind !== 'arg' || seen.has(part.arg)) continue;
    seen.add(part.arg);
    const p = params.get(part.arg);
    if (!p) {
      out.push({
        severity: 'error',
        code: 'template-unknown-argument',
        ...at(template.loc),
        path,
        message: `the ${what} template's placeholder \`{${part.arg}}\` is not an argument of ${toolLabel(entry)}`,
        hint: suggestion(part.arg, declared),
        related: declaredHere,
      });
      continue;
    }
    if (p.type === 'unknown') {
      out.push(unknownType(p, entry, template.loc, path));
      continue;
    }
    const reasons: string[] = [];
    if (p.type !== 'string' && p.type !== 'enum' && p.type !== 'integer') reasons.push(`it is ${describe(p)}`);
    if (!p.required) reasons.push('it is optional');
    if (p.nullable) reasons.push('it may be null');
    if (reasons.length > 0) {
      out.push({
        severity: 'error',
        code: 'template-argument',
        ...at(template.loc),
        path,
        message: `the ${what} template's placeholder \`{${part.arg}}\` must be a required string or integer argument, but ${reasons.join(' and ')}`,
        hint: 'a placeholder that does not resolve to a non-empty string or an integer refuses the call; make the argument required (no .optional()/.nullable(); a literal .default() is fine) and a string or an integer',
        related: {
          ...at(p.loc),
          message: `${toolLabel(entry)} declares \`${p.name}\` as ${describe(p)}${p.required ? '' : ', optional'}${p.nullable ? ', nullable' : ''}`,
        },
      });
    }
  }
  return out;
}

/** Why `generate` refuses this condition on this parameter (a comparison of a non-integer, a value of another type or outside the enum), or undefined. */
export function conditionProblem(
  c: Condition,
  p: Pick<ToolParameter, 'name' | 'type' | 'enumValues'>,
): { code: string; message: string; hint: string } | undefined {
  if (c.op === 'lt' || c.op === 'lte' || c.op === 'gt' || c.op === 'gte') {
    if (p.type === 'integer') return undefined;
    return {
      code: 'non-integer-argument',
      message: `\`${c.op}\` compares integers, but \`${p.name}\` is ${describe(p)}`,
      hint:
        p.type === 'number'
          ? "declare it z.number().int() (JSON schema: `type: 'integer'`): a fractional value would never match"
          : `compare ${p.type === 'enum' ? 'an enum' : `a ${p.type}`} with eq, neq or in`,
    };
  }
  const values: Scalar[] = c.op === 'in' ? (c.value as Scalar[]) : [c.value as Scalar];
  for (const value of values) {
    const problem = valueProblem(value, p);
    if (problem) {
      return {
        code: 'value-type-mismatch',
        message: `${c.op === 'in' ? 'the list holds ' : ''}${JSON.stringify(value)}, ${problem}`,
        hint: "a value of another type never equals the argument; write the value with the argument's type",
      };
    }
  }
  return undefined;
}

function valueProblem(value: Scalar, p: Pick<ToolParameter, 'name' | 'type' | 'enumValues'>): string | undefined {
  const valueType = typeof value === 'number' ? 'integer' : typeof value;
  if (p.type === 'enum') {
    if (typeof value !== 'string') return `${article(valueType)}, but \`${p.name}\` is ${describe(p)}`;
    if (!(p.enumValues ?? []).includes(value)) return `which is not one of the values of \`${p.name}\` (${(p.enumValues ?? []).join(', ')})`;
    return undefined;
  }
  if (valueType === p.type) return undefined;
  return `${article(valueType)}, but \`${p.name}\` is ${describe(p)}`;
}

function unknownType(p: ToolParameter, entry: FunctionTool, loc: SourceLocation, path: string): Diagnostic {
  return {
    severity: 'warning',
    code: 'argument-type-unreadable',
    ...at(loc),
    path,
    message: `the type of \`${p.name}\` of ${toolLabel(entry)} cannot be read statically${p.note ? ` (${p.note})` : ''}; this use is not checked`,
    hint: 'declare it as z.string(), z.number().int(), z.boolean() or z.enum([...]) (or the JSON-schema equivalent)',
    related: { ...at(p.loc), message: `\`${p.name}\` is declared here` },
  };
}

function article(type: string): string {
  return type === 'integer' ? 'an integer' : `a ${type}`;
}

function describe(p: Pick<ToolParameter, 'type' | 'enumValues'>): string {
  switch (p.type) {
    case 'integer':
      return 'an integer';
    case 'number':
      return 'a number that may be fractional';
    case 'enum':
      return `an enum of ${(p.enumValues ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unknown':
      return 'a type that cannot be read statically';
    default:
      return `a ${p.type}`;
  }
}

function suggestion(word: string, candidates: string[]): string {
  if (candidates.length === 0) return 'the tool declares no parameters';
  const close = nearest(word, candidates);
  return close !== undefined ? `did you mean \`${close}\`?` : `its arguments are ${candidates.map((c) => `\`${c}\``).join(', ')}`;
}

/**
 * CTRLRun's TLS pins (`upstream.tls_cert_sha256`, `tls_cert_file`) compare the leaf certificate of
 * a connection the guard itself observed. ctrlrun-gen observes it only for an MCP server over HTTP
 * whose fetch is the generated module's `upstreamFetch`; a function tool's body or OpenAI's hosted
 * MCP opens its own connection, so a pinned action mapped there could never run (CTRLRun refuses
 * every call `upstream_unverified`): the mapping is refused here, by name.
 */
function tlsPinProblems(policy: Policy, manifest: Manifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const entry of manifest.tools) {
    if (entry.kind === 'mcp') continue;
    const action = policy.actions[entry.action];
    const pin = action?.upstream;
    if (!action || !(pin?.tlsCertSha256?.length || pin?.tlsCertPems?.length)) continue;
    const door =
      entry.kind === 'function'
        ? `function tool \`${entry.tool}\``
        : entry.kind === 'computed'
          ? `${toolLabel(entry)}`
          : entry.kind === 'sandbox'
            ? `sandbox tool \`${entry.tool}\``
            : entry.kind === 'handoff'
              ? `handoff to \`${entry.to}\``
              : `hosted MCP server \`${entry.serverLabel}\``;
    const opener = entry.kind === 'hosted_mcp' ? 'OpenAI runs it and opens the connection' : 'its body opens its own connections';
    out.push({
      severity: 'error',
      code: 'tls-pin-unobservable',
      ...at(entry.loc),
      message: `the ${door} is mapped to \`${entry.action}\`, whose \`upstream\` pins a TLS certificate; ${opener}, so ctrlrun-gen never sees the certificate and every call would be refused \`upstream_unverified\``,
      hint: 'expose the upstream as an MCP server over HTTP (MCPServerStreamableHttp or MCPServerSSE) with `fetch: upstreamFetch(<server name>)` from the generated module and map its tool with `mcp:`, or remove the TLS pins from the action',
      related: { ...at(action.loc), message: `the action \`${entry.action}\` and its pins` },
    });
  }
  return out;
}

function at(loc: SourceLocation): { file: string; line: number; column: number } {
  return { file: loc.file, line: loc.line, column: loc.column };
}

function dedupe(list: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const key = JSON.stringify([d.severity, d.file, d.line, d.column, d.message, d.related]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    byCodeUnit(a.file, b.file) ||
    a.line - b.line ||
    a.column - b.column ||
    byCodeUnit(a.message, b.message) ||
    byCodeUnit(a.related?.file ?? '', b.related?.file ?? '') ||
    (a.related?.line ?? 0) - (b.related?.line ?? 0)
  );
}
