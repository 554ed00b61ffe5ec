import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';

/*
 * Which declaration a type name written inside a function, class or block stands for (issue 40, no
 * false alarm): TypeScript resolves a type name innermost scope first, so a `type RunState = …` in
 * the function, or a function's, class's or alias's type parameter named `RunState`, hides the
 * file's import of the SDK's `RunState`. The file's own top level (its imports and declarations)
 * is left to the readers, which know how to read it. Syntactic only: the file is parsed without
 * parent links, so the way down to the name is found by position.
 */

/** A type a scope inside the file declares: a block's alias, interface, class or enum, or a type parameter. */
export type InnerTypeDeclaration = ts.TypeAliasDeclaration | ts.InterfaceDeclaration | ts.ClassDeclaration | ts.EnumDeclaration | ts.TypeParameterDeclaration;

/**
 * The declaration of the type name `name` in scope at `at` below the file's top level, innermost
 * first, or undefined when none there declares it (or `at` is not a node of `sf`).
 */
export function innerTypeDeclaration(name: string, at: ts.Node, sf: ts.SourceFile): InnerTypeDeclaration | undefined {
  const path = pathTo(at, sf);
  if (path === undefined) return undefined;
  for (let i = path.length - 1; i >= 0; i--) {
    const found = declaredIn(path[i]!, name);
    if (found) return found;
  }
  return undefined;
}

/** The nodes from the file's top (the file excluded) down to `at`'s parent, or undefined when `at` is not in `sf`. */
function pathTo(at: ts.Node, sf: ts.SourceFile): ts.Node[] | undefined {
  if (at.pos < sf.pos || at.end > sf.end) return undefined;
  const path: ts.Node[] = [];
  let node: ts.Node = sf;
  while (node !== at) {
    let next: ts.Node | undefined;
    typescript.forEachChild(node, (c) => {
      if (c === at || (c.pos <= at.pos && at.end <= c.end && c.end > c.pos)) {
        next = c;
        return true;
      }
      return undefined;
    });
    if (next === undefined) return undefined;
    if (next !== at) path.push(next);
    node = next;
  }
  return path;
}

/** The type named `name` a node's own scope declares: a block's statements, or a declaration's type parameters. */
function declaredIn(node: ts.Node, name: string): InnerTypeDeclaration | undefined {
  if (typescript.isBlock(node) || typescript.isModuleBlock(node) || typescript.isCaseBlock(node)) {
    const statements = typescript.isCaseBlock(node) ? node.clauses.flatMap((c) => [...c.statements]) : node.statements;
    for (const s of statements) if (declaresType(s) && s.name?.text === name) return s;
    return undefined;
  }
  if (typescript.isMappedTypeNode(node)) return node.typeParameter.name.text === name ? node.typeParameter : undefined;
  const params = typeParametersOf(node);
  return params?.find((p) => p.name.text === name);
}

const declaresType = (s: ts.Statement): s is Exclude<InnerTypeDeclaration, ts.TypeParameterDeclaration> =>
  typescript.isTypeAliasDeclaration(s) || typescript.isInterfaceDeclaration(s) || typescript.isClassDeclaration(s) || typescript.isEnumDeclaration(s);

/** The type parameters a function, class, interface or alias declares (in scope in all of it), if any. */
function typeParametersOf(node: ts.Node): readonly ts.TypeParameterDeclaration[] | undefined {
  if (typescript.isFunctionLike(node)) return (node as ts.SignatureDeclaration).typeParameters;
  if (typescript.isClassLike(node) || typescript.isInterfaceDeclaration(node) || typescript.isTypeAliasDeclaration(node)) return node.typeParameters;
  return undefined;
}
