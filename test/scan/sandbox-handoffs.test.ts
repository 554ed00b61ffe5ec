import { describe, expect, it } from 'vitest';
import { scanSource } from '../../src/scan/index.js';

/** Issue 35: what the scanner reads of SandboxAgents and handoffs (init, generate, the codemod and check read it). */
const CODE = `import { Agent, handoff } from '@openai/agents';
import * as sandbox from '@openai/agents/sandbox';
import { SandboxAgent, shell, filesystem, skills, memory, compaction, Capabilities } from '@openai/agents/sandbox';
import { protectAgent, protectHandoff, protectSandboxAgent } from './ctrlrun.generated.js';
import { z } from 'zod';
const caps = [shell(), filesystem()];
export const a = new SandboxAgent({ name: 'a' });
export const b = protectSandboxAgent(new SandboxAgent({ name: 'b', capabilities: [shell(), filesystem(), skills({ lazyFrom: src }), memory(), compaction()] }));
export const c = new SandboxAgent({ name: 'c', capabilities: [shell({ configureTools: (t) => t.map((x) => ({ ...x, needsApproval: async () => true })) })] });
const d = new SandboxAgent({ name: 'd', capabilities: [...Capabilities.default(), new MyCap()] });
protectAgent(d);
export const e = new sandbox.SandboxAgent({ name: 'e', capabilities: caps });
const billing = new Agent({ name: 'billing' });
const boxed = protectSandboxAgent(new SandboxAgent({ name: 'boxed', capabilities: [] }));
const config = { onHandoff: () => 1 };
export const desk = new Agent({
  name: 'desk',
  handoffs: [billing, handoff(billing, { inputType: z.object({ r: z.string() }) }), handoff(billing, config), handoff(billing, { ...x }), protectHandoff('desk.billing', billing), handoff(billing, makeConfig()), makeHandoff(), boxed],
});
`;

describe('the scanner: SandboxAgents and handoffs', () => {
  const scan = scanSource('src/app.ts', CODE);
  it('lists each SandboxAgent with the tools its capabilities give, and whether the file guards it', () => {
    expect(
      scan.sandboxAgents?.map((s) => ({ name: s.name, tools: s.tools, unknown: s.toolsUnknown, guarded: s.guarded, gates: s.handApprovals.length })),
    ).toEqual([
      { name: 'a', tools: ['view_image', 'apply_patch', 'exec_command', 'write_stdin'], unknown: undefined, guarded: false, gates: 0 },
      { name: 'b', tools: ['exec_command', 'write_stdin', 'view_image', 'apply_patch', 'load_skill'], unknown: undefined, guarded: true, gates: 0 },
      { name: 'c', tools: undefined, unknown: 'shell({ configureTools }) may change the tools', guarded: false, gates: 1 },
      { name: 'd', tools: undefined, unknown: 'a capability check cannot read (new MyCap())', guarded: true, gates: 0 },
      { name: 'e', tools: ['exec_command', 'write_stdin', 'view_image', 'apply_patch'], unknown: undefined, guarded: false, gates: 0 },
      { name: 'boxed', tools: [], unknown: undefined, guarded: true, gates: 0 },
    ]);
  });

  it('lists each handoff with its target, its form, and whether it runs onHandoff or takes input', () => {
    expect(scan.handoffs?.map((h) => [h.form, h.to, h.onHandoff, h.inputType, h.action ?? null])).toEqual([
      ['call', 'billing', false, true, null],
      ['call', 'billing', true, false, null],
      ['call', 'billing', 'unknown', 'unknown', null],
      ['protected', 'billing', false, false, 'desk.billing'],
      ['call', 'billing', 'unknown', 'unknown', null],
      ['element', 'billing', false, false, null],
      ['element', 'boxed', false, false, null],
    ]);
  });
});

describe('the scanner: a handoffs list held by a name', () => {
  it("is the list the name is where the agent is made, not another function's of the same name (issue 40)", () => {
    const scan = scanSource(
      'src/desk.ts',
      [
        "import { Agent, handoff } from '@openai/agents';",
        "const billing = new Agent({ name: 'billing' });",
        "const oncall = new Agent({ name: 'oncall' });",
        'function quiet() { const list = [handoff(billing)]; return list; }',
        "export function desk() { const oncall = new Agent({ name: 'pager' }); const list = [oncall, billing]; return new Agent({ name: 'desk', handoffs: list }); }",
        '',
      ].join('\n'),
    );
    expect(scan.handoffs?.map((h) => [h.form, h.to])).toEqual([
      ['call', 'billing'],
      ['element', 'pager'],
      ['element', 'billing'],
    ]);
  });
});

describe('handoffs to an agent a `let` holds', () => {
  it('a `let` given an agent later is one; one that may hold either of two agents names neither', () => {
    const scan = scanSource(
      'src/desk.ts',
      [
        "import { Agent } from '@openai/agents';",
        'export function lazy() {',
        '  let pager = undefined;',
        "  pager = new Agent({ name: 'pager' });",
        "  return new Agent({ name: 'a', handoffs: [pager] });",
        '}',
        'export function either(day: boolean) {',
        "  let oncall = new Agent({ name: 'day' });",
        "  if (!day) oncall = new Agent({ name: 'night' });",
        "  return new Agent({ name: 'b', handoffs: [oncall] });",
        '}',
        '',
      ].join('\n'),
    );
    expect(scan.handoffs?.map((h) => [h.form, h.to])).toEqual([
      ['element', 'pager'],
      ['element', undefined],
    ]);
  });
});

describe('agent reach: a SandboxAgent reaches its capability doors', () => {
  it('a run of a SandboxAgent reaches doors a principal opens; a run of a plain agent without tools does not', () => {
    const scan = scanSource(
      'src/run.ts',
      [
        "import { Agent, run } from '@openai/agents';",
        "import { SandboxAgent } from '@openai/agents/sandbox';",
        "await run(new SandboxAgent({ name: 'box' }), 'fix it');",
        "await run(new Agent({ name: 'plain' }), 'hi');",
        '',
      ].join('\n'),
    );
    expect(scan.runCalls?.map((r) => r.reach)).toEqual([
      { kind: 'tools', leaves: [{ door: 'protected', via: 'SandboxAgent' }] },
      { kind: 'tools', leaves: [] },
    ]);
  });
});
