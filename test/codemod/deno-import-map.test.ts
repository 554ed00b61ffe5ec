import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCodemod } from '../../src/codemod/index.js';
import { renderGeneratedModule } from '../../src/generate/index.js';
import { loadProject } from '../../src/manifest/load.js';
import { createModuleSettingsLookup } from '../../src/scan/specifier.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * Session 29 (issue 40): a Deno function that imports the SDK by its bare name through an import
 * map (`deno.json`'s `"imports"`) is rewritten, and the import of the generated module it gains must
 * be one Deno resolves: the file's real name (`.ts`). Deno never maps `./x.js` to `./x.ts`, whatever
 * a NodeNext tsconfig above it says. The Node app beside it keeps its `.js`.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const DENO_TOOL =
  "import { tool } from '@openai/agents';\nimport { z } from 'zod';\n" +
  "export const refund = tool({ name: 'refund', description: 'Refund', parameters: z.object({ payment_id: z.string(), amount: z.number().int() }), execute: async () => 'ok' });\n";

function app(config: Record<string, string>): string {
  const root = makeTempDir('codemod-deno-');
  dirs.push(root);
  cpSync(path.join(FIXTURES, 'codemod/_shared'), root, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/named/input'), root, { recursive: true });
  writeFiles(root, { 'supabase/functions/refund/index.ts': DENO_TOOL, ...config });
  const module = renderGeneratedModule(loadProject({ cwd: root }));
  writeFileSync(module.path, module.text);
  return root;
}

async function rewritten(root: string) {
  const project = loadProject({ cwd: root });
  const result = await runCodemod({ manifest: project.manifest, policy: project.policy });
  const after = (file: string) => result.changes.find((c) => c.file === path.join(root, file))?.after;
  return { result, node: after('src/tools.ts'), deno: after('supabase/functions/refund/index.ts') };
}

const IMPORT_MAP = JSON.stringify({ imports: { '@openai/agents': 'npm:@openai/agents@0.20.0', zod: 'npm:zod@3' } });

describe('the codemod in a Deno function beside a Node app', () => {
  for (const [name, config] of [
    ['deno.json', { 'supabase/functions/refund/deno.json': IMPORT_MAP }],
    ['deno.jsonc (comments)', { 'supabase/functions/refund/deno.jsonc': `// the function's import map\n${IMPORT_MAP}\n` }],
    ['deno.json of the functions folder', { 'supabase/functions/deno.json': IMPORT_MAP }],
    [
      'deno.json beside a NodeNext tsconfig.json (for the editor; Deno reads none)',
      {
        'supabase/functions/refund/deno.json': IMPORT_MAP,
        'supabase/functions/refund/tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext' } }),
      },
    ],
  ] as const) {
    it(`${name}: the Deno file imports the generated module by its .ts name; the Node file by .js`, async () => {
      const root = app(config);
      const { node, deno } = await rewritten(root);
      expect(node).toContain("from './ctrlrun.generated.js';");
      expect(deno).toContain("import { protectedTool } from '../../../src/ctrlrun.generated.ts';");
      expect(deno).not.toContain('ctrlrun.generated.js');
      expect(deno).toContain("export const refund = protectedTool('stripe.refund', {");
    });
  }

  it('no deno.json: the tsconfig above decides, as before (.js)', async () => {
    const { deno } = await rewritten(app({}));
    expect(deno).toContain("from '../../../src/ctrlrun.generated.js';");
  });

  it('the settings say which deno.json decided', () => {
    const root = app({ 'supabase/functions/deno.json': IMPORT_MAP });
    expect(createModuleSettingsLookup(root)(path.join(root, 'supabase/functions/refund'))).toEqual({
      extension: 'ts',
      deno: path.join(root, 'supabase/functions/deno.json'),
    });
    expect(readFileSync(path.join(root, 'supabase/functions/deno.json'), 'utf8')).toBe(IMPORT_MAP);
  });
});
