import type { ts } from 'ts-morph';
import { follow } from './type-trail.js';
import { typescript } from './typescript.js';
import type { TypeFile, WrittenType } from './written-type.js';

/*
 * The values a written type names (issue 40): `typeof last` reads the type the file writes for
 * `last`. Only the file's top is read, as what is written there (a variable's annotation, a
 * function's return type), never what would be inferred from a value.
 */

/** A value the file's top declares: a variable, or one declaration of a function (each overload is one). */
export type TopValue = ts.VariableDeclaration | ts.FunctionDeclaration;

/** The declarations of the value `name` at the file's top, in the order they are written. */
export function topValues(name: string, sf: ts.SourceFile): TopValue[] {
  const out: TopValue[] = [];
  for (const s of sf.statements) {
    if (typescript.isFunctionDeclaration(s) && s.name?.text === name) out.push(s);
    if (typescript.isVariableStatement(s)) out.push(...s.declarationList.declarations.filter((d) => typescript.isIdentifier(d.name) && d.name.text === name));
  }
  return out;
}

/** The name `typeof name` queries, or undefined when `type` is no query of a plain name (`typeof api.load` is not read). */
export function queriedName(type: ts.TypeNode): string | undefined {
  return typescript.isTypeQueryNode(type) && typescript.isIdentifier(type.exprName) ? type.exprName.text : undefined;
}

/**
 * The written type of the value `typeof x` names: a variable the file declares at its top with a
 * written type (`declare const last: { state: RunState }`); undefined for any other.
 */
export function queriedType(type: ts.TypeNode, file: TypeFile): WrittenType | undefined {
  const name = queriedName(type);
  const decl = name === undefined ? undefined : topValues(name, file.sf).find(typescript.isVariableDeclaration);
  const followed = decl?.type && follow(type, file);
  return decl?.type && followed ? { sf: file.sf, names: file.names, followed, type: decl.type } : undefined;
}
