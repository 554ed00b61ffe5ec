import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check/engine.js';
import { eslintMessage, NAMESPACE } from '../../src/eslint/index.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { eslintWith, reported } from './helpers.js';

/**
 * Session 30 (test/check/red30-more-doors.test.ts): a literal door whose `type` check cannot read, a
 * handoff cloned with spread overrides, a hosted shell made local, an answer on `ReturnType<typeof
 * api.load>` of an object another module exports. The plugin reads the same scan,
 * so each gives check's finding at check's place with check's message.
 */
const FILE = 'src/more.ts';
const TEXT = [
  "import { Agent, shellTool } from '@openai/agents';",
  "import { protectHandoff } from './ctrlrun.generated.js';",
  "import { SHELL } from './shell-kind.js';",
  'declare const runner: any;',
  "const oncall = new Agent({ name: 'oncall' });",
  "const h = protectHandoff('desk.page_oncall', oncall, {});",
  'export const page = (o: object) => h.clone({ ...o });',
  "const box = shellTool({ environment: { type: 'container_auto' } });",
  "box.environment.type = 'local';",
  "export const desk = new Agent({ name: 'desk', tools: [box, { type: SHELL, shell: runner } as never], handoffs: [h] });",
  "import { api } from './api.js';",
  'export function ok(s: ReturnType<typeof api.load>, i: any) { s.approve(i); }',
  '',
].join('\n');
const RULES = ['unprotected-door', 'unprotected-handoff', 'sdk-approval'];

describe('session 30 doors in ESLint', () => {
  const cwd = copyFixture('check/open-doors/repo', 'eslint-more-doors-');
  afterAll(() => removeDir(cwd));

  it('each is reported as check reports it', async () => {
    writeFileSync(path.join(cwd, 'src/shell-kind.ts'), "export const SHELL = 'shell';\n");
    writeFileSync(
      path.join(cwd, 'src/api.ts'),
      "import type { RunState } from '@openai/agents';\nexport const api = { load(): RunState<any, any> { return null!; } };\n",
    );
    writeFileSync(path.join(cwd, FILE), TEXT);
    const check = (await runCheck({ cwd })).findings.filter((f) => f.file === FILE && RULES.includes(f.ruleId));
    expect(check.map((f) => `${f.line} ${f.ruleId}`).sort()).toEqual(['10 unprotected-door', '12 sdk-approval', '7 unprotected-handoff', '9 unprotected-door']);
    const eslint = reported(await eslintWith(cwd).lintFiles([FILE]), cwd).filter((m) => RULES.some((r) => m.ruleId === `${NAMESPACE}/${r}`));
    const key = (m: { line: number; column: number; ruleId: string | null; message: string }) => `${m.line}:${m.column} ${m.ruleId} ${m.message}`;
    expect(eslint.map(key).sort()).toEqual(check.map((f) => key({ ...f, ruleId: `${NAMESPACE}/${f.ruleId}`, message: eslintMessage(f) })).sort());
  });
});
