import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/check/types.js';
import { cli } from '../helpers/cli.js';
import { REACHING, type SiblingReach, writeSiblingRoot } from '../helpers/sibling-answers.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function siblings(reach: SiblingReach, options: { workspace?: boolean } = {}): string {
  const root = makeTempDir('check-sibling-answers-');
  dirs.push(root);
  writeSiblingRoot(root, reach, options);
  return root;
}

async function check(cwd: string, paths: readonly string[] = []): Promise<{ code: number; findings: Finding[] }> {
  const r = await cli(['check', '--format', 'json', ...paths], { cwd });
  return { code: r.code, findings: (JSON.parse(r.stdout) as { findings: Finding[] }).findings };
}

const answers = (findings: readonly Finding[]) => findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => `${f.file}:${f.line}`);

/**
 * Issue 40, "no false green", beyond package.json: check in `agents` (where the manifest is, where
 * CI runs it) reports the `sdk-approval` answers of `server/src/app.ts` when its imports reach the
 * protected tools by a relative path, by name in a root that is no workspace, through the barrel or
 * through a module of the server's own; it was green. A sibling that does not reach them stays quiet.
 */
describe('check in the package: a file outside it answers the interruptions of its tools', () => {
  for (const { reach, workspace, label } of REACHING) {
    it(`reports both answers at ../server/src/app.ts (${label})`, async () => {
      const { findings } = await check(path.join(siblings(reach, { workspace }), 'agents'));
      expect(answers(findings)).toEqual(['../server/src/app.ts:11', '../server/src/app.ts:12']);
      // by name (`file:../agents`) the server is a dependent, read as one (file-dependency-answers.test.ts)
      const why =
        reach === 'by-name'
          ? 'this package depends on `agents`, whose tools are protected'
          : 'this file imports the tools of `agents` by path, and they are protected';
      expect(findings.find((f) => f.ruleId === 'sdk-approval')!.message).toContain(why);
      // only that rule: the server's other files are not this check's
      expect(findings.filter((f) => f.file.startsWith('../') && f.ruleId !== 'sdk-approval')).toEqual([]);
    });
  }

  it('with paths too, once each; the answering file’s own suppression applies', async () => {
    const root = siblings('relative');
    const agents = path.join(root, 'agents');
    expect(answers((await check(agents, ['src'])).findings)).toEqual(['../server/src/app.ts:11', '../server/src/app.ts:12']);
    expect(answers((await check(agents, ['src', '../server'])).findings)).toEqual(['../server/src/app.ts:11', '../server/src/app.ts:12']);
    const app = path.join(root, 'server/src/app.ts');
    const lines = readFileSync(app, 'utf8').split('\n');
    lines.splice(10, 0, '// ctrlrun-ignore sdk-approval -- reviewed');
    writeFileSync(app, lines.join('\n'));
    expect(answers((await check(agents)).findings)).toEqual(['../server/src/app.ts:13']);
  });

  it('check at the root reports them once (no check of the server’s folder sees them), also given paths', async () => {
    for (const options of [{}, { workspace: true }]) {
      const root = siblings('relative', options);
      expect(answers((await check(root)).findings)).toEqual(['server/src/app.ts:11', 'server/src/app.ts:12']);
      expect(answers((await check(root, ['agents', 'server'])).findings)).toEqual(['server/src/app.ts:11', 'server/src/app.ts:12']);
    }
  });

  it('after the codemod protected the tools (the answers written later), the rewritten module still counts', async () => {
    const root = siblings('relative');
    const agents = path.join(root, 'agents');
    const app = path.join(root, 'server/src/app.ts');
    const text = readFileSync(app, 'utf8');
    rmSync(app);
    expect((await cli(['generate'], { cwd: agents })).code).toBe(0);
    expect((await cli(['codemod', '--write', '--allow-dirty'], { cwd: agents })).code).toBe(0);
    expect(readFileSync(path.join(agents, 'src/tools.ts'), 'utf8')).toContain("export const closeAccount = protectedTool('accounts.close', {");
    writeFileSync(app, text);
    expect(answers((await check(agents)).findings)).toEqual(['../server/src/app.ts:11', '../server/src/app.ts:12']);
  });

  it('a sibling whose imports do not reach the tools is not read', async () => {
    const { findings } = await check(path.join(siblings('none'), 'agents'));
    expect(answers(findings)).toEqual([]);
  });
});
