import { describe, expect, it } from 'vitest';
import { parsePolicy } from '../../src/policy/load.js';
import { rewriteDoors } from './rewrite-doors.js';

/**
 * Gaps E and F of the session 27 red team: what the codemod does with a handoff whose invoke
 * function is given by a subclass or an assignment (left for a person, never counted as
 * rewritten), and with a local door written as an object literal (left as it is: no factory call
 * to rewrite; check reports it as unprotected-door).
 */
const POLICY = parsePolicy('schema: ctrlrun.policy/v6\nactions:\n  handoff.oncall:\n    decision: allow\n', '/repo/ctrlrun.yaml').value!;

function rewrite(text: string) {
  return rewriteDoors(text, POLICY, { sandbox: false });
}

const SDK = "import { Agent, Handoff, handoff, type Shell } from '@openai/agents';\nconst oncall = new Agent({ name: 'oncall' });\n";

describe("codemod: a handoff's invoke function given another way, a door written as an object", () => {
  it('leaves a subclass of Handoff for a person (a conflict, no rewrite)', () => {
    const r = rewrite(
      `${SDK}class Page extends Handoff { constructor() { super(oncall, async () => oncall); } }\nexport const d = new Agent({ name: 'd', handoffs: [new Page()] });\n`,
    );
    expect(r.after).toBeUndefined();
    expect(r.findings).toEqual([
      expect.objectContaining({
        kind: 'door-left',
        door: 'handoff',
        reason: 'unanalysable',
        line: 3,
        name: 'oncall',
        message: expect.stringContaining('a class extending Handoff'),
      }),
    ]);
  });

  it('leaves an `onInvokeHandoff` assignment for a person, though the handoff it is made on is rewritten', () => {
    const r = rewrite(`${SDK}const h = handoff(oncall);\nh.onInvokeHandoff = async () => oncall;\nexport const d = new Agent({ name: 'd', handoffs: [h] });\n`);
    // in any order (session 32: the conflict comes with the doors written by hand, hand-doors.ts)
    expect(r.findings).toHaveLength(2);
    expect(r.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'door-rewritten', door: 'handoff', line: 3 }),
        expect.objectContaining({ kind: 'door-left', door: 'handoff', reason: 'conflict', line: 4, message: expect.stringContaining('onInvokeHandoff') }),
      ]),
    );
  });

  it('leaves a shell tool written as an object literal untouched, and claims no rewrite', () => {
    const r = rewrite(`${SDK}declare const shell: Shell;\nexport const d = new Agent({ name: 'd', tools: [{ type: 'shell', shell } as never] });\n`);
    expect(r.after).toBeUndefined();
    expect(r.findings.filter((f) => f.kind === 'door-rewritten')).toEqual([]);
  });
});
