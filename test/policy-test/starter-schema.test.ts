import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { declarationsInSource } from '../../src/generate/declarations.js';
import { readActionSchemas } from '../../src/generate/project-schemas.js';
import { acceptsCall, actionSchemas, type ActionSchemas } from '../../src/generate/tool-schemas.js';
import { parseManifest } from '../../src/manifest/load.js';
import { parsePolicy } from '../../src/policy/load.js';
import type { Policy } from '../../src/policy/types.js';
import { parseTestFile, type TestSuite } from '../../src/policy-test/cases.js';
import { createDecider } from '../../src/policy-test/decider.js';
import { runTests } from '../../src/policy-test/run-tests.js';
import { starterTestText } from '../../src/policy-test/starter.js';
import { testProject } from '../check/rule-tester.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { copyFixture, makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
import { expectGolden } from './golden.js';

// Issue 25: init's starter cases are calls the tools' parameter schemas accept (the runtime refuses any other before the rules).

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));
const FIXTURE = path.join(FIXTURES, 'policy-test/starter-schema');

/** The schema of tool `pay` (the zod members given), mapped to action `pay`. */
function schemasOf(shape: string): ActionSchemas {
  const code = `import { tool } from '@openai/agents';\nimport { z } from 'zod';\ntool({ name: 'pay', parameters: z.object({ ${shape} }), execute: async () => 1 });\n`;
  const manifest = {
    ...testProject().manifest,
    tools: [{ kind: 'function' as const, tool: 'pay', action: 'pay', loc: { file: '/repo/m.yaml', line: 1, column: 1 } }],
  };
  return actionSchemas(manifest, new Map([['pay', declarationsInSource('/repo/src/tools.ts', code, new Set(['pay']))]]));
}

function policyOf(yaml: string): Policy {
  const loaded = parsePolicy(`schema: ctrlrun.policy/v6\nactions:\n  pay:\n${yaml}`, '/p/ctrlrun.yaml');
  if (!loaded.value) throw new Error(JSON.stringify(loaded.diagnostics));
  return loaded.value;
}

function suiteOf(text: string): TestSuite {
  const suite = parseTestFile(text, '/p/ctrlrun.test.yaml');
  expect(suite.diagnostics).toEqual([]);
  return suite.value!;
}

/** The starter with and without the schema: its cases (name → args) and the comment lines naming the cases left out. */
function starter(yaml: string, shape: string) {
  const policy = policyOf(yaml);
  const schemas = schemasOf(shape);
  const text = starterTestText(policy, { schemas });
  const suite = suiteOf(text);
  for (const c of suite.cases) expect(acceptsCall(schemas.byAction.get('pay')!, c.args as never), `${c.name}: ${JSON.stringify(c.args)}`).toBe(true);
  const run = runTests(suite, createDecider(policy));
  expect(run.failed).toBe(0);
  return {
    cases: new Map(suite.cases.map((c) => [c.name, c.args])),
    refused: text.split('\n').filter((l) => l.startsWith('#   ')),
    unreached: run.coverage.rulesUnreached,
    without: new Map(suiteOf(starterTestText(policy)).cases.map((c) => [c.name, c.args])),
  };
}

describe("init's starter cases within the tools' parameter schemas", () => {
  it('init --force writes only calls each schema accepts and names the edges it refuses; `test` passes on them (golden)', async () => {
    const dir = copyFixture('policy-test/starter-schema');
    dirs.push(dir);
    const init = await cli(['init', '--force'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    const text = readFileSync(path.join(dir, 'ctrlrun.test.yaml'), 'utf8');
    expectGolden(text, path.join(FIXTURE, 'expected.starter.yaml'));
    const schemas = readActionSchemas(parseManifest(readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8'), path.join(dir, 'ctrlrun.tools.yaml')).value!);
    expect([...schemas.byAction.keys()].sort()).toEqual(['bank.transfer', 'stripe.refund']);
    for (const c of suiteOf(text).cases) {
      const schema = schemas.byAction.get(c.action);
      if (schema) expect(acceptsCall(schema, c.args as never), `${c.name}: ${JSON.stringify(c.args)}`).toBe(true);
    }
    const r = await cli(['test', '--coverage'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // amount_lte: 500000 holds for every amount the schema accepts: the deny after it is reached by no call that runs
    expect(r.stdout).toContain('no case reaches stripe.refund rule 2');
    expect(r.stdout).not.toContain('no case reaches bank.transfer');
  });

  it("in a workspace, each package's starter keeps to its own tool's schema, not another package's tool of the same name", async () => {
    const dir = makeTempDir('starter-ws-');
    dirs.push(dir);
    const pay = (shape: string) =>
      `import { tool } from '@openai/agents';\nimport { z } from 'zod';\nexport const pay = tool({ name: 'pay', description: 'Pay.', parameters: z.object({ ${shape} }), execute: async () => 'paid' });\n`;
    const pkg = (name: string, extra: Record<string, unknown> = {}) => JSON.stringify({ name, private: true, type: 'module', ...extra });
    writeFiles(dir, {
      'package.json': pkg('root', { workspaces: ['apps/*'] }),
      'apps/shop/package.json': pkg('shop'),
      'apps/shop/src/tools.ts': pay('amount: z.number().int()'),
      'apps/ops/package.json': pkg('ops'),
      'apps/ops/src/tools.ts': pay('amount: z.number().int().optional()'),
    });
    const init = await cli(['init'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    const args = (app: string) => suiteOf(readFileSync(path.join(dir, `apps/${app}/ctrlrun.test.yaml`), 'utf8')).cases.map((c) => c.args);
    // widened over both packages, the amount would be optional and left out in both
    expect(args('shop')).toEqual([{ amount: 0 }]);
    expect(args('ops')).toEqual([{}]);
  });

  it('without the schemas, the same policy gets the cases it always got (golden)', () => {
    const policy = parsePolicy(readFileSync(path.join(FIXTURE, 'ctrlrun.yaml'), 'utf8'), path.join(FIXTURE, 'ctrlrun.yaml')).value!;
    expectGolden(starterTestText(policy), path.join(FIXTURE, 'expected.starter-without-schema.yaml'));
  });

  it('a negative amount for .nonnegative(), a value outside the enum, a missing required argument: named, not written', () => {
    const s = starter(
      '    rules:\n      - when: { amount_gte: 0, amount_lte: 100, currency_in: [USD, JPY] }\n        decision: allow\n      - decision: approve\n',
      "amount: z.number().int().nonnegative(), currency: z.enum(['USD', 'EUR'])",
    );
    const rule = 'pay rule 0 (allow)';
    expect(s.refused).toEqual([
      `#   ${rule}: just past amount_gte: 0`,
      `#   ${rule}: without amount`,
      `#   ${rule}: currency = "JPY"`,
      `#   ${rule}: without currency`,
    ]);
    for (const name of [`${rule}: just past amount_gte: 0`, `${rule}: without amount`, `${rule}: currency = "JPY"`]) {
      expect(s.cases.has(name), name).toBe(false);
      expect(s.without.has(name), name).toBe(true);
    }
    expect(s.cases.get(`${rule}: just past amount_lte: 100`)).toEqual({ amount: 101, currency: 'USD' });
    expect(s.unreached).toEqual([]);
  });

  it('an integer only a template names gets an integer, and required arguments no rule names get a value', () => {
    const s = starter(
      '    effect: "pay:{id}:{amount}"\n    rules:\n      - when: { id_eq: a }\n        decision: allow\n      - decision: deny\n',
      "id: z.string(), amount: z.number().int().positive(), method: z.enum(['ach', 'wire'])",
    );
    expect(s.cases.get('pay rule 0 (allow): id_eq: "a"')).toEqual({ id: 'a', amount: 1, method: 'ach' });
    expect(s.without.get('pay rule 0 (allow): id_eq: "a"')).toEqual({ id: 'a', amount: 'amount-1' });
    expect(s.refused).toEqual(['#   pay rule 0 (allow): without id']);
  });

  it('a labelled integer a data_scope rule asks for is sent as an integer', () => {
    const s = starter(
      '    data: { ssn: pii }\n    rules:\n      - when: { data_scope_in: [pii] }\n        decision: approve\n      - decision: allow\n',
      'id: z.string(), ssn: z.number().int().positive().optional()',
    );
    expect(s.cases.get('pay rule 0 (approve): data_scope_in: ["pii"]')).toEqual({ ssn: 1, id: 'id-1' });
    expect(s.unreached).toEqual([]);
  });

  it('a catch-all after a rule on a required argument is reached with another value of it', () => {
    const s = starter('    rules:\n      - when: { method_eq: wire }\n        decision: deny\n      - decision: allow\n', "method: z.enum(['wire', 'ach'])");
    expect(s.cases.get('pay rule 1 (allow)')).toEqual({ method: 'ach' });
    expect(s.unreached).toEqual([]);
  });

  it('a rule no call the schema accepts satisfies gets no case (validate reports it as impossible-condition)', () => {
    const s = starter(
      '    rules:\n      - when: { amount_gt: 100 }\n        decision: deny\n      - decision: allow\n',
      'amount: z.number().int().min(1).max(50)',
    );
    expect([...s.cases.keys()]).toEqual(['pay rule 1 (allow)']);
    expect(s.without.has('pay rule 0 (deny): amount_gt: 100')).toBe(true);
  });
});
