import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/check/types.js';
import { cli } from '../helpers/cli.js';
import { type SiblingReach, writeSiblingRoot } from '../helpers/sibling-answers.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * The sibling layouts of sibling-answers.ts (a git work tree, no workspace), with the server reaching
 * the SDK through a barrel of its own (`export * from '@openai/agents'` in `server/src/sdk.ts`, then
 * `import { Agent, run } from './sdk.js'`), issue 40. Thought missed (the importers' answering files
 * are scanned alone, without the repo's barrels); they were not: the scanner takes an answer by its
 * shape (a run's `state`, an item of its interruptions, a parameter typed `RunState`), not by where
 * `run` came from. Kept as the guard of that.
 */
function withSdkBarrel(reach: SiblingReach, barrel = "export * from '@openai/agents';\n"): string {
  const root = makeTempDir('sdk-barrel-answers-');
  dirs.push(root);
  writeSiblingRoot(root, reach);
  const app = path.join(root, 'server/src/app.ts');
  writeFileSync(app, readFileSync(app, 'utf8').replace("from '@openai/agents';", "from './sdk.js';"));
  writeFileSync(path.join(root, 'server/src/sdk.ts'), barrel);
  return root;
}

describe('an importer of the tools that reaches the SDK through its own barrel', () => {
  for (const [label, barrel] of [
    ['export *', "export * from '@openai/agents';\n"],
    ['named re-export', "export { Agent, run } from '@openai/agents';\n"],
  ] as const) {
    it(`the codemod keeps close_account as a conflict (${label})`, async () => {
      const r = await cli(['codemod'], { cwd: path.join(withSdkBarrel('relative', barrel), 'agents') });
      expect(r.stdout).toContain('1 conflicts');
      expect(r.stdout).toContain('../server/src/app.ts:11');
      expect(r.code).toBe(1);
    });
  }

  it('check in the package reports the answers', async () => {
    const c = await cli(['check', '--format', 'json'], { cwd: path.join(withSdkBarrel('relative'), 'agents') });
    const findings = (JSON.parse(c.stdout) as { findings: Finding[] }).findings;
    expect(findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => `${f.file}:${f.line}`)).toEqual([
      '../server/src/app.ts:11',
      '../server/src/app.ts:12',
    ]);
    expect(c.code).toBe(1);
  });

  // a helper typed with the SDK's RunState imported through the barrel: the SDK's answer, exactly
  for (const where of ['server', 'agents'] as const) {
    it(`a helper typed with RunState from the barrel answers through the SDK (${where})`, async () => {
      const root = withSdkBarrel('relative');
      const dir = path.join(root, where, 'src');
      writeFileSync(
        path.join(dir, 'approve.ts'),
        "import type { RunState } from './sdk.js';\n\nexport function approveAll(state: RunState<any, any>, items: readonly any[]) {\n  for (const item of items) state.approve(item);\n}\n",
      );
      if (where === 'agents') writeFileSync(path.join(dir, 'sdk.ts'), "export * from '@openai/agents';\n");
      const app = path.join(dir, where === 'server' ? 'app.ts' : 'desk.ts');
      writeFileSync(
        app,
        `import { closeAccount } from '${where === 'server' ? '../../agents/src/tools.js' : './tools.js'}';\nimport { approveAll } from './approve.js';\nexport const tools = [closeAccount];\nexport { approveAll };\n`,
      );
      const r = await cli(['codemod'], { cwd: path.join(root, 'agents') });
      expect(r.stdout).toContain('1 conflicts');
      expect(r.stdout).toContain(`${where === 'server' ? '../server/src/' : 'src/'}approve.ts:4`);
    });
  }

  // the approvals' readers of written types (a class field's, here) take the barrel's RunState too
  // (a value import here; a type-only one: test/check/more-layout-answers.test.ts)
  it('a class field typed with RunState from the barrel answers through the SDK', async () => {
    const root = withSdkBarrel('relative');
    const dir = path.join(root, 'agents/src');
    writeFileSync(path.join(dir, 'sdk.ts'), "export * from '@openai/agents';\n");
    writeFileSync(
      path.join(dir, 'held.ts'),
      [
        "import { RunState } from './sdk.js';",
        '',
        'export class Held {',
        '  private state: RunState<any, any> | undefined;',
        '  answer(item: any) {',
        '    this.state?.approve(item);',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    const c = await cli(['check', '--format', 'json'], { cwd: path.join(root, 'agents') });
    const findings = (JSON.parse(c.stdout) as { findings: Finding[] }).findings;
    expect(findings.filter((f) => f.ruleId === 'sdk-approval' && f.file === 'src/held.ts').map((f) => f.line)).toEqual([6]);
  });

  it('a state restored with RunState.fromString from the barrel', async () => {
    const root = withSdkBarrel('relative');
    writeFileSync(
      path.join(root, 'server/src/resume.ts'),
      [
        "import { RunState, run } from './sdk.js';",
        "import { desk } from './app.js';",
        '',
        'export async function resume(saved: string, callId: string) {',
        '  const state = await RunState.fromString(desk, saved);',
        '  for (const item of state.getInterruptions()) if (item.rawItem.callId === callId) state.approve(item);',
        '  return run(desk, state);',
        '}',
        '',
      ].join('\n'),
    );
    const app = path.join(root, 'server/src/app.ts');
    writeFileSync(app, readFileSync(app, 'utf8').replace('const desk', 'export const desk'));
    // check lists each answer; the codemod's conflict too (session 22), not only the first
    const c = await cli(['check', '--format', 'json'], { cwd: path.join(root, 'agents') });
    const findings = (JSON.parse(c.stdout) as { findings: Finding[] }).findings;
    expect(findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => `${f.file}:${f.line}`)).toContain('../server/src/resume.ts:6');
    expect((await cli(['codemod'], { cwd: path.join(root, 'agents') })).stdout).toContain('answered at ../server/src/resume.ts:6:');
  });
});
