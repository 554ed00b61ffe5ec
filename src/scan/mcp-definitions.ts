import path from 'node:path';
import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';
import { parseSource } from './parse.js';
import { listSourceFiles, readSourceText } from './repo.js';
import { isStringLike, optionsOf, skipWrappers } from './syntax.js';
import { isTestFile } from './test-files.js';

/**
 * MCP servers written in the repository with `@modelcontextprotocol/sdk` (issue 35): the tools
 * each registers by a literal name (`server.registerTool('create_issue', ...)`, the older
 * `server.tool('create_issue', ...)`), so init can map them without starting anything. Only an
 * `McpServer` made in the file and held by a variable is followed; a registration whose name is not
 * a literal makes the list incomplete (said, never guessed).
 */

export interface McpToolDefinition {
  name: string;
  line: number;
}

export interface McpServerDefinition {
  /** Relative to the repo root, forward slashes. */
  file: string;
  line: number;
  /** The `name` the server gives itself (`new McpServer({ name })`), when a literal. */
  name?: string;
  tools: McpToolDefinition[];
  /** Some registration's tool name is not a literal: the list may miss tools. */
  incomplete: boolean;
}

const SDK_SERVER = /^@modelcontextprotocol\/sdk\/server\/mcp(?:\.js)?$/;

/** The local names that stand for `McpServer` of the MCP SDK (named or aliased), and its namespaces. */
function mcpServerNames(sf: ts.SourceFile): { classes: Set<string>; namespaces: Set<string> } {
  const classes = new Set<string>();
  const namespaces = new Set<string>();
  for (const st of sf.statements) {
    if (!typescript.isImportDeclaration(st) || !typescript.isStringLiteral(st.moduleSpecifier) || !SDK_SERVER.test(st.moduleSpecifier.text)) continue;
    const nb = st.importClause?.namedBindings;
    if (nb && typescript.isNamespaceImport(nb)) namespaces.add(nb.name.text);
    if (nb && typescript.isNamedImports(nb)) for (const el of nb.elements) if ((el.propertyName ?? el.name).text === 'McpServer') classes.add(el.name.text);
  }
  return { classes, namespaces };
}

/** The servers `file` defines with `new McpServer(...)` held by a variable, with the tools registered on that variable. */
export function mcpServerDefinitions(file: string, text: string): McpServerDefinition[] {
  if (!text.includes('@modelcontextprotocol/sdk')) return [];
  const { sf, parseError } = parseSource(file, text);
  if (parseError) return [];
  const { classes, namespaces } = mcpServerNames(sf);
  if (classes.size === 0 && namespaces.size === 0) return [];
  const isServerClass = (e: ts.Expression): boolean => {
    const c = skipWrappers(e);
    if (typescript.isIdentifier(c)) return classes.has(c.text);
    return (
      typescript.isPropertyAccessExpression(c) && c.name.text === 'McpServer' && typescript.isIdentifier(c.expression) && namespaces.has(c.expression.text)
    );
  };
  const byVar = new Map<string, McpServerDefinition>();
  const lineOf = (n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const visit = (n: ts.Node): void => {
    if (typescript.isVariableDeclaration(n) && typescript.isIdentifier(n.name) && n.initializer) {
      const init = skipWrappers(n.initializer);
      if (typescript.isNewExpression(init) && isServerClass(init.expression)) {
        const name = optionsOf(init.arguments?.[0], sf).properties.name?.stringValue;
        byVar.set(n.name.text, { file, line: lineOf(n), ...(name !== undefined ? { name } : {}), tools: [], incomplete: false });
      }
    }
    if (typescript.isCallExpression(n)) {
      const callee = skipWrappers(n.expression);
      if (
        typescript.isPropertyAccessExpression(callee) &&
        (callee.name.text === 'registerTool' || callee.name.text === 'tool') &&
        typescript.isIdentifier(skipWrappers(callee.expression))
      ) {
        const def = byVar.get((skipWrappers(callee.expression) as ts.Identifier).text);
        const first = n.arguments[0];
        if (def && first && isStringLike(first)) {
          if (!def.tools.some((t) => t.name === first.text)) def.tools.push({ name: first.text, line: lineOf(n) });
        } else if (def) def.incomplete = true;
      }
    }
    typescript.forEachChild(n, visit);
  };
  visit(sf);
  return [...byVar.values()];
}

/**
 * Every MCP server the repo defines: its source files (as the scan lists them: git's listing, never
 * node_modules; test files left out) that name the MCP SDK, parsed. Init runs it once.
 */
export async function findMcpDefinitions(root: string): Promise<McpServerDefinition[]> {
  const out: McpServerDefinition[] = [];
  for (const abs of (await listSourceFiles({ root })).sort()) {
    const rel = path.relative(root, abs).split(path.sep).join('/');
    // a server a test starts is the test's, not the app's
    if (isTestFile(rel)) continue;
    const text = readSourceText(abs);
    if (text === undefined || !text.includes('@modelcontextprotocol/sdk')) continue;
    out.push(...mcpServerDefinitions(rel, text));
  }
  return out;
}
