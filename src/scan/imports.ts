import path from 'node:path';
import { ts } from 'ts-morph';
import { spanOf } from './parse.js';
import type { ImportedName, ModuleImport, SdkModule } from './types.js';

export const SDK_MODULES: readonly SdkModule[] = ['@openai/agents', '@openai/agents-core', '@openai/agents-realtime', '@openai/agents/realtime'];

export function isSdkModule(specifier: string): specifier is SdkModule {
  return (SDK_MODULES as readonly string[]).includes(specifier);
}

/** What a local identifier stands for, resolved syntactically from the file's top-level imports. */
export type Binding =
  /** An export of an SDK module (`tool`, `Agent`, `realtime`, ...). */
  | { kind: 'member'; module: string; member: string; via: 'named' | 'require'; spec: ImportedName }
  /** The whole SDK module (`import * as agents`, `const agents = require(...)`). */
  | { kind: 'module'; module: string; via: 'namespace' | 'require' }
  /** `protectedTool` imported from the generated module. */
  | { kind: 'generated'; spec: ImportedName }
  /** The generated module as a namespace (`import * as gen`): `gen.protectedTool`. */
  | { kind: 'generated-namespace' };

/** Reads every top-level import declaration and `require` statement. */
export function collectModuleImports(sf: ts.SourceFile): ModuleImport[] {
  const out: ModuleImport[] = [];
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const clause = st.importClause;
      const typeOnly = !!clause?.isTypeOnly;
      const imp: ModuleImport = { span: spanOf(st, sf), module: st.moduleSpecifier.text, syntax: 'import', typeOnly, named: [] };
      if (clause?.name) imp.defaultName = clause.name.text;
      const nb = clause?.namedBindings;
      if (nb && ts.isNamespaceImport(nb)) imp.namespaceName = nb.name.text;
      if (nb && ts.isNamedImports(nb)) {
        imp.namedSpan = spanOf(nb, sf);
        for (const el of nb.elements) {
          imp.named.push({
            imported: (el.propertyName ?? el.name).text,
            local: el.name.text,
            span: spanOf(el, sf),
            typeOnly: typeOnly || el.isTypeOnly,
            references: 0,
          });
        }
      }
      out.push(imp);
    } else if (ts.isVariableStatement(st)) {
      for (const decl of st.declarationList.declarations) {
        const module = requiredModule(decl.initializer);
        if (module === undefined) continue;
        const imp: ModuleImport = { span: spanOf(st, sf), module, syntax: 'require', typeOnly: false, named: [] };
        if (ts.isIdentifier(decl.name)) imp.namespaceName = decl.name.text;
        else if (ts.isObjectBindingPattern(decl.name)) {
          imp.namedSpan = spanOf(decl.name, sf);
          for (const el of decl.name.elements) {
            if (el.dotDotDotToken || !ts.isIdentifier(el.name)) continue;
            const prop = el.propertyName;
            const imported = prop && (ts.isIdentifier(prop) || ts.isStringLiteral(prop)) ? prop.text : el.name.text;
            imp.named.push({ imported, local: el.name.text, span: spanOf(el, sf), typeOnly: false, references: 0 });
          }
        }
        out.push(imp);
      }
    }
  }
  return out;
}

/** `require('m')` (also `require("m")`), the module name; undefined otherwise. */
export function requiredModule(expr: ts.Expression | undefined): string | undefined {
  if (!expr || !ts.isCallExpression(expr)) return undefined;
  if (!ts.isIdentifier(expr.expression) || expr.expression.text !== 'require') return undefined;
  const arg = expr.arguments[0];
  if (expr.arguments.length !== 1 || !arg || !(ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg))) return undefined;
  return arg.text;
}

export interface GeneratedMatch {
  /** Absolute path of the file being scanned (to resolve relative specifiers). */
  fileAbs?: string;
  /** Absolute path of the generated module. */
  generatedModule?: string;
}

const STRIP_EXT = /\.(?:[cm]?[jt]s|[jt]sx)$/i;

/**
 * Whether `specifier` names the generated module. With the module's path: the specifier resolves
 * to it (extension-insensitive: `./x.js` names `x.ts`). Without: any relative specifier (the name
 * `protectedTool` is checked by the caller).
 */
export function isGeneratedSpecifier(specifier: string, match: GeneratedMatch): boolean {
  if (isSdkModule(specifier)) return false;
  const relative = specifier.startsWith('./') || specifier.startsWith('../');
  if (!match.generatedModule || !match.fileAbs) return relative;
  const target = match.generatedModule.replace(STRIP_EXT, '');
  if (relative) {
    const resolved = path.resolve(path.dirname(match.fileAbs), specifier);
    return resolved === target || resolved.replace(STRIP_EXT, '') === target;
  }
  // A path alias (`@/ctrlrun.generated`): same base name as the generated module.
  return path.posix.basename(specifier).replace(STRIP_EXT, '') === path.basename(target);
}

/** Builds the local-name → binding map of the file's SDK and generated-module imports. */
export function bindingsOf(imports: ModuleImport[], match: GeneratedMatch): Map<string, Binding> {
  const map = new Map<string, Binding>();
  for (const imp of imports) {
    if (isSdkModule(imp.module)) {
      if (imp.typeOnly) continue;
      if (imp.namespaceName) map.set(imp.namespaceName, { kind: 'module', module: imp.module, via: imp.syntax === 'import' ? 'namespace' : 'require' });
      for (const spec of imp.named) {
        if (spec.typeOnly) continue;
        map.set(spec.local, { kind: 'member', module: imp.module, member: spec.imported, via: imp.syntax === 'import' ? 'named' : 'require', spec });
      }
    } else if (isGeneratedSpecifier(imp.module, match)) {
      if (imp.namespaceName && !imp.typeOnly) map.set(imp.namespaceName, { kind: 'generated-namespace' });
      for (const spec of imp.named) {
        if (spec.imported === 'protectedTool' && !spec.typeOnly) map.set(spec.local, { kind: 'generated', spec });
      }
    }
  }
  return map;
}
