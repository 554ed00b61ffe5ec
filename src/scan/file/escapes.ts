import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { isAgentClass, isTrackedDoor } from '../imports.js';
import { SDK_DOORS } from '../sdk-surface.js';
import { isCommonJsExport, isCommonJsTarget, isReflectApply, isStringLike, isWrapper, propertyName, skipWrappers } from '../syntax.js';
import type { SdkValue } from '../types.js';
import { onAsToolValue, onIndirectAsTool } from './agent-tools.js';
import { asToolReceiver } from './methods.js';
import { opaque, type FileContext } from './context.js';

// Fail closed: a value that makes doors (an SDK module, a door export such as `tool`, `handoff` or
// `Agent`, the `asTool` method of an agent) must be used where the scanner reads what it makes:
// called, constructed, a member read, aliased, re-exported. However the value was reached (a named
// import, `sdk.tool`, `require('@openai/agents').tool`, `Agent.prototype.asTool`), the same walk
// decides, so no form of the same door is followed where another is not.

/**
 * `agent.asTool` (or `agent['asTool']`) of an agent the SDK made, read other than by calling it on
 * the agent: followed like any door value (`.call`, `.apply`, `Reflect.apply` are read; `bind`, a
 * variable, an argument are reported).
 */
export function onAsToolRead(cx: FileContext, node: ts.PropertyAccessExpression | ts.ElementAccessExpression): void {
  if (memberKey(node) !== 'asTool') return;
  const parent = cx.ancestors[cx.ancestors.length - 1];
  if (parent && typescript.isCallExpression(parent) && parent.expression === node) return; // `agent.asTool(o)`: file/methods.ts
  // an agent's, or a value check cannot follow in a file of the SDK (fail closed, as for `x.asTool(o)`)
  const receiver = asToolReceiver(cx, node.expression);
  if (receiver) followValue(cx, node, { kind: 'method', name: 'asTool', receiver: node.expression, ...receiver }, textOf(cx, node, 'asTool'));
}

/** `const { asTool } = agent`: the method taken off an agent the SDK made. */
export function onAgentDestructure(cx: FileContext, node: ts.VariableDeclaration): void {
  if (!typescript.isObjectBindingPattern(node.name) || !node.initializer) return;
  const el = node.name.elements.find(
    (e) => !e.dotDotDotToken && (e.propertyName ? propertyName(e.propertyName) : typescript.isIdentifier(e.name) ? e.name.text : undefined) === 'asTool',
  );
  const receiver = el ? asToolReceiver(cx, node.initializer) : undefined;
  if (el && receiver) onAsToolValue(cx, el, node.initializer, receiver.unknownWhy);
}

/** What the expression being followed holds. */
export type Held =
  /** An SDK module or a local barrel leading to it (`import * as sdk`). */
  | { kind: 'module'; value: SdkValue & { kind: 'module' } }
  /** A door export (`tool`, `Agent`, `Capabilities.default`). */
  | { kind: 'door'; name: string; module: string }
  /** `Agent.prototype`. */
  | { kind: 'prototype'; of: string }
  /** A method that makes a door: `asTool` (of `receiver`, when known), `Agent.create`, `clone`. */
  | { kind: 'method'; name: string; receiver?: ts.Expression; unknownWhy?: string };

/** The held value of an SDK value, when it makes doors. */
export function heldOf(v: SdkValue): Held | undefined {
  if (v.kind === 'module') return { kind: 'module', value: v };
  return isTrackedDoor(v.module, v.member) ? { kind: 'door', name: v.member, module: v.module } : undefined;
}

type Step = { kind: 'held'; held: Held } | { kind: 'followed' } | { kind: 'escape'; reason: string };

const FOLLOWED: Step = { kind: 'followed' };

/**
 * Walks up from `start` (the node being visited; its parents are `cx.ancestors`) while the value it
 * holds is carried along unchanged (wrappers, `await`, a member that is itself a door), and reports
 * it when it ends anywhere check does not read (an argument, an object or array, a class field, a
 * return, a default parameter, `bind`).
 */
export function followValue(cx: FileContext, start: ts.Node, held: Held, what: string): void {
  const { ancestors } = cx;
  let child: ts.Node = start;
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const p = ancestors[i]!;
    if (isValueWrapper(p, child) || typescript.isAwaitExpression(p)) {
      child = p;
      continue;
    }
    if ((typescript.isPropertyAccessExpression(p) || typescript.isElementAccessExpression(p)) && p.expression === child) {
      const key = memberKey(p);
      const step: Step =
        key === undefined
          ? { kind: 'escape', reason: 'a member is read with a computed key, so check cannot tell which export is used' }
          : memberStep(cx, held, key, p, ancestors[i - 1]);
      if (step.kind === 'followed') return;
      if (step.kind === 'escape') return reportEscape(cx, p, held, what, step.reason);
      held = step.held;
      what = textOf(cx, p, what);
      child = p;
      continue;
    }
    if (readWhere(cx, p, child, held)) return;
    return reportEscape(cx, child, held, what, passedOn(held));
  }
}

function memberKey(p: ts.PropertyAccessExpression | ts.ElementAccessExpression): string | undefined {
  if (typescript.isPropertyAccessExpression(p)) return p.name.text;
  const k = skipWrappers(p.argumentExpression);
  return isStringLike(k) ? k.text : undefined;
}

/** What reading `key` of the held value gives. */
function memberStep(cx: FileContext, held: Held, key: string, access: ts.Node, grand: ts.Node | undefined): Step {
  const calledThrough = (): boolean => !!grand && typescript.isCallExpression(grand) && grand.expression === access;
  switch (held.kind) {
    case 'module': {
      const m = held.value.member(key);
      if (!m) return FOLLOWED;
      if (m.kind === 'module') return { kind: 'held', held: { kind: 'module', value: m } };
      return isTrackedDoor(m.module, m.member) ? { kind: 'held', held: { kind: 'door', name: m.member, module: m.module } } : FOLLOWED;
    }
    case 'door': {
      if (key === 'bind') return { kind: 'escape', reason: '`bind` makes a copy of the factory that check cannot follow' };
      // `tool.call(this, o)`: read where it is called (an SDK call through `.call`/`.apply`)
      if (key === 'call' || key === 'apply')
        return calledThrough() ? FOLLOWED : { kind: 'escape', reason: `its \`${key}\` is read as a value, so check cannot see the calls made with it` };
      if (isAgentClass(held.module, held.name) && key === 'prototype') return { kind: 'held', held: { kind: 'prototype', of: held.name } };
      if (isAgentClass(held.module, held.name) && key === 'create') return { kind: 'held', held: { kind: 'method', name: `${held.name}.create` } };
      const sub = `${held.name}.${key}`;
      return Object.hasOwn(SDK_DOORS, sub) ? { kind: 'held', held: { kind: 'door', name: sub, module: held.module } } : FOLLOWED;
    }
    case 'prototype':
      return key === 'asTool' || key === 'clone' ? { kind: 'held', held: { kind: 'method', name: key } } : FOLLOWED;
    case 'method':
      if (key === 'bind') return { kind: 'escape', reason: '`bind` makes a copy of the method that check cannot follow' };
      if ((key === 'call' || key === 'apply') && calledThrough() && held.name === 'asTool') {
        onIndirectAsTool(cx, grand as ts.CallExpression, key, held.unknownWhy);
        return FOLLOWED;
      }
      if (key === 'call' || key === 'apply')
        return { kind: 'escape', reason: `it is called through \`.${key}\`, so check cannot read the options it is given` };
      return FOLLOWED;
  }
}

/** Whether `p` reads `child` where the scanner follows it (a call, a `new`, an alias, an export, a type). */
function readWhere(cx: FileContext, p: ts.Node, child: ts.Node, held: Held): boolean {
  const { ancestors, sf } = cx;
  const i = ancestors.lastIndexOf(p);
  // what the scopes and barrels carry: a module, an export (`Capabilities.default` is not one)
  const exportable = held.kind === 'module' || (held.kind === 'door' && !held.name.includes('.'));
  if ((typescript.isCallExpression(p) || typescript.isNewExpression(p)) && p.expression === child) return true;
  // a value thrown away, tested, or read as a type: nothing escapes
  if (typescript.isExpressionStatement(p) || typescript.isVoidExpression(p) || typescript.isTypeOfExpression(p)) return true;
  if (typescript.isTypeNode(p) || typescript.isQualifiedName(p) || typescript.isExpressionWithTypeArguments(p)) return true;
  if (typescript.isBinaryExpression(p) && p.operatorToken.kind === typescript.SyntaxKind.InstanceOfKeyword && p.right === child) return true;
  // an alias (`const t = sdk.tool`, `const { tool } = sdk`): the scopes follow it
  if (typescript.isVariableDeclaration(p) && p.initializer === child) return exportable && !typescript.isArrayBindingPattern(p.name);
  // re-exported: the importers' scans follow it through the barrel
  if (
    exportable &&
    (typescript.isExportAssignment(p) ||
      typescript.isExportSpecifier(p) ||
      (typescript.isShorthandPropertyAssignment(p) && isCommonJsExport(ancestors, i, sf)) ||
      (typescript.isPropertyAssignment(p) && p.initializer === child && isCommonJsExport(ancestors, i, sf)) ||
      (typescript.isBinaryExpression(p) && p.operatorToken.kind === typescript.SyntaxKind.EqualsToken && p.right === child && isCommonJsTarget(p.left, sf)))
  )
    return true;
  if (typescript.isCallExpression(p) && isReflectApply(p) && p.arguments[0] === child) {
    if (held.kind === 'door') return true;
    if (held.kind === 'method' && held.name === 'asTool') {
      onIndirectAsTool(cx, p, 'reflect', held.unknownWhy);
      return true;
    }
  }
  return false;
}

function passedOn(held: Held): string {
  if (held.kind === 'module') return 'the SDK module is passed on as a value, so check cannot see the tools built from it';
  if (held.kind === 'door' && !/^[A-Z]/.test(held.name) && !held.name.includes('.'))
    return 'the factory is passed on as a value, so check cannot see the tools it builds';
  return 'it is passed on as a value, so check cannot see the doors made with it';
}

function reportEscape(cx: FileContext, node: ts.Node, held: Held, what: string, reason: string): void {
  if (held.kind === 'method' && held.name === 'asTool') return onAsToolValue(cx, node, held.receiver, held.unknownWhy);
  const door = held.kind === 'door' ? held.name : held.kind === 'prototype' ? `${held.of}.prototype` : held.kind === 'method' ? held.name : undefined;
  opaque(cx, node, what, reason, door);
}

/** Whether a node wraps `child` without changing its value (parentheses, casts, a comma's right). */
export function isValueWrapper(p: ts.Node, child: ts.Node): boolean {
  return isWrapper(p) || (typescript.isBinaryExpression(p) && p.operatorToken.kind === typescript.SyntaxKind.CommaToken && p.right === child);
}

function textOf(cx: FileContext, node: ts.Node, fallback: string): string {
  const text = node.getText(cx.sf).replace(/\s+/g, '');
  return text.length <= 40 ? text : fallback;
}
