/**
 * The declarations of the doors a manifest maps by something other than a tool name: handoffs
 * (`handoff: { to }`, found where the code hands off to an agent of that literal name) and
 * SandboxAgent capability tools (`sandbox: { tool }`, checked against the SandboxAgents the code
 * makes). Keyed like function tools in the generator's declarations map (function-tools.ts).
 */
import type { ts } from 'ts-morph';
import { handoffDeclaration, SANDBOX_DECLARATION } from '../manifest/function-tools.js';
import type { SourceLocation } from '../policy/types.js';
import type { FileScan } from '../scan/types.js';
import { locationOf, readToolParameters, type ReadParametersResult, type SourceText, type ToolParameter } from './params.js';

/** A door declaration: where it is, and (a sandbox) the agent's name and the tools its capabilities give, when known. */
export interface DoorDeclarationFacts {
  sandbox?: { agent?: string; tools?: string[] };
}

/** The handoff and sandbox declarations of `names` in one scanned file. */
export function doorDeclarationsIn(
  file: string,
  source: SourceText & { sourceFile: ts.SourceFile },
  scan: FileScan,
  names: ReadonlySet<string>,
): Array<{ name: string; loc: SourceLocation; start: number; parameters: ReadParametersResult } & DoorDeclarationFacts> {
  const out: Array<{ name: string; loc: SourceLocation; start: number; parameters: ReadParametersResult } & DoorDeclarationFacts> = [];
  for (const h of scan.handoffs ?? []) {
    if (h.to === undefined || !names.has(handoffDeclaration(h.to))) continue;
    const loc = locationOf(source.sourceFile, file, (h.callee ?? h.span).start);
    // the policy's `when` reads the handoff's input: its `inputType`, read as a tool's `parameters`
    const input = h.options?.properties.inputType;
    const parameters: ReadParametersResult = input
      ? readToolParameters(source, { span: h.span, options: { ...h.options!, properties: { parameters: input } } })
      : h.inputType === 'unknown'
        ? { readable: false, reason: 'its config is not an object literal check can read', loc }
        : { readable: true, form: 'json-schema', parameters: [], loc };
    out.push({ name: handoffDeclaration(h.to), loc, start: h.span.start, parameters });
  }
  if (names.has(SANDBOX_DECLARATION)) {
    for (const s of scan.sandboxAgents ?? []) {
      const loc = locationOf(source.sourceFile, file, s.span.start);
      const sandbox = { ...(s.name !== undefined ? { agent: s.name } : {}), ...(s.tools ? { tools: s.tools } : {}) };
      out.push({ name: SANDBOX_DECLARATION, loc, start: s.span.start, parameters: { readable: true, form: 'json-schema', parameters: [], loc }, sandbox });
    }
  }
  return out;
}

/** Whether a scanned file holds a door declaration of `names`. */
export function mayDeclareDoor(scan: FileScan, names: ReadonlySet<string>): boolean {
  return (
    (names.has(SANDBOX_DECLARATION) && (scan.sandboxAgents ?? []).length > 0) ||
    (scan.handoffs ?? []).some((h) => h.to !== undefined && names.has(handoffDeclaration(h.to)))
  );
}

/**
 * What the policy's `when` sees of each capability tool of the SDK (0.20): the arguments the model
 * sends, as the tool's schema declares them (strict mode: every one sent, optional ones as null);
 * `apply_patch` as the local apply_patch door presents it.
 */
export function sandboxToolParameters(tool: string, loc: SourceLocation): ToolParameter[] | undefined {
  const p = (name: string, type: ToolParameter['type'], required: boolean, extra: Partial<ToolParameter> = {}): ToolParameter => ({
    name,
    type,
    required,
    nullable: false,
    loc,
    ...extra,
  });
  switch (tool) {
    case 'exec_command':
      return [
        p('cmd', 'string', true),
        p('workdir', 'string', false, { nullable: true }),
        p('shell', 'string', false, { nullable: true }),
        p('login', 'boolean', true),
        p('tty', 'boolean', true),
        p('yield_time_ms', 'integer', true),
        p('max_output_tokens', 'integer', false, { nullable: true }),
      ];
    case 'write_stdin':
      return [
        p('session_id', 'integer', true),
        p('chars', 'string', true),
        p('yield_time_ms', 'integer', true),
        p('max_output_tokens', 'integer', false, { nullable: true }),
      ];
    case 'view_image':
      return [p('path', 'string', true)];
    case 'load_skill':
      return [p('skill_name', 'string', true)];
    case 'apply_patch':
      return [
        p('operation', 'string', true, { note: 'create_file, update_file or delete_file (several joined by a newline)' }),
        p('path', 'string', true),
        p('diff', 'string', false),
        p('move_to', 'string', false),
      ];
    default:
      return undefined;
  }
}

/** The SDK's capability tool names (0.20), for hints. */
export const SANDBOX_TOOL_NAMES: readonly string[] = ['exec_command', 'write_stdin', 'view_image', 'apply_patch', 'load_skill'];
