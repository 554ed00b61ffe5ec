import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/*
 * Issue 40 item 4 (session 29, item 5 of the brief): the run reach does not follow a module the
 * listing leaves out; an agent whose tool lives in one is then one check cannot see all of, and a
 * run of it with no context is reported (fail closed), not passed over.
 */
describe('a run of an agent whose tool is in an unlisted module', () => {
  const files = (run: string): Record<string, string> => ({
    '.gitignore': 'src/gen/\n',
    // the control init writes: its identity reads `runContext.context.user`
    'src/control.ts': lines(
      "import { createControl, memoryStore } from 'ctrlrun-gen/runtime';",
      'export const control = createControl({',
      '  store: memoryStore(),',
      '  identity: (runContext) => (runContext.context as { user?: string } | undefined)?.user ?? null,',
      '});',
    ),
    'src/gen/wire.ts': lines(
      "import { protectedTool } from '../ctrlrun.generated.js';",
      "export const wire = protectedTool('stripe.refund', { name: 'refund', description: 'Refund', parameters: {} as never, execute: async () => 'ok' });",
    ),
    'src/agent.ts': lines(
      "import { Agent, run } from '@openai/agents';",
      "import { wire } from './gen/wire.js';",
      "export const desk = new Agent({ name: 'desk', tools: [wire] });",
      run,
    ),
  });

  it('with no context: run-without-context at the run', () => {
    const found = lintRepo(files('export const go = (input: string) => run(desk, input);'), {
      project: testProject(),
      ruleId: 'run-without-context',
      file: 'src/agent.ts',
    });
    expect(found.map((f) => f.line)).toEqual([4]);
  });

  it('control: the same tool in a listed module, reported', () => {
    const listed = files('export const go = (input: string) => run(desk, input);');
    delete listed['.gitignore'];
    expect(lintRepo(listed, { project: testProject(), ruleId: 'run-without-context', file: 'src/agent.ts' }).map((f) => f.line)).toEqual([4]);
  });

  it('control: with the context the identity reads, silent', () => {
    const found = lintRepo(files("export const go = (input: string) => run(desk, input, { context: { user: 'u1' } });"), {
      project: testProject(),
      ruleId: 'run-without-context',
      file: 'src/agent.ts',
    });
    expect(found).toEqual([]);
  });
});
