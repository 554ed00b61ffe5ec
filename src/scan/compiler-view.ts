import type { ts as TypeScript } from 'ts-morph';

/**
 * The compiler's objects the scanner reads that are never reassigned: its enums and its node
 * factory. Its other objects (`sys`, the object allocator) are settings a caller may replace.
 */
const CONSTANT_OBJECTS = new Set(['SyntaxKind', 'NodeFlags', 'ModifierFlags', 'ScriptKind', 'ScriptTarget', 'ModuleKind', 'ModuleResolutionKind', 'factory']);

/**
 * The compiler's exports this project reads (`typescript.<name>` in src/), copied into the view
 * when it is made. A name left off is still read, from the compiler (the view's prototype), only
 * slower; so is a value that may change.
 */
export const READ_NAMES: readonly string[] = [
  'ModuleKind',
  'ModuleResolutionKind',
  'NodeFlags',
  'ScriptKind',
  'ScriptTarget',
  'SyntaxKind',
  'canHaveModifiers',
  'createSourceFile',
  'factory',
  'flattenDiagnosticMessageText',
  'forEachChild',
  'getLeadingCommentRanges',
  'getModifiers',
  'isArrayBindingPattern',
  'isArrayLiteralExpression',
  'isArrayTypeNode',
  'isArrowFunction',
  'isAsExpression',
  'isAwaitExpression',
  'isBinaryExpression',
  'isBindingElement',
  'isBlock',
  'isBreakStatement',
  'isCallExpression',
  'isCaseBlock',
  'isCaseClause',
  'isCatchClause',
  'isClassDeclaration',
  'isClassElement',
  'isClassExpression',
  'isClassLike',
  'isClassStaticBlockDeclaration',
  'isComputedPropertyName',
  'isConditionalExpression',
  'isConditionalTypeNode',
  'isConstructorDeclaration',
  'isContinueStatement',
  'isDefaultClause',
  'isDoStatement',
  'isElementAccessExpression',
  'isEnumDeclaration',
  'isExportAssignment',
  'isExportDeclaration',
  'isExportSpecifier',
  'isExpression',
  'isExpressionStatement',
  'isExpressionWithTypeArguments',
  'isExternalModuleReference',
  'isForInStatement',
  'isForOfStatement',
  'isForStatement',
  'isFunctionDeclaration',
  'isFunctionExpression',
  'isFunctionLike',
  'isFunctionTypeNode',
  'isGetAccessorDeclaration',
  'isIdentifier',
  'isIfStatement',
  'isImportDeclaration',
  'isImportEqualsDeclaration',
  'isImportSpecifier',
  'isImportTypeNode',
  'isIndexSignatureDeclaration',
  'isIndexedAccessTypeNode',
  'isInterfaceDeclaration',
  'isIntersectionTypeNode',
  'isIterationStatement',
  'isJSDocCallbackTag',
  'isJSDocFunctionType',
  'isJSDocNonNullableType',
  'isJSDocNullableType',
  'isJSDocOptionalType',
  'isJSDocParameterTag',
  'isJSDocReturnTag',
  'isJSDocTypeExpression',
  'isJSDocTypeLiteral',
  'isJSDocTypeTag',
  'isJSDocTypedefTag',
  'isLiteralExpression',
  'isLiteralTypeNode',
  'isMappedTypeNode',
  'isMethodDeclaration',
  'isMethodSignature',
  'isModuleBlock',
  'isModuleDeclaration',
  'isNamedExports',
  'isNamedImports',
  'isNamedTupleMember',
  'isNamespaceExport',
  'isNamespaceImport',
  'isNewExpression',
  'isNoSubstitutionTemplateLiteral',
  'isNonNullExpression',
  'isNumericLiteral',
  'isObjectBindingPattern',
  'isObjectLiteralExpression',
  'isOmittedExpression',
  'isOptionalChain',
  'isOptionalTypeNode',
  'isParameter',
  'isParenthesizedExpression',
  'isParenthesizedTypeNode',
  'isPostfixUnaryExpression',
  'isPrefixUnaryExpression',
  'isPrivateIdentifier',
  'isPropertyAccessExpression',
  'isPropertyAssignment',
  'isPropertyDeclaration',
  'isPropertySignature',
  'isQualifiedName',
  'isRestTypeNode',
  'isReturnStatement',
  'isSatisfiesExpression',
  'isSetAccessorDeclaration',
  'isShorthandPropertyAssignment',
  'isSourceFile',
  'isSpreadAssignment',
  'isSpreadElement',
  'isStringLiteral',
  'isStringLiteralLike',
  'isSwitchStatement',
  'isTemplateExpression',
  'isTemplateHead',
  'isTemplateMiddle',
  'isTemplateSpan',
  'isTemplateTail',
  'isThrowStatement',
  'isTryStatement',
  'isTupleTypeNode',
  'isTypeAliasDeclaration',
  'isTypeAssertionExpression',
  'isTypeLiteralNode',
  'isTypeNode',
  'isTypeOfExpression',
  'isTypeOperatorNode',
  'isTypeParameterDeclaration',
  'isTypeQueryNode',
  'isTypeReferenceNode',
  'isUnionTypeNode',
  'isVariableDeclaration',
  'isVariableDeclarationList',
  'isVariableStatement',
  'isVoidExpression',
  'isWhileStatement',
  'parseConfigFileTextToJson',
  'parseJsonConfigFileContent',
  'preProcessFile',
  'readConfigFile',
  'skipTrivia',
  'transpileModule',
];

/**
 * The compiler's exports as plain data properties. The compiler module exports its 2,000-odd
 * names as getters on an object too large for V8's fast properties, so each `typescript.isX`
 * there is a dictionary lookup and a getter call: in the scanner's walks, which read such names
 * at every node, that was a share of the scan. The names read here are own properties of a small
 * object, all made at once (so its shape never changes under the walks' caches); the rest, and any
 * value that may change (anything but a function declared under its own name, or a constant
 * object above), is read from the compiler each time, so the view never holds a stale one.
 */
export function compilerView(compiler: typeof TypeScript): typeof TypeScript {
  const source = compiler as unknown as Record<string, unknown>;
  const view = Object.create(compiler) as Record<string, unknown>;
  for (const key of READ_NAMES) {
    const value = source[key];
    if (isConstant(key, value)) Object.defineProperty(view, key, { value, enumerable: true });
  }
  return view as unknown as typeof TypeScript;
}

/** Whether the export `key` holds `value` for good: a function declared under its name (a `let` of another function fails it), or a constant object. */
export function isConstant(key: string, value: unknown): boolean {
  if (typeof value === 'function') return value.name === key;
  return typeof value === 'object' && value !== null && CONSTANT_OBJECTS.has(key);
}
