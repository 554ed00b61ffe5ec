import type { ts } from 'ts-morph';
import { declarationOf, unwrapValue } from './local-values.js';
import type { HoistedVars } from './scope.js';
import { fieldFromThis, thisClassAt, thisField } from './this-fields.js';
import { typescript } from './typescript.js';
import type { SdkTypeNames } from './written-sdk-type.js';

/*
 * The written type of a value read from a map (issue 40: pending runs kept by id, `pending.get(id)!`
 * over `new Map<string, Pending>()`, or a class's `this.runs.get(id)!.state` over `private runs = new
 * Map<string, RunResult>()`). The map is a local, a parameter or a class field whose type is written
 * `Map<K, V>` / `ReadonlyMap<K, V>` / `WeakMap<K, V>` (or a file-local alias of one), or which is
 * made by `new Map<K, V>(…)` / `new WeakMap<K, V>(…)`; nothing is inferred.
 */

/** The aliases followed to a map type (`type Sessions = Map<…>`, renamed in each layer): one met again is a cycle; no count of renames is too many. */
type Seen = ReadonlySet<ts.Node>;

/** The map types whose second type argument is the value `get` returns. */
const MAP_NAME = /^(?:Readonly|Weak)?Map$/;

/** A map's value type; with the file it is written in when that is another file of the app (an alias it exports). */
export interface HeldType {
  type: ts.TypeNode;
  from?: { sf: ts.SourceFile; names: SdkTypeNames };
}

/**
 * `V` of a type written `Map<K, V>` / `ReadonlyMap<K, V>` / `WeakMap<K, V>`, or a top-level alias
 * of `sf` naming one, or an alias another file of the app exports (`names.imported`), else of an
 * initializer `new Map<K, V>(…)` / `new WeakMap<K, V>(…)`.
 */
export function mapValueType(
  type: ts.TypeNode | undefined,
  initializer: ts.Expression | undefined,
  sf?: ts.SourceFile,
  names?: SdkTypeNames,
): HeldType | undefined {
  if (type) return writtenMapValue(type, sf, names, undefined, new Set());
  const init = initializer && unwrapValue(initializer);
  if (init && typescript.isNewExpression(init) && typescript.isIdentifier(init.expression) && MAP_NAME.test(init.expression.text)) {
    const v = init.typeArguments?.[1];
    return v && { type: v };
  }
  return undefined;
}

function writtenMapValue(
  type: ts.TypeNode,
  sf: ts.SourceFile | undefined,
  names: SdkTypeNames | undefined,
  from: HeldType['from'],
  seen: Seen,
): HeldType | undefined {
  if (!typescript.isTypeReferenceNode(type) || !typescript.isIdentifier(type.typeName)) return undefined;
  const name = type.typeName.text;
  if (MAP_NAME.test(name)) {
    const v = type.typeArguments?.[1];
    return v && (from ? { type: v, from } : { type: v });
  }
  if (type.typeArguments !== undefined) return undefined;
  // a file-local alias without type parameters (`type Sessions = Map<string, RealtimeSession>`)
  const alias = sf?.statements.find(
    (s): s is ts.TypeAliasDeclaration => typescript.isTypeAliasDeclaration(s) && s.name.text === name && s.typeParameters === undefined,
  );
  if (alias) return seen.has(alias) ? undefined : writtenMapValue(alias.type, sf, names, from, new Set([...seen, alias]));
  // an alias another file of the app exports (`import type { Runs } from './types.js'`), read with its names
  const other = names?.imported?.(name);
  if (other?.kind !== 'declared' || !typescript.isTypeAliasDeclaration(other.decl) || other.decl.typeParameters !== undefined) return undefined;
  if (seen.has(other.decl)) return undefined;
  return writtenMapValue(other.decl.type, other.sf, other.names, { sf: other.sf, names: other.names }, new Set([...seen, other.decl]));
}

/** The written `V` of `m.get(k)` (`m` a local, a parameter or `this.field`), or undefined when `expr` is not one or `V` is not written. */
export function mapGetType(expr: ts.Expression, ancestors: readonly ts.Node[], hoisted: HoistedVars | undefined, names?: SdkTypeNames): HeldType | undefined {
  const call = unwrapValue(expr);
  if (!typescript.isCallExpression(call) || !typescript.isPropertyAccessExpression(call.expression) || call.expression.name.text !== 'get') return undefined;
  const map = unwrapValue(call.expression.expression);
  const top = ancestors[0];
  const sf = top !== undefined && typescript.isSourceFile(top) ? top : undefined;
  const field = thisField(map, ancestors);
  if (field) return mapValueType(field.type, field.initializer, sf, names);
  if (!typescript.isIdentifier(map)) return undefined;
  // `const { runs } = this; runs.get(id)`: the class's field
  const own = fieldFromThis(map.text, ancestors, hoisted);
  if (own) return mapValueType(own.type, own.initializer);
  const decl = declarationOf(map.text, ancestors, hoisted);
  return decl && (typescript.isVariableDeclaration(decl) || typescript.isParameter(decl)) ? mapValueType(decl.type, decl.initializer, sf, names) : undefined;
}

/** A value put in a map, with the ancestors where it is put (to read it as the readers read any value there). */
export interface MapSetValue {
  value: ts.Expression;
  ancestors: readonly ts.Node[];
}

/**
 * The values `this.field.set(k, v)` puts, anywhere in the class, in the untyped map `m.get(k)`
 * reads (`private sessions = new Map()`, no type written): the map's values are what the class sets.
 * Undefined when `expr` is not `this.field.get(k)` of a field made by `new Map()` with no type
 * written on the field (a written `V` of `new Map<K, V>()` is read first, by `mapGetType`).
 */
export function mapSetValues(expr: ts.Expression, ancestors: readonly ts.Node[]): MapSetValue[] | undefined {
  const call = unwrapValue(expr);
  if (!typescript.isCallExpression(call) || !typescript.isPropertyAccessExpression(call.expression) || call.expression.name.text !== 'get') return undefined;
  const map = unwrapValue(call.expression.expression);
  const field = thisField(map, ancestors);
  const init = field && !field.type && field.initializer ? unwrapValue(field.initializer) : undefined;
  if (!init || !typescript.isNewExpression(init) || !typescript.isIdentifier(init.expression) || init.expression.text !== 'Map') return undefined;
  const at = thisClassAt(ancestors);
  if (!at || !typescript.isPropertyAccessExpression(map)) return undefined;
  const name = map.name.text;
  const found: MapSetValue[] = [];
  const path: ts.Node[] = [...ancestors.slice(0, at.index)];
  const walk = (n: ts.Node): void => {
    // a `function` rebinds `this`: its `this.field` is not the class's
    if (path.length > at.index && (typescript.isFunctionDeclaration(n) || typescript.isFunctionExpression(n))) return;
    path.push(n);
    if (isSetOf(n, name) && n.arguments.length === 2) found.push({ value: n.arguments[1]!, ancestors: [...path] });
    typescript.forEachChild(n, walk);
    path.pop();
  };
  walk(at.cls);
  return found;
}

/** `this.<name>.set(…)` (`this.#name` too). */
function isSetOf(n: ts.Node, name: string): n is ts.CallExpression {
  if (!typescript.isCallExpression(n) || !typescript.isPropertyAccessExpression(n.expression) || n.expression.name.text !== 'set') return false;
  const target = unwrapValue(n.expression.expression);
  return typescript.isPropertyAccessExpression(target) && target.expression.kind === typescript.SyntaxKind.ThisKeyword && target.name.text === name;
}
