import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/check/types.js';
import { cli } from '../helpers/cli.js';
import { type SiblingReach, writeSiblingRoot } from '../helpers/sibling-answers.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';
import { eslintWith } from '../eslint/helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function siblings(reach: SiblingReach): string {
  const root = makeTempDir('importer-answers-');
  dirs.push(root);
  writeSiblingRoot(root, reach);
  return root;
}

async function check(cwd: string): Promise<{ code: number; findings: Finding[] }> {
  const r = await cli(['check', '--format', 'json'], { cwd });
  return { code: r.code, findings: (JSON.parse(r.stdout) as { findings: Finding[] }).findings };
}

const answers = (findings: readonly Finding[]) => findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => `${f.file}:${f.line}`);

/**
 * Issue 40 item 4: check run in the importing folder itself (`server`, whose package.json names no
 * dependency, importing `../../agents/src/tools.js`) said nothing of its answers; only the check of
 * `agents` and the root's reported them. It now finds the manifest its relative imports reach and
 * asks that package's importers' search which of its files answer for those tools.
 */
describe('check in the folder that imports another package’s tools by path', () => {
  for (const reach of ['relative', 'barrel', 'own-module'] as const) {
    it(`reports its answers, naming the package (${reach})`, async () => {
      const { code, findings } = await check(path.join(siblings(reach), 'server'));
      expect(answers(findings)).toEqual(['src/app.ts:11', 'src/app.ts:12']);
      expect(findings.find((f) => f.ruleId === 'sdk-approval')!.message).toContain('this file imports the tools of `agents` by path, and they are protected');
      expect(code).not.toBe(0);
    });
  }

  it('an ESLint session linting the folder reports them too', async () => {
    const server = path.join(siblings('relative'), 'server');
    const [result] = await eslintWith(server).lintFiles([path.join(server, 'src/app.ts')]);
    expect(result!.messages.filter((m) => m.ruleId === 'ctrlrun/sdk-approval').map((m) => m.line)).toEqual([11, 12]);
  });

  it('a folder whose imports reach no protected tool (its own tools, a module of agents that declares none) stays quiet', async () => {
    expect(answers((await check(path.join(siblings('none'), 'server'))).findings)).toEqual([]);
  });

  it('an agents manifest that maps no function tool is not read', async () => {
    const root = siblings('relative');
    writeFileSync(path.join(root, 'agents/ctrlrun.tools.yaml'), 'version: 1\ncontrol: src/control.ts\noutput: src/ctrlrun.generated.ts\ntools: []\n');
    expect(answers((await check(path.join(root, 'server'))).findings)).toEqual([]);
  });
});
