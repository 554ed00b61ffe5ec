import { describe, expect, it } from 'vitest';
import { lines, lintSource, ruleTester } from '../rule-tester.js';

const SDK = "import { tool } from '@openai/agents';";
const MAPPED = "export const t = tool({ name: 'refund', errorFunction: null });";

ruleTester('invalid-suppression', {
  valid: [{ name: 'rule id and reason', code: lines(SDK, '// ctrlrun-ignore unprotected-tool -- reviewed by payments', MAPPED) }],
  invalid: [
    { name: 'no reason', code: lines(SDK, '// ctrlrun-ignore unprotected-tool', MAPPED), errors: [{ line: 2, column: 1, mentions: 'no reason' }] },
    { name: 'an empty reason', code: lines(SDK, '// ctrlrun-ignore unprotected-tool --   ', MAPPED), errors: [{ line: 2, column: 1 }] },
    { name: 'no rule id', code: lines(SDK, '// ctrlrun-ignore', MAPPED), errors: [{ line: 2, column: 1, mentions: 'names no rule' }] },
    { name: 'an unknown rule id, with the nearest one', code: lines(SDK, '// ctrlrun-ignore unprotected-tools -- typo', MAPPED), errors: [{ line: 2, column: 1, mentions: "Did you mean 'unprotected-tool'" }] },
    { name: 'a rule that cannot be suppressed', code: lines(SDK, '// ctrlrun-ignore parse-error -- nope', MAPPED), errors: [{ line: 2, column: 1, mentions: 'cannot be suppressed' }] },
    { name: 'indented, after code on the line before', code: lines(SDK, 'if (x) {', '  // ctrlrun-ignore unprotected-tool', `  ${MAPPED}`, '}'), errors: [{ line: 3, column: 3 }] },
  ],
});

ruleTester('unused-suppression', {
  valid: [
    { name: 'it suppresses a finding', code: lines(SDK, '// ctrlrun-ignore unprotected-tool -- reviewed', MAPPED) },
    {
      name: 'stacked suppressions both apply to the next code line',
      code: lines(SDK, '// ctrlrun-ignore unprotected-tool -- reviewed', '// ctrlrun-ignore unsafe-error-function -- never throws', "export const t = tool({ name: 'refund' });"),
    },
  ],
  invalid: [
    { name: 'nothing of that rule on the next line', code: lines(SDK, '// ctrlrun-ignore sticky-approval -- stale', MAPPED), errors: [{ line: 2, column: 1, severity: 'warning' }] },
    { name: 'the finding is two lines below', code: lines(SDK, '// ctrlrun-ignore unprotected-tool -- too far', '', MAPPED), errors: [{ line: 2, column: 1 }] },
    { name: 'a trailing comment applies to the next line, not its own', code: lines(SDK, `${MAPPED} // ctrlrun-ignore unprotected-tool -- same line`, 'const x = 1;'), errors: [{ line: 2, column: 65 }] },
  ],
});

describe('suppressions', () => {
  it('an invalid suppression silences nothing (fail closed)', () => {
    const found = lintSource(lines(SDK, '// ctrlrun-ignore unprotected-tool', MAPPED)).map((f) => f.ruleId).filter((id) => id !== 'tracing-sensitive-data');
    expect(found).toEqual(['invalid-suppression', 'unprotected-tool']);
  });

  it('a suppression silences only its own rule on its line', () => {
    const found = lintSource(lines(SDK, '// ctrlrun-ignore unprotected-tool -- reviewed', "export const t = tool({ name: 'refund' });")).map((f) => `${f.line}:${f.ruleId}`).filter((x) => !x.endsWith('tracing-sensitive-data'));
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
