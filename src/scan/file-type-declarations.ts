import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';

/*
 * The declarations of a type name at a file's top (issue 40, no silent break): an interface may be
 * declared twice in one file and a class may share its name with an interface (declaration merging:
 * the type has the members of all), so a reader of a member asks each, not the first alone.
 */

/** A type a file declares at its top that has members or names a type. */
export type FileTypeDeclaration = ts.TypeAliasDeclaration | ts.InterfaceDeclaration | ts.ClassDeclaration;

/** Every declaration of the type `name` at the file's top, in the file's order. */
export function fileTypeDeclarations(sf: ts.SourceFile, name: string): FileTypeDeclaration[] {
  return sf.statements.filter(
    (s): s is FileTypeDeclaration =>
      (typescript.isTypeAliasDeclaration(s) || typescript.isInterfaceDeclaration(s) || typescript.isClassDeclaration(s)) && s.name?.text === name,
  );
}
