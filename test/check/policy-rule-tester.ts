import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintFiles } from '../../src/check/engine.js';
import type { Finding, ProjectContext } from '../../src/check/types.js';
import { createPlugin, elsewhereMessage, NAMESPACE, SingleFileSession } from '../../src/eslint/index.js';
import { parsePolicy } from '../../src/policy/load.js';
import { scanSource } from '../../src/scan/index.js';
import { eslintWith } from '../eslint/helpers.js';
import { lines, testProject } from './rule-tester.js';

/** A case of a rule over the policy: its actions (YAML under `actions:`) and, when the rule reads them, the tools' code. */
export interface PolicyCase {
  name: string;
  yaml: string;
  /** `src/tools.ts`, the file that declares the mapped tools. */
  code?: string;
  /** tool name → action; default none (no tool mapped). */
  tools?: Record<string, string>;
}
export interface InvalidPolicyCase extends PolicyCase {
  /** Lines are of the action lines given (the two header lines come first). */
  errors: Array<{ line: number; mentions: string }>;
}

/** The cases' common shape: tool `refund` (declared with the zod members given) mapped to stripe.refund, an action with an effect and these rules. */
export const REFUND_TOOLS = { refund: 'stripe.refund' };
export const refundTool = (shape: string): string =>
  lines(
    "import { tool } from '@openai/agents';",
    "import { z } from 'zod';",
    `export const refund = tool({ name: 'refund', parameters: z.object({ ${shape} }), execute: async () => 'ok' });`,
  );
export const refundRules = (rules: string): string => `  stripe.refund:\n    effect: "refund:{payment_id}"\n    rules:\n${rules}`;

const ROOT = '/repo';
const TOOLS = 'src/tools.ts';

function project(c: PolicyCase): ProjectContext {
  const loaded = parsePolicy(`schema: ctrlrun.policy/v6\nactions:\n${c.yaml}`, `${ROOT}/ctrlrun.yaml`);
  if (!loaded.value) throw new Error(JSON.stringify(loaded.diagnostics));
  const p = testProject({ tools: c.tools ?? {} });
  return { manifest: p.manifest, policy: loaded.value };
}

function findings(ruleId: string, c: PolicyCase, context: ProjectContext): Finding[] {
  const scans = c.code === undefined ? [] : [scanSource(TOOLS, c.code)];
  return lintFiles(scans, context, () => c.code ?? '').filter((f) => f.ruleId === ruleId);
}

/**
 * check's rule tester for the rules whose findings sit in the policy (src/policy-test/analysis.ts):
 * `valid` cases give none of the rule's findings, `invalid` ones exactly the lines given. A case
 * with code is also linted by ESLint with the plugin (a session of that file alone): each of
 * check's findings is reported there at line 1 as a finding of another file, and nothing else of the rule.
 */
export function policyRuleTester(ruleId: string, cases: { valid: PolicyCase[]; invalid: InvalidPolicyCase[] }): void {
  describe(ruleId, () => {
    for (const c of cases.valid) {
      it(`valid: ${c.name}`, async () => {
        const context = project(c);
        expect(findings(ruleId, c, context)).toEqual([]);
        if (c.code !== undefined) expect(await eslintReported(ruleId, c, context)).toEqual([]);
      });
    }
    for (const c of cases.invalid) {
      it(`invalid: ${c.name}`, async () => {
        const context = project(c);
        const found = findings(ruleId, c, context);
        expect(found.map((f) => ({ file: f.file, line: f.line - 2, severity: f.severity }))).toEqual(
          c.errors.map((e) => ({ file: 'ctrlrun.yaml', line: e.line, severity: 'warning' })),
        );
        for (const [i, e] of c.errors.entries()) expect(found[i]!.message).toContain(e.mentions);
        if (c.code !== undefined) expect(await eslintReported(ruleId, c, context)).toEqual(found.map((f) => `1:1 ${elsewhereMessage(f)}`));
      });
    }
  });
}

async function eslintReported(ruleId: string, c: PolicyCase, context: ProjectContext): Promise<string[]> {
  // the session's root is where ESLint lints the file: its scan path is `src/tools.ts`, as in check's
  const session = new SingleFileSession({ ...context, sources: new Map() } as never, process.cwd());
  const eslint = eslintWith(process.cwd(), { plugin: createPlugin({ sessionFor: () => session }) });
  const [result] = await eslint.lintText(c.code ?? '', { filePath: path.join(process.cwd(), TOOLS) });
  return result!.messages.filter((m) => m.ruleId === `${NAMESPACE}/${ruleId}`).map((m) => `${m.line}:${m.column} ${m.message}`);
}
