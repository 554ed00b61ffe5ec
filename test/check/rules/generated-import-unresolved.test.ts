import { describe, expect, it } from 'vitest';
import { generatedImportUnresolvedRule } from '../../../src/check/rules/generated-import-unresolved.js';
import { scanSource } from '../../../src/scan/index.js';
import { testProject } from '../rule-tester.js';

/**
 * `generated-import-unresolved` cases: each importer (file, code) against a repo whose files are
 * `files` (the rule asks the file system only whether a path exists; here that answer is the set).
 * The generated module is `/repo/src/ctrlrun.generated.<ext>`.
 */
interface Case {
  name: string;
  file: string;
  code: string;
  output: string;
  files: string[];
  errors?: Array<{ line: number; mentions?: string }>;
}

const project = (output: string) => {
  const p = testProject();
  return { ...p, manifest: { ...p.manifest, output: `/repo/${output}` } };
};

const CASES: Case[] = [
  {
    name: 'a .mjs importer of the JavaScript module by its exact path',
    file: 'scripts/a.mjs',
    code: "import { protectedTool } from '../src/ctrlrun.generated.mjs';\n",
    output: 'src/ctrlrun.generated.mjs',
    files: ['src/ctrlrun.generated.mjs'],
  },
  {
    name: 'a TypeScript importer: .js finds the .ts module',
    file: 'src/a.ts',
    code: "import { protectedTool } from './ctrlrun.generated.js';\n",
    output: 'src/ctrlrun.generated.ts',
    files: ['src/ctrlrun.generated.ts'],
  },
  {
    name: 'a TypeScript importer of a JavaScript module: .mjs finds its .d.mts',
    file: 'src/a.ts',
    code: "import { protectedTool } from './ctrlrun.generated.mjs';\n",
    output: 'src/ctrlrun.generated.mjs',
    files: ['src/ctrlrun.generated.mjs', 'src/ctrlrun.generated.d.mts'],
  },
  {
    name: 'a TypeScript importer with no extension (bundler resolution)',
    file: 'src/a.ts',
    code: "import { protectedTool } from './ctrlrun.generated';\n",
    output: 'src/ctrlrun.generated.ts',
    files: ['src/ctrlrun.generated.ts'],
  },
  {
    name: 'a CommonJS require with no extension finds the .js module',
    file: 'src/a.cjs',
    code: "const { protectedTool } = require('./ctrlrun.generated');\n",
    output: 'src/ctrlrun.generated.js',
    files: ['src/ctrlrun.generated.js'],
  },
  {
    name: 'the generated module is not written yet (stale-generated says so)',
    file: 'scripts/a.mjs',
    code: "import { protectedTool } from '../src/ctrlrun.generated.js';\n",
    output: 'src/ctrlrun.generated.ts',
    files: [],
  },
  {
    name: 'a type-only import is erased',
    file: 'scripts/a.mjs',
    code: "import type { ActionId } from '../src/ctrlrun.generated.js';\n",
    output: 'src/ctrlrun.generated.ts',
    files: ['src/ctrlrun.generated.ts'],
  },
  {
    name: 'a .mjs importer of the TypeScript module',
    file: 'scripts/a.mjs',
    code: "import { Agent } from '@openai/agents';\nimport { protectedTool } from '../src/ctrlrun.generated.js';\n",
    output: 'src/ctrlrun.generated.ts',
    files: ['src/ctrlrun.generated.ts'],
    errors: [{ line: 2, mentions: 'TypeScript, which a plain JavaScript file cannot load' }],
  },
  {
    name: 'a .mjs importer with no extension: Node loads the exact path, which is no file',
    file: 'scripts/a.mjs',
    code: "import { protectedTool } from '../ctrlrun.generated';\n",
    output: 'ctrlrun.generated.js',
    files: ['ctrlrun.generated.js'],
    errors: [{ line: 1, mentions: "'../ctrlrun.generated' loads no file from this JavaScript file" }],
  },
  {
    name: 'a .js importer (CommonJS require) of the TypeScript module',
    file: 'lib/a.js',
    code: "const { protectedTool } = require('../src/ctrlrun.generated.js');\n",
    output: 'src/ctrlrun.generated.ts',
    files: ['src/ctrlrun.generated.ts'],
    errors: [{ line: 1 }],
  },
  {
    name: 'a TypeScript importer naming the other module system (.cjs for an .mjs module)',
    file: 'src/agents/a.ts',
    code: "import { protectedTool, protectAgent } from '../ctrlrun.generated.cjs';\n",
    output: 'src/ctrlrun.generated.mjs',
    files: ['src/ctrlrun.generated.mjs'],
    errors: [{ line: 1, mentions: 'loads no file from this TypeScript file' }],
  },
  // session 29: a Deno function (below a deno.json) loads only the file's own name
  {
    name: 'a Deno function importing the TypeScript module by .js',
    file: 'supabase/functions/refund/index.ts',
    code: "import { protectedTool } from '../../../src/ctrlrun.generated.js';\n",
    output: 'src/ctrlrun.generated.ts',
    files: ['src/ctrlrun.generated.ts', 'supabase/functions/deno.json', 'tsconfig.json'],
    errors: [{ line: 1, mentions: "below supabase/functions/deno.json: Deno loads a relative import only by the file's own name" }],
  },
  {
    name: 'a Deno function (deno.jsonc) importing it with no extension',
    file: 'supabase/functions/refund/index.ts',
    code: "import { protectedTool } from '../../../src/ctrlrun.generated';\n",
    output: 'src/ctrlrun.generated.ts',
    files: ['src/ctrlrun.generated.ts', 'supabase/functions/refund/deno.jsonc'],
    errors: [{ line: 1, mentions: 'Deno loads' }],
  },
  {
    name: 'a Deno function importing it by its .ts name',
    file: 'supabase/functions/refund/index.ts',
    code: "import { protectedTool } from '../../../src/ctrlrun.generated.ts';\n",
    output: 'src/ctrlrun.generated.ts',
    files: ['src/ctrlrun.generated.ts', 'supabase/functions/deno.json'],
  },
  {
    name: 'a .js import in a folder whose own tsconfig is nearer than the deno.json above',
    file: 'supabase/functions/refund/index.ts',
    code: "import { protectedTool } from '../../../src/ctrlrun.generated.js';\n",
    output: 'src/ctrlrun.generated.ts',
    files: ['src/ctrlrun.generated.ts', 'supabase/functions/refund/tsconfig.json', 'supabase/deno.json'],
  },
];

describe('generated-import-unresolved', () => {
  for (const c of CASES) {
    it(`${c.errors ? 'invalid' : 'valid'}: ${c.name}`, () => {
      const files = new Set(c.files.map((f) => `/repo/${f}`));
      const rule = generatedImportUnresolvedRule((f) => files.has(f));
      const found = rule(scanSource(c.file, c.code, { root: '/repo', generatedModule: `/repo/${c.output}` }), project(c.output));
      expect(found.map((f) => ({ ruleId: f.ruleId, line: f.line }))).toEqual(
        (c.errors ?? []).map((e) => ({ ruleId: 'generated-import-unresolved', line: e.line })),
      );
      (c.errors ?? []).forEach((e, i) => {
        if (e.mentions) expect(found[i]!.message).toContain(e.mentions);
        expect(found[i]!.hint).toContain('ctrlrun-gen generate');
      });
    });
  }
});
