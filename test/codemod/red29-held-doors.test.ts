import { describe, expect, it } from 'vitest';
import { parsePolicy } from '../../src/policy/load.js';
import { rewriteDoors } from './rewrite-doors.js';

/**
 * Session 29: a handoff given another invoke function by `Object.assign`, a copy or `clone` is left
 * for a person by the codemod, as the assignment is (never counted as rewritten).
 */
const POLICY = parsePolicy('schema: ctrlrun.policy/v6\nactions:\n  handoff.oncall:\n    decision: allow\n', '/repo/ctrlrun.yaml').value!;

function rewrite(text: string) {
  return rewriteDoors(text, POLICY, { sandbox: false });
}

const SDK = "import { Agent, handoff } from '@openai/agents';\nconst oncall = new Agent({ name: 'oncall' });\nconst h = handoff(oncall);\n";
const LEFT = expect.objectContaining({
  kind: 'door-left',
  door: 'handoff',
  // session 31: a write of the invoke function is a conflict (as every door write), not "cannot rewrite"
  reason: 'conflict',
  line: 4,
  name: 'oncall',
  message: expect.stringContaining('onInvokeHandoff'),
});

describe("codemod: a handoff's invoke function given by Object.assign, a copy or clone", () => {
  for (const [name, line] of [
    ['Object.assign', 'Object.assign(h, { onInvokeHandoff: async () => oncall });'],
    ['a copy', 'export const copy = { ...h, onInvokeHandoff: async () => oncall };'],
    ['clone', 'export const copy = h.clone({ onInvokeHandoff: async () => oncall });'],
    // session 30: overrides spread from what check cannot read may hold it
    ['clone with spread overrides', 'export const copy = (o: object) => h.clone({ ...o });'],
  ] as const)
    it(`leaves ${name} for a person`, () => {
      const r = rewrite(`${SDK}${line}\nexport const d = new Agent({ name: 'd', handoffs: [h] });\n`);
      // in any order (session 32: the conflict comes with the doors written by hand, hand-doors.ts)
      expect(r.findings).toHaveLength(2);
      expect(r.findings).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'door-rewritten', door: 'handoff', line: 3 }), LEFT]));
    });
});
