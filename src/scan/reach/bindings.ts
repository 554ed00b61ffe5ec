import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { requiredModule } from '../imports.js';
import { isAssigning, isReferencePosition, isStringLike, propertyName, skipWrappers } from '../syntax.js';
import { AGENT_PARTS } from './parts.js';

/**
 * What a name means where it is read, lexically (no type checker): the declaration the scopes of
 * the file give it, and what the rest of the file does to it (issue 40, item 3). Built once per
 * file, only when a run's agent or an export is followed. A name is read flow-insensitively: a
 * `let` is its initializer or any value assigned to it; an array is also whatever is pushed into it
 * or set at an index; a value handed to a function the scan cannot see may be changed there.
 */
export type Declared =
  /** `const|let|var x = init` (also a name in a destructuring pattern: `path` under the initializer). */
  | { kind: 'var'; init?: ts.Expression; path: PathStep[] }
  | { kind: 'function'; node: ts.FunctionDeclaration | ts.FunctionExpression }
  /** A parameter of `fn` (the `index`th; `path` inside a destructured one): what its callers pass. */
  | { kind: 'param'; fn: ts.SignatureDeclaration; index: number; path: PathStep[]; init?: ts.Expression; rest: boolean }
  /** A loop variable of `for (const x of xs)`: an element of the iterable. */
  | { kind: 'for-of'; iterable: ts.Expression; path: PathStep[] }
  /** An import of this file (`'*'`: the whole module, `import * as m`, `const m = require()`). */
  | { kind: 'import'; specifier: string; name: string; path: PathStep[] }
  /** A catch binding, a class, an enum, a `for…in` key: nothing the scan follows. */
  | { kind: 'opaque'; what: string };

/** A property read by a destructuring pattern (`undefined`: an array element or a rest). */
export type PathStep = string | undefined;

/** A place the name is read: the call it is the callee of, or an export of it (`export { f }`); else a use the scan does not follow. */
export interface Ref {
  call?: ts.CallExpression | ts.NewExpression;
  exported?: boolean;
}

export interface Binding {
  declared: Declared;
  /** Values assigned to the name after its declaration (`x = …`, `x ??= …`). */
  assigned: ts.Expression[];
  /**
   * Values put into it: an element (`x.push(v)`, `x[i] = v`), or a property (`x.k = v`,
   * `x.tools.push(v)`: `v` under `tools`).
   */
  added: Array<{ value: ts.Expression; key?: string }>;
  /** Why its value may also be something the file does not show (a destructuring assignment, a loop's write). */
  opaque?: string;
  /** Handed to a function the scan does not follow: an array or object it holds may be changed there. */
  escapes?: boolean;
}

export interface BindingIndex {
  /** The binding of `name` visible at `pos` (an offset inside the reading identifier); undefined: a global. */
  lookup(name: string, pos: number): Binding | undefined;
  /** The name a function is held by (`function f`, `const f = () => …`), where to look it up, and whether that declaration is exported. */
  holderOf(fn: ts.Node): Holder | undefined;
  /** Values added to `.tools`, `.handoffs` or `.mcpServers` of a receiver the file does not hold. */
  looseParts: ts.Expression[];
  /** Where a binding's name is read (a function's callers, followed into its parameters); read on demand, once. */
  refsOf(name: string, b: Binding): Ref[];
}

interface Scope {
  start: number;
  end: number;
  parent: number;
  names: Map<string, Binding>;
}

type EventApply = (b: Binding) => void;

export interface Holder {
  name: string;
  pos: number;
  exported: boolean;
}

/** Receivers of `.push()` and friends that grow an agent's parts. */
const PART_KEYS: ReadonlySet<string> = new Set(AGENT_PARTS);
const GROWING = new Set(['push', 'unshift', 'splice']);
/** Global functions known not to change the values handed to them. */
const PURE_GLOBALS = new Set(['console', 'JSON', 'Array', 'Object', 'String', 'Number', 'Boolean', 'Promise', 'Math', 'structuredClone']);
export function buildBindings(sf: ts.SourceFile, isSdkCallee: (callee: ts.Expression) => boolean): BindingIndex {
  return new Builder(sf, isSdkCallee).build();
}

class Builder {
  private readonly scopes: Scope[];
  private readonly events: Array<{ name: string; pos: number; apply: EventApply; unbound?: () => void }> = [];
  private readonly looseParts: ts.Expression[] = [];
  private readonly holders = new Map<ts.Node, Holder>();
  private readonly kinds = walkKinds();

  constructor(
    private readonly sf: ts.SourceFile,
    private readonly isSdkCallee: (callee: ts.Expression) => boolean,
  ) {
    this.scopes = [{ start: 0, end: sf.end + 1, parent: -1, names: new Map() }];
    this.atParent = sf;
  }

  build(): BindingIndex {
    for (const st of this.sf.statements) declareImport(st, (name, d) => this.declare(0, name, d));
    for (const st of this.sf.statements) if (!typescript.isImportDeclaration(st)) this.walk(st, this.sf, 0, 0);
    for (const e of this.events) {
      const b = this.lookup(e.name, e.pos);
      if (b) e.apply(b);
      else e.unbound?.();
    }
    const refs = new Map<Binding, Ref[]>();
    return {
      lookup: (name, pos) => this.lookup(name, pos),
      holderOf: (fn) => this.holders.get(fn),
      looseParts: this.looseParts,
      refsOf: (name, b) => {
        const known = refs.get(b) ?? this.refsOf(name, b);
        refs.set(b, known);
        return known;
      },
    };
  }

  /** The reads of `name` that resolve to `b`: as a callee, in an export, or a use the scan does not follow. */
  private refsOf(name: string, b: Binding): Ref[] {
    const out: Ref[] = [];
    const visit = (node: ts.Node, parent: ts.Node): void => {
      if (this.kinds[node.kind]! & TYPE) return;
      if (typescript.isIdentifier(node)) {
        if (node.text === name && isReferencePosition(node, parent) && this.lookup(name, node.end - 1) === b) out.push(refKind(node, parent));
        return;
      }
      typescript.forEachChild(node, (c) => visit(c, node));
    };
    for (const st of this.sf.statements) if (!typescript.isImportDeclaration(st)) visit(st, this.sf);
    return out;
  }

  private on(id: ts.Identifier, apply: EventApply, unbound?: () => void): void {
    this.events.push({ name: id.text, pos: id.end - 1, apply, ...(unbound ? { unbound } : {}) });
  }

  private declare(scope: number, name: string, declared: Declared): void {
    const names = this.scopes[scope]!.names;
    const known = names.get(name);
    // `var x = a; var x = b`: the second is an assignment
    if (known) {
      if (declared.kind === 'var' && declared.init) known.assigned.push(declared.init);
      return;
    }
    names.set(name, { declared, assigned: [], added: [] });
  }

  private declarePattern(scope: number, name: ts.BindingName, make: (path: PathStep[]) => Declared, path: PathStep[] = []): void {
    if (typescript.isIdentifier(name)) return this.declare(scope, name.text, make(path));
    for (const el of name.elements) {
      if (typescript.isOmittedExpression(el)) continue;
      const key = typescript.isObjectBindingPattern(name) && !el.dotDotDotToken ? elementKey(el) : undefined;
      this.declarePattern(scope, el.name, make, [...path, key]);
      // a default value (`{ a = fallback } = obj`) is one more value the name may hold
      const init = el.initializer;
      if (init && typescript.isIdentifier(el.name)) this.on(el.name, (b) => b.assigned.push(init));
    }
  }

  private open(node: ts.Node, parent: number): number {
    this.scopes.push({ start: node.pos, end: node.end, parent, names: new Map() });
    return this.scopes.length - 1;
  }

  private walk(node: ts.Node, parent: ts.Node, scope: number, fnScope: number): void {
    // by kind, from a table: every node of the file passes here, and most are read by nothing below
    const kind = this.kinds[node.kind]!;
    // types name no values the scan follows; a token (a name, a literal) has no children
    if (kind & (TYPE | TOKEN)) return;
    if (kind & RECORDED) this.record(node);
    if (kind & NAMED) this.declareNamed(node, scope);
    if (kind & FUNCTION) return this.walkFunction(node as ts.SignatureDeclaration, scope);
    // by kind: every node of the file passes here, and most open no scope
    const k = typescript.SyntaxKind;
    switch (node.kind) {
      case k.VariableDeclarationList: {
        const list = node as ts.VariableDeclarationList;
        this.declareVariables(
          list,
          list.flags & typescript.NodeFlags.BlockScoped ? scope : fnScope,
          parent.kind === k.VariableStatement && hasExportModifier(parent),
        );
        return this.children(node, scope, fnScope);
      }
      case k.Block:
      case k.CaseBlock:
      case k.ModuleBlock:
      case k.ForStatement:
        return this.children(node, this.open(node, scope), fnScope);
      case k.CatchClause: {
        const clause = node as ts.CatchClause;
        const inner = this.open(node, scope);
        if (clause.variableDeclaration) this.declarePattern(inner, clause.variableDeclaration.name, () => ({ kind: 'opaque', what: 'a caught error' }));
        return this.children(clause.block, inner, fnScope);
      }
      case k.ForOfStatement:
      case k.ForInStatement:
        return this.walkForInOf(node as ts.ForOfStatement | ts.ForInStatement, scope, fnScope);
    }
    this.children(node, scope, fnScope);
  }

  /** `for (const x of xs)`, `for (k in o)`: the loop's variables in a scope of their own, or a write to names declared elsewhere. */
  private walkForInOf(node: ts.ForOfStatement | ts.ForInStatement, scope: number, fnScope: number): void {
    const inner = this.open(node, scope);
    const init = node.initializer;
    if (typescript.isVariableDeclarationList(init)) {
      for (const d of init.declarations) {
        this.declarePattern(inner, d.name, (path) =>
          typescript.isForOfStatement(node) ? { kind: 'for-of', iterable: node.expression, path } : { kind: 'opaque', what: 'a for…in key' },
        );
      }
      typescript.forEachChild(node, (c) => (c === init ? undefined : this.walk(c, node, inner, fnScope)));
      return;
    }
    // `for (x of xs)` with `x` declared elsewhere: a write the scan does not follow
    for (const id of identifiersIn(init)) this.on(id, (b) => (b.opaque ??= 'a loop assigns it'));
    this.children(node, inner, fnScope);
  }

  /** The walk's position for `child`: one callback for every node rather than one made for each. */
  private atParent: ts.Node;
  private atScope = 0;
  private atFnScope = 0;
  private readonly child = (c: ts.Node): void => this.walk(c, this.atParent, this.atScope, this.atFnScope);

  /** Walks `node`'s children in `scope` (and `fnScope`, where a `var` goes). */
  private children(node: ts.Node, scope: number, fnScope: number): void {
    const parent = this.atParent;
    const outerScope = this.atScope;
    const outerFn = this.atFnScope;
    this.atParent = node;
    this.atScope = scope;
    this.atFnScope = fnScope;
    typescript.forEachChild(node, this.child);
    this.atParent = parent;
    this.atScope = outerScope;
    this.atFnScope = outerFn;
  }

  private walkFunction(fn: ts.SignatureDeclaration, scope: number): void {
    const s = this.open(fn, scope);
    if (typescript.isFunctionExpression(fn) && fn.name) this.declare(s, fn.name.text, { kind: 'function', node: fn });
    fn.parameters.forEach((p, index) => {
      const init = p.initializer;
      const rest = p.dotDotDotToken !== undefined;
      this.declarePattern(s, p.name, (path) => ({ kind: 'param', fn, index, path, rest, ...(init ? { init } : {}) }));
    });
    this.children(fn, s, s);
  }

  /** Classes, enums and function declarations: declared in the block they are written in. */
  private declareNamed(node: ts.Node, scope: number): void {
    // by kind: every node of the file passes here
    const k = typescript.SyntaxKind;
    switch (node.kind) {
      case k.ClassDeclaration: {
        const name = (node as ts.ClassDeclaration).name;
        if (name) this.declare(scope, name.text, { kind: 'opaque', what: 'a class' });
        return;
      }
      case k.EnumDeclaration:
        this.declare(scope, (node as ts.EnumDeclaration).name.text, { kind: 'opaque', what: 'an enum' });
        return;
      case k.FunctionDeclaration: {
        const fn = node as ts.FunctionDeclaration;
        if (!fn.name) return;
        this.declare(scope, fn.name.text, { kind: 'function', node: fn });
        this.holders.set(fn, { name: fn.name.text, pos: fn.name.end - 1, exported: hasExportModifier(fn) });
        return;
      }
      case k.ImportEqualsDeclaration: {
        const imp = node as ts.ImportEqualsDeclaration;
        if (!typescript.isExternalModuleReference(imp.moduleReference)) return;
        const ref = imp.moduleReference.expression;
        if (isStringLike(ref)) this.declare(scope, imp.name.text, { kind: 'import', specifier: ref.text, name: '*', path: [] });
        return;
      }
    }
  }

  private declareVariables(list: ts.VariableDeclarationList, target: number, exported: boolean): void {
    for (const d of list.declarations) {
      const init = d.initializer;
      this.declarePattern(target, d.name, (path) => ({ kind: 'var', ...(init ? { init } : {}), path }));
      const fn = init ? skipWrappers(init) : undefined;
      if (fn && typescript.isIdentifier(d.name) && (typescript.isArrowFunction(fn) || typescript.isFunctionExpression(fn)))
        this.holders.set(fn, { name: d.name.text, pos: d.name.end - 1, exported });
    }
  }

  private record(node: ts.Node): void {
    const k = typescript.SyntaxKind;
    switch (node.kind) {
      case k.BinaryExpression:
        this.onAssignment(node as ts.BinaryExpression);
        return;
      case k.CallExpression:
      case k.NewExpression:
        this.onCall(node as ts.CallExpression | ts.NewExpression);
        return;
    }
  }

  private onAssignment(node: ts.BinaryExpression): void {
    if (!isAssigning(node.operatorToken.kind)) return;
    const left = skipWrappers(node.left);
    const value = node.right;
    if (typescript.isIdentifier(left)) return this.on(left, (b) => b.assigned.push(value));
    if (typescript.isObjectLiteralExpression(left) || typescript.isArrayLiteralExpression(left)) {
      for (const id of identifiersIn(left)) this.on(id, (b) => (b.opaque ??= 'a destructuring assignment'));
      return;
    }
    // `x.k = v`, `x[i] = v`, `x.tools = v`: v is now part of x
    this.addTo(left, value, true);
  }

  private onCall(node: ts.CallExpression | ts.NewExpression): void {
    const callee = skipWrappers(node.expression);
    if (typescript.isCallExpression(node) && typescript.isPropertyAccessExpression(callee) && GROWING.has(callee.name.text)) {
      const items = callee.name.text === 'splice' ? node.arguments.slice(2) : [...node.arguments];
      for (const item of items) this.addTo(callee.expression, item, false);
      return;
    }
    // a name handed to a function the scan does not follow: that function may change what it holds
    // (the callee is resolved only for a call that hands on a name: most hand on none)
    const args = node.arguments ?? [];
    if (!args.some((arg) => typescript.isIdentifier(skipWrappers(arg))) || isPureGlobal(callee) || this.isSdkCallee(node.expression)) return;
    for (const arg of args) {
      const a = skipWrappers(arg);
      if (typescript.isIdentifier(a)) this.on(a, (b) => (b.escapes = true));
    }
  }

  /** `value` put into `target` (`target.push(value)`, `target[i] = value`); `assigned`: `target.k = value`. */
  private addTo(target: ts.Expression, value: ts.Expression, assigned: boolean): void {
    let root = skipWrappers(target);
    let partOfAgent = false;
    let depth = 0;
    // the property of the root the value goes under (`x.k…`), undefined for an element (`x[i]`, `x.push`)
    let key: string | undefined;
    while (typescript.isPropertyAccessExpression(root) || typescript.isElementAccessExpression(root)) {
      if (typescript.isPropertyAccessExpression(root) && PART_KEYS.has(root.name.text)) partOfAgent = true;
      key = typescript.isPropertyAccessExpression(root) ? root.name.text : isStringLike(root.argumentExpression) ? root.argumentExpression.text : undefined;
      root = skipWrappers(root.expression);
      depth++;
    }
    if (depth === 0) key = undefined;
    if (assigned && depth === 0) return;
    // an agent's parts grown through a receiver the file does not hold (`a.tools.push(t)` in a helper
    // whose `a` is a parameter, `this.agent.tools = …`, an imported agent): every run may reach it
    const loose = (): void => {
      if (partOfAgent) this.looseParts.push(value);
    };
    if (!typescript.isIdentifier(root)) return loose();
    const held = (b: Binding): boolean => b.declared.kind === 'var' || b.declared.kind === 'function' || b.declared.kind === 'for-of';
    this.on(root, (b) => (held(b) ? b.added.push({ value, ...(key !== undefined ? { key } : {}) }) : loose()), loose);
  }

  private innermost(pos: number): number {
    // scopes are in pre-order, so sorted by start; the last that starts at or before pos and
    // contains it is the innermost (siblings never overlap)
    const scopes = this.scopes;
    let lo = 0;
    let hi = scopes.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (scopes[mid]!.start <= pos) lo = mid;
      else hi = mid - 1;
    }
    let i = lo;
    while (i > 0 && !(scopes[i]!.start <= pos && pos < scopes[i]!.end)) i = scopes[i]!.parent;
    return i;
  }

  private lookup(name: string, pos: number): Binding | undefined {
    for (let i = this.innermost(pos); i !== -1; i = this.scopes[i]!.parent) {
      const b = this.scopes[i]!.names.get(name);
      if (b) return b;
    }
    return undefined;
  }
}

/** What the walk does with a node of a kind (bits): skip it (a type, a token), record it, declare its name, open a function. */
const TYPE = 1;
const RECORDED = 2;
const NAMED = 4;
const FUNCTION = 8;
const TOKEN = 16;
let kindTable: Uint8Array | undefined;

/**
 * By syntax kind, what the walk does (the compiler's `isTypeNode` but an `extends` clause's
 * expression, `record`'s kinds, `declareNamed`'s, `isFunctionLike`): all test the kind only.
 */
function walkKinds(): Uint8Array {
  if (kindTable) return kindTable;
  const k = typescript.SyntaxKind;
  const table = new Uint8Array(k.Count);
  for (let kind = 0; kind < table.length; kind++) {
    const probe = { kind } as ts.Node;
    if (typescript.isTypeNode(probe) && kind !== k.ExpressionWithTypeArguments) table[kind] = TYPE;
    else if (typescript.isFunctionLike(probe)) table[kind] = FUNCTION;
    if (kind <= k.LastToken) table[kind]! |= TOKEN;
  }
  for (const kind of [k.BinaryExpression, k.CallExpression, k.NewExpression]) table[kind]! |= RECORDED;
  // a function declaration is also function-like: its name is declared, then it opens its scope
  for (const kind of [k.ClassDeclaration, k.EnumDeclaration, k.FunctionDeclaration, k.ImportEqualsDeclaration]) table[kind]! |= NAMED;
  kindTable = table;
  return table;
}

export function hasExportModifier(node: ts.Node): boolean {
  return typescript.canHaveModifiers(node) && !!typescript.getModifiers(node)?.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword);
}

/** A read of a name: as a callee, in an export, or a use the scan does not follow (a callback, a value stored). */
function refKind(id: ts.Identifier, parent: ts.Node): Ref {
  if ((typescript.isCallExpression(parent) || typescript.isNewExpression(parent)) && skipWrappers(parent.expression) === id) return { call: parent };
  if (typescript.isExportSpecifier(parent) || typescript.isExportAssignment(parent)) return { exported: true };
  return {};
}

function elementKey(el: ts.BindingElement): string | undefined {
  return propertyName((el.propertyName ?? (typescript.isIdentifier(el.name) ? el.name : undefined)) as ts.PropertyName | undefined);
}

/** The bindings an import statement makes (`import`, top-level `require`). */
function declareImport(st: ts.Statement, declare: (name: string, d: Declared) => void): void {
  if (typescript.isImportDeclaration(st) && isStringLike(st.moduleSpecifier)) {
    const clause = st.importClause;
    if (!clause || clause.isTypeOnly) return;
    const specifier = st.moduleSpecifier.text;
    if (clause.name) declare(clause.name.text, { kind: 'import', specifier, name: 'default', path: [] });
    const nb = clause.namedBindings;
    if (nb && typescript.isNamespaceImport(nb)) declare(nb.name.text, { kind: 'import', specifier, name: '*', path: [] });
    if (nb && typescript.isNamedImports(nb)) {
      for (const el of nb.elements) {
        if (!el.isTypeOnly) declare(el.name.text, { kind: 'import', specifier, name: (el.propertyName ?? el.name).text, path: [] });
      }
    }
    return;
  }
  if (!typescript.isVariableStatement(st)) return;
  for (const d of st.declarationList.declarations) {
    const init = d.initializer ? skipWrappers(d.initializer) : undefined;
    // `const { a } = require(spec)`, `const m = require(spec)`, `const a = require(spec).a` (spec: a relative path)
    let specifier = requiredModule(init);
    let path: PathStep[] = [];
    if (specifier === undefined && init && typescript.isPropertyAccessExpression(init)) {
      specifier = requiredModule(skipWrappers(init.expression));
      path = [init.name.text];
    }
    if (specifier !== undefined) requireBindings(d.name, path, specifier, declare);
  }
}

function requireBindings(name: ts.BindingName, at: PathStep[], specifier: string, declare: (name: string, d: Declared) => void): void {
  if (typescript.isIdentifier(name)) {
    const [first, ...rest] = at;
    declare(name.text, { kind: 'import', specifier, name: first ?? '*', path: first === undefined ? [] : rest });
    return;
  }
  for (const el of name.elements) {
    if (typescript.isOmittedExpression(el)) continue;
    const key = typescript.isObjectBindingPattern(name) && !el.dotDotDotToken ? elementKey(el) : undefined;
    requireBindings(el.name, [...at, key], specifier, declare);
  }
}

function isPureGlobal(callee: ts.Expression): boolean {
  let root = callee;
  while (typescript.isPropertyAccessExpression(root)) root = skipWrappers(root.expression);
  return typescript.isIdentifier(root) && PURE_GLOBALS.has(root.text);
}

/** The identifiers a destructuring target writes (`[a, { b }] = …`). */
function identifiersIn(node: ts.Node): ts.Identifier[] {
  const out: ts.Identifier[] = [];
  const visit = (n: ts.Node): void => {
    if (typescript.isIdentifier(n)) out.push(n);
    else if (typescript.isPropertyAssignment(n)) visit(n.initializer);
    else if (typescript.isShorthandPropertyAssignment(n)) out.push(n.name);
    else typescript.forEachChild(n, visit);
  };
  visit(node);
  return out;
}
