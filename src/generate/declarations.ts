/**
 * Finds, for each mapped function tool name, every declaration of it in the repo: an SDK
 * `tool({ name })` call, or a `protectedTool('<action>', { name })` call the codemod left, and reads
 * their parameters. Synchronous (the generator is a pure function of the repo's files).
 */
import path from 'node:path';
import type { SourceLocation } from '../policy/types.js';
import { readSourceText, scanRepoSync, scanSource } from '../scan/index.js';
import type { FileScan, ToolCallOptions, Span } from '../scan/types.js';
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

/** Every declaration of the given tool names, by name, in file then position order (the scanner's repo scan: barrels, aliases and `const` names followed). */
export function findToolDeclarations(root: string, names: ReadonlySet<string>, options: { generatedModule?: string } = {}): Map<string, ToolDeclaration[]> {
  const found = new Map<string, ToolDeclaration[]>();
  for (const name of names) found.set(name, []);
  if (names.size === 0) return found;
  const repo = scanRepoSync({ root, ...(options.generatedModule ? { generatedModule: options.generatedModule } : {}) });
  const scans = [...repo.files].sort((a, b) => byCodeUnit(a.file, b.file));
  for (const scan of scans) {
    if (scan.parseError || !mayDeclare(scan, names)) continue;
    const file = path.join(root, scan.file);
    const text = readSourceText(file);
    if (text === undefined) continue;
    for (const d of declarationsInScan(file, text, scan, names)) found.get(d.name)?.push(d);
  }
  return found;
}

/** Whether a scanned file holds a call declaring one of the names. */
export function mayDeclare(scan: FileScan, names: ReadonlySet<string>): boolean {
  return scan.sdkToolCalls.some((c) => c.name !== undefined && names.has(c.name)) || scan.protectedToolCalls.some((c) => c.name !== undefined && names.has(c.name));
}

/** The declarations of the given names in one file's text (pure). */
export function declarationsInSource(file: string, text: string, names: ReadonlySet<string>): ToolDeclaration[] {
  return declarationsInScan(file, text, scanSource(file, text), names);
}

/** The declarations of the given names in one scanned file (its scan made with the repo's links). */
export function declarationsInScan(file: string, text: string, scan: FileScan, names: ReadonlySet<string>): ToolDeclaration[] {
  if (scan.parseError) return [];
  const calls: Array<{ kind: ToolDeclaration['kind']; name: string; span: Span; callee: Span; options: ToolCallOptions }> = [];
  for (const c of scan.sdkToolCalls) if (c.name !== undefined && names.has(c.name)) calls.push({ kind: 'sdk-tool', name: c.name, span: c.span, callee: c.callee, options: c.options });
  for (const c of scan.protectedToolCalls) {
    const name = c.name;
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
