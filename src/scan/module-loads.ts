import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';
import { valuesInScope } from './local-values.js';
import type { HoistedVars } from './scope.js';

/**
 * Loads of a module the scanner cannot follow, where the module may be the SDK: a `require` made by
 * `createRequire(import.meta.url)` given an SDK specifier, or a `require()` / `import()` whose
 * specifier is computed from pieces that spell the SDK's scope (`'@openai/' + 'agents'`). Every
 * tool built from such a module is one no policy decides, so the load itself is reported
 * (`opaque-tool-factory`, fail closed). A computed specifier with no such piece (a plugin loader's
 * `require(name)`) is not reported: nothing says it is the SDK.
 */
export interface OpaqueModuleLoad {
  node: ts.Node;
  what: string;
  reason: string;
}

export interface ModuleLoadContext {
  sf: ts.SourceFile;
  /** Whether a literal specifier leads to the SDK (the SDK itself, or a barrel the repo links). */
  leadsToSdk: (specifier: string) => boolean;
  /** The first initializer of a variable of this file (to follow `const req = createRequire(...)`). */
  initializerOf: (name: string) => ts.Expression | undefined;
  /** The walk's ancestors of the call being read: a callee's name is looked up in that scope. */
  ancestors: readonly ts.Node[];
  /** The `var`s each function of the file hoists, filed by the scan (local-values.ts). */
  hoisted?: HoistedVars;
  /** Top-level `const` strings of the file (pieces of a computed specifier). */
  constStrings: ReadonlyMap<string, string>;
  /**
   * False when the file's text cannot name `createRequire` (`namesCreateRequire`): no callee is then
   * followed to one, and the file's variables are not indexed for it.
   */
  mayCreateRequire?: boolean;
}

/**
 * Whether a file's text may name `createRequire`: spelled out, or through an escape in an
 * identifier (`\u0063reateRequire`). Asked once per file, so each call's callee is not followed
 * through the file's variables when it cannot be (issue 40, item 8).
 */
export function namesCreateRequire(text: string): boolean {
  return text.includes('createRequire') || text.includes('\\u');
}

export function opaqueModuleLoad(node: ts.CallExpression, ctx: ModuleLoadContext): OpaqueModuleLoad | undefined {
  const arg = node.arguments[0];
  if (!arg) return undefined;
  const made = ctx.mayCreateRequire !== false && madeByCreateRequire(node.expression, ctx, ctx.ancestors);
  const plainLoad =
    node.expression.kind === typescript.SyntaxKind.ImportKeyword || (typescript.isIdentifier(node.expression) && node.expression.text === 'require');
  if (!made && !plainLoad) return undefined;
  const literal = literalText(arg);
  if (literal !== undefined) {
    if (!made || !ctx.leadsToSdk(literal)) return undefined;
    return { node, what: literal, reason: 'it is loaded with a `require` made by `createRequire()`, which check does not follow' };
  }
  if (!spellsSdk(arg, ctx)) return undefined;
  const how = node.expression.kind === typescript.SyntaxKind.ImportKeyword ? 'import()' : 'require()';
  return { node, what: arg.getText(ctx.sf), reason: `the ${how} specifier is computed, so check cannot tell which module it loads` };
}

/** `createRequire(...)`, `module.createRequire(...)`, or a variable holding one's result. */
function madeByCreateRequire(callee: ts.Expression, ctx: ModuleLoadContext, ancestors: readonly ts.Node[], depth = 0): boolean {
  let e = callee;
  while (typescript.isParenthesizedExpression(e) || typescript.isNonNullExpression(e) || typescript.isAsExpression(e)) e = e.expression;
  if (typescript.isCallExpression(e)) {
    const c = e.expression;
    const name = typescript.isIdentifier(c) ? c.text : typescript.isPropertyAccessExpression(c) ? c.name.text : undefined;
    return name === 'createRequire';
  }
  if (typescript.isIdentifier(e) && depth < 4) {
    // the variable the name is where it is called (another function's `load` is not this one), any
    // value a `let` or `var` is given; a parameter or an import keeps the file's first declaration:
    // a load seen is a load checked
    const held = valuesInScope(e.text, ancestors, ctx.hoisted);
    if (held) return held.some((v) => madeByCreateRequire(v.init, ctx, v.ancestors, depth + 1));
    const init = ctx.initializerOf(e.text);
    return init !== undefined && madeByCreateRequire(init, ctx, [], depth + 1);
  }
  return false;
}

function literalText(arg: ts.Expression): string | undefined {
  let e = arg;
  while (typescript.isParenthesizedExpression(e)) e = e.expression;
  return typescript.isStringLiteral(e) || typescript.isNoSubstitutionTemplateLiteral(e) ? e.text : undefined;
}

/** Whether a string piece of the expression (a literal, a template part, a `const` it names) mentions `@openai`. */
function spellsSdk(expr: ts.Expression, ctx: ModuleLoadContext): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (
      typescript.isStringLiteral(n) ||
      typescript.isNoSubstitutionTemplateLiteral(n) ||
      typescript.isTemplateHead(n) ||
      typescript.isTemplateMiddle(n) ||
      typescript.isTemplateTail(n)
    ) {
      if (n.text.includes('@openai')) found = true;
    } else if (typescript.isIdentifier(n) && (ctx.constStrings.get(n.text) ?? '').includes('@openai')) found = true;
    typescript.forEachChild(n, visit);
  };
  visit(expr);
  return found;
}
