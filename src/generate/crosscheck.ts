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
import { doorProblems, sandboxToolHint } from './crosscheck-doors.js';

type FunctionTool = Extract<ManifestTool, { kind: 'function' }>;

export function crossCheck(policy: Policy, manifest: Manifest, declarations: ReadonlyMap<string, ToolDeclaration[]>): Diagnostic[] {
  const out: Diagnostic[] = [...tlsPinProblems(policy, manifest), ...doorProblems(policy, manifest, declarations, checkDeclaration)];
  for (const entry of manifest.tools) {
    if (entry.kind !== 'function') continue;
    const action = policy.actions[entry.action];
    if (!action) continue; // the loader reports an action missing from the policy
    const found = declarations.get(entry.tool) ?? [];
    if (found.length === 0) {
      out.push({
        severity: 'error',
        code: 'tool-not-found',
        ...at(entry.loc),
        message: `tool \`${entry.tool}\` is mapped to \`${entry.action}\`, but no \`tool({ name: '${entry.tool}' })\` call was found in the repo`,
        hint:
          sandboxToolHint(entry.tool) ?? `the tool()'s \`name\` must be ${RESOLVABLE_NAMES}, with exactly this value; fix the spelling or remove the mapping`,
        related: { ...at(action.loc), message: `the action \`${entry.action}\` it maps to` },
      });
      continue;
    }
    for (const declaration of found) out.push(...checkDeclaration(action, entry, declaration));
  }
  return dedupe(out).sort(compareDiagnostics);
}

function checkDeclaration(action: PolicyAction, entry: FunctionTool, declaration: ToolDeclaration): Diagnostic[] {
  const out: Diagnostic[] = [];
  const result = declaration.parameters;
  if (!result.readable) {
    out.push({
      severity: 'warning',
      code: 'parameters-unreadable',
      ...at(result.loc),
      message: `the parameters of tool \`${entry.tool}\` cannot be read statically (${result.reason}); the policy's arguments for \`${entry.action}\` are not checked against this declaration`,
      hint: 'declare them in this file as z.object({...}) or a JSON-schema object literal (or a const holding one)',
      related: { ...at(entry.loc), message: `mapped to \`${entry.action}\` here` },
    });
    return out;
  }
  for (const p of result.parameters) if (p.transforms) out.push(transformingParameter(p, entry));
  const params = new Map(result.parameters.map((p) => [p.name, p]));
  const declared = result.parameters.map((p) => p.name);
  const declaredHere: Diagnostic['related'] = {
    ...at(result.loc),
    message: `tool \`${entry.tool}\` declares its parameters here (${declared.length === 0 ? 'none' : declared.join(', ')})`,
  };

  // `data:` labels arguments; a label on an argument the tool does not have never enters `data_scope`
  for (const [name] of action.data ?? []) {
    if (params.has(name)) continue;
    out.push({
      severity: 'error',
      code: 'unknown-argument',
      ...at(action.loc),
      path: `actions.${action.id}.data.${name}`,
      message: `\`data\` labels the argument \`${name}\`, which tool \`${entry.tool}\` does not have: its label would never enter \`data_scope\``,
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
          message: `\`${c.key}\` tests the argument \`${c.arg}\`, which tool \`${entry.tool}\` does not have`,
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
          related: { ...at(p.loc), message: `tool \`${entry.tool}\` declares \`${p.name}\` as ${describe(p)}` },
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

/**
 * A parameter whose schema changes the value (`.trim()`, `.default()`, `z.coerce`…): the policy
 * decides, keys the effect and binds the approval on what the model sent, the body would get
 * another value (`"Mallory "` passes a deny on `mallory`). Refused; the runtime refuses such a
 * call too, whatever the generator saw.
 */
function transformingParameter(p: ToolParameter, entry: FunctionTool): Diagnostic {
  return {
    severity: 'error',
    code: 'schema-transforms-input',
    ...at(p.loc),
    message: `\`${p.name}\` of tool \`${entry.tool}\` uses ${p.transforms}, which changes the value the body receives: the policy would decide on what the model sent and the body get something else`,
    hint: `remove ${p.transforms} and normalise inside the tool's body (after the decision), or validate instead of transforming (e.g. .regex(/^[a-z]+$/) for lower case)`,
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
        message: `the ${what} template's placeholder \`{${part.arg}}\` is not an argument of tool \`${entry.tool}\``,
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
        hint: 'a placeholder that does not resolve to a non-empty string or an integer refuses the call; make the argument required (no .optional()/.default()/.nullable()) and a string or an integer',
        related: {
          ...at(p.loc),
          message: `tool \`${entry.tool}\` declares \`${p.name}\` as ${describe(p)}${p.required ? '' : ', optional'}${p.nullable ? ', nullable' : ''}`,
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
    message: `the type of \`${p.name}\` of tool \`${entry.tool}\` cannot be read statically${p.note ? ` (${p.note})` : ''}; this use is not checked`,
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
