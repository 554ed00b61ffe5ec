// Shared by the check and codemod benches: a generated repo of many files, a share of them using
// the SDK, and the baseline both compare against (read + parse every file with TypeScript's own
// parser, no text prefilter, no parent pointers: what the scanner's parse costs without the test).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ts } from 'ts-morph';

/**
 * Writes `count` source files into a new temporary directory: file `i` at `pathOf(i)` (relative),
 * with `sdkFile(i)` for one in every `1 / sdkShare` and `plainFile(i)` for the rest; then the
 * `extra` files (relative path → text). Returns the directory and the absolute source paths.
 */
export function generateRepo({ prefix, count, sdkShare, pathOf, plainFile, sdkFile, extra = {} }) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const every = Math.round(1 / sdkShare);
  const files = [];
  for (let i = 0; i < count; i++) {
    const file = path.join(dir, pathOf(i));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, i % every === 0 ? sdkFile(i) : plainFile(i));
    files.push(file);
  }
  for (const [rel, text] of Object.entries(extra)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return { dir, files };
}

/** The baseline: read and parse every file with `ts.createSourceFile`; the time and a node count (so the work is used). */
export function parseEveryFile(files) {
  const t0 = performance.now();
  let nodes = 0;
  for (const f of files) {
    const sf = ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    nodes += sf.statements.length;
  }
  return { ms: performance.now() - t0, files: files.length, nodes };
}
