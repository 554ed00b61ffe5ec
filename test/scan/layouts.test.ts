import { describe, expect, it } from 'vitest';
import { scanRepo } from '../../src/scan/index.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

/** `file:name` of every SDK tool() the repo scan finds. */
async function toolsIn(files: Record<string, string>): Promise<string[]> {
  const root = makeTempDir('layout-');
  try {
    writeFiles(root, files);
    const scan = await scanRepo({ root });
    return scan.files.flatMap((f) => f.sdkToolCalls.map((c) => `${f.file}:${c.name ?? '?'}`)).sort();
  } finally {
    removeDir(root);
  }
}

describe('repo layouts: a file is examined when it reaches the SDK through the repo', () => {
  it('a barrel re-exporting tool, imported elsewhere (named, renamed and as a namespace)', async () => {
    expect(
      await toolsIn({
        'src/sdk.ts': "export { tool, Agent } from '@openai/agents';\nexport { tool as makeTool } from '@openai/agents';\n",
        'src/a.ts': "import { tool } from './sdk';\nexport const a = tool({ name: 'a' });\n",
        'src/b.ts': "import { makeTool } from './sdk.js';\nexport const b = makeTool({ name: 'b' });\n",
        'src/c.ts': "import * as s from './sdk';\nexport const c = s.tool({ name: 'c' });\n",
        'src/plain.ts': "import { tool } from './other';\ntool({ name: 'not-sdk' });\n",
        'src/other.ts': 'export const tool = (o: unknown) => o;\n',
      }),
    ).toEqual(['src/a.ts:a', 'src/b.ts:b', 'src/c.ts:c']);
  });

  it('export * barrels, chained across files and folders (index files)', async () => {
    expect(
      await toolsIn({
        'src/lib/agents/index.ts': "export * from '@openai/agents';\n",
        'src/lib/index.ts': "export * from './agents';\nexport const helper = 1;\n",
        'src/app/run.ts': "import { tool } from '../lib';\nexport const r = tool({ name: 'chained' });\n",
        'src/app/cjs.cjs': "const { tool } = require('../lib/agents');\nmodule.exports = tool({ name: 'cjs' });\n",
      }),
    ).toEqual(['src/app/cjs.cjs:cjs', 'src/app/run.ts:chained']);
  });

  it('a barrel that re-exports an alias (`export const t = sdk.tool`, `export default tool`)', async () => {
    expect(
      await toolsIn({
        'src/make.ts': "import * as sdk from '@openai/agents';\nexport const t = sdk.tool;\nexport default sdk.tool;\n",
        'src/use.ts': "import mk, { t } from './make';\nt({ name: 'named' });\nmk({ name: 'default' });\n",
      }),
    ).toEqual(['src/use.ts:default', 'src/use.ts:named']);
  });

  it('a package.json whose top level is no object is no package, as one that does not parse (session 32)', async () => {
    // Node refuses such a file (ERR_INVALID_PACKAGE_CONFIG) as it refuses one that does not parse; the
    // other readers of package.json take neither for a package. Taken for one, it hid the root's
    // `#sdk` alias from the folder below it, and the tool there went unseen (a false green).
    const ROOT = JSON.stringify({ name: 'app', type: 'module', imports: { '#sdk': '@openai/agents' } });
    const USE = "import { tool } from '#sdk';\nexport const a = tool({ name: 'below' });\n";
    for (const inner of ['[]', '[{ "name": "x", "imports": {} }]', '"text"', '42', '{ not json']) {
      expect(await toolsIn({ 'package.json': ROOT, 'sub/package.json': inner, 'sub/a.ts': USE }), inner).toEqual(['sub/a.ts:below']);
    }
    // control: a package.json that is an object stands between the file and the root's aliases, as in Node
    expect(await toolsIn({ 'package.json': ROOT, 'sub/package.json': '{}', 'sub/a.ts': USE })).toEqual([]);
    // a tsconfig.json alike (TypeScript refuses one whose top level is no object): the root's `paths` still hold below it
    const TS = '{ "compilerOptions": { "paths": { "agents-sdk": ["./node_modules/@openai/agents"] } } }';
    const VIA = "import { tool } from 'agents-sdk';\nexport const b = tool({ name: 'paths-below' });\n";
    expect(await toolsIn({ 'tsconfig.json': TS, 'sub/tsconfig.json': '[]', 'sub/b.ts': VIA })).toEqual(['sub/b.ts:paths-below']);
    expect(await toolsIn({ 'tsconfig.json': TS, 'sub/tsconfig.json': '{}', 'sub/b.ts': VIA })).toEqual([]);
  });

  it('a package.json `imports` alias (#sdk) to the SDK and to a local barrel', async () => {
    expect(
      await toolsIn({
        'package.json': JSON.stringify({ name: 'app', type: 'module', imports: { '#sdk': '@openai/agents', '#tools/*': './src/tools/*.ts' } }),
        'src/a.ts': "import { tool } from '#sdk';\nexport const a = tool({ name: 'hash-alias' });\n",
        'src/tools/kit.ts': "export { tool } from '@openai/agents/realtime';\n",
        'src/b.ts': "import { tool } from '#tools/kit';\nexport const b = tool({ name: 'hash-barrel' });\n",
      }),
    ).toEqual(['src/a.ts:hash-alias', 'src/b.ts:hash-barrel']);
  });

  it('tsconfig `paths` and `baseUrl` aliases (comments and trailing commas in tsconfig)', async () => {
    expect(
      await toolsIn({
        'tsconfig.json':
          '{\n  // aliases\n  "compilerOptions": {\n    "baseUrl": ".",\n    "paths": { "@/*": ["src/*"], "agents-sdk": ["node_modules/@openai/agents"], },\n  },\n}\n',
        'src/lib/ai.ts': "export { tool } from '@openai/agents';\n",
        'src/a.ts': "import { tool } from '@/lib/ai';\nexport const a = tool({ name: 'paths' });\n",
        'src/b.ts': "import { tool } from 'agents-sdk';\nexport const b = tool({ name: 'to-node-modules' });\n",
        'src/c.ts': "import { tool } from 'src/lib/ai';\nexport const c = tool({ name: 'base-url' });\n",
      }),
    ).toEqual(['src/a.ts:paths', 'src/b.ts:to-node-modules', 'src/c.ts:base-url']);
  });

  it('tsconfig `extends` chains: relative (`.json` left out), an array (the later wins), and a package', async () => {
    expect(
      await toolsIn({
        // relative chain: tsconfig.json → config/base (no .json) → config/paths.json, whose paths are relative to itself
        'tsconfig.json': '{ "extends": "./config/base", "compilerOptions": { "strict": true } }\n',
        'config/base.json': '{\n  // a comment\n  "extends": "./paths.json",\n}\n',
        'config/paths.json': '{ "compilerOptions": { "paths": { "@lib/*": ["../src/lib/*"] } } }\n',
        'src/lib/ai.ts': "export { tool } from '@openai/agents';\n",
        'src/a.ts': "import { tool } from '@lib/ai';\nexport const a = tool({ name: 'relative-chain' });\n",
        // an array: the second base's paths replace the first's; its baseUrl is relative to it
        'apps/web/tsconfig.json': '{ "extends": ["../../config/paths.json", "./tsconfig.aliases.json"] }\n',
        'apps/web/tsconfig.aliases.json': '{ "compilerOptions": { "baseUrl": "./src", "paths": { "~/*": ["*"] } } }\n',
        'apps/web/src/sdk.ts': "export * from '@openai/agents';\n",
        'apps/web/src/page.ts':
          "import { tool } from '~/sdk';\nimport { tool as t2 } from 'sdk';\nexport const p = tool({ name: 'array-extends' });\nexport const q = t2({ name: 'base-url-from-base' });\n",
        // a package's tsconfig (node_modules, package.json "tsconfig" field), paths relative to that file
        'packages/app/tsconfig.json': '{ "extends": "@acme/tsconfig" }\n',
        'node_modules/@acme/tsconfig/package.json': '{ "name": "@acme/tsconfig", "tsconfig": "base.json" }\n',
        'node_modules/@acme/tsconfig/base.json': '{ "compilerOptions": { "paths": { "#ai": ["../../../packages/app/src/ai.ts"] } } }\n',
        'packages/app/src/ai.ts': "export { tool } from '@openai/agents';\n",
        'packages/app/src/run.ts': "import { tool } from '#ai';\nexport const r = tool({ name: 'package-extends' });\n",
      }),
    ).toEqual([
      'apps/web/src/page.ts:array-extends',
      'apps/web/src/page.ts:base-url-from-base',
      'packages/app/src/run.ts:package-extends',
      'src/a.ts:relative-chain',
    ]);
  });

  it('an `extends` cycle or a missing base adds nothing and does not hang', async () => {
    expect(
      await toolsIn({
        'tsconfig.json': '{ "extends": ["./a.json", "./missing"], "compilerOptions": { "paths": { "@x/*": ["src/*"] } } }\n',
        'a.json': '{ "extends": "./tsconfig.json" }\n',
        'src/sdk.ts': "export { tool } from '@openai/agents';\n",
        'src/use.ts': "import { tool } from '@x/sdk';\nexport const u = tool({ name: 'own-paths' });\n",
      }),
    ).toEqual(['src/use.ts:own-paths']);
  });

  it('a workspace package imported by name (its source entry, even when main points at dist/)', async () => {
    expect(
      await toolsIn({
        'package.json': JSON.stringify({ name: 'root', private: true, workspaces: ['packages/*'] }),
        'packages/shared/package.json': JSON.stringify({
          name: '@acme/shared',
          main: 'dist/index.js',
          exports: { '.': './dist/index.js', './kit': './dist/kit.js' },
        }),
        'packages/shared/src/index.ts': "export * from '@openai/agents';\n",
        'packages/shared/src/kit.ts': "export { tool as t } from '@openai/agents';\n",
        'packages/app/package.json': JSON.stringify({ name: '@acme/app' }),
        'packages/app/src/agent.ts':
          "import { tool } from '@acme/shared';\nimport { t } from '@acme/shared/kit';\ntool({ name: 'ws' });\nt({ name: 'ws-sub' });\n",
      }),
    ).toEqual(['packages/app/src/agent.ts:ws', 'packages/app/src/agent.ts:ws-sub']);
  });

  it('a name from a const imported from a relative module resolves; an unresolvable one says why', async () => {
    const root = makeTempDir('layout-');
    try {
      writeFiles(root, {
        'src/names.ts': "export const GET_ORDERS = 'get_orders';\nconst hidden = 'h';\nexport { hidden as HIDDEN };\nexport let notConst = 'x';\n",
        'src/a.ts': [
          "import { tool } from '@openai/agents';",
          "import { GET_ORDERS, HIDDEN, notConst } from './names';",
          'tool({ name: GET_ORDERS });',
          'tool({ name: HIDDEN });',
          'tool({ name: notConst });',
          'tool({ name: process.env.X });',
          '',
        ].join('\n'),
      });
      const scan = await scanRepo({ root });
      const calls = scan.files.flatMap((f) => f.sdkToolCalls);
      expect(calls.map((c) => [c.name, c.nameSource])).toEqual([
        ['get_orders', 'imported-const'],
        ['h', 'imported-const'],
        [undefined, undefined],
        [undefined, undefined],
      ]);
      expect(calls[2]?.nameUnresolved).toContain("imported from './names'");
      expect(calls[3]?.nameUnresolved).toContain('not a string literal');
    } finally {
      removeDir(root);
    }
  });

  it('a name read off a `const` object `as const` (or `Object.freeze`) resolves, here or imported; a plain object does not', async () => {
    // the shape of a real app's tool names (issue 21): `export const TOOL_NAMES = { ... } as const` in a module of its own
    const root = makeTempDir('layout-');
    try {
      writeFiles(root, {
        'src/toolNames.ts': [
          "export const TOOL_NAMES = { remember: 'remember_daily', search: 'semantic_search' } as const;",
          "const FROZEN = Object.freeze({ read: 'read_memory' });",
          'export { FROZEN as NAMES };',
          "export const LOOSE = { x: 'loose' };",
          '',
        ].join('\n'),
        'src/a.ts': [
          "import { tool } from '@openai/agents';",
          "import { TOOL_NAMES, NAMES, LOOSE } from './toolNames';",
          "const LOCAL = { mine: 'local_tool' } as const;",
          'tool({ name: TOOL_NAMES.remember });',
          "tool({ name: TOOL_NAMES['search'] });",
          'tool({ name: NAMES.read });',
          'tool({ name: LOCAL.mine });',
          'tool({ name: LOOSE.x });',
          'tool({ name: TOOL_NAMES.missing });',
          '',
        ].join('\n'),
      });
      const scan = await scanRepo({ root });
      const calls = scan.files.flatMap((f) => f.sdkToolCalls);
      expect(calls.map((c) => [c.name, c.nameSource])).toEqual([
        ['remember_daily', 'imported-const'],
        ['semantic_search', 'imported-const'],
        ['read_memory', 'imported-const'],
        ['local_tool', 'const'],
        [undefined, undefined],
        [undefined, undefined],
      ]);
      expect(calls[4]?.nameUnresolved).toContain(
        "`LOOSE.x` is imported from './toolNames', where it is not a string property of an exported `as const` object",
      );
      expect(calls[5]?.nameUnresolved).toContain('`TOOL_NAMES.missing`');
    } finally {
      removeDir(root);
    }
  });
});
