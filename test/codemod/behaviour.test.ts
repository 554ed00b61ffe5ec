import { describe, expect, it } from 'vitest';
import { behaviourChanges } from '../../src/codemod/behaviour.js';
import { parsePolicy } from '../../src/policy/load.js';
import { scanSource } from '../../src/scan/index.js';

const POLICY = parsePolicy('schema: ctrlrun.policy/v6\nactions:\n  checkout:\n    decision: approve\n', 'ctrlrun.yaml').value!;

const changesFor = (specifier: string) => {
  const text = `import { tool } from '${specifier}';\nexport const t = tool({ name: 'checkout', description: 'd', parameters: {} as never, execute: async () => 'ok' });\n`;
  const call = scanSource('src/a.ts', text).sdkToolCalls[0]!;
  return behaviourChanges(call, POLICY, POLICY.actions.checkout!, false);
};

describe('what the codemod says changes at run time', () => {
  it('a Runner tool: failures stop run(), approvals go through control.approve on the RunState', () => {
    const changes = changesFor('@openai/agents');
    expect(changes.map((c) => c.kind)).toEqual(['body-failure-stops-run', 'approve-through-control']);
    expect(changes[0]!.text).toContain('run() rejects with it');
    expect(changes[1]!.text).toContain('control.approve(state, item');
    expect(changes[1]!.text).toContain('filed in the store as they pause (`ctrlrun-gen approvals list`)');
    expect(changes[1]!.text).not.toContain('control.request(');
  });

  it('a realtime tool: failures reach the session error event, approvals are filed as they pause and answered through resolveRealtime', () => {
    for (const specifier of ['@openai/agents/realtime', '@openai/agents-realtime']) {
      const changes = changesFor(specifier);
      expect(changes.map((c) => c.kind)).toEqual(['body-failure-stops-run', 'approve-through-control']);
      expect(changes[0]!.text).toContain("session's `error` event");
      expect(changes[0]!.text).not.toContain('run()');
      // filed as they pause (issue 21 item 5): nothing tells the user to file them; the answer is applied with resolveRealtime
      expect(changes[1]!.text).toContain('filed in the store as they pause');
      expect(changes[1]!.text).toContain('control.resolveRealtime(session, item)');
      expect(changes[1]!.text).not.toContain('requestRealtime');
      expect(changes[1]!.text).not.toContain('control.approve(state');
    }
  });
});
