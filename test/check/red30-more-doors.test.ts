import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/*
 * Issue 40 item 4, what session 29 left silent (docs/DECISIONS.md "Session 30: more doors check
 * reads"): a listed module building its exports with an unlisted module's code, a literal door
 * whose `type` check cannot read, a handoff cloned with overrides from a spread, a hosted shell
 * made local after it is made.
 */

/** A git-ignored module whose function builds a raw tool (line 4). */
const GEN = {
  '.gitignore': 'src/gen/\n',
  'src/gen/make.ts': lines(
    "import { tool } from '@openai/agents';",
    "import { z } from 'zod';",
    'export function makeTools() {',
    "  return [tool({ name: 'refund', description: 'From the spec', parameters: z.object({ payment_id: z.string() }), execute: async () => 'sent', errorFunction: null })];",
    '}',
  ),
};

const withTools = (tools: string, agentImport = "import { tools } from './tools.js';"): Record<string, string> => ({
  ...GEN,
  'src/tools.ts': tools,
  'src/agent.ts': lines(
    "import { Agent } from '@openai/agents';",
    agentImport,
    "export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools });",
  ),
});

const genFindings = (files: Record<string, string>): number[] =>
  lintRepo(files, { project: testProject(), ruleId: 'unprotected-tool', file: 'src/gen/make.ts' }).map((f) => f.line);

describe('a listed module that builds its exports with an unlisted module (item 1)', () => {
  it('a named import whose binding the listed module calls', () => {
    expect(genFindings(withTools(lines("import { makeTools } from './gen/make.js';", 'export const tools = makeTools();')))).toEqual([4]);
  });

  it('a default import, a namespace import, a renamed binding, a default with names', () => {
    const gen = { ...GEN, 'src/gen/make.ts': `${GEN['src/gen/make.ts']}export default makeTools;\n` };
    const forms = [
      lines("import make from './gen/make.js';", 'export const tools = make();'),
      lines("import * as gen from './gen/make.js';", 'export const tools = gen.makeTools();'),
      lines("import { makeTools as m } from './gen/make.js';", 'export const tools = m();'),
      lines("import make, { makeTools } from './gen/make.js';", 'export const tools = [...make(), ...makeTools()];'),
    ];
    for (const tools of forms) expect(genFindings({ ...withTools(tools), ...gen })).toEqual([4]);
  });

  it('through a second listed module, reached from the first by an import it uses', () => {
    const files = {
      ...withTools(lines("import { build } from './build.js';", 'export const tools = build();')),
      'src/build.ts': lines("import { makeTools } from './gen/make.js';", 'export const build = () => makeTools();'),
    };
    expect(genFindings(files)).toEqual([4]);
  });

  it('silent: a type-only import, an import whose binding is never used, a side-effect import', () => {
    const forms = [
      lines("import type { makeTools } from './gen/make.js';", 'export const tools: ReturnType<typeof makeTools> = [];'),
      lines("import { type makeTools } from './gen/make.js';", 'export const tools: ReturnType<typeof makeTools> = [];'),
      lines("import { makeTools } from './gen/make.js';", 'export const tools = [];'),
      lines("import './gen/make.js';", 'export const tools = [];'),
    ];
    for (const tools of forms) expect(genFindings(withTools(tools)), tools).toEqual([]);
  });
});
