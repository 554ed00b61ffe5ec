import type { ts } from 'ts-morph';
import { collectModuleImports } from './imports.js';
import { typescript } from './typescript.js';
import { sdkTypeNames } from './written-sdk-type.js';

/*
 * Whether a module of the app declares a type of its own under a name the SDK uses (issue 40): a
 * workflow engine's `interface RunState` imported by a helper is the app's type, and its
 * `approve` no SDK answer. Only a declaration counts: a re-export (`export type { RunState } from
 * './engine.js'`) is not followed, and a declaration that names the SDK's types (`type RunState =
 * S<any, any>`, `interface RunState extends S`) is the SDK's under another name: both stay taken for
 * the SDK's, failing closed.
 */

/** Whether `sf` declares a class, interface, type alias or enum named `name` that names none of the SDK's imports. */
export function declaresOwnType(sf: ts.SourceFile, name: string): boolean {
  const decl = sf.statements.find(
    (s): s is ts.ClassDeclaration | ts.InterfaceDeclaration | ts.TypeAliasDeclaration | ts.EnumDeclaration =>
      (typescript.isClassDeclaration(s) || typescript.isInterfaceDeclaration(s) || typescript.isTypeAliasDeclaration(s) || typescript.isEnumDeclaration(s)) &&
      s.name?.text === name,
  );
  if (decl === undefined) return false;
  const sdk = sdkTypeNames(collectModuleImports(sf));
  const mentions = (node: ts.Node): boolean =>
    (typescript.isIdentifier(node) && (sdk.named.has(node.text) || sdk.namespaces.has(node.text))) || typescript.forEachChild(node, mentions) === true;
  // a class's members may use the SDK (a wrapper holding a run's state); what it is, its heritage and alias, may not
  const parts: readonly ts.Node[] = typescript.isTypeAliasDeclaration(decl)
    ? [decl.type]
    : typescript.isEnumDeclaration(decl)
      ? []
      : [...(decl.heritageClauses ?? [])];
  return !parts.some(mentions);
}
