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
