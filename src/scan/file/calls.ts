import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { holdsDoor, isSdkModule, isToolFactory, moduleValue, requiredModule } from '../imports.js';
import { spanOf } from '../parse.js';
import { opaqueModuleLoad } from '../module-loads.js';
import { identityReadOf, runCallOf } from '../runs.js';
import { approvalHandlerOf } from '../realtime-sessions.js';
import {
  containerAt,
  firstElement,
  isReflectApply,
  isStringLike,
  neverToolNamesOf,
  optionsOf,
  propertyName,
  spreadAfter,
  skipWrappers,
  toFunctionToolName,
} from '../syntax.js';
import type { FileScan, SdkToolCall } from '../types.js';
import { agentNameOf } from './agents.js';
import {
  constObjectLiteral,
  doorOf,
  isProtectedToolCallee,
  opaque,
  guardKey,
  resolve,
  varKey,
  type FileContext,
  type ResolvedMember,
  type VarKey,
} from './context.js';
import { onMcpServersDefine } from './mcp-lists.js';
import { onMethodCall } from './methods.js';
import { followValue } from './escapes.js';
import { onHandoffCall, onProtectedHandoff } from './handoffs.js';
import { resolveName } from './names.js';
import { givesModelSomething } from '../sdk-surface.js';
import { declarationAt, guardedLetAtEveryRead } from '../local-values.js';
import { guardRunsWith } from './guard-runs.js';

// Calls: module loads, the generated module's doors, `protectedTool`, the SDK's tool factories
// (directly or through `call`/`apply`/`Reflect.apply`), then methods of agents and runs.

export function onCall(cx: FileContext, node: ts.CallExpression): void {
  const ran = runCallOf(node, cx.runScan);
  if (ran) {
    cx.scan.runCalls!.push(ran);
    // what the agent reaches is read once the whole file is known (src/scan/reach/)
    cx.pendingRuns.push({ run: ran, agent: node.arguments[0]! });
  }
  const identity = identityReadOf(node, cx.runScan);
  if (identity) cx.scan.identityReads!.push(identity);
  const handler = approvalHandlerOf(node, cx.runScan);
  if (handler) cx.scan.realtimeApprovalHandlers!.push(handler);
  if (onModuleLoad(cx, node)) return;
  const door = doorOf(cx, node.expression);
  if (door !== undefined) return onGeneratedDoorCall(cx, node, door);
  if (isProtectedToolCallee(cx, node.expression)) return onProtectedToolCall(cx, node);
  if (onSdkCall(cx, node)) return;
  onMcpServersDefine(cx, node);
  onMethodCall(cx, node);
}

/** `require`, `import()` and other module loads: true when the call is one (nothing more to read). */
function onModuleLoad(cx: FileContext, node: ts.CallExpression): boolean {
  const load = opaqueModuleLoad(node, cx.moduleLoads);
  if (load) {
    cx.scan.importsSdk = true;
    opaque(cx, load.node, load.what, load.reason);
    return true;
  }
  const req = requiredModule(node);
  const required = req !== undefined ? moduleValue(req, cx.fileAbs, cx.links) : undefined;
  if (required) {
    cx.scan.importsSdk = true;
    // `require('@openai/agents').tool` is read like `sdk.tool`, wherever it ends up
    if (required.kind === 'module' && holdsDoor(required)) followValue(cx, node, { kind: 'module', value: required }, req!);
  }
  if (node.expression.kind !== typescript.SyntaxKind.ImportKeyword) return false;
  const arg = node.arguments[0];
  const spec = arg && isStringLike(arg) ? arg.text : undefined;
  const v = spec !== undefined ? moduleValue(spec, cx.fileAbs, cx.links) : undefined;
  // A computed specifier could be the SDK: nothing can be said; not reported.
  if (!v) return true;
  cx.scan.importsSdk = true;
  // its specifier may pin the SDK's version (`import('npm:@openai/agents@0.19.0')`): sdk-version-untested reads it
  cx.scan.dynamicImports ??= [];
  cx.scan.dynamicImports.push({ module: spec!, span: spanOf(node, cx.sf) });
  // `await import('m')` is followed; anything else (`.then(...)`, a stored promise) is not.
  const { ancestors } = cx;
  let up: ts.Node | undefined = ancestors[ancestors.length - 1];
  for (
    let i = ancestors.length - 1;
    up && (typescript.isParenthesizedExpression(up) || typescript.isAsExpression(up) || typescript.isNonNullExpression(up));
    i--
  )
    up = ancestors[i - 1];
  if (!holdsDoor(v)) return true;
  if (!(up && typescript.isAwaitExpression(up)))
    opaque(cx, node, spec!, 'the dynamic import is not awaited where it is made, so check cannot follow the module it loads');
  else if (v.kind === 'module') followValue(cx, node, { kind: 'module', value: v }, spec!);
  return true;
}

/** The SDK's default tool name of each local door of the generated module. */
const LOCAL_DOOR_NAMES: Record<string, string | undefined> = {
  protectShellTool: 'shell',
  protectApplyPatchTool: 'apply_patch',
  protectComputerTool: 'computer_use_preview',
};

/** `protectMcpServer(s)`, `protectAgent(a)`, `protectShellTool(t, { name })`, `protectAgentTool(action, agent, options)`, … */
function onGeneratedDoorCall(cx: FileContext, node: ts.CallExpression, door: string): void {
  const callee = node.expression;
  const d: NonNullable<FileScan['generatedDoorCalls']>[number] = { kind: 'generated-door', span: spanOf(node, cx.sf), callee: spanOf(callee, cx.sf), door };
  const local = LOCAL_DOOR_NAMES[door];
  if (local !== undefined || door === 'protectAgentTool') {
    const options = optionsOf(node.arguments[local !== undefined ? 1 : 2], cx.sf);
    d.options = options;
    const written = (local !== undefined ? options.properties.name : options.properties.toolName)?.stringValue;
    const agentName = local === undefined && node.arguments[1] ? agentNameOf(cx, node.arguments[1]) : undefined;
    const name =
      written ?? (local !== undefined ? (options.properties.name ? undefined : local) : agentName !== undefined ? toFunctionToolName(agentName) : undefined);
    if (name !== undefined) d.toolName = name;
  }
  cx.scan.generatedDoorCalls!.push(d);
  if (door === 'protectHandoff') onProtectedHandoff(cx, node);
  const arg = node.arguments[door === 'protectAgentTool' ? 1 : 0];
  const a = arg ? skipWrappers(arg) : undefined;
  // protectAgent and protectSandboxAgent guard an agent in place (its servers, its capabilities)
  const guardsAgent = door === 'protectAgent' || door === 'protectSandboxAgent';
  if (a && (door === 'protectMcpServer' || guardsAgent)) {
    if (typescript.isIdentifier(a)) {
      const key = runsWithVariable(cx, node, a.text) ? (guardKey(cx, a.text) ?? letAgentKey(cx, a.text, guardsAgent)) : undefined;
      if (key !== undefined) (door === 'protectMcpServer' ? cx.guardedServerVars : cx.guardedAgentVars).add(key);
      if (key !== undefined && door === 'protectMcpServer' && !cx.serverGuardEnds.has(key)) cx.serverGuardEnds.set(key, node.end);
    } else if (guardsAgent) cx.guardedAgentNodes.add(a);
  }
}

/**
 * A `let` agent reassigned only with its own guard (`a = protectAgent(a)`) before every read of it
 * holds the guarded agent wherever it is read: its key, so the agent's doors count as guarded.
 * Anything else (another value, a read before the guard) files none (fails closed).
 */
function letAgentKey(cx: FileContext, name: string, guardsAgent: boolean): VarKey | undefined {
  const isGuard = (c: ts.CallExpression): boolean => AGENT_GUARDS.has(doorOf(cx, c.expression) ?? '');
  return guardsAgent && guardedLetAtEveryRead(name, cx.ancestors, isGuard, cx.hoisted) ? varKey(cx, name) : undefined;
}

const AGENT_GUARDS = new Set(['protectAgent', 'protectSandboxAgent']);

/** Whether a guard call runs whenever the variable `name` it guards exists (src/scan/file/guard-runs.ts). */
function runsWithVariable(cx: FileContext, call: ts.CallExpression, name: string): boolean {
  const d = declarationAt(name, cx.ancestors, cx.hoisted);
  return guardRunsWith(cx.ancestors, d ? d.depth : -1, d ? d.declaration.end : 0, call);
}

/** `protectedTool('<action>', { ... })` of the generated module. */
function onProtectedToolCall(cx: FileContext, node: ts.CallExpression): void {
  const first = node.arguments[0];
  const opts = optionsOf(node.arguments[1], cx.sf);
  const call: FileScan['protectedToolCalls'][number] = {
    kind: 'protected-tool',
    span: spanOf(node, cx.sf),
    callee: spanOf(node.expression, cx.sf),
    options: opts,
  };
  if (first && isStringLike(first)) {
    call.action = first.text;
    call.actionSpan = spanOf(first, cx.sf);
  }
  resolveName(cx, opts, call);
  if (call.name === undefined) {
    const container = containerAt(cx.sf, node.pos);
    if (container !== undefined) call.container = container;
  }
  cx.scan.protectedToolCalls.push(call);
}

interface SdkCallee {
  target: ResolvedMember;
  optionsArg: ts.Expression | undefined;
  indirect: SdkToolCall['indirect'];
}

/** The SDK export a call reaches, directly or through `f.call(thisArg, o)`, `f.apply(thisArg, [o])`, `Reflect.apply(f, thisArg, [o])`. */
function sdkCalleeOf(cx: FileContext, node: ts.CallExpression): SdkCallee | undefined {
  const c = skipWrappers(node.expression);
  if (isReflectApply(node)) {
    const target = node.arguments[0] ? resolve(cx, node.arguments[0]) : undefined;
    if (target) return { target, optionsArg: firstElement(node.arguments[2]), indirect: 'reflect' };
  } else if (typescript.isPropertyAccessExpression(c) && (c.name.text === 'call' || c.name.text === 'apply')) {
    const target = resolve(cx, c.expression);
    if (target) return { target, optionsArg: c.name.text === 'call' ? node.arguments[1] : firstElement(node.arguments[1]), indirect: c.name.text };
  }
  const target = resolve(cx, node.expression);
  return target ? { target, optionsArg: node.arguments[0], indirect: undefined } : undefined;
}

/** The arguments an indirect call passes on (`f.call(t, a, b)`: a, b; `f.apply(t, [a, b])`, `Reflect.apply(f, t, [a, b])`: the array's). */
function sdkArgumentsOf(node: ts.CallExpression, indirect: NonNullable<SdkToolCall['indirect']>): readonly ts.Expression[] {
  if (indirect === 'call') return node.arguments.slice(1);
  const list = skipWrappers(node.arguments[indirect === 'reflect' ? 2 : 1] ?? node.expression);
  return typescript.isArrayLiteralExpression(list) ? list.elements.filter((e): e is ts.Expression => !typescript.isSpreadElement(e)) : [];
}

/** A call of an SDK export: `tool`, `hostedMcpTool`, another tool factory, `handoff`, `setTracingDisabled`. True when it is one. */
function onSdkCall(cx: FileContext, node: ts.CallExpression): boolean {
  const found = sdkCalleeOf(cx, node);
  if (!found) return false;
  const { target: r, optionsArg, indirect } = found;
  const callee = node.expression;
  if (r.member === 'tool' && isToolFactory(r.module, 'tool')) {
    const options = optionsOf(optionsArg, cx.sf);
    const call: SdkToolCall = { kind: 'sdk-tool', span: spanOf(node, cx.sf), callee: spanOf(callee, cx.sf), binding: r.binding, options };
    if (!indirect) call.argumentsStart = node.arguments.pos;
    else call.indirect = indirect;
    if (node.typeArguments) call.hasTypeArguments = true;
    resolveName(cx, options, call);
    if (call.name === undefined) {
      const container = containerAt(cx.sf, node.pos);
      if (container !== undefined) call.container = container;
    }
    cx.scan.sdkToolCalls.push(call);
  } else if (r.member === 'hostedMcpTool' && isToolFactory(r.module, r.member)) {
    const options = optionsOf(optionsArg, cx.sf);
    const call: FileScan['hostedMcpCalls'][number] = { kind: 'hosted-mcp', span: spanOf(node, cx.sf), binding: r.binding, options };
    if (!indirect) call.callee = spanOf(callee, cx.sf);
    const label = (options.properties.serverLabel ?? options.properties.server_label)?.stringValue;
    if (label !== undefined) call.serverLabel = label;
    else cx.pendingHosted.push({ call, optionsArg });
    const never = neverToolNamesOf(optionsArg, cx.sf, (name) => constObjectLiteral(cx, name));
    if (never) call.neverToolNames = never;
    const later = spreadAfter(optionsArg, 'requireApproval', cx.sf);
    if (later) call.spreadAfterRequireApproval = later;
    cx.scan.hostedMcpCalls.push(call);
  } else if (r.member === 'handoff' && isSdkModule(r.module)) {
    onHandoffCall(cx, node, r, indirect ? sdkArgumentsOf(node, indirect) : node.arguments, indirect !== undefined);
  } else if (isToolFactory(r.module, r.member) || (isSdkModule(r.module) && givesModelSomething(r.member))) {
    const f: NonNullable<FileScan['sdkFactoryCalls']>[number] = {
      kind: 'sdk-factory',
      span: spanOf(node, cx.sf),
      factory: r.member,
      callee: spanOf(callee, cx.sf),
      binding: r.binding,
      options: optionsOf(optionsArg, cx.sf),
    };
    if (indirect) f.indirect = indirect;
    else {
      f.argumentsStart = node.arguments.pos;
      f.args = node.arguments.map((a) => spanOf(a, cx.sf));
    }
    cx.scan.sdkFactoryCalls!.push(f);
    const servers = indirect ? undefined : conversionServers(r.member, node, optionsArg);
    if (servers) cx.pendingConversions.push({ call: f, values: servers, ancestors: cx.ancestors.slice() });
  } else if (r.member === 'setTracingDisabled') {
    if (node.arguments[0]?.kind === typescript.SyntaxKind.TrueKeyword) cx.scan.disablesSensitiveTracing = true;
  }
  return true;
}

/**
 * The servers an SDK conversion of MCP tools is given: `getAllMcpTools({ mcpServers })` (or its
 * older positional form, the array first), `mcpToFunctionTool(tool, server)`.
 */
function conversionServers(member: string, node: ts.CallExpression, optionsArg: ts.Expression | undefined): ts.Expression[] | undefined {
  if (member === 'mcpToFunctionTool') return node.arguments[1] ? [node.arguments[1]] : [];
  if (member !== 'getAllMcpTools' || !optionsArg) return undefined;
  const first = skipWrappers(optionsArg);
  if (!typescript.isObjectLiteralExpression(first)) return [optionsArg];
  for (const p of first.properties) {
    if (typescript.isPropertyAssignment(p) && propertyName(p.name) === 'mcpServers') return [p.initializer];
    if (typescript.isShorthandPropertyAssignment(p) && p.name.text === 'mcpServers') return [p.name];
  }
  return [];
}
