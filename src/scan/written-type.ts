import type { ts } from 'ts-morph';
import type { SdkTypeNames } from './written-sdk-type.js';

/*
 * What the readers of written types pass along (issue 40): a type node with the file it is written
 * in, whose imports say what its names are, and the type parameters bound where it is read. Its own
 * module so that the member reader and the shape walker it calls share it without a cycle.
 */

/** The file a type is read in: its SDK names, and the type parameters bound there. */
export interface TypeFile {
  sf: ts.SourceFile;
  names: SdkTypeNames;
  /** The type parameters in reach where a type is written, bound to what the reference gave (type-shapes.ts). */
  params?: TypeParams;
  /** The references followed to reach this file's declaration, innermost first: one met again is a cycle (type-shapes.ts). */
  followed?: readonly ts.Node[];
}

/** A written type and the file it is written in. */
export interface WrittenType extends TypeFile {
  type: ts.TypeNode;
  /** Set when the object is a union a test around the use may or may not narrow: any alternative that is the SDK's makes the answer the SDK's. */
  unsure?: boolean;
}

/** A generic declaration's type parameters, each bound to the type argument (or default) it was given. */
export type TypeParams = ReadonlyMap<string, WrittenType>;
