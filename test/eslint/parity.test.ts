import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check/engine.js';
import type { Finding } from '../../src/check/types.js';
import plugin, { elsewhereMessage, eslintMessage, NAMESPACE } from '../../src/eslint/index.js';
import { FIXTURES } from '../helpers/paths.js';
import { eslintWith, reported, type Reported } from './helpers.js';

/**
 * ESLint's Node API with the plugin over check's golden fixtures, compared with `check` there:
 * - every finding check places in a file ESLint lints is reported there, at the same line and
 *   column and severity, under `ctrlrun/<id>`, with check's message and hint; nothing else is (a file that does
 *   not parse is ESLint's own fatal error on the same line, where check says parse-error);
 * - a finding check places in a file ESLint does not lint (the policy, the manifest) or in the
 *   generated module is also reported at line 1 of the files that depend on it, its location named.
 */
const CASES = ['open-doors', 'bad-policy', 'no-manifest'];

const key = (r: Pick<Reported, 'file' | 'line' | 'column' | 'ruleId' | 'message' | 'severity'>) =>
  `${r.file}:${r.line}:${r.column} ${r.severity === 2 ? 'error' : 'warning'} ${r.ruleId} ${r.message}`;

describe('the plugin reports what check reports', () => {
  for (const name of CASES) {
    it(name, async () => {
      const cwd = path.join(FIXTURES, 'check', name, 'repo');
      const check = await runCheck({ cwd });
      const results = await eslintWith(cwd).lintFiles(['.']);
      const eslint = reported(results, cwd);
      const linted = new Set(results.map((r) => r.filePath.slice(cwd.length + 1)));
      const inLinted = (f: Finding) => linted.has(f.file);

      const fatal = eslint.filter((m) => m.ruleId === null);
      expect(fatal.map((m) => `${m.file}:${m.line}`)).toEqual(check.findings.filter((f) => f.ruleId === 'parse-error').map((f) => `${f.file}:${f.line}`));

      const atPlace = eslint.filter((m) => m.ruleId !== null && !isElsewhere(m, check.findings));
      const expected = check.findings
        .filter((f) => f.ruleId !== 'parse-error' && inLinted(f))
        .map((f) => key({ ...f, ruleId: `${NAMESPACE}/${f.ruleId}`, message: eslintMessage(f), severity: f.severity === 'error' ? 2 : 1 }));
      expect(atPlace.map(key).sort()).toEqual(expected.sort());

      // the findings of other files: each is reported, and only as such
      const away = check.findings.filter((f) => !inLinted(f) || f.ruleId === 'stale-generated');
      const elsewhere = eslint.filter((m) => isElsewhere(m, check.findings));
      for (const f of away)
        expect(
          elsewhere.some(
            (m) => m.ruleId === `${NAMESPACE}/${f.ruleId}` && m.message === elsewhereMessage(f) && m.severity === (f.severity === 'error' ? 2 : 1),
          ),
          `${f.file}:${f.line} ${f.ruleId}`,
        ).toBe(true);
      for (const m of elsewhere) expect(m.line === 1 && m.column === 1).toBe(true);
      expect(away.length).toBeGreaterThan(0);
    });
  }
});

/** An ESLint message that stands for a check finding of another file. */
function isElsewhere(m: Reported, findings: Finding[]): boolean {
  return findings.some((f) => m.ruleId === `${NAMESPACE}/${f.ruleId}` && m.message === elsewhereMessage(f));
}

describe('plain JavaScript, with ESLint’s own parser', () => {
  it('an ES module and a CommonJS file get check’s findings without typescript-eslint', async () => {
    const cwd = path.join(FIXTURES, 'check', 'open-doors', 'repo');
    const eslint = eslintWith(cwd, { typescript: false });
    const esm = "import { tool } from '@openai/agents';\nexport const w = tool({ name: 'get_weather', errorFunction: null, execute: async () => 'sunny' });\n";
    const cjs = "const { tool } = require('@openai/agents');\nmodule.exports = tool({ name: 'refund', errorFunction: null, execute: async () => 'ok' });\n";
    const [a] = await eslint.lintText(esm, { filePath: path.join(cwd, 'src/weather.mjs') });
    const [b] = await eslint.lintText(cjs, { filePath: path.join(cwd, 'src/refund.cjs') });
    // the fixture's generated module is stale, and its policy has two conditions its tools' schemas
    // decide: every file that uses the SDK hears of them, at line 1
    const policy = ['1:1 ctrlrun/impossible-condition', '1:1 ctrlrun/always-true-condition'];
    expect(a!.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}`)).toEqual(['1:1 ctrlrun/stale-generated', ...policy, '2:18 ctrlrun/unmapped-tool']);
    // refund.cjs declares `refund` a second time, with no parameters: the action's schema is no longer known, so nothing is judged by it
    expect(b!.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}`)).toEqual(['1:1 ctrlrun/stale-generated', '2:18 ctrlrun/unprotected-tool']);
    // the fix is the codemod's: a mapped tool becomes protectedTool, in a CommonJS file too; but not
    // `refund`, which the policy can pause in an app that answers with `alwaysApprove` (src/agent.ts):
    // the codemod keeps it as a conflict (issue 40 item 4), and so does the fix
    const fixer = new ESLint({ cwd, fix: true, overrideConfigFile: true, overrideConfig: [plugin.configs.recommended] });
    const lookup = cjs.replace("name: 'refund'", "name: 'lookup_charge'");
    const [fixed] = await fixer.lintText(lookup, { filePath: path.join(cwd, 'src/lookup.cjs') });
    expect(fixed!.output).toContain("protectedTool('stripe.charge.read', { name: 'lookup_charge'");
    const [kept] = await fixer.lintText(cjs, { filePath: path.join(cwd, 'src/refund.cjs') });
    expect(kept!.output).toBeUndefined();
  });
});

describe('the ESLint under test', () => {
  it('is the one .ci/eslint-range installed, when it names one (else devDependencies’ ESLint 10)', async () => {
    const dir = process.env.CTRLRUN_ESLINT_DIR;
    const { readFileSync } = await import('node:fs');
    const expected = JSON.parse(readFileSync(path.join(dir ?? path.join(process.cwd(), 'node_modules/eslint'), 'package.json'), 'utf8')).version as string;
    expect(ESLint.version).toBe(expected);
  });
});
