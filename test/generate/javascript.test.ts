import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { ts } from 'ts-morph';
import { afterAll, describe, expect, it } from 'vitest';
import { outputKind, packageType, toJavaScript, typingsPath } from '../../src/generate/javascript.js';
import { renderGeneratedModule } from '../../src/generate/index.js';
import { loadProject } from '../../src/manifest/load.js';
import type { CompiledPolicy } from '../../src/runtime/types.js';
import { FIXTURES } from '../helpers/paths.js';
import { copyFixture, makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
import { typeCheck } from '../helpers/typecheck.js';

/**
 * A plain JavaScript project gets a JavaScript module (ESM or CommonJS, as Node reads the output
 * file) and a declaration file beside it. The JavaScript is the TypeScript module with its types
 * cut out: it must decide exactly as the TypeScript one does.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** Evaluates a CommonJS text with the two imports stubbed; returns module.exports. */
function evaluateCjs(js: string): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  const require = (specifier: string): unknown => {
    if (specifier === 'ctrlrun-gen/runtime')
      return {
        bindProtectedTool: () => () => undefined,
        bindMcp: () => ({}),
        bindHostedMcp: () => () => undefined,
        bindLocalTools: () => ({}),
        bindAgentTools: () => ({}),
        bindSandbox: () => ({}),
        bindHandoffs: () => ({}),
      };
    return { marker: 'control' };
  };
  new Function('module', 'exports', 'require', js)(module, module.exports, require);
  return module.exports;
}

describe('outputKind and the declaration file name', () => {
  it('follows the extension, and for .js the nearest package.json type (as Node does)', () => {
    const dir = makeTempDir('js-kind-');
    dirs.push(dir);
    writeFiles(dir, {
      'esm/package.json': '{ "type": "module" }',
      'cjs/package.json': '{ "name": "x" }',
      'esm/lib/nested/package.json': '{ "type": "commonjs" }',
    });
    expect(outputKind(path.join(dir, 'esm/src/a.ts'))).toBe('ts');
    expect(outputKind(path.join(dir, 'esm/src/a.cts'))).toBe('ts');
    expect(outputKind(path.join(dir, 'esm/src/a.js'))).toBe('esm');
    expect(outputKind(path.join(dir, 'esm/lib/nested/a.js'))).toBe('cjs');
    expect(outputKind(path.join(dir, 'cjs/a.js'))).toBe('cjs');
    expect(outputKind(path.join(dir, 'cjs/a.mjs'))).toBe('esm');
    expect(outputKind(path.join(dir, 'esm/a.cjs'))).toBe('cjs');
    expect(packageType(path.join(dir, 'esm/lib'))).toBe('module');
    expect(typingsPath('/r/src/g.js')).toBe('/r/src/g.d.ts');
    expect(typingsPath('/r/src/g.mjs')).toBe('/r/src/g.d.mts');
    expect(typingsPath('/r/src/g.cjs')).toBe('/r/src/g.d.cts');
  });
});

describe('the JavaScript module decides as the TypeScript one', () => {
  const tsText = (fixture: string): string => {
    const dir = copyFixture(path.join(FIXTURES, fixture));
    dirs.push(dir);
    return renderGeneratedModule(loadProject({ cwd: dir })).text;
  };
  const viaTypeScript = (text: string) =>
    evaluateCjs(ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText);

  for (const fixture of ['refund-desk', 'generate/operators', 'generate/repeated-argument']) {
    it(`${fixture}: every decision and template on random arguments`, () => {
      const text = tsText(fixture);
      const reference = viaTypeScript(text)['policy'] as CompiledPolicy;
      const js = evaluateCjs(toJavaScript(text, 'cjs'));
      const policy = js['policy'] as CompiledPolicy;
      expect(Object.keys(js).sort()).toEqual([
        'policy',
        'protectAgent',
        'protectAgentTool',
        'protectApplyPatchTool',
        'protectComputerTool',
        'protectHandoff',
        'protectHostedMcp',
        'protectMcpFunctionTool',
        'protectMcpServer',
        'protectMcpTools',
        'protectSandboxAgent',
        'protectShellTool',
        'protectedTool',
      ]);
      expect(Object.keys(policy.actions)).toEqual(Object.keys(reference.actions));
      // Values from every literal in the module, so the rules are hit, plus the usual odd ones.
      const literals = [
        ...new Set([...text.matchAll(/=== ('(?:[^'\\]|\\.)*'|-?\d+|true|false)/g)].map((m) => new Function(`return ${m[1] as string};`)() as unknown)),
      ];
      const names = [...new Set([...text.matchAll(/own\(args, '([^']+)'\)/g)].map((m) => m[1] as string))];
      const value = fc.oneof(fc.constantFrom(...literals, 0, 1, 5000, 10_001, 1.5, '', null), fc.integer(), fc.string({ maxLength: 3 }));
      fc.assert(
        fc.property(fc.dictionary(fc.constantFrom(...names, 'other'), value), (args) => {
          for (const [id, action] of Object.entries(policy.actions)) {
            const ref = reference.actions[id]!;
            expect(action.decide(args)).toEqual(ref.decide(args));
            expect(action.effect?.(args, null)).toEqual(ref.effect?.(args, null));
            expect(action.resource?.(args)).toEqual(ref.resource?.(args));
          }
        }),
        { numRuns: 300 },
      );
      // ESM: the same text but imports and exports; both parse as JavaScript with no type left.
      const esm = toJavaScript(text, 'esm');
      expect(esm).toContain(
        "import { bindAgentTools, bindHandoffs, bindHostedMcp, bindLocalTools, bindMcp, bindProtectedTool, bindSandbox } from 'ctrlrun-gen/runtime';",
      );
      expect(esm).toMatch(/^export const protectedTool = bindProtectedTool\(control, policy\);$/m);
      expect(esm.split('\n').slice(0, 2)).toEqual(text.split('\n').slice(0, 2));
    });
  }

  it('a construct the type remover does not know is a generator bug, not output', () => {
    expect(() => toJavaScript('enum Color { Red }\nexport const x = 1;\n', 'esm')).toThrow(/generator bug/);
  });
});

describe('the declaration file', () => {
  it('types a TypeScript consumer of the JavaScript module: ActionId is checked, options typed', () => {
    const dir = copyFixture(path.join(FIXTURES, 'generate/plain-js-esm'), 'js-typings-');
    dirs.push(dir);
    const generated = renderGeneratedModule(loadProject({ cwd: dir }));
    for (const file of [generated, generated.typings!]) {
      mkdirSync(path.dirname(file.path), { recursive: true });
      writeFileSync(file.path, file.text);
    }
    writeFiles(dir, {
      'tsconfig.json': JSON.stringify({
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true },
        include: ['src/consumer.ts'],
      }),
      'src/consumer.ts':
        "import { z } from 'zod';\nimport { protectedTool, type ActionId } from './ctrlrun.generated.js';\n" +
        "export const ok: ActionId = 'ops.ping';\n" +
        "export const t = protectedTool('ops.ping', { name: 'ping', description: 'p', parameters: z.object({}), execute: async () => 'pong' });\n" +
        "export const bad = protectedTool('ops.pong', { name: 'ping', description: 'p', parameters: z.object({}), execute: async () => 'pong' });\n" +
        // the tool is typed as the SDK's tool() types it (not `any`: the declaration file imports the SDK's names)
        "import { tool } from '@openai/agents';\n" +
        "const byTool = tool({ name: 'ping', description: 'p', parameters: z.object({}), execute: async () => 'pong' });\n" +
        'type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;\n' +
        'export const same: Equal<typeof t, typeof byTool> = true;\n',
    });
    const errors = typeCheck(dir);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^src\/consumer\.ts:5:[\s\S]*'"ops\.pong"' is not assignable to parameter of type 'ActionId'/);
  });
});
