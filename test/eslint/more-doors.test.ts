import { afterAll, describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/temp-repo.js';
import { openDoorsRepo, parityIn } from './helpers.js';

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
  const cwd = openDoorsRepo('eslint-more-doors-', {
    'src/shell-kind.ts': "export const SHELL = 'shell';\n",
    'src/api.ts': "import type { RunState } from '@openai/agents';\nexport const api = { load(): RunState<any, any> { return null!; } };\n",
    [FILE]: TEXT,
  });
  afterAll(() => removeDir(cwd));

  it('each is reported as check reports it', async () => {
    const { lines, eslint, check } = await parityIn(cwd, FILE, RULES);
    expect(lines).toEqual(['10 unprotected-door', '12 sdk-approval', '7 unprotected-handoff', '9 unprotected-door']);
    expect(eslint).toEqual(check);
  });
});
