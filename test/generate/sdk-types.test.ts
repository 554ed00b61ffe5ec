import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { manifestDeclarations } from '../../src/generate/declarations.js';
import { generatedFiles, inputsHash, renderGeneratedModule } from '../../src/generate/index.js';
import { loadProject } from '../../src/manifest/load.js';
import { projectBoundary, sdkTypesPackage } from '../../src/scan/sdk-types-package.js';
import { FIXTURES, REPO_ROOT } from '../helpers/paths.js';
import { writeFiles } from '../helpers/temp-repo.js';
import { typeCheck } from '../helpers/typecheck.js';

/**
 * The SDK package `protectedTool`'s type names are imported from (issue 40): the one the package
 * lists. Each layout is a package outside this repository whose `node_modules` holds only what its
 * package.json lists (pnpm's strict layout), linked to this repository's installs; ctrlrun-gen
 * resolves its own peer `@openai/agents` from here. So a specifier the package does not list does
 * not resolve from its code, as in a pnpm workspace.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const SHARED = path.join(FIXTURES, 'codemod', '_shared');
const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** A package outside the repository with `deps` (and ctrlrun-gen) linked into its own node_modules, and nothing else. */
function strictPackage(deps: string[], files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ctrlrun-sdk-types-'));
  dirs.push(dir);
  const link = (name: string, target: string) => {
    mkdirSync(path.dirname(path.join(dir, 'node_modules', name)), { recursive: true });
    symlinkSync(target, path.join(dir, 'node_modules', name), 'dir');
  };
  link('ctrlrun-gen', REPO_ROOT);
  for (const name of [...deps, 'zod']) link(name, path.join(REPO_ROOT, 'node_modules', name));
  const dependencies = Object.fromEntries([...deps, 'zod', 'ctrlrun-gen'].map((name) => [name, '*']));
  writeFiles(dir, { 'package.json': json({ name: 'strict-app', private: true, type: 'module', dependencies }), ...files });
  return dir;
}

/** Whether Node resolves `specifier` from the package's folder (what its own code can import). */
function resolves(dir: string, specifier: string): boolean {
  try {
    createRequire(path.join(dir, 'package.json')).resolve(specifier);
    return true;
  } catch {
    return false;
  }
}

function generate(dir: string): string {
  const generated = renderGeneratedModule(loadProject({ cwd: dir }));
  for (const file of generatedFiles(generated)) writeFileSync(file.path, file.text);
  return generated.text;
}

const TOOLS_YAML = [
  'schema: ctrlrun.tools/v1',
  'policy: ctrlrun.yaml',
  'output: src/ctrlrun.generated.ts',
  'control: src/ctrlrun.control.ts',
  'tools:',
  '  - tool: refund',
  '    action: stripe.refund',
  '  - tool: lookup_charge',
  '    action: stripe.charge.read',
  '',
].join('\n');

/** A desk whose tools take its `Agent<Caller>`, and are typed as the package's `tool()` types them. */
const DESK = (sdk: string) => `import { Agent, tool, type RunContext } from '${sdk}';
import { z } from 'zod';
import { protectedTool } from './ctrlrun.generated.js';

interface Caller {
  operator: string;
}

const refundParameters = z.object({ payment_id: z.string(), amount: z.number().int() });
const refundOptions = {
  name: 'refund',
  description: 'Refund a charge. The amount is in cents.',
  parameters: refundParameters,
  execute: async ({ amount }: z.infer<typeof refundParameters>, runContext?: RunContext<Caller>) => \`\${runContext?.context.operator} refunded \${amount}\`,
};
export const refund = protectedTool('stripe.refund', refundOptions);
export const lookupCharge = protectedTool('stripe.charge.read', {
  name: 'lookup_charge',
  description: 'Look up a charge by its payment id.',
  parameters: z.object({ payment_id: z.string() }),
  execute: async ({ payment_id }) => \`charge \${payment_id}\`,
});

type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
const byTool = tool(refundOptions);
export const same: Equal<typeof refund, typeof byTool> = true;
export const desk = new Agent<Caller>({ name: 'desk', instructions: 'Answer the caller.', tools: [refund, lookupCharge] });
// @ts-expect-error an action the policy does not have
protectedTool('stripe.refundz', refundOptions);
`;

const APP = (sdk: string) => ({
  'tsconfig.json': readFileSync(path.join(SHARED, 'tsconfig.json'), 'utf8'),
  'ctrlrun.yaml': readFileSync(path.join(SHARED, 'ctrlrun.yaml'), 'utf8'),
  'ctrlrun.tools.yaml': TOOLS_YAML,
  'src/ctrlrun.control.ts': readFileSync(path.join(SHARED, 'src/ctrlrun.control.ts'), 'utf8'),
  'src/desk.ts': DESK(sdk),
});

/** The generated module with its SDK type import from another package. */
function withTypesFrom(dir: string, from: string, to: string): void {
  const file = path.join(dir, 'src/ctrlrun.generated.ts');
  const text = readFileSync(file, 'utf8');
  const changed = text.replace(`UnknownContext } from '${from}';`, `UnknownContext } from '${to}';`);
  expect(changed).not.toBe(text);
  writeFileSync(file, changed);
}

// a declaration build too: the annotation must be nameable from the package
const DECLARATION = { declaration: true };

describe("protectedTool's type names come from the SDK package the package lists", () => {
  it('only @openai/agents-core (pnpm: @openai/agents does not resolve from it): imported from core, and it type-checks', () => {
    const dir = strictPackage(['@openai/agents-core'], APP('@openai/agents-core'));
    expect(resolves(dir, '@openai/agents-core')).toBe(true);
    expect(resolves(dir, '@openai/agents'), 'the layout hides @openai/agents from the package').toBe(false);
    const text = generate(dir);
    expect(text).toContain("import type { FunctionTool, ToolInputParameters, ToolOptions, UnknownContext } from '@openai/agents-core';\n");
    expect(text).not.toContain("from '@openai/agents';");
    // the package the names come from is an input of the module (the hashes from before it was chosen hold for @openai/agents)
    const { policy, manifest } = loadProject({ cwd: dir });
    const hash = (sdk: string | undefined) => inputsHash(policy, manifest, './ctrlrun.control.js', manifestDeclarations(manifest), sdk);
    expect(text).toContain(`// inputs sha256:${hash('@openai/agents-core')} `);
    expect(hash('@openai/agents-core')).not.toBe(hash('@openai/agents'));
    expect(new Set([hash(undefined), hash('@openai/agents'), hash('@openai/agents-core')]).size).toBe(3);
    expect(typeCheck(dir, [], DECLARATION)).toEqual([]);
    // the specifier hard-coded as before: the package's own type check fails on it
    withTypesFrom(dir, '@openai/agents-core', '@openai/agents');
    expect(typeCheck(dir, [], DECLARATION).join('\n')).toMatch(/src\/ctrlrun\.generated\.ts:\d+:\d+: Cannot find module '@openai\/agents'/);
  });

  it('@openai/agents (its core not resolvable from the package): imported from @openai/agents, and it type-checks', () => {
    const dir = strictPackage(['@openai/agents'], APP('@openai/agents'));
    expect(resolves(dir, '@openai/agents-core'), 'core is only a dependency of @openai/agents here').toBe(false);
    const text = generate(dir);
    expect(text).toContain("import type { FunctionTool, ToolInputParameters, ToolOptions, UnknownContext } from '@openai/agents';\n");
    expect(typeCheck(dir, [], DECLARATION)).toEqual([]);
    withTypesFrom(dir, '@openai/agents', '@openai/agents-core');
    expect(typeCheck(dir, [], DECLARATION).join('\n')).toMatch(/src\/ctrlrun\.generated\.ts:\d+:\d+: Cannot find module '@openai\/agents-core'/);
  });

  it("only @openai/agents-realtime: no SDK import, ctrlrun-gen's ProtectedTool<ActionId>, and it type-checks", () => {
    const desk = `import { RealtimeAgent } from '@openai/agents-realtime';
import { z } from 'zod';
import { protectedTool } from './ctrlrun.generated.js';

export const lookupCharge = protectedTool('stripe.charge.read', {
  name: 'lookup_charge',
  description: 'Look up a charge by its payment id.',
  parameters: z.object({ payment_id: z.string() }),
  execute: async ({ payment_id }) => \`charge \${payment_id}\`,
});
export const voice = new RealtimeAgent({ name: 'voice', instructions: 'Look charges up.', tools: [lookupCharge] });
// @ts-expect-error an action the policy does not have
protectedTool('stripe.charge.reed', { name: 'x', description: 'x', parameters: z.object({}), execute: async () => '' });
`;
    const dir = strictPackage(['@openai/agents-realtime'], { ...APP('@openai/agents-realtime'), 'src/desk.ts': desk });
    const text = generate(dir);
    expect(text).not.toMatch(/^import type .* from '@openai\//m);
    expect(text).toContain('export type ProtectedToolType = ProtectedTool<ActionId>;');
    expect(typeCheck(dir, [], DECLARATION)).toEqual([]);
    // neither package that exports the four names resolves here: an import of either fails
    const file = path.join(dir, 'src/ctrlrun.generated.ts');
    for (const sdk of ['@openai/agents', '@openai/agents-core']) {
      writeFileSync(file, `import type { FunctionTool } from '${sdk}';\nexport type Probe = FunctionTool;\n${text}`);
      expect(typeCheck(dir, [], DECLARATION).join('\n')).toContain(`Cannot find module '${sdk}'`);
    }
  });

  it("a JavaScript module's declaration file imports from the same package", () => {
    const dir = strictPackage(['@openai/agents-core'], {
      'tsconfig.json': json({
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, types: [] },
        include: ['src/consumer.ts'],
      }),
      'src/consumer.ts':
        "import { tool } from '@openai/agents-core';\nimport { z } from 'zod';\nimport { protectedTool } from './ctrlrun.generated.js';\n" +
        "const options = { name: 'ping', description: 'p', parameters: z.object({}), execute: async () => 'pong' };\n" +
        "export const t = protectedTool('ops.ping', options);\n" +
        'type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;\n' +
        'const byTool = tool(options);\n' +
        'export const same: Equal<typeof t, typeof byTool> = true;\n',
    });
    cpSync(path.join(FIXTURES, 'generate/plain-js-esm'), dir, { recursive: true, filter: (src) => !/expected|package\.json$/.test(path.basename(src)) });
    generate(dir);
    const typings = readFileSync(path.join(dir, 'src/ctrlrun.generated.d.ts'), 'utf8');
    expect(typings).toContain("import type { FunctionTool, ToolInputParameters, ToolOptions, UnknownContext } from '@openai/agents-core';");
    const js = readFileSync(path.join(dir, 'src/ctrlrun.generated.js'), 'utf8');
    expect(js).not.toContain('@openai/');
    // the type-only import goes with its line: the runtime's import follows the two header lines
    expect(js.split('\n')[2]).toMatch(/^import /);
    expect(typeCheck(dir)).toEqual([]);
  });
});

describe('sdkTypesPackage', () => {
  const tree = (files: Record<string, unknown>): string => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ctrlrun-sdk-types-tree-'));
    dirs.push(dir);
    writeFiles(dir, Object.fromEntries(Object.entries(files).map(([name, value]) => [name, typeof value === 'string' ? value : json(value)])));
    return dir;
  };

  it('the nearest package.json that lists an SDK package decides; @openai/agents before core', () => {
    const dir = tree({
      'package.json': { workspaces: ['apps/*'], devDependencies: { '@openai/agents': '0.20.0' } },
      'apps/core/package.json': { dependencies: { '@openai/agents-core': '0.20.0' } },
      'apps/both/package.json': { peerDependencies: { '@openai/agents-core': '*' }, devDependencies: { '@openai/agents': '*' } },
      'apps/voice/package.json': { dependencies: { '@openai/agents-realtime': '0.20.0' } },
      'apps/plain/package.json': { dependencies: { zod: '4' } },
      'apps/broken/package.json': '{ "dependencies": ',
    });
    expect(sdkTypesPackage(path.join(dir, 'apps/core/src'))).toBe('@openai/agents-core');
    expect(sdkTypesPackage(path.join(dir, 'apps/both'))).toBe('@openai/agents');
    // realtime lists core as its own dependency only: the package's code cannot import it under pnpm
    expect(sdkTypesPackage(path.join(dir, 'apps/voice'))).toBeUndefined();
    // a member that lists no SDK package resolves the workspace root's
    expect(sdkTypesPackage(path.join(dir, 'apps/plain'))).toBe('@openai/agents');
    expect(sdkTypesPackage(path.join(dir, 'apps/broken'))).toBe('@openai/agents');
  });

  it('none listed anywhere: undefined', () => {
    const dir = tree({ 'package.json': { dependencies: { zod: '4' } } });
    expect(sdkTypesPackage(path.join(dir, 'src'))).toBeUndefined();
  });

  it('never reads above the project: a repository root, a workspace root, else the package itself', () => {
    const dir = tree({
      'package.json': { dependencies: { '@openai/agents': '0.20.0' } },
      'repo/.git/HEAD': 'ref: refs/heads/main\n',
      'repo/package.json': { dependencies: { zod: '4' } },
      'repo/apps/bot/package.json': { dependencies: { zod: '4' } },
      'sub/.git': 'gitdir: ../x/.git/modules/sub\n',
      'sub/package.json': { dependencies: { zod: '4' } },
      'ws/pnpm-workspace.yaml': "packages:\n  - 'apps/*'\n",
      'ws/apps/bot/package.json': { dependencies: { zod: '4' } },
      'loose/app/package.json': { dependencies: { zod: '4' } },
    });
    expect(projectBoundary(path.join(dir, 'repo/apps/bot/src'))).toBe(path.join(dir, 'repo'));
    expect(sdkTypesPackage(path.join(dir, 'repo/apps/bot/src'))).toBeUndefined();
    // a submodule's `.git` is a file
    expect(sdkTypesPackage(path.join(dir, 'sub'))).toBeUndefined();
    expect(projectBoundary(path.join(dir, 'ws/apps/bot'))).toBe(path.join(dir, 'ws'));
    expect(sdkTypesPackage(path.join(dir, 'ws/apps/bot'))).toBeUndefined();
    // neither: the package's own package.json is the last one read (the temporary folder has no .git above it)
    expect(projectBoundary(path.join(dir, 'loose/app/src'))).toBe(path.join(dir, 'loose/app'));
    expect(sdkTypesPackage(path.join(dir, 'loose/app/src'))).toBeUndefined();
    // the folder itself, where it is the boundary, still decides
    expect(sdkTypesPackage(dir)).toBe('@openai/agents');
  });
});

/** refund-desk as its own git repository at `<parent>/desk`, its package.json listing no SDK package (a wrapper brings it). */
function deskUnder(parent: string): string {
  const desk = path.join(parent, 'desk');
  cpSync(path.join(FIXTURES, 'refund-desk'), desk, { recursive: true });
  const pkg = JSON.parse(readFileSync(path.join(desk, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  pkg.dependencies = { '@acme/agent-kit': '1.0.0', zod: pkg.dependencies.zod! };
  writeFileSync(path.join(desk, 'package.json'), JSON.stringify(pkg, null, 2));
  mkdirSync(path.join(desk, 'node_modules'));
  symlinkSync(REPO_ROOT, path.join(desk, 'node_modules', 'ctrlrun-gen'), 'dir');
  spawnSync('git', ['init', '-q', '.'], { cwd: desk });
  return desk;
}

describe('the generated module does not depend on folders outside the repository', () => {
  it('the same repository generates the same text wherever it is checked out (a package.json above it is no input)', () => {
    const base = mkdtempSync(path.join(os.tmpdir(), 'ctrlrun-sdk-types-outside-'));
    dirs.push(base);
    const plain = deskUnder(path.join(base, 'plain'));
    mkdirSync(path.join(base, 'outer'));
    writeFileSync(path.join(base, 'outer', 'package.json'), JSON.stringify({ dependencies: { '@openai/agents-core': '0.20.0' } }));
    const outer = deskUnder(path.join(base, 'outer'));

    const here = renderGeneratedModule(loadProject({ cwd: plain })).text;
    const there = renderGeneratedModule(loadProject({ cwd: outer })).text;
    expect(there).toBe(here);
    // nothing inside lists the SDK: the fallback typing
    expect(here).toContain('export type ProtectedToolType = ProtectedTool<ActionId>;');
  });
});
