import { describe, expect, it } from 'vitest';
import { declarationsInSource } from '../../src/generate/declarations.js';
import { acceptsCall, actionSchemas, type ToolSchema } from '../../src/generate/tool-schemas.js';
import { parsePolicy } from '../../src/policy/load.js';
import { witnessCalls } from '../../src/policy-test/witness.js';
import { testProject } from '../check/rule-tester.js';

// Issue 25 item 4: witness calls stay within the tool's parameter schema.

function schemaOf(shape: string): ToolSchema {
  const code = `import { tool } from '@openai/agents';\nimport { z } from 'zod';\ntool({ name: 'pay', parameters: z.object({ ${shape} }), execute: async () => 1 });\n`;
  const manifest = {
    ...testProject().manifest,
    tools: [{ kind: 'function' as const, tool: 'pay', action: 'pay', loc: { file: '/repo/m.yaml', line: 1, column: 1 } }],
  };
  return actionSchemas(manifest, new Map([['pay', declarationsInSource('/repo/src/tools.ts', code, new Set(['pay']))]])).byAction.get('pay')!;
}

function action(yaml: string) {
  const loaded = parsePolicy(`schema: ctrlrun.policy/v6\nactions:\n  pay:\n${yaml}`, '/p/ctrlrun.yaml');
  if (!loaded.value) throw new Error(JSON.stringify(loaded.diagnostics));
  return loaded.value.actions['pay']!;
}

describe('witness calls within a schema', () => {
  it('an argument only a template names gets a value of its type; required arguments no rule names are filled', () => {
    const schema = schemaOf("id: z.string(), amount: z.number().int(), currency: z.enum(['USD', 'EUR'])");
    const calls = witnessCalls(
      [action('    effect: "pay:{id}:{amount}"\n    rules:\n      - when: { id_eq: a }\n        decision: allow\n      - decision: deny\n')],
      { schema },
    );
    expect(calls.length).toBeGreaterThan(0);
    for (const c of calls) expect(acceptsCall(schema, c), JSON.stringify(c)).toBe(true);
    expect(calls).toContainEqual({ id: 'a', amount: 0, currency: 'USD' });
    // without the schema, the same action's witnesses leave the arguments out or send text
    expect(
      witnessCalls([action('    effect: "pay:{id}:{amount}"\n    rules:\n      - when: { id_eq: a }\n        decision: allow\n      - decision: deny\n')]),
    ).toContainEqual({
      id: 'a',
      amount: 'amount-1',
    });
  });

  it('a labelled integer argument a data_scope rule asks for is never sent as text', () => {
    const schema = schemaOf('id: z.string(), ssn: z.number().int().positive()');
    const calls = witnessCalls(
      [action('    data:\n      ssn: pii\n    rules:\n      - when: { data_scope_in: [pii] }\n        decision: approve\n      - decision: allow\n')],
      { schema },
    );
    expect(calls.length).toBeGreaterThan(0);
    for (const c of calls) expect(acceptsCall(schema, c), JSON.stringify(c)).toBe(true);
  });

  it('a comparison beyond the range is witnessed at the range’s edge', () => {
    const schema = schemaOf('amount: z.number().int().min(1).max(50)');
    const calls = witnessCalls([action('    rules:\n      - when: { amount_gt: 100 }\n        decision: deny\n      - decision: allow\n')], { schema });
    expect(calls).toEqual([{ amount: 1 }, { amount: 50 }]);
  });
});
