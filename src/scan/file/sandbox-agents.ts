import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { spanOf } from '../parse.js';
import { optionsOf, propertyName, shortText, skipWrappers } from '../syntax.js';
import type { SandboxAgentSite, Span } from '../types.js';
import { constObjectLiteral, doorOf, ownerOf, resolve, type FileContext } from './context.js';
import { initializerInScope } from '../local-values.js';

// SandboxAgents (`@openai/agents/sandbox`): the tools their capabilities give the model, and
// whether the file guards them (protectSandboxAgent, protectAgent).

/** The tools each capability factory of the SDK gives the model (0.20), for a capability made without `configureTools`. */
export const CAPABILITY_TOOLS: Readonly<Record<string, readonly string[]>> = {
  shell: ['exec_command', 'write_stdin'],
  filesystem: ['view_image', 'apply_patch'],
  compaction: [],
  memory: [],
};

/** What `new SandboxAgent({ name })` gives the model when it lists no capabilities: `filesystem()`, `shell()`, `compaction()`. */
export const DEFAULT_SANDBOX_TOOLS: readonly string[] = [...(CAPABILITY_TOOLS.filesystem ?? []), ...(CAPABILITY_TOOLS.shell ?? [])];

type Tools = { tools: string[] } | { unknown: string };

/**
 * `new SandboxAgent(...)` (or `new X(...)` of a class of this file extending it): its site, settled once
 * the file's guarded agents are known. `changedBy` names a subclass that declares members (a
 * constructor, a field): what it gives the SandboxAgent is not what the call shows.
 */
export function onSandboxAgent(cx: FileContext, node: ts.NewExpression, changedBy?: string): void {
  let opts = node.arguments?.[0] ? skipWrappers(node.arguments[0]) : undefined;
  if (opts && typescript.isIdentifier(opts)) opts = constObjectLiteral(cx, opts.text) ?? opts;
  const site: SandboxAgentSite = { kind: 'sandbox-agent', span: spanOf(node, cx.sf), handApprovals: [], guarded: false };
  const options = optionsOf(opts, cx.sf);
  if (options.properties.name?.stringValue !== undefined) site.name = options.properties.name.stringValue;
  const found: Tools =
    changedBy !== undefined
      ? { unknown: `its class ${changedBy} declares members that may change its capabilities` }
      : opts && typescript.isObjectLiteralExpression(opts)
        ? capabilityTools(cx, opts, site.handApprovals)
        : { unknown: 'its options are not an object literal' };
  if ('tools' in found) site.tools = [...new Set(found.tools)];
  else site.toolsUnknown = found.unknown;
  site.guarded = guardedInPlace(cx, node);
  const owner = ownerOf(cx);
  cx.pendingSandboxAgents.push({ site, node, ...(owner !== undefined ? { agentVar: owner } : {}) });
}

/** The tools the `capabilities` of the options give the model. */
function capabilityTools(cx: FileContext, opts: ts.ObjectLiteralExpression, handApprovals: Span[]): Tools {
  let list: ts.Expression | undefined;
  for (const p of opts.properties) {
    if (typescript.isSpreadAssignment(p)) return { unknown: 'its options spread other properties in' };
    if (propertyName(p.name) !== 'capabilities') continue;
    if (!typescript.isPropertyAssignment(p)) return { unknown: 'its `capabilities` are not written in place' };
    list = skipWrappers(p.initializer);
  }
  if (list === undefined) return { tools: [...DEFAULT_SANDBOX_TOOLS] };
  if (typescript.isIdentifier(list)) {
    // the list the name is where the agent is made (not another function's `caps`); a `let` may be
    // given other capabilities later, a parameter any: their tools are unknown
    const found = initializerInScope(list.text, cx.ancestors, cx.hoisted);
    if (!found?.constant) return { unknown: 'its `capabilities` are not a `const` array check can read' };
    list = found.init;
  }
  list = skipWrappers(list);
  if (!typescript.isArrayLiteralExpression(list)) return { unknown: 'its `capabilities` are not an array literal' };
  const tools: string[] = [];
  let unknown: string | undefined;
  for (const el of list.elements) {
    const one = typescript.isSpreadElement(el) ? spreadTools(cx, el) : elementTools(cx, el, handApprovals);
    if ('unknown' in one) unknown ??= one.unknown;
    else tools.push(...one.tools);
  }
  return unknown !== undefined ? { unknown } : { tools };
}

/** `...Capabilities.default()`: the default capabilities. */
function spreadTools(cx: FileContext, el: ts.SpreadElement): Tools {
  return isDefaultCapabilities(cx, skipWrappers(el.expression))
    ? { tools: [...DEFAULT_SANDBOX_TOOLS] }
    : { unknown: 'a spread of capabilities check cannot read' };
}

function isDefaultCapabilities(cx: FileContext, e: ts.Expression): boolean {
  if (!typescript.isCallExpression(e)) return false;
  const callee = skipWrappers(e.expression);
  return typescript.isPropertyAccessExpression(callee) && callee.name.text === 'default' && resolve(cx, callee.expression)?.member === 'Capabilities';
}

/** One capability: a call of the SDK's `shell()`, `filesystem()`, `skills()`, `memory()`, `compaction()`; anything else is unknown. */
function elementTools(cx: FileContext, el: ts.Expression, handApprovals: Span[]): Tools {
  const e = skipWrappers(el);
  if (!typescript.isCallExpression(e)) return { unknown: `a capability check cannot read (${shortText(e.getText(cx.sf))})` };
  const factory = resolve(cx, e.expression);
  const sandboxFactory = factory && /^@openai\/agents(?:-core)?\/sandbox/.test(factory.module) ? factory.member : undefined;
  if (sandboxFactory === undefined) return { unknown: `a capability check cannot read (${shortText(e.getText(cx.sf))})` };
  const arg = e.arguments[0] ? skipWrappers(e.arguments[0]) : undefined;
  const opts = arg && typescript.isIdentifier(arg) ? (constObjectLiteral(cx, arg.text) ?? arg) : arg;
  const literal = opts === undefined || typescript.isObjectLiteralExpression(opts);
  if (sandboxFactory === 'skills') {
    if (!literal) return { unknown: 'skills() options check cannot read' };
    return { tools: opts && optionsOf(opts, cx.sf).properties.lazyFrom ? ['load_skill'] : [] };
  }
  const known = CAPABILITY_TOOLS[sandboxFactory];
  if (known === undefined) return { unknown: `a capability check cannot read (${shortText(e.getText(cx.sf))})` };
  if (!literal) return { unknown: `${sandboxFactory}() options check cannot read` };
  const configure = opts ? optionsOf(opts, cx.sf).properties.configureTools : undefined;
  if (configure) {
    // a hand-written gate on the SDK's tools: the guard decides every call instead
    if (/\bneedsApproval\b/.test(cx.sf.text.slice(configure.valueSpan.start, configure.valueSpan.end))) handApprovals.push(configure.span);
    return { unknown: `${sandboxFactory}({ configureTools }) may change the tools` };
  }
  return { tools: [...known] };
}

/** Whether the node being visited is guarded where it stands: the argument of protectSandboxAgent(...) / protectAgent(...). */
function guardedInPlace(cx: FileContext, node: ts.Node): boolean {
  let child: ts.Node = node;
  for (let i = cx.ancestors.length - 1; i >= 0; i--) {
    const p = cx.ancestors[i]!;
    if (typescript.isParenthesizedExpression(p) || typescript.isAsExpression(p) || typescript.isSatisfiesExpression(p) || typescript.isNonNullExpression(p)) {
      child = p;
      continue;
    }
    if (!typescript.isCallExpression(p) || p.arguments[0] !== child) return false;
    const door = doorOf(cx, p.expression);
    return door === 'protectSandboxAgent' || door === 'protectAgent';
  }
  return false;
}

/** The file's SandboxAgents, each with whether the file guards it. */
export function settleSandboxAgents(cx: FileContext): void {
  for (const { site, node, agentVar } of cx.pendingSandboxAgents) {
    site.guarded ||= cx.guardedAgentNodes.has(node) || (agentVar !== undefined && cx.guardedAgentVars.has(agentVar));
    cx.scan.sandboxAgents!.push(site);
  }
}
