import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';

/** Every module specifier `file` imports (static and dynamic). */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = new Set<string>();
  for (const m of text.matchAll(/(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g)) {
    found.add((m[1] ?? m[2] ?? m[3])!);
  }
  return [...found];
}

function walk(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  for (const spec of specifiers(entry)) {
    if (!spec.startsWith('.')) continue;
    const target = path.resolve(path.dirname(entry), spec.replace(/\.js$/, '.ts'));
    if (statSync(target, { throwIfNoEntry: false })?.isFile()) walk(target, seen);
  }
  return seen;
}

describe('ctrlrun-gen/runtime stays lean', () => {
  it('never imports the generator dependencies (ts-morph, yargs, yaml), directly or through a relative import', () => {
    const root = REPO_ROOT;
    const files = walk(path.join(root, 'src/runtime/index.ts'));
    expect(files.size).toBeGreaterThan(5);
    const external = [...files].flatMap((f) =>
      specifiers(f)
        .filter((s) => !s.startsWith('.'))
        .map((s) => `${path.relative(root, f)} -> ${s}`),
    );
    const forbidden = external.filter((e) => /-> (ts-morph|yargs|yaml)(\/|$)/.test(e));
    expect(forbidden).toEqual([]);
  });

  it('imports no Node built-in and neither store driver, directly or through a relative import (browsers, edge)', () => {
    const root = REPO_ROOT;
    const files = walk(path.join(root, 'src/runtime/index.ts'));
    const rel = [...files].map((f) => path.relative(root, f));
    expect(rel).toContain('src/runtime/canonical.ts');
    expect(rel.filter((f) => /stores\/(sqlite|postgres)\.ts$/.test(f))).toEqual([]);
    const external = [...files].flatMap((f) =>
      specifiers(f)
        .filter((s) => !s.startsWith('.'))
        .map((s) => `${path.relative(root, f)} -> ${s}`),
    );
    expect(external.filter((e) => /-> (node:|better-sqlite3|pg$|undici)/.test(e))).toEqual([]);
  });

  it('the upstream entry (the pinned fetch) reaches undici and node:tls; no store driver', () => {
    const externals = [...walk(path.join(REPO_ROOT, 'src/runtime/upstream.ts'))].flatMap((f) => specifiers(f).filter((s) => !s.startsWith('.')));
    expect(externals).toEqual(expect.arrayContaining(['undici', 'node:tls', 'node:crypto']));
    expect(externals.filter((s) => /better-sqlite3|^pg$/.test(s))).toEqual([]);
  });

  it('the store entries reach their own driver and not the other one', () => {
    const root = REPO_ROOT;
    const externals = (entry: string) => [...walk(path.join(root, entry))].flatMap((f) => specifiers(f).filter((s) => !s.startsWith('.')));
    expect(externals('src/runtime/sqlite.ts')).toContain('better-sqlite3');
    expect(externals('src/runtime/sqlite.ts')).not.toContain('pg');
    expect(externals('src/runtime/postgres.ts')).toContain('pg');
    expect(externals('src/runtime/postgres.ts')).not.toContain('better-sqlite3');
  });

  it('the testing entry does not import a test runner', () => {
    const root = REPO_ROOT;
    const files = walk(path.join(root, 'src/testing/index.ts'));
    const external = [...files].flatMap((f) => specifiers(f).filter((s) => !s.startsWith('.')));
    expect(external.filter((s) => /^(vitest|jest|mocha)/.test(s))).toEqual([]);
  });
});
