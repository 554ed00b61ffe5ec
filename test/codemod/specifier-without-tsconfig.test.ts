import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ts } from 'ts-morph';
import { afterEach, describe, expect, it } from 'vitest';
import { createModuleSettingsLookup, extensionFor, relativeSpecifier, settingsWithoutConfig } from '../../src/scan/specifier.js';
import { listedTextReader } from '../../src/scan/read.js';
import { readRepoHere } from '../../src/scan/read-here.js';

// A TypeScript repo with no tsconfig.json runs under Node's type stripping (or Deno): the import the
// codemod adds, and the generated module's import of the control, must name the `.ts` file when the
// repo's own imports do (found on a public repo whose scripts run `node examples/x.ts`: the `.js`
// specifier crashed it at start with ERR_MODULE_NOT_FOUND).

const dirs: string[] = [];
function repo(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'ctrlrun-spec-'));
  dirs.push(root);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  return root;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const TOOL = `import { tool } from '@openai/agents';\nexport const t = tool({ name: 't', description: 'd', parameters: {} as never, execute: async () => 'x' });\n`;

describe('module settings without a tsconfig', () => {
  it('follows `.ts` specifiers in the repo, for every directory (tool files with no relative import too)', () => {
    const root = repo({
      'package.json': '{}',
      'examples/chat.ts': `import { validateEnv } from '../utils/env.ts';\n${TOOL}`,
      'examples/tutor.ts': TOOL,
      'utils/env.ts': 'export function validateEnv() {}\n',
    });
    const settingsFor = createModuleSettingsLookup(root);
    expect(settingsFor(path.join(root, 'examples'))).toEqual({ extension: 'ts' });
    const spec = relativeSpecifier(
      path.join(root, 'examples/tutor.ts'),
      path.join(root, 'examples/ctrlrun.generated.ts'),
      settingsFor(path.join(root, 'examples')),
    );
    expect(spec).toBe('./ctrlrun.generated.ts');
  });

  it('keeps `.js` when the repo writes `.js` specifiers, or none at all', () => {
    const js = repo({
      'a.ts': `import { x } from './b.js';\nimport { y } from './c.ts';\nimport { z } from './d.js';\n${TOOL}`,
      'b.ts': '',
      'c.ts': '',
      'd.ts': '',
    });
    expect(settingsWithoutConfig(js)).toEqual({ extension: 'js' });
    const none = repo({ 'a.ts': `import { x } from './b';\nimport fs from 'node:fs';\n${TOOL}`, 'b.ts': '' });
    expect(settingsWithoutConfig(none)).toEqual({ extension: 'js' });
    expect(createModuleSettingsLookup(none)(none)).toEqual({ extension: 'js' });
  });

  it('counts only TypeScript files, and only relative imports (a plain JS file naming .ts does not count)', () => {
    const root = repo({ 'a.js': `import { x } from './b.ts';\n`, 'c.ts': `import pkg from 'some-pkg/index.ts';\n${TOOL}` });
    expect(settingsWithoutConfig(root)).toEqual({ extension: 'js' });
  });

  it('a tsconfig still decides over the evidence of the imports', () => {
    const root = repo({
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }),
      'a.ts': `import { validateEnv } from './env.ts';\n${TOOL}`,
      'env.ts': '',
    });
    expect(createModuleSettingsLookup(root)(root).extension).toBe('js');
  });

  it('rewriteRelativeImportExtensions writes the `.ts` file name, as allowImportingTsExtensions does', () => {
    expect(extensionFor({ module: ts.ModuleKind.NodeNext, rewriteRelativeImportExtensions: true })).toBe('ts');
  });

  it('a solution config (`"files": []`, references) says nothing: the next config up, else the repo\'s imports, decide', () => {
    const root = repo({
      'package.json': '{}',
      'tsconfig.json': JSON.stringify({ files: [], references: [{ path: './packages/server' }] }),
      'packages/server/tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext' } }),
      'packages/server/src/a.ts': `import { b } from './b.js';\n${TOOL}`,
      'packages/server/src/b.ts': 'export const b = 1;\n',
    });
    const settingsFor = createModuleSettingsLookup(root);
    expect(settingsFor(path.join(root, 'scripts'))).toEqual({ extension: 'js' });
    expect(settingsFor(path.join(root, 'packages/server/src'))).toMatchObject({ extension: 'js', tsconfig: path.join(root, 'packages/server/tsconfig.json') });
  });
});

describe("module settings without a tsconfig, from check's read (issue 40, item 8)", () => {
  it('reads the listed files from the bytes the check read, and a file the read did not take from disk', () => {
    const root = repo({
      'a.ts': `import { x } from './c.ts';\n${TOOL}`,
      'b.ts': `import { y } from './c.js';\nimport { z } from './d.js';\n`,
      'c.ts': '',
      'd.ts': '',
    });
    // a link to a listed file: the check's read refuses it (ELINKED), the disk reads it
    symlinkSync(path.join(root, 'a.ts'), path.join(root, 'link.ts'));
    const read = readRepoHere({ root });
    expect(read.files.get(path.join(root, 'link.ts'))).toEqual({ code: 'ELINKED' });
    const listing = read.listing.files;
    const fromRead = listedTextReader(read);
    // two `.ts` (a.ts and the link) against two `.js`: `.ts`; without the link's text it would be `.js`
    expect(settingsWithoutConfig(root, listing)).toEqual({ extension: 'ts' });
    expect(settingsWithoutConfig(root, listing, fromRead)).toEqual({ extension: 'ts' });
    // the bytes read are used, not the disk's: b.ts changed on disk after the read is counted as read
    writeFileSync(path.join(root, 'b.ts'), `import { y } from './c.js';\nimport { z } from './d.js';\nimport { w } from './e.js';\n`);
    expect(settingsWithoutConfig(root, listing)).toEqual({ extension: 'js' });
    expect(settingsWithoutConfig(root, listing, fromRead)).toEqual({ extension: 'ts' });
  });
});
