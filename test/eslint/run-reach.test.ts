import { describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check/engine.js';
import { NAMESPACE } from '../../src/eslint/index.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
import { eslintWith, reported } from './helpers.js';

// Issue 40, item 3: the plugin follows a run's agent across the repo's modules as check does, and
// names the same runs (check's rule tester covers ESLint for one-file cases only).
describe('run-without-context across modules, in ESLint as in check', () => {
  it('names the run of an imported agent with a protected tool, not the run of an imported agent without tools', async () => {
    const cwd = makeTempDir('eslint-run-reach-');
    try {
      writeFiles(cwd, {
        'package.json': JSON.stringify({ name: 'desk', type: 'module' }),
        'ctrlrun.yaml': 'schema: ctrlrun.policy/v6\nactions:\n  stripe.refund:\n    decision: approve\n',
        'ctrlrun.tools.yaml':
          'schema: ctrlrun.tools/v1\npolicy: ctrlrun.yaml\noutput: src/ctrlrun.generated.ts\ncontrol: src/ctrlrun.control.ts\ntools:\n  - tool: refund\n    action: stripe.refund\n',
        'src/ctrlrun.control.ts': [
          "import { createControl, memoryStore } from 'ctrlrun-gen/runtime';",
          'export default createControl({ store: memoryStore(), identity: (rc) => (rc.context as { user?: string } | undefined)?.user ?? null });',
          '',
        ].join('\n'),
        'src/agents.ts': [
          "import { Agent } from '@openai/agents';",
          "import { protectedTool } from './ctrlrun.generated.js';",
          "export const tutor = new Agent({ name: 'tutor' });",
          "export const desk = new Agent({ name: 'desk', tools: [protectedTool('stripe.refund', { name: 'refund', parameters: {} as never, execute: async () => 'ok' })] });",
          '',
        ].join('\n'),
        'src/main.ts': [
          "import { run } from '@openai/agents';",
          "import { desk, tutor } from './agents.js';",
          "await run(tutor, 'explain');",
          "await run(desk, 'refund');",
          '',
        ].join('\n'),
      });
      const check = (await runCheck({ cwd })).findings.filter((f) => f.ruleId === 'run-without-context').map((f) => `${f.file}:${f.line}:${f.column}`);
      expect(check).toEqual(['src/main.ts:4:7']);
      const eslint = reported(await eslintWith(cwd).lintFiles(['src']), cwd)
        .filter((m) => m.ruleId === `${NAMESPACE}/run-without-context`)
        .map((m) => `${m.file}:${m.line}:${m.column}`);
      expect(eslint).toEqual(check);
    } finally {
      removeDir(cwd);
    }
  });
});
