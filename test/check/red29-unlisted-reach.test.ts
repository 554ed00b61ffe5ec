import { afterAll, describe, expect, it } from 'vitest';
import { inUnlistedModule } from '../../src/check/rules/unlisted-hint.js';
import type { Finding } from '../../src/check/types.js';
import { scanRepoSync } from '../../src/scan/index.js';
import type { FileScan } from '../../src/scan/types.js';
import { UNLISTED_HINT } from '../../src/scan/unlisted-imports.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
import { lines, lintRepo, testProject } from './rule-tester.js';
import { agentLoading, GIT_IGNORED_TOOL } from './unlisted-tool-module.js';

/*
 * Issue 40 item 4, left by session 28 (docs/DECISIONS.md "modules the listing leaves out"): an
 * unlisted module (git ignores it) reached by `require()`, by a dynamic `import()`, or through a
 * listed file that names no SDK and only re-exports it (`export * from '../gen/wire.js'`). Each is
 * read as session 28 reads a module a scanned file imports (src/scan/unlisted-imports.ts).
 */

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) removeDir(d);
});

const GEN = GIT_IGNORED_TOOL;
const agent = (...load: string[]): Record<string, string> => agentLoading('[wire]', ...load);

const wireFindings = (files: Record<string, string>): number[] =>
  lintRepo(files, { project: testProject(), ruleId: 'unprotected-tool', file: 'src/gen/wire.ts' }).map((f) => f.line);

describe('unlisted modules reached by other means than a top-level import', () => {
  it('by require()', () => {
    expect(wireFindings(agent("const { wire } = require('./gen/wire.js');"))).toEqual([3]);
  });

  it('by a dynamic import()', () => {
    expect(wireFindings(agent("const { wire } = await import('./gen/wire.js');"))).toEqual([3]);
  });

  it('through a listed barrel that names no SDK (`export * from`), and one re-exporting by name', () => {
    const star = { ...agent("import { wire } from './tools/index.js';"), 'src/tools/index.ts': "export * from '../gen/wire.js';\n" };
    expect(wireFindings(star)).toEqual([3]);
    const named = { ...agent("import { wire } from './tools/index.js';"), 'src/tools/index.ts': "export { wire } from '../gen/wire.js';\n" };
    expect(wireFindings(named)).toEqual([3]);
  });

  it('through two listed barrels, one required', () => {
    const files = {
      ...agent("const { wire } = require('./tools/index.js');"),
      'src/tools/index.ts': "export * from './more.js';\n",
      'src/tools/more.ts': "export * from '../gen/wire.js';\n",
    };
    expect(wireFindings(files)).toEqual([3]);
  });

  it('control: a listed barrel no scanned file imports leads nowhere; a required data file is not read', () => {
    const dir = makeTempDir('red29-unlisted-');
    dirs.push(dir);
    writeFiles(dir, {
      ...GEN,
      'src/tools/index.ts': "export * from '../gen/wire.js';\n",
      'src/gen/data.ts': "export const x = require('@openai/agents');\n",
      'src/agent.ts': lines(
        "import { Agent } from '@openai/agents';",
        "const data = require('./gen/data.json');",
        "export const desk = new Agent({ name: 'desk', tools: [] });",
      ),
    });
    const scan = scanRepoSync({ root: dir });
    expect(scan.files.map((s) => s.file)).toEqual(['src/agent.ts']);
  });
});

describe('hints in an unlisted module: the codemod leaves it', () => {
  const files = {
    '.gitignore': 'src/gen/\n',
    'src/gen/doors.ts': lines(
      "import { shellTool, type Shell } from '@openai/agents';",
      'declare const shell: Shell;',
      'export const sh = shellTool({ shell });',
    ),
    'src/agent.ts': lines(
      "import { Agent } from '@openai/agents';",
      "import { sh } from './gen/doors.js';",
      "export const desk = new Agent({ name: 'desk', tools: [sh] });",
    ),
  };

  it("another rule's codemod hint says the codemod does not rewrite the module, then the fix", () => {
    const [f] = lintRepo(files, { project: testProject(), ruleId: 'unprotected-door', file: 'src/gen/doors.ts' });
    expect(f?.line).toBe(3);
    expect(f?.hint).toMatch(
      /^The codemod does not rewrite this module \(git ignores it: built at build time\?\): make its generator write the fix, or declare the door in a file of the repository\. The fix: Use `protectShellTool\(/,
    );
  });

  it('the same door in a listed file keeps the codemod hint', () => {
    const listed = { 'src/doors.ts': files['src/gen/doors.ts'], 'src/agent.ts': files['src/agent.ts'].replace('./gen/doors.js', './doors.js') };
    const [f] = lintRepo(listed, { project: testProject(), ruleId: 'unprotected-door', file: 'src/doors.ts' });
    expect(f?.hint).toMatch(/^Use `protectShellTool\(.*codemod --write/);
  });
});

describe('inUnlistedModule', () => {
  const scan = { file: '../extra/src/index.ts', unlisted: 'outside' } as FileScan;
  const finding = (file: string, hint: string): Finding => ({ ruleId: 'x', severity: 'error', file, line: 1, column: 1, message: 'm', hint });

  it("leaves the tool rules' own hint (it names the codemod of the other package), and a finding of another file", () => {
    expect(inUnlistedModule(scan, finding(scan.file, UNLISTED_HINT.outside)).hint).toBe(UNLISTED_HINT.outside);
    expect(inUnlistedModule(scan, finding('src/a.ts', 'run `npx ctrlrun-gen codemod --write`')).hint).toBe('run `npx ctrlrun-gen codemod --write`');
  });

  it('fits a codemod hint to a module outside the package, and leaves a hint naming no codemod', () => {
    expect(inUnlistedModule(scan, finding(scan.file, 'x; `npx ctrlrun-gen codemod --write` rewrites it.')).hint).toMatch(
      /^The codemod does not rewrite this module \(it is outside this package.*The fix: x;/,
    );
    expect(inUnlistedModule(scan, finding(scan.file, 'Keep the tool as built.')).hint).toBe('Keep the tool as built.');
  });
});
