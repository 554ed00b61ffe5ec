import { describe, expect, it } from 'vitest';
import { lines, lintSource } from './rule-tester.js';

/**
 * Red team (session 22, scan/approvals.ts `makesSdkValue`): a local made by `new RealtimeSession(…)`
 * or `RunState.fromString(…)` counts as the SDK's only when `isSdkClass` finds the class among the
 * SDK names of the file's imports. Before this session the name alone counted (failing closed).
 * `sdkTypeNames` skips `import x = require(…)`, so `new sdk.RealtimeSession(agent)` /
 * `sdk.RunState.fromString(…)` of `import sdk = require('@openai/agents…')` (CommonJS TypeScript)
 * is no longer reported: a silent break. (`require` destructured, a dynamic `import()` and a
 * destructured namespace are still reported, through the scan's SDK resolver.) The step's type is
 * an unknown name, as in own-types-named-like-sdk.test.ts, so only the receiver decides.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const findings = (code: string) => lintSource(code, { ruleId: 'sdk-approval' });

describe('the SDK class of `import sdk = require(…)`', () => {
  it('control: `new realtime.RealtimeSession` of `import * as realtime` is reported', () => {
    const code = lines(
      GEN,
      "import * as realtime from '@openai/agents/realtime';",
      'export function go(step: Step) { const voice = new realtime.RealtimeSession(agent); voice.approve(step); }',
    );
    expect(findings(code)).toHaveLength(1);
  });

  it('a local made by `new sdk.RealtimeSession` is reported', () => {
    const code = lines(
      GEN,
      "import sdk = require('@openai/agents/realtime');",
      'export function go(step: Step) { const voice = new sdk.RealtimeSession(agent); voice.approve(step); }',
    );
    expect(findings(code)).toHaveLength(1);
  });

  it('a local restored by `sdk.RunState.fromString` is reported', () => {
    const code = lines(
      GEN,
      "import sdk = require('@openai/agents');",
      'export async function go(step: Step) { const state = await sdk.RunState.fromString(flow, saved); state.approve(step); }',
    );
    expect(findings(code)).toHaveLength(1);
  });

  it('a class field made by `new sdk.RealtimeSession` is reported', () => {
    const code = lines(
      GEN,
      "import sdk = require('@openai/agents/realtime');",
      'export class Voice { session = new sdk.RealtimeSession(agent); go(step: Step) { this.session.approve(step); } }',
    );
    expect(findings(code)).toHaveLength(1);
  });
});
