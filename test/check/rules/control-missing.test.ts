import { describe, expect, it } from 'vitest';
import { controlMissingRule } from '../../../src/check/rules/index.js';
import { controlIsMissing } from '../../../src/check/rules/control-missing.js';

/**
 * `control-missing` cases: the manifest's control module against the files that exist (the rule
 * asks `exists`, so each case is its own file system).
 */
const manifest = {
  file: '/repo/ctrlrun.tools.yaml',
  root: '/repo',
  output: '/repo/src/ctrlrun.generated.ts',
  control: '/repo/src/ctrlrun.control.ts',
};
const relative = (f: string) => f.replace('/repo/', '');

describe('control-missing', () => {
  it('valid: the control module is there', () => {
    expect(controlMissingRule(manifest, relative, { line: 4, column: 10 }, (f) => f === manifest.control)).toEqual([]);
  });

  it('invalid: no control module; placed at the manifest’s control line, naming both files', () => {
    const found = controlMissingRule(manifest, relative, { line: 4, column: 10 }, () => false);
    expect(found.map((f) => [f.ruleId, f.severity, f.file, f.line, f.column])).toEqual([['control-missing', 'error', 'ctrlrun.tools.yaml', 4, 10]]);
    expect(found[0]!.message).toContain('src/ctrlrun.control.ts does not exist');
    expect(found[0]!.message).toContain('src/ctrlrun.generated.ts imports it');
    expect(found[0]!.hint).toContain('init --force');
  });

  it('the predicate generate and check --fix ask answers as the rule does, without findings', () => {
    expect(controlIsMissing(manifest, (f) => f === manifest.control)).toBe(false);
    expect(controlIsMissing(manifest, () => false)).toBe(true);
    expect(controlIsMissing({ control: process.cwd() })).toBe(true);
    expect(controlIsMissing({ control: new URL(import.meta.url).pathname })).toBe(false);
  });

  it('invalid: a folder where the control should be is no module (the default file system check)', () => {
    const found = controlMissingRule({ ...manifest, control: process.cwd() }, relative);
    expect(found.map((f) => f.ruleId)).toEqual(['control-missing']);
  });
});
