import { describe, expect, it } from 'vitest';
import { lines, lintSource } from '../rule-tester.js';

const SDK = "import { tool } from '@openai/agents';";
const MAPPED = "export const t = tool({ name: 'refund', errorFunction: null });";

// the cases of each id: invalid-suppression.test.ts, unused-suppression.test.ts
describe('suppressions', () => {
  it('an invalid suppression silences nothing (fail closed)', () => {
    const found = lintSource(lines(SDK, '// ctrlrun-ignore unprotected-tool', MAPPED))
      .map((f) => f.ruleId)
      .filter((id) => id !== 'tracing-sensitive-data');
    expect(found).toEqual(['invalid-suppression', 'unprotected-tool']);
  });

  it('a suppression silences only its own rule on its line', () => {
    const found = lintSource(lines(SDK, '// ctrlrun-ignore unprotected-tool -- reviewed', "export const t = tool({ name: 'refund' });"))
      .map((f) => `${f.line}:${f.ruleId}`)
      .filter((x) => !x.endsWith('tracing-sensitive-data'));
    expect(found).toEqual(['3:unsafe-error-function']);
  });

  it('one comment silences one finding: a second tool on the same line is still reported (issue 14.9)', () => {
    const two = "export const a = tool({ name: 'refund', errorFunction: null }), b = tool({ name: 'close_account', errorFunction: null });";
    const one = lintSource(lines(SDK, '// ctrlrun-ignore unprotected-tool -- reviewed by payments', two), { ruleId: 'unprotected-tool' });
    expect(one.map((f) => `${f.line}:${f.column}`)).toEqual(['3:69']);
    expect(one[0]!.message).toContain("'close_account'");
    const stacked = lintSource(lines(SDK, '// ctrlrun-ignore unprotected-tool -- reviewed', '// ctrlrun-ignore unprotected-tool -- reviewed too', two));
    expect(stacked.filter((f) => f.ruleId === 'unprotected-tool' || f.ruleId === 'unused-suppression')).toEqual([]);
  });

  it('a file that does not parse gets parse-error only, suppressions ignored', () => {
    const found = lintSource(lines(SDK, '// ctrlrun-ignore sticky-approval -- x', "export const t = tool({ name: 'refund' ;")).map((f) => f.ruleId);
    expect(found).toEqual(['parse-error']);
  });
});
