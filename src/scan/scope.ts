import { ts } from 'ts-morph';

/** A name a scope declares, with the node that declares it (a variable declaration, a parameter, ...). */
export interface ScopeDeclaration {
  name: string;
  declaration: ts.Node;
}

/**
 * Names a node's own scope declares, restricted to `interesting` (the file's SDK bindings and the
 * names of possible aliases), so a nested `const tool = ...`, a parameter `tool` or a local
 * `function tool` shadows the import — and a nested `const t = sdk.tool` can bind `t`.
 * Syntactic only; `var` is hoisted to its function.
 */
export function scopeDeclarations(node: ts.Node, interesting: ReadonlySet<string>): ScopeDeclaration[] {
  if (interesting.size === 0) return [];
  const out: ScopeDeclaration[] = [];
  const add = (name: ts.BindingName | ts.Identifier | undefined, declaration: ts.Node) => collectBindingNames(name, declaration, interesting, out);

  if (ts.isBlock(node) || ts.isModuleBlock(node) || ts.isCaseBlock(node)) {
    const statements = ts.isCaseBlock(node) ? node.clauses.flatMap((c) => [...c.statements]) : node.statements;
    for (const st of statements) declaredByStatement(st, add);
  } else if (ts.isFunctionLike(node)) {
    const fn = node as ts.SignatureDeclaration;
    if ((ts.isFunctionExpression(node) || ts.isClassExpression(node)) && node.name) add(node.name, node);
    for (const p of fn.parameters) add(p.name, p);
    const body = (node as ts.FunctionLikeDeclarationBase).body;
    if (body && ts.isBlock(body)) collectHoistedVars(body, add);
  } else if (ts.isCatchClause(node)) {
    if (node.variableDeclaration) add(node.variableDeclaration.name, node.variableDeclaration);
  } else if (ts.isForStatement(node) || ts.isForInStatement(node) || ts.isForOfStatement(node)) {
    const init = node.initializer;
    // A loop variable is never an alias of the SDK (its value changes): declared by the loop itself.
    if (init && ts.isVariableDeclarationList(init)) for (const d of init.declarations) add(d.name, node);
  } else if (ts.isClassExpression(node) && node.name) {
    add(node.name, node);
  }
  return out;
}

/** Names only (the old shape, for callers that need no declarations). */
export function declaredNames(node: ts.Node, interesting: ReadonlySet<string>): string[] {
  return scopeDeclarations(node, interesting).map((d) => d.name);
}

function declaredByStatement(st: ts.Statement, add: (n: ts.BindingName | ts.Identifier | undefined, d: ts.Node) => void): void {
  if (ts.isVariableStatement(st)) {
    // `var` is hoisted to the function and reported there.
    if (!(st.declarationList.flags & ts.NodeFlags.BlockScoped)) return;
    for (const d of st.declarationList.declarations) add(d.name, d);
  } else if (ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isEnumDeclaration(st)) {
    add(st.name, st);
  } else if (ts.isImportEqualsDeclaration(st)) {
    add(st.name, st);
  }
}

function collectHoistedVars(node: ts.Node, add: (n: ts.BindingName | ts.Identifier | undefined, d: ts.Node) => void): void {
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n) || ts.isClassLike(n)) return;
    if (ts.isVariableDeclarationList(n) && !(n.flags & ts.NodeFlags.BlockScoped)) {
      for (const d of n.declarations) add(d.name, d);
    }
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(node, visit);
}

function collectBindingNames(name: ts.BindingName | ts.Identifier | undefined, declaration: ts.Node, interesting: ReadonlySet<string>, out: ScopeDeclaration[]): void {
  if (!name) return;
  if (ts.isIdentifier(name)) {
    if (interesting.has(name.text)) out.push({ name: name.text, declaration });
    return;
  }
  for (const el of name.elements) {
    if (ts.isOmittedExpression(el)) continue;
    collectBindingNames(el.name, declaration, interesting, out);
  }
}
