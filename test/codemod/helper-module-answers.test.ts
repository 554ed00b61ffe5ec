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
 * The sibling layouts of sibling-answers.ts (a git work tree, no workspace), with the answers moved
 * out of `server/src/app.ts` into a helper module, `server/src/approve.ts`, that imports no tool:
 * app.ts (which imports the tools) calls `approveAll(result.state, result.interruptions)`. The
 * importers' search started from the answering file, so it missed the helper (issue 40 item 4).
 */
function withHelper(reach: SiblingReach): string {
  const root = makeTempDir('helper-module-answers-');
  dirs.push(root);
  writeSiblingRoot(root, reach);
  const app = path.join(root, 'server/src/app.ts');
  const text = readFileSync(app, 'utf8')
    .replace("import { Agent, run } from '@openai/agents';", "import { Agent, run } from '@openai/agents';\nimport { approveAll } from './approve.js';")
    .replace(/for \(const item of result\.interruptions\) \{[\s\S]*?\n {4}\}/, 'approveAll(result.state, result.interruptions);');
  expect(text).toContain('approveAll(result.state');
  writeFileSync(app, text);
  writeFileSync(
    path.join(root, 'server/src/approve.ts'),
    [
      "import type { RunState, RunToolApprovalItem } from '@openai/agents';",
      '',
      '/** Approves every paused call. */',
      'export function approveAll(state: RunState<any, any>, items: readonly RunToolApprovalItem[]) {',
      '  for (const item of items) state.approve(item);',
      '}',
      '',
    ].join('\n'),
  );
  return root;
}

describe('an answer in a helper module the importer of the tools calls', () => {
  for (const reach of ['relative', 'barrel', 'own-module'] as const) {
    it(`the codemod keeps close_account as a conflict naming the helper (${reach})`, async () => {
      const r = await cli(['codemod'], { cwd: path.join(withHelper(reach), 'agents') });
      expect(r.stdout).toContain('1 conflicts');
      expect(r.stdout).toContain('../server/src/approve.ts:5');
      expect(r.code).toBe(1);
    });
  }

  it('check in the package reports the helper’s answer', async () => {
    const c = await cli(['check', '--format', 'json'], { cwd: path.join(withHelper('relative'), 'agents') });
    const findings = (JSON.parse(c.stdout) as { findings: Finding[] }).findings;
    expect(findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => `${f.file}:${f.line}`)).toEqual(['../server/src/approve.ts:5']);
    expect(c.code).toBe(1);
  });

  it('a helper called by a sibling whose imports do not reach the tools is not read', async () => {
    const r = await cli(['codemod'], { cwd: path.join(withHelper('none'), 'agents') });
    expect(r.stdout).toContain('0 conflicts');
    expect(r.code).toBe(0);
  });
});
