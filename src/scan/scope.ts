import { ts } from 'ts-morph';

/**
 * Names a node's own scope declares, restricted to `interesting` (the file's SDK bindings), so a
 * nested `const tool = ...`, a parameter `tool` or a local `function tool` shadows the import.
 * Syntactic only; `var` is hoisted to its function.
 */
export function declaredNames(node: ts.Node, interesting: ReadonlySet<string>): string[] {
  if (interesting.size === 0) return [];
  const out: string[] = [];
  const add = (name: ts.BindingName | ts.Identifier | undefined) => collectBindingNames(name, interesting, out);

  if (ts.isBlock(node) || ts.isModuleBlock(node) || ts.isCaseBlock(node)) {
    const statements = ts.isCaseBlock(node) ? node.clauses.flatMap((c) => [...c.statements]) : node.statements;
    for (const st of statements) declaredByStatement(st, add);
  } else if (ts.isFunctionLike(node)) {
    const fn = node as ts.SignatureDeclaration;
    if ((ts.isFunctionExpression(node) || ts.isClassExpression(node)) && node.name) add(node.name);
    for (const p of fn.parameters) add(p.name);
    const body = (node as ts.FunctionLikeDeclarationBase).body;
    if (body && ts.isBlock(body)) collectHoistedVars(body, add);
  } else if (ts.isCatchClause(node)) {
    if (node.variableDeclaration) add(node.variableDeclaration.name);
  } else if (ts.isForStatement(node) || ts.isForInStatement(node) || ts.isForOfStatement(node)) {
    const init = node.initializer;
    if (init && ts.isVariableDeclarationList(init)) for (const d of init.declarations) add(d.name);
  } else if (ts.isClassExpression(node) && node.name) {
    add(node.name);
  }
  return out;
}

function declaredByStatement(st: ts.Statement, add: (n: ts.BindingName | ts.Identifier | undefined) => void): void {
  if (ts.isVariableStatement(st)) {
    for (const d of st.declarationList.declarations) add(d.name);
  } else if (ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isEnumDeclaration(st)) {
    add(st.name);
  } else if (ts.isImportEqualsDeclaration(st)) {
    add(st.name);
  }
}

function collectHoistedVars(node: ts.Node, add: (n: ts.BindingName | ts.Identifier | undefined) => void): void {
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n) || ts.isClassLike(n)) return;
    if (ts.isVariableDeclarationList(n) && !(n.flags & ts.NodeFlags.BlockScoped)) {
      for (const d of n.declarations) add(d.name);
    }
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(node, visit);
}

function collectBindingNames(name: ts.BindingName | ts.Identifier | undefined, interesting: ReadonlySet<string>, out: string[]): void {
  if (!name) return;
  if (ts.isIdentifier(name)) {
    if (interesting.has(name.text)) out.push(name.text);
    return;
  }
  for (const el of name.elements) {
    if (ts.isOmittedExpression(el)) continue;
    collectBindingNames(el.name, interesting, out);
  }
}
