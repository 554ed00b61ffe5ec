import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';

/** A name a scope declares, with the node that declares it (a variable declaration, a parameter, ...). */
export interface ScopeDeclaration {
  name: string;
  declaration: ts.Node;
}

/**
 * Names a node's own scope declares, restricted to `interesting` (the file's SDK bindings and the
 * names of possible aliases), so a nested `const tool = ...`, a parameter `tool` or a local
 * `function tool` shadows the import — and a nested `const t = sdk.tool` can bind `t`.
 * Syntactic only; `var` is hoisted to its function: read from `hoisted` when the caller found them
 * already (`walkHoistingVars`), else by walking the function's body.
 */
export function scopeDeclarations(node: ts.Node, interesting: ReadonlySet<string>, hoisted?: HoistedVars): readonly ScopeDeclaration[] {
  // asked of every node of a file: most (identifiers, expressions) make no scope, and answer without allocating
  if (interesting.size === 0 || !makesScope(node)) return NONE;
  return declarationsOf(node, interesting, hoisted);
}

/**
 * Every name a node's own scope declares, each with its first declaration there: what
 * `scopeDeclarations(node, new Set([name]), hoisted)[0]` gives for each name (the same walk, no name
 * left out), so a lookup asked many times of one scope reads it once (local-values.ts).
 */
export function firstDeclarations(node: ts.Node, hoisted?: HoistedVars): ReadonlyMap<string, ts.Node> {
  const first = new Map<string, ts.Node>();
  if (!makesScope(node)) return first;
  for (const d of declarationsOf(node, EVERY_NAME, hoisted)) if (!first.has(d.name)) first.set(d.name, d.declaration);
  return first;
}

/** What a scope's declarations are kept by: the names asked for (a set), or every name. */
interface NameFilter {
  has(name: string): boolean;
}

const EVERY_NAME: NameFilter = { has: () => true };

function declarationsOf(node: ts.Node, keep: NameFilter, hoisted: HoistedVars | undefined): ScopeDeclaration[] {
  const out: ScopeDeclaration[] = [];
  const add = (name: ts.BindingName | ts.Identifier | undefined, declaration: ts.Node) => collectBindingNames(name, declaration, keep, out);

  if (typescript.isBlock(node) || typescript.isModuleBlock(node) || typescript.isCaseBlock(node)) {
    const statements = typescript.isCaseBlock(node) ? node.clauses.flatMap((c) => [...c.statements]) : node.statements;
    for (const st of statements) declaredByStatement(st, add);
  } else if (typescript.isFunctionLike(node)) {
    const fn = node as ts.SignatureDeclaration;
    if ((typescript.isFunctionExpression(node) || typescript.isClassExpression(node)) && node.name) add(node.name, node);
    for (const p of fn.parameters) add(p.name, p);
    const body = (node as ts.FunctionLikeDeclarationBase).body;
    if (body && typescript.isBlock(body)) {
      if (!hoisted) collectHoistedVars(body, add);
      else for (const d of hoisted.get(node) ?? []) add(d.name, d);
    }
  } else if (typescript.isCatchClause(node)) {
    if (node.variableDeclaration) add(node.variableDeclaration.name, node.variableDeclaration);
  } else if (typescript.isForStatement(node) || typescript.isForInStatement(node) || typescript.isForOfStatement(node)) {
    const init = node.initializer;
    // A loop variable is never an alias of the SDK (its value changes): declared by the loop itself.
    if (init && typescript.isVariableDeclarationList(init)) for (const d of init.declarations) add(d.name, node);
  } else if (typescript.isClassExpression(node) && node.name) {
    add(node.name, node);
  }
  return out;
}

const NONE: readonly ScopeDeclaration[] = Object.freeze([]);

/** The nodes `scopeDeclarations` reads: blocks, functions, catch clauses, loops, class expressions. */
function makesScope(node: ts.Node): boolean {
  return scopeKinds()[node.kind] === 1;
}

let scopeTable: Uint8Array | undefined;

/**
 * By syntax kind, 1 where a node may declare names of its own scope (what `scopeDeclarations`
 * reads): a walk over every node of a file tests the kind here rather than calling it for each.
 */
export function scopeKinds(): Uint8Array {
  if (scopeTable) return scopeTable;
  const k = typescript.SyntaxKind;
  const owners = ownerKinds();
  const table = new Uint8Array(owners.length);
  for (let kind = 0; kind < table.length; kind++) if (owners[kind] === FUNCTION) table[kind] = 1;
  for (const kind of [k.Block, k.ModuleBlock, k.CaseBlock, k.CatchClause, k.ForStatement, k.ForInStatement, k.ForOfStatement, k.ClassExpression])
    table[kind] = 1;
  scopeTable = table;
  return table;
}

/**
 * An ambient declaration (`declare const tool: ...`, `declare function tool(...)`) binds a name for
 * the type checker only: nothing is emitted, so at run time the name still reaches the enclosing
 * binding (an SDK import). It never shadows.
 */
const isAmbient = (st: ts.Statement): boolean =>
  typescript.canHaveModifiers(st) && !!typescript.getModifiers(st)?.some((m) => m.kind === typescript.SyntaxKind.DeclareKeyword);

function declaredByStatement(st: ts.Statement, add: (n: ts.BindingName | ts.Identifier | undefined, d: ts.Node) => void): void {
  if (isAmbient(st)) return;
  if (typescript.isVariableStatement(st)) {
    // `var` is hoisted to the function and reported there.
    if (!(st.declarationList.flags & typescript.NodeFlags.BlockScoped)) return;
    for (const d of st.declarationList.declarations) add(d.name, d);
  } else if (typescript.isFunctionDeclaration(st) || typescript.isClassDeclaration(st) || typescript.isEnumDeclaration(st)) {
    add(st.name, st);
  } else if (typescript.isImportEqualsDeclaration(st)) {
    add(st.name, st);
  }
}

/** The `var` declarations of a file by the function each is hoisted to, in the order `collectHoistedVars` finds them. */
export type HoistedVars = ReadonlyMap<ts.Node, readonly ts.VariableDeclaration[]>;

/**
 * A walk of a file that keeps, for each node, the function or class it is in, and files each `var`
 * declaration under its function (none under a class): what `collectHoistedVars` finds by walking
 * each function's body again, found in a walk the scan makes anyway (issue 40, item 8). `onNode`
 * is called for each node whose kind `kinds` marks (1), in the order `forEachChild` gives.
 */
export function walkHoistingVars(sf: ts.SourceFile, hoisted: Map<ts.Node, ts.VariableDeclaration[]>, kinds: Uint8Array, onNode: (n: ts.Node) => void): void {
  const owners = ownerKinds();
  const list = typescript.SyntaxKind.VariableDeclarationList;
  const blockScoped = typescript.NodeFlags.BlockScoped;
  // the innermost function or class around the node being visited (undefined: the file itself)
  let owner: ts.Node | undefined;
  const lastToken = typescript.SyntaxKind.LastToken;
  const visit = (n: ts.Node): void => {
    if (kinds[n.kind] === 1) onNode(n);
    // a token (a name, a literal, a keyword) has no children: not handed to forEachChild
    if (n.kind <= lastToken) return;
    if (n.kind === list && !(n.flags & blockScoped) && owner !== undefined && owners[owner.kind] === FUNCTION) {
      const vars = hoisted.get(owner) ?? [];
      if (vars.length === 0) hoisted.set(owner, vars);
      for (const d of (n as ts.VariableDeclarationList).declarations) vars.push(d);
    }
    if (owners[n.kind] === 0) typescript.forEachChild(n, visit);
    else {
      const outer = owner;
      owner = n;
      typescript.forEachChild(n, visit);
      owner = outer;
    }
  };
  visit(sf);
}

const FUNCTION = 1;
const CLASS = 2;
// a table of the compiler's kinds, made once the compiler is loaded (this module must not load it)
let ownerTable: Uint8Array | undefined;

/** By syntax kind: a function (the compiler's `isFunctionLike`), a class (`isClassLike`), or neither; both test the kind only. */
function ownerKinds(): Uint8Array {
  if (ownerTable) return ownerTable;
  const table = new Uint8Array(typescript.SyntaxKind.Count);
  for (let kind = 0; kind < table.length; kind++) {
    const probe = { kind } as ts.Node;
    table[kind] = typescript.isFunctionLike(probe) ? FUNCTION : typescript.isClassLike(probe) ? CLASS : 0;
  }
  ownerTable = table;
  return table;
}

function collectHoistedVars(node: ts.Node, add: (n: ts.BindingName | ts.Identifier | undefined, d: ts.Node) => void): void {
  const visit = (n: ts.Node): void => {
    if (typescript.isFunctionLike(n) || typescript.isClassLike(n)) return;
    if (typescript.isVariableDeclarationList(n) && !(n.flags & typescript.NodeFlags.BlockScoped)) {
      for (const d of n.declarations) add(d.name, d);
    }
    typescript.forEachChild(n, visit);
  };
  typescript.forEachChild(node, visit);
}

function collectBindingNames(name: ts.BindingName | ts.Identifier | undefined, declaration: ts.Node, keep: NameFilter, out: ScopeDeclaration[]): void {
  if (!name) return;
  if (typescript.isIdentifier(name)) {
    if (keep.has(name.text)) out.push({ name: name.text, declaration });
    return;
  }
  for (const el of name.elements) {
    if (typescript.isOmittedExpression(el)) continue;
    collectBindingNames(el.name, declaration, keep, out);
  }
}
