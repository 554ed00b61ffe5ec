import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compilerFile, TOOLS_FROM_ENV } from '../../src/scan/typescript.js';

// The compiler the CLI loads is the companion's (its ts-morph's bundled TypeScript) when the
// launcher names the companion, even where this package would find another ts-morph: a public
// Vercel app hoists ts-morph 12 (TypeScript 4.4) and init died with
// `typescript.isSatisfiesExpression is not a function`.
const dirs: string[] = [];
const saved = process.env[TOOLS_FROM_ENV];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  if (saved === undefined) delete process.env[TOOLS_FROM_ENV];
  else process.env[TOOLS_FROM_ENV] = saved;
});

function fakeCompanion(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'ctrlrun-compiler-'));
  dirs.push(root);
  const pkg = (dir: string, name: string, files: Record<string, string>) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '28.0.0', main: 'index.js' }));
    for (const [f, text] of Object.entries(files)) writeFileSync(path.join(dir, f), text);
  };
  const companion = path.join(root, 'node_modules/ctrlrun-gen-cli');
  pkg(companion, 'ctrlrun-gen-cli', {});
  pkg(path.join(companion, 'node_modules/ts-morph'), 'ts-morph', { 'index.js': '' });
  pkg(path.join(companion, 'node_modules/@ts-morph/common'), '@ts-morph/common', { 'index.js': '', 'typescript.js': '' });
  return companion;
}

describe('compilerFile', () => {
  it("is the companion's ts-morph's compiler when the launcher names the companion", () => {
    const companion = fakeCompanion();
    process.env[TOOLS_FROM_ENV] = path.join(companion, 'package.json');
    expect(compilerFile()).toBe(path.join(companion, 'node_modules/@ts-morph/common/typescript.js'));
  });

  it("is this package's own when no companion is named (the repo's dev install)", () => {
    delete process.env[TOOLS_FROM_ENV];
    expect(compilerFile()).toMatch(/node_modules[\\/]@ts-morph[\\/]common[\\/](?:dist[\\/])?typescript\.js$/);
    expect(compilerFile()).not.toContain('ctrlrun-compiler-');
  });
});
