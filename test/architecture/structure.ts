import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Every TypeScript source file under `dir` (declaration files aside). */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.[cm]?tsx?$/.test(entry.name) && !/\.d\.[cm]?ts$/.test(entry.name)) out.push(full);
  }
  return out.sort();
}

/** The relative module a specifier names (`./x.js` is `./x.ts`), or null for a package or a file that is not there. */
function resolveRelative(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base.replace(/\.([cm]?)js$/, '.$1ts'), base.replace(/\.js$/, '.tsx'), `${base}.ts`, path.join(base, 'index.ts')];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

/**
 * Each file's relative imports: static, type-only, re-exports and dynamic `import()` alike (a
 * type-only edge is still a module that cannot be understood without the other; a dynamic one
 * still loads it).
 */
export function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const deps = info.importedFiles.map((i) => resolveRelative(file, i.fileName)).filter((d): d is string => d !== null);
    graph.set(file, [...new Set(deps)]);
  }
  return graph;
}

/** The graph's cycles, one per strongly connected component of more than one file (or a file importing itself), each as a path back to its start. */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(component);
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return components.map((c) => cycleThrough(graph, new Set(c), c[c.length - 1]!));
}

/** One concrete cycle inside a strongly connected component, from `start` back to it (breadth-first: the shortest). */
function cycleThrough(graph: Map<string, string[]>, component: Set<string>, start: string): string[] {
  const parent = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!component.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u: string | undefined = v; u !== undefined && u !== start; u = parent.get(u)) path.splice(1, 0, u);
        return [...path, start];
      }
      if (!parent.has(w)) {
        parent.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

export interface FunctionSpan {
  file: string;
  name: string;
  line: number;
  lines: number;
}

/** Every function with a body (declarations, expressions, arrows, methods, accessors), its name and its length in lines, nested ones included in their parent's length. */
export function functionSpans(file: string, text = readFileSync(file, 'utf8')): FunctionSpan[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const spans: FunctionSpan[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      spans.push({ file, name: nameOf(node, source), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return spans;
}

function nameOf(node: ts.SignatureDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))) return parent.name.getText(source);
  return '(anonymous)';
}

/** The folder under `src` a file belongs to (`top` for a file directly in it). */
function folderOf(src: string, file: string): string {
  const parts = path.relative(src, file).split(path.sep);
  return parts.length === 1 ? 'top' : parts[0]!;
}

/** Each import from a folder to one on a higher floor (or to a folder no floor names), as [importer, imported]. */
export function floorBreaches(graph: Map<string, string[]>, src: string, floors: string[][]): [string, string][] {
  const floorOf = (file: string) => floors.findIndex((f) => f.includes(folderOf(src, file)));
  const out: [string, string][] = [];
  for (const [file, deps] of graph) {
    const own = floorOf(file);
    for (const dep of deps) {
      const theirs = floorOf(dep);
      if (own === -1 || theirs === -1 || theirs > own) out.push([file, dep]);
    }
  }
  return out;
}

/**
 * The modules a file imports for their values (relative ones resolved, packages by name): static
 * imports, re-exports and dynamic `import()`, but not `import type` nor an import whose every name
 * is a type (those load nothing when the module runs).
 */
export function valueImports(file: string, text = readFileSync(file, 'utf8')): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const specs: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const onlyTypes =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.every((e) => e.isTypeOnly)));
      if (!onlyTypes) specs.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specs.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      specs.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return [...new Set(specs.map((s) => resolveRelative(file, s) ?? s))];
}
