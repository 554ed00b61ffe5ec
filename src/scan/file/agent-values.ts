import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { importedAs, isSdkModule, moduleValue } from '../imports.js';
import { declarationOf, valuesInScope } from '../local-values.js';
import { MAX_TREE_DEPTH } from '../parse.js';
import { propertyName, rootIdentifier, shortText, skipWrappers } from '../syntax.js';
import { agentClassOf, doorOf, returnsOf, type FileContext } from './context.js';

// What an expression is as an SDK agent, in three answers: an agent (with its options where they
// are written), provably something else (a literal, another library's value, a local object), or
// unknown. `asTool()` of an unknown receiver is reported (fail closed); a name is read only from an
// agent whose options the scan found in the scope they are written in.

export type AgentOf =
  /** `options`: the construction's options argument (`null` when none is written or several agents may be meant); `ancestors`: where its names are read. */
  | { kind: 'agent'; options: ts.Expression | null; ancestors: readonly ts.Node[] }
  | { kind: 'not' }
  /** `why` names the value and why the scan cannot follow it. */
  | { kind: 'unknown'; why: string };

const NOT: AgentOf = { kind: 'not' };
const unknown = (why: string): AgentOf => ({ kind: 'unknown', why });
const MAX_DEPTH = 8;

/**
 * What `expr` is as an agent, read where `ancestors` end (the walk's position; after the walk, the
 * position kept with the value; empty: the path to `expr` from the file is found).
 */
export function agentOf(cx: FileContext, expr: ts.Expression, ancestors: readonly ts.Node[], depth = 0): AgentOf {
  if (depth > MAX_DEPTH) return unknown(`\`${textOf(cx, expr)}\` is built too deep to follow`);
  const scope = ancestors.length > 0 ? ancestors : ancestorsTo(cx.sf, expr);
  const e = skipWrappers(expr);
  if (typescript.isAwaitExpression(e)) return agentOf(cx, e.expression, scope, depth + 1);
  if (isNoAgent(e)) return NOT;
  if (typescript.isNewExpression(e)) return newValue(cx, e, scope);
  if (typescript.isCallExpression(e)) return callValue(cx, e, scope, depth);
  if (typescript.isIdentifier(e)) return identifierValue(cx, e.text, scope, depth);
  if (typescript.isPropertyAccessExpression(e) || typescript.isElementAccessExpression(e)) return memberValue(cx, e, scope, depth);
  if (typescript.isConditionalExpression(e)) return either([agentOf(cx, e.whenTrue, scope, depth + 1), agentOf(cx, e.whenFalse, scope, depth + 1)]);
  if (typescript.isBinaryExpression(e) && isLogical(e.operatorToken.kind))
    return either([agentOf(cx, e.left, scope, depth + 1), agentOf(cx, e.right, scope, depth + 1)]);
  return unknown(`\`${textOf(cx, e)}\` is not followed`);
}

/**
 * One of several values: an agent when any is (its options only when it is the only value that may
 * be one: two agents, or an agent and an unknown value, have no one name); else unknown when any is.
 */
function either(values: readonly AgentOf[]): AgentOf {
  const agents = values.filter((v): v is Extract<AgentOf, { kind: 'agent' }> => v.kind === 'agent');
  const unknowns = values.filter((v) => v.kind === 'unknown');
  if (agents.length === 1 && unknowns.length === 0) return agents[0]!;
  if (agents.length > 0) return { kind: 'agent', options: null, ancestors: [] };
  return unknowns[0] ?? NOT;
}

/** Values that are no agent: literals, templates, object and array literals, functions, classes. */
function isNoAgent(e: ts.Expression): boolean {
  if (typescript.isIdentifier(e)) return e.text === 'undefined';
  return (
    typescript.isLiteralExpression(e) ||
    typescript.isTemplateExpression(e) ||
    typescript.isObjectLiteralExpression(e) ||
    typescript.isArrayLiteralExpression(e) ||
    typescript.isFunctionLike(e) ||
    typescript.isClassExpression(e) ||
    e.kind === typescript.SyntaxKind.TrueKeyword ||
    e.kind === typescript.SyntaxKind.FalseKeyword ||
    e.kind === typescript.SyntaxKind.NullKeyword ||
    typescript.isPrefixUnaryExpression(e) ||
    typescript.isTypeOfExpression(e) ||
    typescript.isVoidExpression(e)
  );
}

function isLogical(op: ts.SyntaxKind): boolean {
  return op === typescript.SyntaxKind.BarBarToken || op === typescript.SyntaxKind.QuestionQuestionToken || op === typescript.SyntaxKind.AmpersandAmpersandToken;
}

/** `new Agent(...)` (or a class of the file extending one); a RealtimeAgent has no `asTool`. */
function newValue(cx: FileContext, e: ts.NewExpression, scope: readonly ts.Node[]): AgentOf {
  const r = agentClassOf(cx, e.expression);
  if (r) return r.member === 'RealtimeAgent' ? NOT : { kind: 'agent', options: e.arguments?.[0] ?? null, ancestors: scope };
  // a class imported from a module of the repo may extend Agent; another class is not one
  const root = rootIdentifier(e.expression);
  const from = root !== undefined && isNotShadowed(cx, root, scope) ? importOf(cx, root) : undefined;
  return from !== undefined && isRepoModule(cx, from) ? unknown(`\`${root}\` is imported from '${from}'`) : NOT;
}

function callValue(cx: FileContext, e: ts.CallExpression, scope: readonly ts.Node[], depth: number): AgentOf {
  const callee = skipWrappers(e.expression);
  // protectAgent and protectSandboxAgent return the agent they are given
  const door = doorOf(cx, callee);
  if (door === 'protectAgent' || door === 'protectSandboxAgent') return e.arguments[0] ? agentOf(cx, e.arguments[0], scope, depth + 1) : NOT;
  if (typescript.isPropertyAccessExpression(callee)) {
    if (callee.name.text === 'create') {
      const r = agentClassOf(cx, callee.expression);
      if (r) return r.member === 'RealtimeAgent' ? NOT : { kind: 'agent', options: e.arguments[0] ?? null, ancestors: scope };
    }
    if (callee.name.text === 'clone') {
      const base = agentOf(cx, callee.expression, scope, depth + 1);
      if (base.kind === 'agent') return { kind: 'agent', options: null, ancestors: [] };
      if (base.kind === 'not') return NOT;
    }
    return ofRoot(cx, callee, scope) ?? unknown(`what \`${textOf(cx, callee)}()\` returns is not followed`);
  }
  if (typescript.isIdentifier(callee) && isNotShadowed(cx, callee.text, scope)) {
    // `specialist(...)` where this file's `function specialist() { return new Agent(...) }`: an agent whose options the call site does not show
    const returns = returnsOf(cx, callee.text);
    if (returns) {
      const found = either(returns.map((r) => agentOf(cx, r, [], depth + 1)));
      return found.kind === 'agent' ? { kind: 'agent', options: null, ancestors: [] } : found;
    }
    const root = ofRoot(cx, callee, scope);
    if (root) return root;
  }
  return unknown(`what \`${textOf(cx, callee)}()\` returns is not followed`);
}

function identifierValue(cx: FileContext, name: string, scope: readonly ts.Node[], depth: number): AgentOf {
  // the variable the name is where it is read (another function's `w` is not this one's), any value
  // a `let` or `var` is given
  const held = valuesInScope(name, scope, cx.hoisted);
  if (held) {
    if (held.length === 0) return unknown(`\`${name}\` is given no value the scan can see`);
    return either(held.map((v) => agentOf(cx, v.init, v.ancestors, depth + 1)));
  }
  const decl = declarationOf(name, scope, cx.hoisted);
  if (decl && typescript.isParameter(decl)) return unknown(`\`${name}\` is a parameter, given whatever its callers pass`);
  if (decl) return unknown(`\`${name}\` is a part of another value (a pattern or a loop variable)`);
  return ofRoot(cx, name, scope) ?? unknown(`\`${name}\` is not declared in this file`);
}

/** `agents.billing`: a property of a `const` object literal of the file; else what its root says. */
function memberValue(cx: FileContext, e: ts.PropertyAccessExpression | ts.ElementAccessExpression, scope: readonly ts.Node[], depth: number): AgentOf {
  const base = skipWrappers(e.expression);
  const key = typescript.isPropertyAccessExpression(e)
    ? e.name.text
    : typescript.isStringLiteralLike(e.argumentExpression)
      ? e.argumentExpression.text
      : undefined;
  if (key !== undefined && typescript.isIdentifier(base)) {
    const held = valuesInScope(base.text, scope, cx.hoisted);
    const only = held?.length === 1 && held[0]!.constant ? held[0]! : undefined;
    const obj = only ? skipWrappers(only.init) : undefined;
    if (only && obj && typescript.isObjectLiteralExpression(obj)) {
      const prop = obj.properties.find((p) => propertyName(p.name as ts.PropertyName | undefined) === key);
      if (prop && typescript.isPropertyAssignment(prop)) return agentOf(cx, prop.initializer, only.ancestors, depth + 1);
      if (prop && typescript.isShorthandPropertyAssignment(prop)) return identifierValue(cx, prop.name.text, only.ancestors, depth + 1);
      if (prop) return NOT; // a method, a getter
      if (!obj.properties.some((p) => typescript.isSpreadAssignment(p))) return NOT;
    }
  }
  return ofRoot(cx, e, scope) ?? unknown(`\`${textOf(cx, e)}\` is not followed`);
}

/**
 * A value reached from an import: of another package (not the SDK's agents, which are built in
 * the app) it is that library's, no agent; of a module of the repo, unknown (the agent may be
 * made there). Undefined when the root is not an import.
 */
function ofRoot(cx: FileContext, e: ts.Expression | string, scope: readonly ts.Node[]): AgentOf | undefined {
  const root = typeof e === 'string' ? e : rootIdentifier(e);
  if (root === undefined || !isNotShadowed(cx, root, scope)) return undefined;
  const from = importOf(cx, root);
  if (from === undefined) return undefined;
  if (isRepoModule(cx, from) && !isSdkModule(from) && !moduleValue(from, cx.fileAbs, cx.links))
    return unknown(`\`${root}\` is imported from '${from}', a module of the repo check does not follow for agents`);
  return NOT;
}

/** Whether `name` where `scope` ends is the file's top-level binding (no local declaration of the name). */
function isNotShadowed(cx: FileContext, name: string, scope: readonly ts.Node[]): boolean {
  return declarationOf(name, scope, cx.hoisted) === undefined;
}

/** The module a top-level import (or `require`) of the file binds `name` from. */
function importOf(cx: FileContext, name: string): string | undefined {
  return importedAs(name, cx.moduleImports, { everyForm: true })?.specifier;
}

/**
 * Whether an import is of a module of the repo: as the repo's links resolve it (a tsconfig `paths`
 * alias such as `@app/agents`, a workspace package), else by how the specifier looks.
 */
function isRepoModule(cx: FileContext, specifier: string): boolean {
  return cx.links?.inRepo(specifier, cx.fileAbs) ?? isRepoSpecifier(specifier);
}

/** A relative, absolute or alias-looking specifier (`./agents`, `#agents`, `~/agents`, `@/agents`): a module of the repo, not a package. */
export function isRepoSpecifier(specifier: string): boolean {
  return /^(?:\.|\/|#|~\/|@\/)/.test(specifier);
}

function textOf(cx: FileContext, e: ts.Node): string {
  return shortText(e.getText(cx.sf));
}

/**
 * The nodes from the file down to `node`, outermost first (the parse keeps no parent pointers). A
 * scanned tree is at most MAX_TREE_DEPTH levels deep (parse.ts), so the path is whole: a shorter
 * one would read a name in an outer scope (a value of the same name hiding it unseen).
 */
export function ancestorsTo(sf: ts.SourceFile, node: ts.Node): ts.Node[] {
  const out: ts.Node[] = [];
  let cur: ts.Node = sf;
  for (let i = 0; i <= MAX_TREE_DEPTH && cur !== node; i++) {
    out.push(cur);
    let next: ts.Node | undefined;
    typescript.forEachChild(cur, (c) => {
      if (c.pos <= node.pos && node.end <= c.end && c.end > c.pos) {
        next = c;
        return true;
      }
      return undefined;
    });
    if (!next) return out;
    cur = next;
  }
  return out;
}
