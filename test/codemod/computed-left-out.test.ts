import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCodemod } from '../../src/codemod/index.js';
import { loadProject } from '../../src/manifest/load.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

// A computed-name entry whose tools generate leaves unprotected (its own error) is left as the SDK's
// tool(), a conflict, found by its place; the other entries are still rewritten (issue 40).
describe('codemod: a computed-name entry generate leaves out', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach(removeDir));

  it('keeps the calls of that place as they are, names the conflict, and rewrites the other place', async () => {
    const dir = makeTempDir('codemod-computed-left-');
    dirs.push(dir);
    const root = path.join(FIXTURES, 'codemod');
    cpSync(path.join(root, '_shared'), dir, { recursive: true });
    cpSync(path.join(root, 'computed-names', 'input'), dir, { recursive: true });
    const policy = path.join(dir, 'ctrlrun.yaml');
    // `id` is no argument of the flows' tool(): the rule cannot be checked, so generate leaves them out
    const text = readFileSync(policy, 'utf8').replace(
      '  stripe.charge.read:\n    decision: allow\n',
      '  stripe.charge.read:\n    rules:\n      - when: { id_eq: "x" }\n        decision: allow\n      - decision: approve\n',
    );
    expect(text).toContain('id_eq');
    writeFileSync(policy, text);
    const project = loadProject({ cwd: dir });
    const result = await runCodemod({ manifest: project.manifest, policy: project.policy });
    const conflicts = result.findings.filter((f) => f.kind === 'conflict');
    expect(conflicts).toEqual([
      expect.objectContaining({ file: path.join(dir, 'src/flows.ts'), cause: 'generate', tool: 'tool() in flowTools', action: 'stripe.charge.read' }),
    ]);
    expect(result.changes.map((c) => path.relative(dir, c.file))).toEqual(['src/reports.ts']);
    expect(result.exitCode).toBe(1);
  });
});
