import { describe, expect, it } from 'vitest';
import { lintFiles } from '../../../src/check/engine.js';
import { scanSource } from '../../../src/scan/index.js';
import { lines, lintSource, testProject } from '../rule-tester.js';

// Issue 14.8 and 14.9: `timeoutMs` with no `effect:` and `mode: observe` passed check without a word.

const GEN = "import { protectedTool } from './ctrlrun.generated.js';";

describe('observe-mode', () => {
  const observe = () => {
    const project = testProject();
    project.policy = { ...project.policy, mode: 'observe', modeLoc: { file: '/repo/ctrlrun.yaml', line: 2, column: 1 } };
    return project;
  };
  it("warns once, at the policy's mode line, when the policy observes", () => {
    const code = lines(GEN, "export const l = protectedTool('stripe.charge.read', { name: 'lookup_charge' });");
    const found = lintFiles([scanSource('src/a.ts', code), scanSource('src/b.ts', code)], observe(), () => code).filter((f) => f.ruleId === 'observe-mode');
    expect(found).toEqual([expect.objectContaining({ file: 'ctrlrun.yaml', line: 2, column: 1, severity: 'warning' })]);
    expect(found[0]!.message).toContain('nothing is protected');
  });
  it('is silent in enforce mode', () => {
    expect(lintSource(lines(GEN, "export const l = protectedTool('stripe.charge.read', { name: 'lookup_charge' });"), { ruleId: 'observe-mode' })).toEqual([]);
  });
});
