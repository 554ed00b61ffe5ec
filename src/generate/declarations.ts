/**
 * Finds, for each mapped function tool name, every declaration of it in the repo: an SDK
 * `tool({ name })` call, or a `protectedTool('<action>', { name })` call the codemod left, and reads
 * their parameters. Synchronous (the generator is a pure function of the repo's files).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SourceLocation } from '../policy/types.js';
import { scanSource } from '../scan/index.js';
import { listSourceFilesSync } from '../scan/repo.js';
import type { ToolCallOptions, Span } from '../scan/types.js';
import { locationOf, parseSource, readToolParameters, type ReadParametersResult } from './params.js';
import { byCodeUnit } from './render.js';

export interface ToolDeclaration {
  name: string;
  /** Absolute path of the source file. */
  file: string;
  kind: 'sdk-tool' | 'protected-tool';
  /** Where the call is (its callee). */
  loc: SourceLocation;
  parameters: ReadParametersResult;
}

/**
 * The repo's source files, relative (forward slashes) and sorted: the scanner's own selection
 * (skipped directories, dot-directories, every `.gitignore` below the root, not the generated module).
 */
function listRepoSources(root: string, generatedModule?: string): string[] {
  return listSourceFilesSync({ root, generatedModule })
    .map((abs) => path.relative(root, abs).split(path.sep).join('/'))
    .sort(byCodeUnit);
}

/** A file can declare an SDK tool only if it mentions the SDK or the generated module's `protectedTool`. */
function mayDeclareTools(text: string): boolean {
  return text.includes('@openai/agents') || text.includes('protectedTool');
}

/** Every declaration of the given tool names, by name, in file then position order. */
export function findToolDeclarations(root: string, names: ReadonlySet<string>, options: { generatedModule?: string } = {}): Map<string, ToolDeclaration[]> {
  const found = new Map<string, ToolDeclaration[]>();
  for (const name of names) found.set(name, []);
  if (names.size === 0) return found;
  for (const rel of listRepoSources(root, options.generatedModule)) {
    const file = path.join(root, rel);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    if (!mayDeclareTools(text)) continue;
    for (const d of declarationsInSource(file, text, names)) found.get(d.name)?.push(d);
  }
  return found;
}

/** The declarations of the given names in one file's text (pure). */
export function declarationsInSource(file: string, text: string, names: ReadonlySet<string>): ToolDeclaration[] {
  const scan = scanSource(file, text);
  if (scan.parseError) return [];
  const calls: Array<{ kind: ToolDeclaration['kind']; name: string; span: Span; callee: Span; options: ToolCallOptions }> = [];
  for (const c of scan.sdkToolCalls) if (c.name !== undefined && names.has(c.name)) calls.push({ kind: 'sdk-tool', name: c.name, span: c.span, callee: c.callee, options: c.options });
  for (const c of scan.protectedToolCalls) {
    const name = c.name ?? c.options.properties['name']?.stringValue;
    if (name !== undefined && names.has(name)) calls.push({ kind: 'protected-tool', name, span: c.span, callee: c.callee, options: c.options });
  }
  if (calls.length === 0) return [];
  calls.sort((a, b) => a.span.start - b.span.start);
  const sourceFile = parseSource(file, text);
  return calls.map((c) => ({
    name: c.name,
    file,
    kind: c.kind,
    loc: locationOf(sourceFile, file, c.callee.start),
    parameters: readToolParameters({ file, text, sourceFile }, c),
  }));
}
