import type { ts } from 'ts-morph';
import { declarationOf, unwrapValue } from './local-values.js';
import type { HoistedVars } from './scope.js';
import { thisField } from './this-fields.js';
import { typescript } from './typescript.js';

/*
 * The written type of a value read from a map (issue 40: pending runs kept by id, `pending.get(id)!`
 * over `new Map<string, Pending>()`, or a class's `this.runs.get(id)!.state` over `private runs = new
 * Map<string, RunResult>()`). The map is a local, a parameter or a class field whose type is written
 * `Map<K, V>` / `ReadonlyMap<K, V>`, or which is made by `new Map<K, V>(…)`; nothing is inferred.
 */

/** `V` of a type written `Map<K, V>` / `ReadonlyMap<K, V>`, else of an initializer `new Map<K, V>(…)`. */
export function mapValueType(type: ts.TypeNode | undefined, initializer: ts.Expression | undefined): ts.TypeNode | undefined {
  if (type) {
    const isMap = typescript.isTypeReferenceNode(type) && typescript.isIdentifier(type.typeName) && /^(?:Readonly)?Map$/.test(type.typeName.text);
    return isMap ? type.typeArguments?.[1] : undefined;
  }
  const init = initializer && unwrapValue(initializer);
  if (init && typescript.isNewExpression(init) && typescript.isIdentifier(init.expression) && init.expression.text === 'Map') return init.typeArguments?.[1];
  return undefined;
}

/** The written `V` of `m.get(k)` (`m` a local, a parameter or `this.field`), or undefined when `expr` is not one or `V` is not written. */
export function mapGetType(expr: ts.Expression, ancestors: readonly ts.Node[], hoisted: HoistedVars | undefined): ts.TypeNode | undefined {
  const call = unwrapValue(expr);
  if (!typescript.isCallExpression(call) || !typescript.isPropertyAccessExpression(call.expression) || call.expression.name.text !== 'get') return undefined;
  const map = unwrapValue(call.expression.expression);
  const field = thisField(map, ancestors);
  if (field) return mapValueType(field.type, field.initializer);
  if (!typescript.isIdentifier(map)) return undefined;
  const decl = declarationOf(map.text, ancestors, hoisted);
  return decl && (typescript.isVariableDeclaration(decl) || typescript.isParameter(decl)) ? mapValueType(decl.type, decl.initializer) : undefined;
}
