import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { isAgentClass, isSdkModule } from '../imports.js';
import { containerAt, optionsOf, skipWrappers, toFunctionToolName } from '../syntax.js';
import { agentNameOf } from '../file/agents.js';
import { doorOf, isProtectedToolCallee, resolve } from '../file/context.js';
import { resolveName, type NameTarget } from '../file/names.js';
import type { DoorLeaf, ReachValue } from '../types.js';
import { functionValue, reachValueOf, type ReachContext } from './convert.js';
import { all, member, NONE, unknown } from './values.js';
import { AGENT_PARTS } from './parts.js';
import { stringValuesOf } from './strings.js';
import { MCP_CONVERSIONS, MCP_STATIC_CONVERSIONS } from './mcp-conversions.js';

/**
 * Calls and constructions as `ReachValue`s, one reader per door kind (issue 40, item 3): the
 * generated module's doors, the SDK's tool factories, agents and their parts, MCP servers, and the
 * array and object methods that pass values through. A new door kind adds a reader here.
 */

/**
 * Agent classes by how their doors are read: an Agent's options parts; a SandboxAgent also gives
 * the model its capabilities' tools (a shell, file edits by default), which the policy decides
 * (`protectSandboxAgent`, a `sandbox:` entry): a door a principal opens, besides its parts.
 */
const AGENT_CLASS_READERS: Record<string, (opts: ts.Expression | undefined, rc: ReachContext) => ReachValue> = {
  Agent: agentParts,
  RealtimeAgent: agentParts,
  SandboxAgent: (opts, rc) => all([door({ door: 'protected', via: 'SandboxAgent' }), agentParts(opts, rc)]),
};

/** SDK tools that run at OpenAI inside the model call, or only load other tools: no door of this process. */
const NOT_DOORS = new Set(['webSearchTool', 'fileSearchTool', 'codeInterpreterTool', 'imageGenerationTool', 'toolSearchTool', 'programmaticToolCallingTool']);
/** Local SDK tools, by their default SDK name (mapped as function tools by that name). */
const LOCAL_TOOLS: Record<string, string> = { shellTool: 'shell', applyPatchTool: 'apply_patch', computerTool: 'computer_use_preview' };
/** Methods that give back (part of) the receiver's elements. */
const PASS_THROUGH = new Set(['filter', 'slice', 'sort', 'reverse', 'toSorted', 'toReversed', 'at', 'find', 'findLast', 'values', 'flat', 'with']);
/** Methods whose callback's results become the elements. */
const MAPPING = new Set(['map', 'flatMap']);

/** The options' parts that reach doors: `member(options, 'tools')`, … (a spread base keeps its own). */
function agentParts(opts: ts.Expression | undefined, rc: ReachContext): ReachValue {
  if (!opts) return NONE;
  const o = reachValueOf(opts, rc);
  return all(AGENT_PARTS.map((k) => member(o, k)));
}

const door = (leaf: DoorLeaf): ReachValue => ({ k: 'door', leaf });

export function callValue(e: ts.CallExpression | ts.NewExpression, rc: ReachContext): ReachValue {
  const { cx } = rc;
  const args = e.arguments ?? [];
  if (typescript.isCallExpression(e)) {
    const generated = doorOf(cx, e.expression);
    if (generated !== undefined) return generatedDoor(generated, e, rc);
    if (isProtectedToolCallee(cx, e.expression)) return door({ door: 'protected', via: 'protectedTool' });
  }
  const sdk = resolve(cx, e.expression);
  if (sdk && isSdkModule(sdk.module)) return sdkCall(sdk.member, e, rc);
  const callee = skipWrappers(e.expression);
  if (typescript.isNewExpression(e)) return unknown(`\`new ${callee.getText(cx.sf).slice(0, 30)}()\` is not followed`);
  if (typescript.isPropertyAccessExpression(callee)) {
    const method = callee.name.text;
    // `Agent.create(options)`
    const owner = resolve(cx, callee.expression);
    if (owner && isSdkModule(owner.module) && method === 'create' && isAgentClass(owner.module, owner.member)) return agentOf(owner.member, args[0], rc);
    const statics = owner && isSdkModule(owner.module) ? MCP_STATIC_CONVERSIONS[owner.member]?.[method] : undefined;
    if (statics) return statics(args, rc);
    return methodValue(callee, method, e, rc);
  }
  return { k: 'call', of: reachValueOf(e.expression, rc) };
}

/** `x.asTool()`, `x.clone()`, array methods, `Object.values()`, … */
function methodValue(callee: ts.PropertyAccessExpression, method: string, e: ts.CallExpression, rc: ReachContext): ReachValue {
  const receiver = callee.expression;
  const args = e.arguments;
  const root = skipWrappers(receiver);
  if (typescript.isIdentifier(root) && (root.text === 'Object' || root.text === 'Array' || root.text === 'Promise')) {
    if (['values', 'entries', 'assign', 'freeze', 'from', 'of', 'all', 'allSettled', 'resolve', 'fromEntries'].includes(method))
      return all(args.map((a) => member(reachValueOf(a, rc), undefined)));
    if (method === 'keys' || method === 'isArray') return NONE;
  }
  if (method === 'asTool') {
    const name = literalOption(args[0], 'toolName', rc) ?? agentToolName(receiver, rc);
    return all([door(name !== undefined ? { door: 'tool', name } : { door: 'tool', site: siteOf(e, rc) }), reachValueOf(receiver, rc)]);
  }
  if (method === 'clone') return all([reachValueOf(receiver, rc), agentParts(args[0], rc)]);
  if (PASS_THROUGH.has(method)) return member(reachValueOf(receiver, rc), undefined);
  if (method === 'concat') return all([reachValueOf(receiver, rc), ...args.map((a) => reachValueOf(a, rc))]);
  if (MAPPING.has(method)) {
    const fn = args[0] && skipWrappers(args[0]);
    if (fn && (typescript.isArrowFunction(fn) || typescript.isFunctionExpression(fn))) {
      const f = functionValue(fn, rc);
      return f.k === 'fn' ? f.returns : f;
    }
    return { k: 'call', of: reachValueOf(args[0] ?? receiver, rc) };
  }
  // `runner.run(agent, …)`: what a run gives back holds the agents it ran (`result.lastAgent`)
  if (method === 'run' && args[0]) return all([reachValueOf(args[0], rc), { k: 'call', of: member(reachValueOf(receiver, rc), method) }]);
  return { k: 'call', of: member(reachValueOf(receiver, rc), method) };
}

function agentOf(cls: string, opts: ts.Expression | undefined, rc: ReachContext): ReachValue {
  const read = AGENT_CLASS_READERS[cls];
  return read ? read(opts, rc) : unknown(`\`${cls}\` is not read`);
}

/** A call or construction of an SDK export. */
function sdkCall(name: string, e: ts.CallExpression | ts.NewExpression, rc: ReachContext): ReachValue {
  const args = e.arguments ?? [];
  if (typescript.isNewExpression(e)) {
    if (AGENT_CLASS_READERS[name] !== undefined || name.endsWith('Agent')) return agentOf(name, args[0], rc);
    if (/^MCPServer/.test(name)) {
      const server = literalOption(args[0], 'name', rc);
      return door(server !== undefined ? { door: 'mcp', server } : { door: 'mcp' });
    }
    return unknown(`\`new ${name}()\` of the SDK is not read`);
  }
  if (name === 'tool') return door(functionToolLeaf(e as ts.CallExpression, rc));
  if (name === 'hostedMcpTool') {
    // the labels the file shows (a literal, a constant, the app's own helper's callers)
    const labels = args[0] ? (stringValuesOf(args[0], rc, ['serverLabel']) ?? stringValuesOf(args[0], rc, ['server_label'])) : undefined;
    return door(labels && labels.length > 0 ? { door: 'hosted_mcp', labels } : { door: 'hosted_mcp' });
  }
  if (NOT_DOORS.has(name)) return NONE;
  const mcp = MCP_CONVERSIONS[name];
  if (mcp) return mcp(args, rc);
  const local = LOCAL_TOOLS[name];
  if (local !== undefined) {
    const o = optionsOf(args[0], rc.cx.sf);
    // a shell with a hosted `environment` (no local `shell`) runs at OpenAI
    if (name === 'shellTool' && !o.hasSpread && o.properties.environment !== undefined && o.properties.shell === undefined) return NONE;
    const written = o.properties.name;
    if (!written) return door({ door: 'tool', name: local });
    return door(written.stringValue !== undefined ? { door: 'tool', name: written.stringValue } : { door: 'tool', site: siteOf(e, rc) });
  }
  if (name === 'handoff') return args[0] ? reachValueOf(args[0], rc) : NONE;
  // a run's result: its `lastAgent`/`currentAgent` is the agent run or one it handed off to
  if (name === 'run') return args[0] ? reachValueOf(args[0], rc) : NONE;
  // a group of tools the model searches (`toolNamespace({ name, tools })`)
  if (name === 'toolNamespace') return member(reachValueOf(args[0] ?? e, rc), 'tools');
  return unknown(`\`${name}()\` of the SDK is not read`);
}

/** The generated module's doors: protected, and the agent they wrap still reaches its own tools. */
function generatedDoor(name: string, e: ts.CallExpression, rc: ReachContext): ReachValue {
  const leaf = door({ door: 'protected', via: name });
  const wrapped = name === 'protectAgent' ? e.arguments[0] : name === 'protectAgentTool' ? e.arguments[1] : undefined;
  return wrapped ? all([leaf, reachValueOf(wrapped, rc)]) : leaf;
}

/** `tool({ name })`: by its name (a literal or a constant), else computed where the call is. */
function functionToolLeaf(e: ts.CallExpression, rc: ReachContext): DoorLeaf {
  const target: NameTarget = {};
  resolveName(rc.cx, optionsOf(e.arguments[0], rc.cx.sf), target);
  return target.name !== undefined ? { door: 'tool', name: target.name } : { door: 'tool', site: siteOf(e, rc) };
}

function agentToolName(receiver: ts.Expression, rc: ReachContext): string | undefined {
  const name = agentNameOf(rc.cx, receiver);
  return name !== undefined ? toFunctionToolName(name) : undefined;
}

function siteOf(e: ts.Node, rc: ReachContext): { file: string; line: number; container?: string } {
  const container = containerAt(rc.cx.sf, e.pos);
  return {
    file: rc.cx.scan.file,
    line: rc.cx.sf.getLineAndCharacterOfPosition(e.getStart(rc.cx.sf)).line + 1,
    ...(container !== undefined ? { container } : {}),
  };
}

function literalOption(arg: ts.Expression | undefined, key: string, rc: ReachContext): string | undefined {
  return optionsOf(arg, rc.cx.sf).properties[key]?.stringValue;
}
