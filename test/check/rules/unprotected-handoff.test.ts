import type { ProjectContext } from '../../../src/check/types.js';
import { lines, ruleTester, testProject } from '../rule-tester.js';

const SDK = "import { Agent, handoff } from '@openai/agents';\nimport { z } from 'zod';";
const GEN = "import { protectHandoff } from './ctrlrun.generated.js';";
const ONCALL = "const oncall = new Agent({ name: 'oncall', instructions: 'x' });";

function withHandoff(): ProjectContext {
  const project = testProject();
  project.manifest.tools.push({ kind: 'handoff', to: 'oncall', action: 'stripe.charge.read', loc: { file: '/repo/ctrlrun.tools.yaml', line: 30, column: 5 } });
  return project;
}

ruleTester('unprotected-handoff', {
  valid: [
    {
      name: 'a plain agent in handoffs, and handoff() without onHandoff or inputType: a transfer only',
      code: lines(SDK, ONCALL, "export const desk = new Agent({ name: 'desk', handoffs: [oncall, handoff(oncall, { toolNameOverride: 'escalate' })] });"),
    },
    {
      name: 'protectHandoff with onHandoff and inputType',
      code: lines(
        SDK,
        GEN,
        ONCALL,
        "export const h = protectHandoff('stripe.charge.read', oncall, { inputType: z.object({ why: z.string() }), onHandoff: () => undefined });",
      ),
    },
    {
      name: 'a handoff() of another library',
      code: lines("import { handoff } from 'other-agents';", 'export const h = handoff(x, { onHandoff: () => undefined });'),
    },
  ],
  invalid: [
    {
      name: 'onHandoff under a string or computed key or as a method, a config in a variable, handoff through an alias',
      code: lines(
        SDK,
        ONCALL,
        "export const a = handoff(oncall, { ['onHandoff']: (ctx) => page(ctx) });",
        'const opts = { onHandoff: (ctx) => page(ctx) };',
        'export const b = handoff(oncall, opts);',
        'const h2 = handoff;',
        'export const c = h2(oncall, { onHandoff: (ctx) => page(ctx) });',
        "export const d = handoff(oncall, { 'inputType': z.object({}) });",
        'export const e = handoff(oncall, { onHandoff() { page(1); } });',
      ),
      errors: [
        { line: 4, column: 18 },
        { line: 6, column: 18 },
        { line: 8, column: 18 },
        { line: 9, column: 18 },
        { line: 10, column: 18 },
      ],
    },
    {
      name: 'handoff() with onHandoff',
      code: lines(SDK, ONCALL, 'export const h = handoff(oncall, { onHandoff: (ctx) => page(ctx) });'),
      errors: [{ line: 4, column: 18, mentions: "handoff to 'oncall' runs `onHandoff`" }],
    },
    {
      name: 'handoff() with inputType and onHandoff, mapped: the hint names the action',
      code: lines(SDK, ONCALL, 'export const h = handoff(oncall, { inputType: z.object({ why: z.string() }), onHandoff: (ctx, input) => page(input) });'),
      project: withHandoff(),
      errors: [{ line: 4, column: 18, mentions: "protectHandoff('stripe.charge.read'" }],
    },
    {
      name: 'a config check cannot read (a spread) is reported',
      code: lines(SDK, ONCALL, 'export const h = handoff(oncall, { ...config });'),
      errors: [{ line: 4, column: 18, mentions: 'cannot read' }],
    },
    {
      name: 'through a namespace import',
      code: lines(
        "import * as agents from '@openai/agents';",
        "const oncall = new agents.Agent({ name: 'oncall' });",
        'export const h = agents.handoff(oncall, { onHandoff: () => 1 });',
      ),
      errors: [{ line: 3, column: 18 }],
    },
  ],
});

// Red team #4 (issue 35): the SDK's Handoff class runs its invoke function (app code) on the model's input.
ruleTester('unprotected-handoff', {
  valid: [
    {
      name: 'a Handoff of another package',
      code: lines("import { Handoff } from 'other';", ONCALL.replace('new Agent', 'new Handoff'), 'const h = new Handoff(oncall, async () => oncall);'),
    },
    {
      // session 29: what the codemod writes; the runtime guards a copy of it (test/runtime/handoff.test.ts)
      name: "new Handoff(agent, onInvoke) made inside protectHandoff('<action>', …), also wrapped in `as`",
      code: lines(
        "import { Agent, Handoff } from '@openai/agents';",
        GEN,
        ONCALL,
        "export const desk = new Agent({ name: 'desk', handoffs: [protectHandoff('stripe.charge.read', new Handoff(oncall, async () => oncall))] });",
        "export const h = protectHandoff('stripe.charge.read', (new Handoff(oncall, async () => oncall) as Handoff));",
      ),
    },
  ],
  invalid: [
    {
      name: 'new Handoff(agent, onInvoke) held by a name given to protectHandoff, or given as its config, or to another function',
      code: lines(
        "import { Agent, Handoff } from '@openai/agents';",
        GEN,
        'declare function wrap(a: string, h: unknown): Handoff;',
        ONCALL,
        'const made = new Handoff(oncall, async () => oncall);',
        "export const a = protectHandoff('stripe.charge.read', made);",
        "export const b = protectHandoff('stripe.charge.read', oncall, new Handoff(oncall, async () => oncall) as never);",
        "export const c = wrap('stripe.charge.read', new Handoff(oncall, async () => oncall));",
      ),
      errors: [
        { line: 5, column: 14 },
        { line: 7, column: 63 },
        { line: 8, column: 45 },
      ],
    },
    {
      name: 'new Handoff(agent, onInvoke) in handoffs',
      code: lines(
        "import { Agent, Handoff } from '@openai/agents';",
        ONCALL,
        "const escalate = new Handoff(oncall, async () => { page('sev1'); return oncall; });",
        "export const desk = new Agent({ name: 'desk', handoffs: [escalate, new Handoff(oncall, async () => oncall)] });",
      ),
      errors: [
        { line: 3, column: 18, mentions: "to 'oncall' is a `new Handoff(...)` whose invoke function" },
        { line: 4, column: 68 },
      ],
    },
    {
      // options held by a name are read in the scope the agent is made in: named for another
      // function's agent, the hint and the codemod would take that agent's handoff action
      name: "the handoff is named for its own agent, not another function's `const opts`",
      code: lines(
        "import { Agent, handoff } from '@openai/agents';",
        "export function lookupAgent() { const opts = { name: 'lookup' }; return new Agent(opts); }",
        'export function refundsHandoff() {',
        "  const opts = { name: 'refunds', instructions: 'Refund.' };",
        '  const agent = new Agent(opts);',
        '  return handoff(agent, { onHandoff: async () => {} });',
        '}',
      ),
      errors: [{ line: 6, column: 10, mentions: "handoff to 'refunds'" }],
    },
    {
      // options the scope of the agent does not show as a `const` object (a parameter, a `let`
      // given another value): no name, never another scope's
      name: "a handoff whose options are a parameter or a `let` given another value: no name, not another function's `const opts`",
      code: lines(
        "import { Agent, handoff } from '@openai/agents';",
        "export function oncallAgent() { const opts = { name: 'oncall' }; return new Agent(opts); }",
        'export const viaParam = (opts: { name: string }) => handoff(new Agent(opts), { onHandoff: async () => {} });',
        'export function viaLet(on: boolean) {',
        "  let opts = { name: 'a' };",
        "  if (on) opts = { name: 'b' };",
        '  return handoff(new Agent(opts), { onHandoff: async () => {} });',
        '}',
      ),
      errors: [
        { line: 3, column: 53, mentions: 'handoff: { to: <agent name> }' },
        { line: 7, column: 10, mentions: 'handoff: { to: <agent name> }' },
      ],
    },
  ],
});
