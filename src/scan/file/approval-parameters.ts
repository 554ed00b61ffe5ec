import type { ts } from 'ts-morph';
import { declarationOf } from '../local-values.js';
import { skipWrappers } from '../syntax.js';
import { typescript } from '../typescript.js';
import { typeNamesOf } from '../imported-types.js';
import { innerTypeDeclaration } from '../type-scope.js';
import { ITEM_TYPES, mayBeWrittenSdkType, RECEIVER_TYPES } from '../written-sdk-type.js';
import { type FileContext, sdkTypeMember } from './context.js';

/*
 * An answer through a helper (issue 40): `function decide(state, item, yes) { yes ?
 * state.approve(item) : state.reject(item) }`. approvals.ts follows a receiver or an item to a run
 * in the same function; a parameter comes from the helper's callers, which a file's scan does not
 * see. A parameter typed with the SDK's own type under another name (`RunState as S`) is the SDK's,
 * exactly; one with no type (plain JavaScript, `any`, `unknown`) is taken for the SDK's, failing
 * closed, and the finding says why. A parameter of another type (`client: Billing`) is the app's.
 */

const UNTYPED = new Set(['any', 'unknown']);

/** What a helper's answer is: `{}` the SDK's (an aliased SDK type), `{ unsure }` taken for it (an untyped parameter), undefined the app's own. */
export function helperAnswer(cx: FileContext, receiver: ts.Expression, item: ts.Expression): { unsure?: string } | undefined {
  const r = parameterOf(cx, receiver);
  const i = parameterOf(cx, item);
  if (r || i) {
    // the file's SDK names, read once for both parameters
    const names = typeNamesOf(cx.moduleImports, cx.fileAbs, cx.options.typeModule, (e) => sdkTypeMember(cx, e));
    // a union with the SDK's type among its alternatives (`s: RunState | Review`) may be the SDK's: an answer
    if ((r && mayBeWrittenSdkType(r.type, RECEIVER_TYPES, names, cx.sf)) || (i && mayBeWrittenSdkType(i.type, ITEM_TYPES, names, cx.sf))) return {};
  }
  const from = r && importedSdkName(cx, r);
  if (from)
    return {
      unsure: `\`${(r!.name as ts.Identifier).text}\` is typed \`${from.name}\` from \`${from.module}\`, which may re-export the SDK's: it is taken for a run's state`,
    };
  if (!r || (r.type !== undefined && !UNTYPED.has(r.type.getText(cx.sf).trim()))) return undefined;
  // an inline callback's bare parameter is typed by its call (`reviews.map((review) => ...)` is a
  // `Review`); approvals.ts already reads the one call whose list holds SDK items (interruptions)
  if (r.type === undefined && isInlineCallback(cx.ancestors, r)) return undefined;
  const name = (r.name as ts.Identifier).text;
  return {
    unsure: `\`${name}\` is a parameter ${r.type === undefined ? 'with no type' : `typed \`${r.type.getText(cx.sf)}\``}, so check cannot tell it from a run's state: it is taken for one`,
  };
}

/** Whether the function declaring `param` is an argument of a call or `new`, so TypeScript types its bare parameters from the callee's signature. */
function isInlineCallback(ancestors: readonly ts.Node[], param: ts.ParameterDeclaration): boolean {
  // the scan keeps no parent pointers: the declaring function and its call are among the ancestors
  const i = ancestors.findIndex((n) => (typescript.isArrowFunction(n) || typescript.isFunctionExpression(n)) && n.parameters.includes(param));
  if (i < 0) return false;
  let at: ts.Node = ancestors[i]!;
  let j = i - 1;
  while (j >= 0 && typescript.isParenthesizedExpression(ancestors[j]!)) at = ancestors[j--]!;
  const call = ancestors[j];
  return call !== undefined && (typescript.isCallExpression(call) || typescript.isNewExpression(call)) && (call.arguments ?? []).some((a) => a === at);
}

/** The parameter an identifier names (a plain name, not a destructured one), or undefined. */
function parameterOf(cx: FileContext, expr: ts.Expression): ts.ParameterDeclaration | undefined {
  const e = skipWrappers(expr);
  if (!typescript.isIdentifier(e)) return undefined;
  const decl = declarationOf(e.text, cx.ancestors, cx.hoisted);
  return decl && typescript.isParameter(decl) && typescript.isIdentifier(decl.name) ? decl : undefined;
}

/**
 * The module a helper's parameter type comes from when it is named as the SDK's state but imported
 * from another module (`import type { RunState } from './sdk.js'`, a barrel the scan of one file
 * cannot always follow): a helper's parameter is taken for the SDK's, failing closed, as an untyped
 * one is. Fields, members and React state are not (their type is the file's own, session 21b).
 * A relative module that declares the type itself (own-type-declared.ts) is the app's: undefined.
 */
function importedSdkName(cx: FileContext, param: ts.ParameterDeclaration): { name: string; module: string } | undefined {
  const type = param.type;
  if (!type || !typescript.isTypeReferenceNode(type) || !typescript.isIdentifier(type.typeName)) return undefined;
  const local = type.typeName.text;
  for (const imp of cx.moduleImports) {
    if (imp.syntax !== 'import') continue;
    const n = imp.named.find((x) => x.local === local && RECEIVER_TYPES.has(x.imported));
    if (!n) continue;
    // the function's own type parameter or a type of the block around it hides the import (type-scope.ts);
    // asked only once the name is an import of the state, since the scope walk costs more than the lookup
    if (innerTypeDeclaration(local, type, cx.sf) !== undefined) return undefined;
    // the app's own module declaring the type itself (a workflow engine's RunState): the app's
    if (cx.options.ownType?.(imp.module, cx.fileAbs, n.imported)) return undefined;
    return { name: n.imported, module: imp.module };
  }
  return undefined;
}
