import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanRepoIndexed, scanRepoSync } from '../../src/scan/index.js';
import { isTestFile } from '../../src/scan/test-files.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

/**
 * Test files are not the app's doors (session 13, the loop's welt library): the scanner keeps them
 * apart from the app's files (`testFiles`), unless a file is named one by one.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const TOOL = (name: string) => `import { tool } from '@openai/agents';\nexport const t = tool({ name: '${name}' });\n`;

function repo(files: Record<string, string>): string {
  const dir = makeTempDir('test-files-');
  dirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

describe('isTestFile: the runners’ conventions, by the path below the scan root', () => {
  it.each([
    'src/refund.test.ts',
    'src/refund.spec.tsx',
    'refund.test.mjs',
    'src/Refund.Spec.js',
    'tests/round-trip.ts',
    'test/helpers/model.ts',
    'packages/lib/tests/a.ts',
    'src/__tests__/a.ts',
    'src/__mocks__/openai.js',
  ])('%s is a test file', (rel) => expect(isTestFile(rel)).toBe(true));

  it.each(['src/test.ts', 'src/tests.ts', 'src/testing/a.ts', 'src/attest.ts', 'src/latest/a.ts', 'src/contest.testdata.ts', 'e2e/a.ts', 'src/spec/a.ts'])(
    '%s is not',
    (rel) => expect(isTestFile(rel)).toBe(false),
  );
});

describe('a repo scan keeps test files apart', () => {
  const files = {
    'src/agent.ts': TOOL('refund'),
    'src/agent.test.ts': TOOL('refund'),
    'tests/round-trip.ts': TOOL('risky'),
    'src/__tests__/double.ts': TOOL('noop'),
  };

  it("the app's files in `files`, the test files in `testFiles` (parsed: their tools are known)", () => {
    const dir = repo(files);
    const scan = scanRepoSync({ root: dir });
    expect(scan.files.map((f) => f.file)).toEqual(['src/agent.ts']);
    expect(scan.testFiles?.map((f) => [f.file, f.sdkToolCalls.map((c) => c.name)])).toEqual([
      ['src/__tests__/double.ts', ['noop']],
      ['src/agent.test.ts', ['refund']],
      ['tests/round-trip.ts', ['risky']],
    ]);
    expect(scan.filesConsidered).toBe(4);
  });

  it("a test file named one by one is scanned as the app's; a folder named is not enough", () => {
    const dir = repo(files);
    const named = scanRepoSync({ root: dir, paths: ['tests/round-trip.ts', 'src'] });
    expect(named.files.map((f) => f.file)).toEqual(['src/agent.ts', 'tests/round-trip.ts']);
    expect(named.testFiles?.map((f) => f.file)).toEqual(['src/__tests__/double.ts', 'src/agent.test.ts']);
    const folder = scanRepoSync({ root: dir, paths: ['tests'] });
    expect(folder.files).toEqual([]);
  });

  it('the index a one-file front end (ESLint) rescans edited texts with leaves a test file out too', () => {
    const dir = repo(files);
    const { index } = scanRepoIndexed({ root: dir });
    const edited = `${TOOL('refund')}export const u = tool({ name: 'other' });\n`;
    expect(index.scanText(path.join(dir, 'src/agent.ts'), edited)?.sdkToolCalls.map((c) => c.name)).toEqual(['refund', 'other']);
    expect(index.scanText(path.join(dir, 'src/agent.test.ts'), edited)).toBeUndefined();
  });
});

describe('at a workspace root, the folder rule reads the path inside the package (session 14)', () => {
  const PKG = (name: string) => JSON.stringify({ name });
  const workspace = {
    'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*', 'apps/*', 'test'] }),
    'packages/test/package.json': PKG('test-kit'),
    'packages/test/src/agent.ts': TOOL('kit'),
    'packages/test/test/agent.test.ts': TOOL('kit'),
    'test/package.json': PKG('e2e-agent'),
    'test/agent.ts': TOOL('e2e'),
    'apps/web/package.json': PKG('web'),
    'apps/web/src/agent.ts': TOOL('web'),
    'apps/web/test/x.test.ts': TOOL('double'),
    'apps/web/test/helpers.ts': TOOL('helper'),
    // a fixture with a package.json of its own is no workspace package: still a test file
    'apps/web/test/fixtures/app/package.json': PKG('fixture'),
    'apps/web/test/fixtures/app/agent.ts': TOOL('fixture'),
  };

  it("a package in a folder named `test` holds the app's files; a test folder inside a package stays tests", () => {
    const scan = scanRepoSync({ root: repo(workspace) });
    expect(scan.files.map((f) => f.file)).toEqual(['apps/web/src/agent.ts', 'packages/test/src/agent.ts', 'test/agent.ts']);
    expect(scan.testFiles?.map((f) => f.file)).toEqual([
      'apps/web/test/fixtures/app/agent.ts',
      'apps/web/test/helpers.ts',
      'apps/web/test/x.test.ts',
      'packages/test/test/agent.test.ts',
    ]);
  });

  it('pnpm-workspace.yaml names the packages as `workspaces` does; a `!pattern` keeps a folder out', () => {
    const dir = repo({
      'package.json': PKG('mono'),
      'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n  - '!packages/tests'\n  - 'packages/*/test'\n",
      'packages/test/package.json': PKG('kit'),
      'packages/test/agent.ts': TOOL('kit'),
      'packages/tests/package.json': PKG('left-out'),
      'packages/tests/agent.ts': TOOL('left-out'),
      // a member inside a member: the nearest package holds the file
      'packages/test/test/package.json': PKG('kit-e2e'),
      'packages/test/test/agent.ts': TOOL('kit-e2e'),
    });
    const scan = scanRepoSync({ root: dir });
    expect(scan.files.map((f) => f.file)).toEqual(['packages/test/agent.ts', 'packages/test/test/agent.ts']);
    expect(scan.testFiles?.map((f) => f.file)).toEqual(['packages/tests/agent.ts']);
  });

  it('a root that is no workspace judges by the path from the root, as before', () => {
    const scan = scanRepoSync({ root: repo({ ...workspace, 'package.json': PKG('mono') }) });
    expect(scan.files.map((f) => f.file)).toEqual(['apps/web/src/agent.ts']);
  });

  it('the index a one-file front end rescans with judges the same way', () => {
    const dir = repo(workspace);
    const { index } = scanRepoIndexed({ root: dir });
    expect(index.scanText(path.join(dir, 'test/agent.ts'), TOOL('e2e'))?.sdkToolCalls.map((c) => c.name)).toEqual(['e2e']);
    expect(index.scanText(path.join(dir, 'apps/web/test/helpers.ts'), TOOL('helper'))).toBeUndefined();
  });
});
