import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { declarationsInSource } from '../../src/generate/declarations.js';
import { actionSchemas } from '../../src/generate/tool-schemas.js';
import type { Manifest } from '../../src/manifest/types.js';
import { toolGate } from '../../src/policy-test/tool-gate.js';
import { testProject } from '../check/rule-tester.js';
import { loadSdkStrictNullStep } from '../helpers/sdk-strict-nulls.js';

// the SDK's own strict-mode step, from its installed code (in no public entry: see the helper)
const stripStrictNullsForZodSchema = await loadSdkStrictNullStep();

/**
 * Issue 40 item 2: the fill-ins `generate` reads from a field's chain of `.default()`, `.catch()`,
 * `.prefault()`, `.optional()`, `.nullable()` and `.nullish()`, and the gate `test` and `explain`
 * put in front of the policy, against the installed zod on every chain of up to three wrappers: the
 * gate refuses what zod refuses (after the SDK's strict mode drops its nulls), and hands the policy
 * what zod hands the body. Brute force over the exact answer, on a small domain.
 */
type Base = { code: string; schema: () => z.ZodType; inputs: unknown[] };
const BASES: Base[] = [
  { code: "z.enum(['low', 'high'])", schema: () => z.enum(['low', 'high']), inputs: ['low', 'zz', 7] },
  { code: 'z.string().trim()', schema: () => z.string().trim(), inputs: [' a ', 7] },
  // checks the JSON type does not state: what the model sends is checked, a default is not
  { code: 'z.string().min(3).max(4)', schema: () => z.string().min(3).max(4), inputs: ['ab', 'abcd', 'abcde', '\u{1F600}\u{1F600}\u{1F600}', 7] },
  // a length checked before a step reads what was sent; one after it, the stepped string
  { code: 'z.string().min(2).trim()', schema: () => z.string().min(2).trim(), inputs: [' a ', 'a'] },
  { code: 'z.string().trim().min(2)', schema: () => z.string().trim().min(2), inputs: [' a ', 'ab'] },
  { code: 'z.string().nonempty().toUpperCase().length(4)', schema: () => z.string().nonempty().toUpperCase().length(4), inputs: ['', 'high', 'hi'] },
];
type Wrapper = { code: string; apply: (s: z.ZodType) => z.ZodType };
const WRAPPERS: Wrapper[] = [
  { code: ".default('low')", apply: (s) => (s as z.ZodString).default('low') },
  { code: ".catch('high')", apply: (s) => s.catch('high' as never) },
  { code: ".catch('low')", apply: (s) => s.catch('low' as never) },
  { code: ".prefault('zz')", apply: (s) => (s as z.ZodString).prefault('zz') },
  { code: ".prefault(' high ')", apply: (s) => (s as z.ZodString).prefault(' high ') },
  { code: '.optional()', apply: (s) => s.optional() },
  { code: '.nullable()', apply: (s) => s.nullable() },
  { code: '.nullish()', apply: (s) => s.nullish() },
];

function chains(n: number): Wrapper[][] {
  if (n === 0) return [[]];
  const shorter = chains(n - 1);
  return [...shorter, ...shorter.filter((c) => c.length === n - 1).flatMap((c) => WRAPPERS.map((w) => [...c, w]))];
}

function gateOf(code: string) {
  const head = "import { tool } from '@openai/agents';\nimport { z } from 'zod';\n";
  const text = `${head}export const t = tool({ name: 't', description: 'd', parameters: z.object({ f: ${code} }), execute: async () => '' });\n`;
  const loc = { file: '/repo/ctrlrun.tools.yaml', line: 1, column: 1 };
  const manifest: Manifest = { ...testProject().manifest, tools: [{ kind: 'function', tool: 't', action: 'a.t', loc }] };
  const schemas = actionSchemas(manifest, new Map([['t', declarationsInSource('/repo/src/tools.ts', text, new Set(['t']))]]));
  return toolGate(schemas)!;
}

/** What the gate hands the policy, as the body would get it ('refused' for a refusal). */
function predicted(gate: ReturnType<typeof gateOf>, args: Record<string, unknown>): unknown {
  const g = gate('a.t', args);
  if (g === null) return args;
  return 'filled' in g ? g.filled : 'refused';
}

/** What the SDK hands the body in strict mode ('refused' when zod refuses). */
function actual(schema: z.ZodType, args: Record<string, unknown>): unknown {
  const parsed = schema.safeParse(stripStrictNullsForZodSchema(schema, args));
  return parsed.success ? parsed.data : 'refused';
}

describe('fill-ins as zod 4 applies them, every chain of up to three wrappers', () => {
  it('the gate refuses what zod refuses and decides on what the body gets', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const base of BASES) {
      for (const chain of chains(3)) {
        const code = base.code + chain.map((w) => w.code).join('');
        const schema = z.object({ f: chain.reduce((s, w) => w.apply(s), base.schema()) });
        const gate = gateOf(code);
        for (const args of [{}, { f: null }, ...base.inputs.map((f) => ({ f }))] as Record<string, unknown>[]) {
          const want = actual(schema, args);
          let got = predicted(gate, args);
          // a null strict mode drops is decided as sent, as the runtime decides it: the body gets it left out
          if (args.f === null && got === args && want !== 'refused' && !Object.hasOwn(want as object, 'f')) got = {};
          checked++;
          if (JSON.stringify(got) !== JSON.stringify(want))
            wrong.push(`${code} on ${JSON.stringify(args)}: gate ${JSON.stringify(got)}, zod ${JSON.stringify(want)}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(2000);
    expect(wrong).toEqual([]);
  });
});

describe("the SDK's strict-mode step, read by its path in the package", () => {
  it('an SDK that moves it fails with a message naming the file and the helper', async () => {
    await expect(loadSdkStrictNullStep('dist/utils/moved.mjs')).rejects.toThrow(
      /^@openai\/agents-core \d+\.\d+\.\d+ has no stripStrictNullsForZodSchema in dist\/utils\/moved\.mjs, .*update test\/helpers\/sdk-strict-nulls\.ts$/,
    );
    // a file that is there but holds no such function
    await expect(loadSdkStrictNullStep('dist/utils/index.mjs')).rejects.toThrow('has no stripStrictNullsForZodSchema in dist/utils/index.mjs');
  });
});
