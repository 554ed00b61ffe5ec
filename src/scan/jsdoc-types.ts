import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';

/*
 * The types a JavaScript file writes in its JSDoc (issue 40, no silent break: a JavaScript app
 * types its values only there, `/** @param {Pending} p *\/` over `/** @typedef {{ state:
 * import('@openai/agents').RunState }} Pending *\/`, and checkJs types them as TypeScript does).
 * A TypeScript file's JSDoc types nothing, as tsc reads it. The file is parsed without parent
 * links, so the comments are read where the parser attaches them (the node's `jsDoc`, which the
 * compiler's own API reads through parents only).
 */

/** Whether the file is JavaScript, whose JSDoc tags type its values. */
export const isJavaScriptFile = (sf: ts.SourceFile): boolean => /\.[cm]?jsx?$/i.test(sf.fileName);

/** The JSDoc comments the parser attached to a node. */
const docsOf = (node: ts.Node): readonly ts.JSDoc[] => (node as { jsDoc?: readonly ts.JSDoc[] }).jsDoc ?? [];

const tagsOf = (node: ts.Node): ts.JSDocTag[] => docsOf(node).flatMap((d) => [...(d.tags ?? [])]);

/**
 * The type a JavaScript file's JSDoc writes for a parameter (`@param {Pending} p` on its function,
 * or on the variable statement that holds an arrow function) or a variable (`@type {Pending}` on its
 * statement); undefined when none is written, the name is a pattern, or the file is TypeScript.
 */
export function jsDocTypeOf(decl: ts.ParameterDeclaration | ts.VariableDeclaration, ancestors: readonly ts.Node[], sf: ts.SourceFile): ts.TypeNode | undefined {
  if (!isJavaScriptFile(sf) || !typescript.isIdentifier(decl.name)) return undefined;
  const name = decl.name.text;
  if (typescript.isVariableDeclaration(decl)) {
    // the statement is the use's ancestor or a sibling of one: the scope's statements hold it
    const statement = [sf, ...ancestors].map((n) => typescript.forEachChild(n, (c) => (holds(c, decl) ? c : undefined))).find((s) => s !== undefined);
    const tag = statement && tagsOf(statement).find(typescript.isJSDocTypeTag);
    return tag && plain(tag.typeExpression.type);
  }
  // `(/** @type {Pending} *\/ p)`: the parameter's own comment comes before its function's `@param`, as in tsc
  const inline = tagsOf(decl).find(typescript.isJSDocTypeTag);
  if (inline) return plain(inline.typeExpression.type);
  const at = ancestors.findIndex((n) => typescript.isFunctionLike(n) && (n as ts.SignatureDeclaration).parameters.includes(decl));
  if (at < 0) return undefined;
  // `/** @param … */ const f = (p) => …`: the comment is the statement's
  const held = ancestors[at - 1];
  const statement = held && typescript.isVariableDeclaration(held) && held.initializer === ancestors[at] ? ancestors[at - 3] : undefined;
  for (const holder of [ancestors[at]!, ...(statement ? [statement] : [])]) {
    const tag = tagsOf(holder).find(
      (t): t is ts.JSDocParameterTag => typescript.isJSDocParameterTag(t) && typescript.isIdentifier(t.name) && t.name.text === name,
    );
    if (tag?.typeExpression) return plain(tag.typeExpression.type);
  }
  return undefined;
}

const holds = (node: ts.Node, decl: ts.VariableDeclaration): boolean =>
  typescript.isVariableStatement(node) && node.declarationList.declarations.includes(decl);

/**
 * `Pending` of `{Pending=}`, `{?Pending}`, `{!Pending}`: the type an optional or nullable mark wraps.
 * `@param {Object[]} ps` with `@param {S} ps[].state` under it: the parser marks the literal of the
 * nested tags an array's, which the type readers take as a list of that literal.
 */
function plain(type: ts.TypeNode): ts.TypeNode {
  if (typescript.isJSDocOptionalType(type) || typescript.isJSDocNullableType(type) || typescript.isJSDocNonNullableType(type)) return plain(type.type);
  if (typescript.isJSDocTypeLiteral(type) && type.isArrayType) return typescript.factory.createArrayTypeNode(type);
  return type;
}

/** The type a JavaScript function's `@returns {Pending}` (or `@return`) writes, or undefined. */
export function jsDocReturnType(fn: ts.Node, sf: ts.SourceFile): ts.TypeNode | undefined {
  if (!isJavaScriptFile(sf)) return undefined;
  const tag = tagsOf(fn).find(typescript.isJSDocReturnTag);
  return tag?.typeExpression && plain(tag.typeExpression.type);
}

/**
 * The types a JavaScript file's `@typedef`s at its top name `name` (`{{ state: RunState }}`, or the
 * `@property` tags' literal); none in a TypeScript file. A comment of the top level is attached to
 * the statement after it, or to the file's end when none follows.
 */
export function jsDocTypedefs(sf: ts.SourceFile, name: string): ts.TypeNode[] {
  if (!isJavaScriptFile(sf)) return [];
  const out: ts.TypeNode[] = [];
  for (const node of [...sf.statements, sf.endOfFileToken])
    for (const tag of tagsOf(node)) {
      if (!typescript.isJSDocTypedefTag(tag) || tag.name?.text !== name || !tag.typeExpression) continue;
      const t = tag.typeExpression;
      out.push(typescript.isJSDocTypeExpression(t) ? plain(t.type) : t);
    }
  return out;
}

/**
 * The written types of the parameters of a JavaScript file's `@callback` named `name` at its top (the
 * `@param` tags under it), in order; undefined when the file has none so named.
 */
export function jsDocCallbackParameters(sf: ts.SourceFile, name: string): Array<ts.TypeNode | undefined> | undefined {
  if (!isJavaScriptFile(sf)) return undefined;
  for (const node of [...sf.statements, sf.endOfFileToken])
    for (const tag of tagsOf(node))
      if (typescript.isJSDocCallbackTag(tag) && tag.name?.text === name)
        return tag.typeExpression.parameters.map((p) => p.typeExpression && plain(p.typeExpression.type));
  return undefined;
}

/** The written type of a `@property` a JSDoc type literal declares `member` (`@property {RunState} state`), or undefined. */
export function jsDocPropertyType(type: ts.JSDocTypeLiteral, member: string): ts.TypeNode | undefined {
  for (const p of type.jsDocPropertyTags ?? []) {
    // `@param {S} p.state` nested under `@param {Object} p`: the parser gives the nested tag its whole path
    const name = typescript.isIdentifier(p.name) ? p.name : p.name.right;
    if (name.text === member) return p.typeExpression && plain(p.typeExpression.type);
  }
  return undefined;
}

/**
 * A JavaScript module's `@typedef` named `name` as the type alias it exports (tsc exports a module's
 * top-level `@typedef`s: `import('./types.js').Pending` reads one), so a reader of another file's
 * declarations reads it as it reads `export type Pending = …`. One alias a typedef: the readers
 * tell a cycle between files by the declarations they have followed.
 */
export function jsDocTypedefDeclaration(sf: ts.SourceFile, name: string): ts.TypeAliasDeclaration | undefined {
  const type = jsDocTypedefs(sf, name)[0];
  if (!type) return undefined;
  const known = typedefAliases.get(type);
  if (known) return known;
  const alias = typescript.factory.createTypeAliasDeclaration(undefined, name, undefined, type);
  typedefAliases.set(type, alias);
  return alias;
}

const typedefAliases = new WeakMap<ts.TypeNode, ts.TypeAliasDeclaration>();
