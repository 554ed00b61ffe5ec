import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderGeneratedModule } from '../../src/generate/index.js';
import { loadProject } from '../../src/manifest/load.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';
import { eslintWith } from './helpers.js';

/** The plugin says of a test file what `check` says: nothing, whether ESLint reads it from disk or an editor's unsaved text (session 13). */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('ESLint: test files are not the app’s doors', () => {
  it('reports the open door in src, nothing in a test file, saved or edited', async () => {
    const dir = makeTempDir('eslint-test-files-');
    dirs.push(dir);
    cpSync(path.join(FIXTURES, 'check/doors/_shared'), dir, { recursive: true });
    cpSync(path.join(FIXTURES, 'check/doors/test-files/repo'), dir, { recursive: true });
    const generated = renderGeneratedModule(loadProject({ cwd: dir }));
    writeFileSync(generated.path, generated.text);
    const eslint = eslintWith(dir);
    const ids = async (rel: string, edit = (t: string) => t) => {
      const file = path.join(dir, rel);
      const [r] = await eslint.lintText(edit(readFileSync(file, 'utf8')), { filePath: file });
      return r!.messages.map((m) => `${m.line} ${m.ruleId}`);
    };
    expect(await ids('src/open.ts')).toContain('5 ctrlrun/unprotected-tool');
    expect(await ids('tests/approval.test.ts')).toEqual([]);
    expect(await ids('src/refund.spec.ts')).toEqual([]);
    // typed, not saved: a second double in the test file
    expect(
      await ids(
        'tests/approval.test.ts',
        (t) => `${t}export const other = tool({ name: 'refund', description: 'x', parameters: z.object({}), execute: async () => 'x' });\n`,
      ),
    ).toEqual([]);
  });
});
