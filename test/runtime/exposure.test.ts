import { Agent, tool } from '@openai/agents';
import { assistantMessage, ScriptedModel } from '@openai/agents/testing';
import YAML from 'yaml';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { parsePolicy } from '../../src/policy/load.js';
import { bindAgentTools, bindProtectedTool, createControl, memoryStore, run } from '../../src/runtime/index.js';
import { mayHide, usableBy } from '../../src/runtime/exposure.js';
import { compileGenerated } from '../helpers/compile-module.js';

const POLICY = {
  schema: 'ctrlrun.policy/v7',
  authority: {
    grants: [
      { id: 'desk', subject: { agent: 'desk', user: 'alice' }, actions: ['stripe.**'] },
      { id: 'expired', subject: { agent: 'desk', user: 'bob' }, actions: ['stripe.refund'], expires_at: '2020-01-01T00:00:00Z' },
      // carol's grant names payments the refund's template never renders: it can never authorize a refund
      { id: 'carol', subject: { agent: 'desk', user: 'carol' }, actions: ['stripe.refund'], resources: ['invoice:*'] },
      { id: 'carol-read', subject: { agent: 'desk', user: 'carol' }, actions: ['stripe.charge.read'] },
    ],
  },
  actions: {
    'stripe.refund': {
      resource: 'payment:{payment_id}',
      rules: [{ when: { amount_lte: 100000 }, decision: 'allow' }, { decision: 'deny' }],
    },
    'stripe.charge.read': { decision: 'allow' },
    'admin.delete': { decision: 'deny' },
  },
};

function setup(options: Partial<Parameters<typeof createControl>[0]> = {}, policy: object = POLICY) {
  const loaded = parsePolicy(YAML.stringify(policy), 'ctrlrun.yaml');
  const compiled = compileGenerated(loaded.value!, { refund: 'stripe.refund', lookup: 'stripe.charge.read', delete_all: 'admin.delete' });
  const control = createControl({
    store: memoryStore(),
    identity: (rc) => ({ agent: 'desk', user: (rc.context as { user: string }).user }),
    ...options,
  });
  const protectedTool = bindProtectedTool(control, compiled);
  const tools = [
    protectedTool('stripe.refund', {
      name: 'refund',
      description: 'Refund',
      parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
      execute: async () => 'refunded',
    }),
    protectedTool('stripe.charge.read', { name: 'lookup', description: 'Look up', parameters: z.object({ id: z.string() }), execute: async () => 'ok' }),
    protectedTool('admin.delete', { name: 'delete_all', description: 'Delete', parameters: z.object({}), execute: async () => 'gone' }),
  ];
  return { control, compiled, tools };
}

/** The tool names the model was offered on its first call. */
async function offered(tools: unknown[], user: string, extra: unknown[] = [], context: Record<string, unknown> = {}): Promise<string[]> {
  const model = new ScriptedModel([[assistantMessage('hi')]]);
  const agent = new Agent<{ user: string }>({ name: 'desk', instructions: 'desk', model, tools: [...tools, ...extra] as never });
  await run(agent, 'hello', { context: { user, ...context } });
  return (model.calls[0]!.request.tools ?? []).map((t) => (t as { name: string }).name).sort();
}

describe('least exposure through the Runner: a tool the principal can never use is not offered to the model', () => {
  it('per run, from the identity: denied for every input, no grant, an expired grant, a grant that never reaches the resource', async () => {
    const { tools } = setup();
    const plain = tool({ name: 'weather', description: 'Weather', parameters: z.object({}), execute: async () => 'sunny' });
    expect(await offered(tools, 'alice', [plain])).toEqual(['lookup', 'refund', 'weather']); // delete_all: denied for every input
    expect(await offered(tools, 'bob')).toEqual([]); // bob's one grant expired
    expect(await offered(tools, 'carol')).toEqual(['lookup']); // carol's grant never reaches a payment
    expect(await offered(tools, 'dave')).toEqual([]); // no grant names dave
  });

  it('the compiled policy says so, exactly as generate computed it', () => {
    const { compiled } = setup();
    expect(compiled.actions['admin.delete']!.exposure).toEqual({ never: true });
    expect(compiled.actions['stripe.refund']!.exposure).toEqual({ deadGrants: ['carol'] });
    expect(compiled.actions['stripe.charge.read']!.exposure).toBeUndefined();
  });

  it('offerAllTools keeps the full list (the calls are still refused)', async () => {
    const { tools } = setup({ offerAllTools: true });
    expect(await offered(tools, 'dave')).toEqual(['delete_all', 'lookup', 'refund']);
  });

  it("the tool's own isEnabled is asked first; an agent tool is hidden the same way", async () => {
    const { control, compiled, tools } = setup();
    const own = bindProtectedTool(control, compiled)('stripe.charge.read', {
      name: 'lookup_off',
      description: 'Look up',
      parameters: z.object({ id: z.string() }),
      isEnabled: false,
      execute: async () => 'ok',
    });
    const { protectAgentTool } = bindAgentTools(control, compiled);
    const helper = new Agent({ name: 'deleter', instructions: 'deletes', model: new ScriptedModel([]) });
    const agentTool = protectAgentTool('admin.delete', helper, { toolName: 'ask_deleter', toolDescription: 'Delete through the helper' });
    expect(await offered([tools[1], own, agentTool], 'alice')).toEqual(['lookup']);
  });
});

describe('least exposure: what keeps a tool offered', () => {
  it('a run with no principal keeps every tool (its calls are refused no_principal)', async () => {
    const { tools } = setup({ identity: () => null });
    expect(await offered(tools, 'dave')).toEqual(['delete_all', 'lookup', 'refund']);
  });

  it('observe mode hides nothing (it refuses nothing)', async () => {
    const { tools } = setup({}, { ...POLICY, mode: 'observe' });
    expect(await offered(tools, 'dave')).toEqual(['delete_all', 'lookup', 'refund']);
  });

  it('without authority only the action denied for every input is hidden, for everyone', async () => {
    const { authority: _none, ...policy } = POLICY;
    const { tools } = setup({}, policy);
    expect(await offered(tools, 'dave')).toEqual(['lookup', 'refund']);
  });

  it("a grant's environments and tasks: offered only in the environment and on the task it names", async () => {
    const policy = {
      ...POLICY,
      authority: {
        grants: [
          ...POLICY.authority.grants,
          { id: 'erin', subject: { agent: 'desk', user: 'erin' }, actions: ['stripe.charge.read'], environments: ['staging'] },
          { id: 'frank', subject: { agent: 'desk', user: 'frank' }, actions: ['stripe.charge.read'], tasks: ['refund-run:*'] },
        ],
      },
    };
    const task = (rc: { context: unknown }) => (rc.context as { task?: string }).task ?? null;
    expect(await offered(setup({}, policy).tools, 'erin')).toEqual([]);
    expect(await offered(setup({ environment: 'staging' }, policy).tools, 'erin')).toEqual(['lookup']);
    const { tools } = setup({ task: task as never }, policy);
    expect(await offered(tools, 'frank', [], { task: 'refund-run:7' })).toEqual(['lookup']);
    expect(await offered(tools, 'frank', [], { task: 'audit:7' })).toEqual([]);
    expect(await offered(tools, 'frank')).toEqual([]);
  });
});

describe('mayHide is exact: when it says nothing can be hidden, usableBy offers the tool to everyone', () => {
  it('brute force over modes, authority, and listed, never-usable and unlisted actions', () => {
    const { authority: _none, ...open } = POLICY;
    const actions = ['stripe.refund', 'stripe.charge.read', 'admin.delete', 'not.listed'];
    const whos = ['alice', 'bob', 'carol', 'dave'].map((user) => ({ principal: `desk:${user}`, subject: { agent: 'desk', user } }));
    let skipped = 0;
    for (const mode of ['enforce', 'observe']) {
      for (const policy of [
        { ...POLICY, mode },
        { ...open, mode },
      ]) {
        const compiled = setup({}, policy).compiled;
        for (const action of actions) {
          if (mayHide(compiled, action)) continue;
          skipped++;
          for (const who of whos) expect(usableBy(compiled, action, who, 'production', null, Date.now()), `${mode} ${action}`).toBe(true);
        }
      }
    }
    expect(skipped).toBe(10); // observe: all 8; enforce without authority: the two actions everyone may use
  });
});
