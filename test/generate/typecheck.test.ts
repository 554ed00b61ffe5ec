import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { renderGeneratedModule } from '../../src/generate/index.js';
import { loadProject } from '../../src/manifest/load.js';
import { FIXTURES, REPO_ROOT } from '../helpers/paths.js';
import { typeCheck } from '../helpers/typecheck.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';

/**
 * The generated module passes `tsc --strict --noEmit` in the user's repo, and under the strictest
 * settings a user may have (unused locals/parameters, exact optional types, unreachable code).
 * Needs `npm run build` (the temp repo resolves `ctrlrun-gen/runtime` to dist/ types).
 */
const STRICTEST: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noImplicitReturns: true,
  noImplicitOverride: true,
  noPropertyAccessFromIndexSignature: true,
  noFallthroughCasesInSwitch: true,
  allowUnreachableCode: false,
  verbatimModuleSyntax: true,
  skipLibCheck: true,
};

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const typeErrors = (dir: string, extra: ts.CompilerOptions): string[] => typeCheck(dir, [], extra);

function generateInto(dir: string): string {
  const generated = renderGeneratedModule(loadProject({ cwd: dir }));
  mkdirSync(path.dirname(generated.path), { recursive: true });
  writeFileSync(generated.path, generated.text);
  return generated.path;
}

describe('the generated module type-checks', () => {
  it('needs the built runtime types', () => {
    expect(existsSync(path.join(REPO_ROOT, 'dist/runtime/index.d.ts')), 'run `npm run build` first').toBe(true);
  });

  for (const fixture of ['refund-desk', 'generate/operators', 'generate/after-codemod', 'generate/repeated-argument']) {
    // The strictest options only add checks to the repo's own (strict) tsconfig.
    it(`${fixture}: the repo's tsconfig plus the strictest options`, () => {
      const dir = copyFixture(path.join(FIXTURES, fixture));
      dirs.push(dir);
      const output = generateInto(dir);
      expect(typeErrors(dir, STRICTEST)).toEqual([]);
      expect(existsSync(output)).toBe(true);
    });
  }

  it('a wrong action id passed to protectedTool is a type error', () => {
    const dir = copyFixture(path.join(FIXTURES, 'refund-desk'));
    dirs.push(dir);
    generateInto(dir);
    writeFileSync(
      path.join(dir, 'src/wrong.ts'),
      "import { z } from 'zod';\nimport { protectedTool } from './ctrlrun.generated.js';\n" +
        "export const t = protectedTool('stripe.refunds', { name: 'refund', description: 'x', parameters: z.object({}), execute: async () => 'x' });\n",
    );
    const errors = typeErrors(dir, {});
    expect(errors.some((e) => e.startsWith('src/wrong.ts:3:') && e.includes('stripe.refunds'))).toBe(true);
  });
});

describe("protectedTool keeps the tool's run context type", () => {
  // As tool() does: the context inferred from execute's second parameter or given as a type
  // argument reaches the agent's tools; a tool with no context goes to any agent; a tool for
  // one context is refused by an agent of another. The protected tools' types are tool()'s own,
  // with an outputSchema too; and a declaration build names them (no TS2883).
  const TOOLS =
    "import { Agent, tool, type RunContext } from '@openai/agents';\nimport { z } from 'zod';\nimport { protectedTool } from './ctrlrun.generated.js';\n" +
    'interface Caller { operator: string }\n' +
    'type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;\n' +
    'const refundParameters = z.object({ payment_id: z.string(), amount: z.number().int() });\n' +
    'const refundExecute = async ({ amount }: { amount: number }, runContext?: RunContext<Caller>) => `${runContext?.context.operator} ${amount}`;\n' +
    "export const refund = protectedTool('stripe.refund', { name: 'refund', description: 'x', parameters: refundParameters, execute: refundExecute });\n" +
    "const refundByTool = tool({ name: 'refund', description: 'x', parameters: refundParameters, execute: refundExecute });\n" +
    'export const sameRefund: Equal<typeof refund, typeof refundByTool> = true;\n' +
    "export const close = protectedTool<z.ZodObject<{ account: z.ZodString }>, Caller>('accounts.close', { name: 'close', description: 'x',\n" +
    '  parameters: z.object({ account: z.string() }), execute: async ({ account }, runContext) => `${runContext?.context.operator} ${account}` });\n' +
    "export const read = protectedTool('stripe.charge.read', { name: 'read', description: 'x', parameters: z.object({ payment_id: z.string() }),\n" +
    '  execute: async ({ payment_id }) => payment_id });\n' +
    "const structuredOptions = { name: 'structured', description: 'x', parameters: z.object({ payment_id: z.string() }),\n" +
    '  outputSchema: z.object({ amount: z.number() }), execute: async ({ payment_id }: { payment_id: string }) => ({ amount: payment_id.length }) };\n' +
    "export const structured = protectedTool('stripe.charge.read', structuredOptions);\n" +
    'const structuredByTool = tool(structuredOptions);\n' +
    'export const sameStructured: Equal<typeof structured, typeof structuredByTool> = true;\n' +
    "export const desk = new Agent<Caller>({ name: 'desk', tools: [refund, close, read, structured] });\n" +
    "export const anyone = new Agent({ name: 'anyone', tools: [read, structured] });\n";

  it('under the strictest options and in a declaration build, as with tool()', () => {
    const dir = copyFixture(path.join(FIXTURES, 'refund-desk'));
    dirs.push(dir);
    generateInto(dir);
    writeFileSync(path.join(dir, 'src/desk.ts'), TOOLS);
    expect(typeErrors(dir, { ...STRICTEST, declaration: true })).toEqual([]);
    const night = TOOLS.split('\n').length;
    writeFileSync(path.join(dir, 'src/desk.ts'), `${TOOLS}export const night = new Agent<{ shift: number }>({ name: 'night', tools: [refund] });\n`);
    expect(typeErrors(dir, STRICTEST).join('\n')).toMatch(new RegExp(`^src/desk\\.ts:${night}:\\d+: .*Tool<\\{ shift: number; \\}>`, 'm'));
  });
});
