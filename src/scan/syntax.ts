import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';
import { spanOf } from './parse.js';
import { walkHoistingVars } from './scope.js';
import type { HostedMcpCall, OptionProperty, Span, ToolCallOptions } from './types.js';

// Pure readers of TypeScript syntax the file scan shares: wrappers, literals, option objects.

export function bindingNames(name: ts.BindingName): string[] {
  if (typescript.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((el) => (typescript.isOmittedExpression(el) ? [] : bindingNames(el.name)));
}

/** `=`, `||=`, `??=`, `&&=`: the operators that may store a value in a name. */
export function isAssigning(kind: ts.SyntaxKind): boolean {
  const k = typescript.SyntaxKind;
  return kind === k.EqualsToken || kind === k.BarBarEqualsToken || kind === k.QuestionQuestionEqualsToken || kind === k.AmpersandAmpersandEqualsToken;
}

/** Parentheses, casts (`as`, `<T>`, `satisfies`) and non-null assertions: they do not change a value. */
export function isWrapper(
  node: ts.Node,
): node is ts.ParenthesizedExpression | ts.AsExpression | ts.SatisfiesExpression | ts.NonNullExpression | ts.TypeAssertion {
  // a switch on the kind, not five calls: asked of nearly every expression the scan reads, and a
  // whole process runs this code mostly unoptimized (issue 40, item 8)
  const k = typescript.SyntaxKind;
  switch (node.kind) {
    case k.ParenthesizedExpression:
    case k.AsExpression:
    case k.SatisfiesExpression:
    case k.NonNullExpression:
    case k.TypeAssertionExpression:
      return true;
    default:
      return false;
  }
}

/** The value under wrappers (`isWrapper`) and commas (`(a, b)` is `b`). */
export function skipWrappers(expr: ts.Expression): ts.Expression {
  for (;;) {
    if (isWrapper(expr)) {
      expr = expr.expression;
    } else if (typescript.isBinaryExpression(expr) && expr.operatorToken.kind === typescript.SyntaxKind.CommaToken) {
      expr = expr.right;
    } else return expr;
  }
}

/** `import('m')` with a literal specifier: the specifier. */
export function dynamicImportOf(expr: ts.Expression): string | undefined {
  if (!typescript.isCallExpression(expr) || expr.expression.kind !== typescript.SyntaxKind.ImportKeyword) return undefined;
  const arg = expr.arguments[0];
  return arg && isStringLike(arg) ? arg.text : undefined;
}

/** The SDK's default name of an agent's tool (`toFunctionToolName`). */
export function toFunctionToolName(name: string): string {
  return name.replace(/\s/g, '_').replace(/[^a-zA-Z0-9]/g, '_');
}

/** The identifier at the root of `a.b.c` (`a`). */
export function rootIdentifier(expr: ts.Expression): string | undefined {
  let e = skipWrappers(expr);
  while (typescript.isPropertyAccessExpression(e) || typescript.isElementAccessExpression(e)) e = skipWrappers(e.expression);
  return typescript.isIdentifier(e) ? e.text : undefined;
}

/** `requireApproval: { never: { toolNames: [...] } }` (or `never: [...]`) of hostedMcpTool's options literal. */
export function neverToolNamesOf(
  arg: ts.Expression | undefined,
  sf: ts.SourceFile,
  constObject: (name: string) => ts.ObjectLiteralExpression | undefined,
): HostedMcpCall['neverToolNames'] {
  const opts = arg ? skipWrappers(arg) : undefined;
  if (!opts || !typescript.isObjectLiteralExpression(opts)) return undefined;
  // a value written in place, or a `const` object of this file (`const requireApproval = { never: ... }`)
  const member = (obj: ts.ObjectLiteralExpression, key: string): ts.Expression | undefined => {
    for (const p of obj.properties) {
      if (typescript.isShorthandPropertyAssignment(p) && p.name.text === key) return constObject(p.name.text) ?? p.name;
      if (!typescript.isPropertyAssignment(p) || propertyName(p.name) !== key) continue;
      const v = skipWrappers(p.initializer);
      return (typescript.isIdentifier(v) ? constObject(v.text) : undefined) ?? v;
    }
    return undefined;
  };
  const ra = member(opts, 'requireApproval');
  if (!ra || !typescript.isObjectLiteralExpression(ra)) return undefined;
  const never = member(ra, 'never');
  // an object with no `never` filter: no tool is exempt from approval
  if (!never) return { span: spanOf(ra, sf), names: [], complete: true };
  let list: ts.Expression | undefined = never;
  if (typescript.isObjectLiteralExpression(never)) list = member(never, 'toolNames') ?? member(never, 'tool_names');
  const out: NonNullable<HostedMcpCall['neverToolNames']> = { span: spanOf(never, sf), names: [], complete: true };
  if (!list || !typescript.isArrayLiteralExpression(list)) {
    out.complete = false;
    return out;
  }
  for (const el of list.elements) {
    const v = skipWrappers(el as ts.Expression);
    if (isStringLike(v)) out.names.push({ name: v.text, span: spanOf(v, sf) });
    else out.complete = false;
  }
  return out;
}

/** The first spread written after property `key` in an options object literal, if any. */
export function spreadAfter(arg: ts.Expression | undefined, key: string, sf: ts.SourceFile): Span | undefined {
  const opts = arg ? skipWrappers(arg) : undefined;
  if (!opts || !typescript.isObjectLiteralExpression(opts)) return undefined;
  const at = opts.properties.findIndex((p) => !typescript.isSpreadAssignment(p) && propertyName(p.name) === key);
  if (at < 0) return undefined;
  const spread = opts.properties.slice(at + 1).find((p) => typescript.isSpreadAssignment(p));
  return spread ? spanOf(spread, sf) : undefined;
}

/** `Reflect.apply(f, thisArg, args)`. */
export function isReflectApply(node: ts.CallExpression): boolean {
  const c = skipWrappers(node.expression);
  return typescript.isPropertyAccessExpression(c) && c.name.text === 'apply' && typescript.isIdentifier(c.expression) && c.expression.text === 'Reflect';
}

/** The first element of an array literal argument (`[opts]`). */
export function firstElement(arg: ts.Expression | undefined): ts.Expression | undefined {
  const a = arg ? skipWrappers(arg) : undefined;
  return a && typescript.isArrayLiteralExpression(a) ? a.elements[0] : undefined;
}

/** Whether the object literal at `ancestors[i]`'s parent chain is assigned to `module.exports`. */
export function isCommonJsExport(ancestors: ts.Node[], i: number, sf: ts.SourceFile): boolean {
  const obj = ancestors[i - 1];
  const assign = ancestors[i - 2];
  return (
    !!obj &&
    typescript.isObjectLiteralExpression(obj) &&
    !!assign &&
    typescript.isBinaryExpression(assign) &&
    assign.right === obj &&
    // the scan's tree has no parent pointers: the text is read from the file given
    /^module\.exports$/.test(assign.left.getText(sf))
  );
}

export function isCommonJsTarget(left: ts.Expression, sf: ts.SourceFile): boolean {
  return /^(?:module\.exports|(?:module\.)?exports\.[A-Za-z_$][\w$]*)$/.test(left.getText(sf));
}

/**
 * The file's first variable initializer, class and `const` object literal of each name, in the
 * order a walk from the file meets them (any scope): what a name is followed to when the scope
 * where it is read does not hold it. Filled by the walk `collectAliasNames` makes anyway, not by
 * one walk more of the file for each.
 */
export interface DeclarationIndex {
  /** `const|let|var <name> = <init>`. */
  initializers: Map<string, ts.Expression>;
  /** `class X {}`, `const X = class {}`. */
  classes: Map<string, ts.ClassLikeDeclaration>;
  /** `const <name> = { ... }`. */
  constObjects: Map<string, ts.ObjectLiteralExpression>;
}

let indexTable: Uint8Array | undefined;

/** The kinds `collectAliasNames` reads: variable declarations (and their lists) and class declarations. */
function indexKinds(): Uint8Array {
  if (indexTable) return indexTable;
  const k = typescript.SyntaxKind;
  const table = new Uint8Array(k.Count);
  for (const kind of [k.VariableDeclaration, k.VariableDeclarationList, k.ClassDeclaration]) table[kind] = 1;
  indexTable = table;
  return table;
}

/**
 * Adds to `names` every identifier a variable declaration binds whose initializer could be an SDK
 * alias; the same walk files each `var` declaration under the function it is hoisted to (`hoisted`,
 * for the scopes of the scan's walk) and indexes the file's declarations by name.
 */
export function collectAliasNames(sf: ts.SourceFile, names: Set<string>, hoisted: Map<ts.Node, ts.VariableDeclaration[]>): DeclarationIndex {
  const k = typescript.SyntaxKind;
  const index: DeclarationIndex = { initializers: new Map(), classes: new Map(), constObjects: new Map() };
  const { initializers, classes, constObjects } = index;
  const read = (n: ts.Node): void => {
    if (n.kind === k.VariableDeclarationList) {
      if ((n.flags & typescript.NodeFlags.Const) === 0) return;
      for (const d of (n as ts.VariableDeclarationList).declarations) {
        const init = d.initializer ? skipWrappers(d.initializer) : undefined;
        if (typescript.isIdentifier(d.name) && init && typescript.isObjectLiteralExpression(init) && !constObjects.has(d.name.text))
          constObjects.set(d.name.text, init);
      }
      return;
    }
    if (n.kind === k.ClassDeclaration) {
      const name = (n as ts.ClassDeclaration).name;
      if (name && !classes.has(name.text)) classes.set(name.text, n as ts.ClassDeclaration);
      return;
    }
    const d = n as ts.VariableDeclaration;
    if (!d.initializer) return;
    const init = skipWrappers(d.initializer);
    if (typescript.isIdentifier(d.name)) {
      const name = d.name.text;
      if (!initializers.has(name)) initializers.set(name, d.initializer);
      if (typescript.isClassExpression(init) && !classes.has(name)) classes.set(name, init);
    }
    if (
      typescript.isIdentifier(init) ||
      typescript.isPropertyAccessExpression(init) ||
      typescript.isElementAccessExpression(init) ||
      typescript.isAwaitExpression(init) ||
      typescript.isCallExpression(init)
    ) {
      for (const name of bindingNames(d.name)) names.add(name);
    }
  };
  walkHoistingVars(sf, hoisted, indexKinds(), read);
  return index;
}

/** Top-level `const X = 'string'` (also `as const`, a template without substitutions). */
export function topLevelConstStrings(sf: ts.SourceFile): Map<string, string> {
  const out = new Map<string, string>();
  for (const st of sf.statements) {
    // `enum Verdict { Approve = 'approve' }`: its string members, keyed `Verdict.Approve` (a member cannot be reassigned)
    if (typescript.isEnumDeclaration(st)) for (const [key, value] of enumStrings(st)) out.set(`${st.name.text}.${key}`, value);
    if (!typescript.isVariableStatement(st) || !(st.declarationList.flags & typescript.NodeFlags.Const)) continue;
    for (const d of st.declarationList.declarations) {
      if (!typescript.isIdentifier(d.name) || !d.initializer) continue;
      const v = skipWrappers(d.initializer);
      if (isStringLike(v)) out.set(d.name.text, v.text);
      // `const NAMES = { refund: 'refund' } as const` (or `Object.freeze({ ... })`): its string
      // properties, keyed `NAMES.refund`; a plain object literal is left out, as it may be reassigned
      const frozen = frozenObjectLiteral(d.initializer);
      for (const p of frozen?.properties ?? []) {
        const key = typescript.isPropertyAssignment(p) ? propertyName(p.name) : undefined;
        const value = key !== undefined ? skipWrappers((p as ts.PropertyAssignment).initializer) : undefined;
        if (value && isStringLike(value)) out.set(`${d.name.text}.${key}`, value.text);
      }
    }
  }
  return out;
}

/** An enum's members initialised with a string: member name → string. */
function enumStrings(st: ts.EnumDeclaration): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const m of st.members) {
    const key = propertyName(m.name);
    const value = m.initializer ? skipWrappers(m.initializer) : undefined;
    if (key !== undefined && value && isStringLike(value)) out.push([key, value.text]);
  }
  return out;
}

/** The object literal of `{ ... } as const` or `Object.freeze({ ... })`, whose properties cannot be reassigned. */
function frozenObjectLiteral(init: ts.Expression): ts.ObjectLiteralExpression | undefined {
  let e = init;
  let frozen = false;
  for (;;) {
    if (typescript.isAsExpression(e) && typescript.isTypeReferenceNode(e.type) && isNamed(e.type.typeName, 'const')) frozen = true;
    else if (typescript.isCallExpression(e) && e.arguments.length === 1 && isObjectFreeze(e.expression)) {
      frozen = true;
      e = e.arguments[0]!;
      continue;
    } else if (!isWrapper(e)) break;
    e = e.expression;
  }
  return frozen && typescript.isObjectLiteralExpression(e) ? e : undefined;
}

/**
 * `export const X = 'string'` (or `const X = ...; export { X }`) of a module: the exported name's
 * string; `X.key` names a string property of an exported `as const` object or a string member of an
 * exported enum (`topLevelConstStrings`).
 */
export function exportedConstString(sf: ts.SourceFile, name: string): string | undefined {
  const consts = topLevelConstStrings(sf);
  const dot = name.indexOf('.');
  const [exported, member] = dot < 0 ? [name, ''] : [name.slice(0, dot), name.slice(dot)];
  for (const st of sf.statements) {
    if (typescript.isVariableStatement(st) && typescript.getModifiers(st)?.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword)) {
      if (st.declarationList.declarations.some((d) => typescript.isIdentifier(d.name) && d.name.text === exported) && consts.has(name)) return consts.get(name);
    } else if (typescript.isEnumDeclaration(st) && st.name.text === exported && member && consts.has(name)) {
      // `export enum Verdict { ... }`: `Verdict.Approve`
      if (typescript.getModifiers(st)?.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword)) return consts.get(name);
    } else if (typescript.isExportDeclaration(st) && !st.moduleSpecifier && st.exportClause && typescript.isNamedExports(st.exportClause)) {
      for (const el of st.exportClause.elements) if (el.name.text === exported) return consts.get((el.propertyName ?? el.name).text + member);
    }
  }
  return undefined;
}

export function skipParens(expr: ts.Expression): ts.Expression {
  while (typescript.isParenthesizedExpression(expr)) expr = expr.expression;
  return expr;
}

/**
 * The member an access reads by a key check can read: `x.name`, `x['name']`, and with `numbers`
 * `x[0]` (an element of a list); undefined for a computed key or no access.
 */
export function accessedName(e: ts.Expression, numbers: boolean): string | undefined {
  if (typescript.isPropertyAccessExpression(e)) return typescript.isIdentifier(e.name) ? e.name.text : undefined;
  if (!typescript.isElementAccessExpression(e)) return undefined;
  const key = e.argumentExpression;
  return isStringLike(key) || (numbers && typescript.isNumericLiteral(key)) ? key.text : undefined;
}

export function isStringLike(node: ts.Node): node is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral {
  return typescript.isStringLiteral(node) || typescript.isNoSubstitutionTemplateLiteral(node);
}

export function propertyName(name: ts.PropertyName | undefined): string | undefined {
  if (!name) return undefined;
  if (
    typescript.isIdentifier(name) ||
    typescript.isStringLiteral(name) ||
    typescript.isNumericLiteral(name) ||
    typescript.isNoSubstitutionTemplateLiteral(name)
  )
    return name.text;
  if (typescript.isComputedPropertyName(name) && isStringLike(name.expression)) return name.expression.text;
  return undefined;
}

/** Reads the literal options object of a call (first level only). */
export function optionsOf(arg: ts.Expression | undefined, sf: ts.SourceFile): ToolCallOptions {
  const out: ToolCallOptions = { properties: {}, hasSpread: false };
  if (!arg) return out;
  let expr = skipParens(arg);
  while (typescript.isAsExpression(expr) || typescript.isSatisfiesExpression(expr)) expr = skipParens(expr.expression);
  if (!typescript.isObjectLiteralExpression(expr)) return out;
  out.span = spanOf(expr, sf);
  for (const p of expr.properties) {
    if (typescript.isSpreadAssignment(p)) {
      out.hasSpread = true;
      continue;
    }
    const name = propertyName(p.name);
    if (name === undefined) continue;
    const span = spanOf(p, sf);
    let prop: OptionProperty;
    if (typescript.isPropertyAssignment(p)) {
      const v = skipParens(p.initializer);
      prop = { span, valueSpan: spanOf(p.initializer, sf), valueKind: valueKindOf(v) };
      if (isStringLike(v)) prop.stringValue = v.text;
      const id = skipWrappers(p.initializer);
      if (typescript.isIdentifier(id)) prop.identifier = id.text;
      else {
        const member = memberOf(id);
        if (member) prop.member = member;
      }
    } else if (typescript.isShorthandPropertyAssignment(p)) {
      prop = { span, valueSpan: span, valueKind: 'other', identifier: p.name.text };
    } else if (typescript.isMethodDeclaration(p)) {
      prop = { span, valueSpan: span, valueKind: 'function' };
    } else {
      prop = { span, valueSpan: span, valueKind: 'other' };
    }
    out.properties[name] = prop;
  }
  return out;
}

const isNamed = (n: ts.Node, text: string): boolean => typescript.isIdentifier(n) && n.text === text;
const isObjectFreeze = (e: ts.Expression): boolean => typescript.isPropertyAccessExpression(e) && isNamed(e.expression, 'Object') && isNamed(e.name, 'freeze');

/** `NAMES.refund` or `NAMES['refund']`: the identifier and the key read. */
function memberOf(e: ts.Expression): OptionProperty['member'] {
  let key: string | undefined;
  if (typescript.isPropertyAccessExpression(e) && typescript.isIdentifier(e.name)) key = e.name.text;
  else if (typescript.isElementAccessExpression(e) && isStringLike(e.argumentExpression)) key = e.argumentExpression.text;
  const object = key !== undefined ? skipWrappers((e as ts.PropertyAccessExpression).expression) : undefined;
  return object && typescript.isIdentifier(object) ? { object: object.text, key: key! } : undefined;
}

export function valueKindOf(v: ts.Expression): OptionProperty['valueKind'] {
  switch (v.kind) {
    case typescript.SyntaxKind.TrueKeyword:
      return 'true';
    case typescript.SyntaxKind.FalseKeyword:
      return 'false';
    case typescript.SyntaxKind.NullKeyword:
      return 'null';
    case typescript.SyntaxKind.StringLiteral:
    case typescript.SyntaxKind.NoSubstitutionTemplateLiteral:
      return 'string';
    case typescript.SyntaxKind.ArrowFunction:
    case typescript.SyntaxKind.FunctionExpression:
      return 'function';
    default:
      return 'other';
  }
}

/** An identifier that reads a binding (not a property name, a declaration's name or a label). */
export function isReferencePosition(id: ts.Identifier, parent: ts.Node): boolean {
  // by the parent's kind in a table: asked of every identifier the scan counts or follows, and most
  // parents are none of the kinds below (issue 40, item 8: a chain of 26 kind tests for those)
  switch (referenceRules()[parent.kind]) {
    case ANY:
      return true;
    case EXPRESSION:
      return (parent as ts.PropertyAccessExpression).expression === id;
    case LEFT:
      return (parent as ts.QualifiedName).left === id;
    case NOT_NAME:
      return (parent as ts.NamedDeclaration).name !== id;
    case INITIALIZER:
      return (parent as ts.VariableDeclaration).initializer === id;
    case EXPORTED:
      return ((parent as ts.ExportSpecifier).propertyName ?? (parent as ts.ExportSpecifier).name) === id;
    default:
      return false;
  }
}

const ANY = 0;
const EXPRESSION = 1;
const LEFT = 2;
const NOT_NAME = 3;
const INITIALIZER = 4;
const EXPORTED = 5;
const NEVER = 6;
let referenceTable: Uint8Array | undefined;

/** By the parent's syntax kind, how `isReferencePosition` tells a read from a name (`ANY`: every identifier under it reads). */
function referenceRules(): Uint8Array {
  if (referenceTable) return referenceTable;
  const k = typescript.SyntaxKind;
  const table = new Uint8Array(k.Count);
  table[k.PropertyAccessExpression] = EXPRESSION;
  table[k.QualifiedName] = LEFT;
  for (const kind of [
    k.PropertyAssignment,
    k.PropertyDeclaration,
    k.PropertySignature,
    k.MethodDeclaration,
    k.MethodSignature,
    k.GetAccessor,
    k.SetAccessor,
    k.EnumMember,
    k.FunctionDeclaration,
    k.FunctionExpression,
    k.ClassDeclaration,
    k.ClassExpression,
    k.InterfaceDeclaration,
    k.TypeAliasDeclaration,
    k.EnumDeclaration,
    k.ModuleDeclaration,
    k.JsxAttribute,
  ])
    table[kind] = NOT_NAME;
  for (const kind of [k.BindingElement, k.VariableDeclaration, k.Parameter]) table[kind] = INITIALIZER;
  table[k.ExportSpecifier] = EXPORTED;
  for (const kind of [k.LabeledStatement, k.BreakStatement, k.ContinueStatement, k.ImportSpecifier, k.ImportClause, k.NamespaceImport]) table[kind] = NEVER;
  referenceTable = table;
  return table;
}

/**
 * The top-level declaration a position of the file is written in: a `const`/`let`/`var` name, a
 * function or class name, `default` for a default export; undefined for top-level code (issue 40,
 * item 5: what `tool: { at, in }` maps, a name that does not move when lines do).
 */
export function containerAt(sf: ts.SourceFile, pos: number): string | undefined {
  const st = sf.statements.find((s) => s.pos <= pos && pos < s.end);
  if (!st) return undefined;
  if (typescript.isVariableStatement(st)) {
    const d = st.declarationList.declarations.find((x) => x.pos <= pos && pos < x.end);
    return d && typescript.isIdentifier(d.name) ? d.name.text : undefined;
  }
  if (typescript.isFunctionDeclaration(st) || typescript.isClassDeclaration(st)) {
    if (st.name) return st.name.text;
    return typescript.getModifiers(st)?.some((m) => m.kind === typescript.SyntaxKind.DefaultKeyword) ? 'default' : undefined;
  }
  if (typescript.isExportAssignment(st) && !st.isExportEquals) return 'default';
  return undefined;
}

/** A node's text for a message: on one line, and cut to 40 characters (`…` as three dots). */
export function shortText(text: string): string {
  const one = text.replace(/\s+/g, ' ');
  return one.length <= 40 ? one : `${one.slice(0, 37)}...`;
}
