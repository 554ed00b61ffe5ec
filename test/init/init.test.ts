import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { actionIdFor, findTools, planActions, renderManifest, renderPolicy } from '../../src/init/render.js';
import { parseManifest } from '../../src/manifest/load.js';
import { parsePolicy } from '../../src/policy/load.js';
import { scanSource } from '../../src/scan/index.js';
import type { RepoScan } from '../../src/scan/types.js';
import { typeCheck } from '../helpers/typecheck.js';
import { cli } from '../helpers/cli.js';
import { copyFixture, makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

function strippedRefundDesk(): string {
  const dir = copyFixture('refund-desk', 'init-');
  dirs.push(dir);
  for (const f of ['ctrlrun.yaml', 'ctrlrun.tools.yaml', 'src/ctrlrun.control.ts']) rmSync(path.join(dir, f));
  return dir;
}

/** init, generate, codemod --write, check: the newcomer's loop; every step must pass. */
async function newcomerLoop(dir: string): Promise<{ init: string; check: string }> {
  const init = await cli(['init'], { cwd: dir });
  expect(init.code, init.stderr).toBe(0);
  const generate = await cli(['generate'], { cwd: dir });
  expect(generate.code, generate.stderr).toBe(0);
  const codemod = await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir });
  expect(codemod.code, codemod.stdout + codemod.stderr).toBe(0);
  const check = await cli(['check', '--format', 'json'], { cwd: dir });
  expect(check.code, check.stdout + check.stderr).toBe(0);
  const report = JSON.parse(check.stdout) as { findings: Array<{ severity: string; ruleId: string }> };
  expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
  return { init: init.stdout, check: check.stdout };
}

describe('ctrlrun-gen init', () => {
  it('on refund-desk without its ctrlrun files: init, generate, codemod --write and check all pass, and the repo type-checks', async () => {
    const dir = strippedRefundDesk();
    const { init } = await newcomerLoop(dir);
    expect(init).toContain('npx ctrlrun-gen generate');
    expect(init).toContain('npx ctrlrun-gen codemod --write');
    expect(init).toContain('npx ctrlrun-gen check');

    const policy = readFileSync(path.join(dir, 'ctrlrun.yaml'), 'utf8');
    expect(policy.split('\n')[0]).toBe('# yaml-language-server: $schema=./node_modules/ctrlrun-gen/policy.schema.json');
    const loaded = parsePolicy(policy, path.join(dir, 'ctrlrun.yaml'));
    expect(loaded.diagnostics).toEqual([]);
    expect(Object.keys(loaded.value!.actions).sort()).toEqual(['close_account', 'lookup_charge', 'refund']);
    for (const action of Object.values(loaded.value!.actions)) {
      expect(action.rules.map((r) => r.decision)).toEqual(['approve']);
    }
    expect(policy).toMatch(/# tool "refund" at src\/tools\.ts:\d+/);

    const manifest = readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8');
    expect(manifest.split('\n')[0]).toBe('# yaml-language-server: $schema=./node_modules/ctrlrun-gen/manifest.schema.json');
    const control = readFileSync(path.join(dir, 'src/ctrlrun.control.ts'), 'utf8');
    expect(control).toContain('sqliteStore');
    expect(control).toContain('identity');

    expect(readFileSync(path.join(dir, 'src/tools.ts'), 'utf8')).toContain("protectedTool('refund', {");
    expect(typeCheck(dir)).toEqual([]);
  });

  it('tools from the realtime entry (a browser session) get an httpStore control, and the module bundles for the browser', async () => {
    const dir = strippedRefundDesk();
    // agent.ts (a Runner agent, Node-only tracing) is not part of a realtime app
    rmSync(path.join(dir, 'src/agent.ts'));
    const tools = path.join(dir, 'src/tools.ts');
    writeFileSync(tools, readFileSync(tools, 'utf8').replace("import { tool } from '@openai/agents';", "import { tool } from '@openai/agents/realtime';"));
    const { init } = await newcomerLoop(dir);
    expect(init).toContain('--cors-origin');
    const control = readFileSync(path.join(dir, 'src/ctrlrun.control.ts'), 'utf8');
    expect(control).toContain('httpStore({ url: SERVE_URL, token: RUNTIME_TOKEN })');
    expect(control).not.toMatch(/sqlite|postgres/);
    expect(typeCheck(dir)).toEqual([]);
    // nothing reachable from the rewritten tools imports a Node built-in (esbuild fails on one for platform: 'browser')
    const { build } = await import('esbuild');
    const out = await build({
      entryPoints: [tools],
      absWorkingDir: dir,
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
      metafile: true,
    });
    expect(Object.keys(out.metafile.inputs).some((f) => f.endsWith('src/ctrlrun.control.ts'))).toBe(true);
  });

  it('a Workers project (a wrangler config) gets an httpStore control too: the SQLite and Postgres drivers do not load on workerd', async () => {
    const dir = strippedRefundDesk();
    writeFileSync(path.join(dir, 'wrangler.jsonc'), '{ "name": "refund-desk", "main": "src/agent.ts", "compatibility_flags": ["nodejs_compat"] }\n');
    const { init } = await newcomerLoop(dir);
    expect(init).toContain('edge runtime');
    const control = readFileSync(path.join(dir, 'src/ctrlrun.control.ts'), 'utf8');
    expect(control).toContain('httpStore({ url: SERVE_URL, token: RUNTIME_TOKEN })');
    expect(control).toContain('control.request(result.state)');
    expect(control).not.toMatch(/sqlite|postgres|requestRealtime/);
    expect(typeCheck(dir)).toEqual([]);
  });

  it('never overwrites an existing file without --force', async () => {
    const dir = strippedRefundDesk();
    writeFileSync(path.join(dir, 'ctrlrun.yaml'), '# mine\n');
    const refused = await cli(['init'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('ctrlrun.yaml');
    expect(refused.stderr).toContain('--force');
    expect(readFileSync(path.join(dir, 'ctrlrun.yaml'), 'utf8')).toBe('# mine\n');
    expect(existsSync(path.join(dir, 'ctrlrun.tools.yaml'))).toBe(false);

    const forced = await cli(['init', '--force'], { cwd: dir });
    expect(forced.code).toBe(0);
    expect(readFileSync(path.join(dir, 'ctrlrun.yaml'), 'utf8')).toContain('schema: ctrlrun.policy/v6');
  });

  it('on a generated repo of 500 files the loop passes and maps every tool', async () => {
    const dir = makeTempDir('init-500-');
    dirs.push(dir);
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: [] },
        include: ['src'],
      }),
    );
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'big', private: true, type: 'module' }));
    mkdirSync(path.join(dir, 'src/lib'), { recursive: true });
    const toolNames: string[] = [];
    for (let i = 0; i < 500; i++) {
      if (i % 50 === 0) {
        const name = i === 100 ? 'Send Email' : `tool_${i}`;
        toolNames.push(name);
        writeFileSync(
          path.join(dir, `src/lib/file${i}.ts`),
          `import { tool } from '@openai/agents';\nimport { z } from 'zod';\n\nexport const t${i} = tool({\n  name: ${JSON.stringify(name)},\n  description: 'tool ${i}',\n  parameters: z.object({ id: z.string() }),\n  errorFunction: null,\n  execute: async ({ id }) => id,\n});\n`,
        );
      } else {
        writeFileSync(path.join(dir, `src/lib/file${i}.ts`), `export function f${i}(x: number): number {\n  return x + ${i};\n}\n`);
      }
    }
    await newcomerLoop(dir);
    const loaded = parsePolicy(readFileSync(path.join(dir, 'ctrlrun.yaml'), 'utf8'), 'ctrlrun.yaml');
    expect(Object.keys(loaded.value!.actions)).toHaveLength(toolNames.length);
    expect(loaded.value!.actions['send_email']).toBeDefined();
  });
});

describe('init planning', () => {
  const scanOf = (sources: Record<string, string>): RepoScan => ({
    root: '/repo',
    filesConsidered: Object.keys(sources).length,
    files: Object.entries(sources).map(([file, text]) => scanSource(file, text)),
  });

  it('derives action ids from tool names', () => {
    expect(actionIdFor('lookup_charge')).toBe('lookup_charge');
    expect(actionIdFor('Refund Expert')).toBe('refund_expert');
    expect(actionIdFor('  --weird!! name  ')).toBe('weird_name');
    expect(actionIdFor('!!!')).toBe('tool');
  });

  it('resolves collisions visibly and maps a name declared twice to one action', () => {
    const plan = planActions(
      findTools(
        scanOf({
          'a.ts':
            "import { tool } from '@openai/agents';\nexport const a = tool({ name: 'Refund Expert', description: '', parameters: {} as any, execute: () => '' });\n",
          'b.ts':
            "import { tool } from '@openai/agents';\nexport const b = tool({ name: 'refund_expert', description: '', parameters: {} as any, execute: () => '' });\nexport const c = tool({ name: 'Refund Expert', description: '', parameters: {} as any, execute: () => '' });\n",
          'c.ts': "import { tool } from 'ai';\nexport const d = tool({ name: 'not_the_sdk' });\n",
        }),
      ),
    );
    expect(plan.tools.map((t) => [t.name, t.action, t.renamedFrom])).toEqual([
      ['Refund Expert', 'refund_expert', undefined],
      ['refund_expert', 'refund_expert_2', 'refund_expert'],
    ]);
    expect(plan.tools[0]!.places.map((p) => p.file)).toEqual(['a.ts', 'b.ts']);

    const policyText = renderPolicy(plan);
    expect(policyText).toContain('(named refund_expert_2: refund_expert was taken by another tool)');
    const policy = parsePolicy(policyText, 'ctrlrun.yaml');
    expect(policy.diagnostics).toEqual([]);
    const manifestText = renderManifest(plan, { output: 'src/ctrlrun.generated.ts', control: 'src/ctrlrun.control.ts' });
    const manifest = parseManifest(manifestText, '/repo/ctrlrun.tools.yaml');
    expect(manifest.diagnostics).toEqual([]);
    expect(manifest.value!.tools).toMatchObject([
      { kind: 'function', tool: 'Refund Expert', action: 'refund_expert' },
      { kind: 'function', tool: 'refund_expert', action: 'refund_expert_2' },
    ]);
  });

  it('a second tool the SDK names like a mapped one is left unmapped and said, so the manifest loads (issue 21)', () => {
    // a public app: `send email` in one script, `send_email` in another; both reach the model as send_email
    const plan = planActions(
      findTools(
        scanOf({
          'agent_tool.js':
            "import { tool } from '@openai/agents';\nexport const a = tool({ name: 'send email', description: '', parameters: {}, execute: () => '' });\n",
          'human-loop.ts':
            "import { tool } from '@openai/agents';\nexport const b = tool({ name: 'send_email', description: '', parameters: {} as any, execute: () => '' });\n",
        }),
      ),
    );
    expect(plan.tools.map((t) => t.name)).toEqual(['send email']);
    expect(plan.clashes?.map((t) => [t.name, t.sameAs, t.places[0]!.file])).toEqual([['send_email', 'send email', 'human-loop.ts']]);
    const manifestText = renderManifest(plan, { output: 'ctrlrun.generated.js', control: 'ctrlrun.control.js' });
    expect(manifestText).toContain('# not mapped: tool "send_email" at human-loop.ts:2 is send_email to the model, as "send email" is: rename one');
    expect(parseManifest(manifestText, '/repo/ctrlrun.tools.yaml').diagnostics).toEqual([]);
  });

  it('a repo with no tools still gets loadable files', () => {
    const plan = planActions(findTools(scanOf({})));
    expect(parsePolicy(renderPolicy(plan), 'ctrlrun.yaml').diagnostics).toEqual([]);
    expect(parseManifest(renderManifest(plan, { output: 'src/g.ts', control: 'src/c.ts' }), '/repo/ctrlrun.tools.yaml').diagnostics).toEqual([]);
  });
});
