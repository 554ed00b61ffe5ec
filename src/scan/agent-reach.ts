import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';
import { unwrapValue } from './local-values.js';
import type { AgentReach } from './types.js';

/**
 * What tools an agent given to `run()` reaches, as far as this file shows (issue 21, loop finding
 * 7): `run-without-context` names only runs that can reach a protected tool. Followed: `new
 * Agent({ tools, handoffs })` written in place or held by a variable of this file, its tools'
 * `tool()` (literal name), generated `protectedTool()` calls, `x.asTool()` of such agents and
 * handoffs to them. Anything else (an imported tool or agent, a factory, a spread, MCP servers):
 * `unknown`, and the run stays reported.
 */
export interface ReachContext {
  sdkMember: (expr: ts.Expression) => string | undefined;
  isProtectedCallee: (callee: ts.Expression) => boolean;
  initializerOf: (name: string) => ts.Expression | undefined;
  /** The generated module's door a callee names (`protectHostedMcp`), if any. */
  doorOf?: (callee: ts.Expression) => string | undefined;
}

const AGENTS = new Set(['Agent', 'RealtimeAgent', 'SandboxAgent']);
const UNKNOWN: AgentReach = { kind: 'unknown' };

export function agentReach(expr: ts.Expression, ctx: ReachContext): AgentReach {
  const acc: Acc = { protectedCall: false, names: new Set<string>(), hostedMcp: false };
  const ok = agentInto(expr, ctx, acc, 0, new Set());
  const hosted = acc.hostedMcp ? { hostedMcp: true } : {};
  return ok ? { kind: 'tools', protectedCall: acc.protectedCall, names: [...acc.names], ...hosted } : { ...UNKNOWN, ...hosted };
}

interface Acc {
  protectedCall: boolean;
  names: Set<string>;
  /** A `protectHostedMcp` tool was seen (kept even when the rest is unknown). */
  hostedMcp: boolean;
}

/** Follows a variable of this file to its initializer (depth- and cycle-bounded). */
function follow(expr: ts.Expression, ctx: ReachContext, seen: Set<string>): ts.Expression | undefined {
  let e = unwrapValue(expr);
  for (let i = 0; i < 4 && typescript.isIdentifier(e); i++) {
    if (seen.has(e.text)) return undefined;
    seen.add(e.text);
    const init = ctx.initializerOf(e.text);
    if (!init) return undefined;
    e = unwrapValue(init);
  }
  return e;
}

function agentInto(expr: ts.Expression, ctx: ReachContext, acc: Acc, depth: number, seen: Set<string>): boolean {
  if (depth > 6) return false;
  const e = follow(expr, ctx, seen);
  const member = e && typescript.isNewExpression(e) ? (ctx.sdkMember(e.expression) ?? '') : '';
  if (!e || !typescript.isNewExpression(e) || !AGENTS.has(member)) return false;
  // a SandboxAgent's capabilities give the model tools the policy decides (protectSandboxAgent): doors a principal opens
  if (member === 'SandboxAgent') acc.protectedCall = true;
  const opts = e.arguments?.[0] && unwrapValue(e.arguments[0]);
  if (!opts || !typescript.isObjectLiteralExpression(opts)) return false;
  for (const p of opts.properties) {
    if (typescript.isSpreadAssignment(p)) return false;
    const key = p.name && (typescript.isIdentifier(p.name) || typescript.isStringLiteral(p.name)) ? p.name.text : undefined;
    if (key === 'mcpServers') return false;
    if (key !== 'tools' && key !== 'handoffs') continue;
    if (!typescript.isPropertyAssignment(p)) return false;
    const list = unwrapValue(p.initializer);
    if (!typescript.isArrayLiteralExpression(list)) return false;
    for (const el of list.elements) {
      if (typescript.isSpreadElement(el)) return false;
      const fine = key === 'tools' ? toolInto(el, ctx, acc, depth, seen) : agentInto(el, ctx, acc, depth + 1, seen);
      if (!fine) return false;
    }
  }
  return true;
}

function toolInto(expr: ts.Expression, ctx: ReachContext, acc: Acc, depth: number, seen: Set<string>): boolean {
  const e = follow(expr, ctx, seen);
  if (!e || !typescript.isCallExpression(e)) return false;
  if (ctx.isProtectedCallee(e.expression)) {
    acc.protectedCall = true;
    return true;
  }
  if (ctx.doorOf?.(e.expression) === 'protectHostedMcp') {
    acc.protectedCall = true;
    acc.hostedMcp = true;
    return true;
  }
  const callee = unwrapValue(e.expression);
  if (typescript.isPropertyAccessExpression(callee) && callee.name.text === 'asTool') {
    // the agent tool is itself a tool the manifest may map (the codemod protects it), whatever the agent's own tools
    const toolName = literalOption(e, 'toolName');
    if (toolName !== undefined) acc.names.add(toolName);
    return agentInto(callee.expression, ctx, acc, depth + 1, seen);
  }
  if (ctx.sdkMember(callee) !== 'tool') return false;
  const name = literalOption(e, 'name');
  if (name === undefined) return false;
  acc.names.add(name);
  return true;
}

/** A string literal option of a call's first argument (`tool({ name: '…' })`, `x.asTool({ toolName: '…' })`). */
function literalOption(call: ts.CallExpression, key: string): string | undefined {
  const opts = call.arguments[0] && unwrapValue(call.arguments[0]);
  const prop =
    opts && typescript.isObjectLiteralExpression(opts)
      ? opts.properties.find((q) => q.name && typescript.isIdentifier(q.name) && q.name.text === key)
      : undefined;
  if (!prop || !typescript.isPropertyAssignment(prop)) return undefined;
  const value = unwrapValue(prop.initializer);
  return typescript.isStringLiteral(value) || typescript.isNoSubstitutionTemplateLiteral(value) ? value.text : undefined;
}
