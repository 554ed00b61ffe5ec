import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { actionIdFor } from '../../src/init/render.js';
import { parseManifest } from '../../src/manifest/load.js';
import { parsePolicy } from '../../src/policy/load.js';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

function temp(prefix: string, files: Record<string, string>): string {
  const dir = makeTempDir(prefix);
  dirs.push(dir);
  writeFiles(dir, files);
  return dir;
}

const toolFile = (...tools: Array<[string, string]>) =>
  [
    "import { tool } from '@openai/agents';",
    "import { z } from 'zod';",
    '',
    ...tools.map(
      ([variable, name]) =>
        `export const ${variable} = tool({\n  name: '${name}',\n  description: '${name}',\n  parameters: z.object({ id: z.string() }),\n  execute: async ({ id }) => id,\n});\n`,
    ),
  ].join('\n');

const pkg = (name: string, extra: Record<string, unknown> = {}) => JSON.stringify({ name, private: true, type: 'module', ...extra });
const TSCONFIG = JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true } });

function actionsOf(file: string): Record<string, string[]> {
  const policy = parsePolicy(readFileSync(file, 'utf8'), file);
  expect(policy.diagnostics).toEqual([]);
  return Object.fromEntries(Object.entries(policy.value!.actions).map(([id, a]) => [id, a.rules.map((r) => r.decision)]));
}

function mappingsOf(file: string): Array<[string, string]> {
  const manifest = parseManifest(readFileSync(file, 'utf8'), file);
  expect(manifest.diagnostics).toEqual([]);
  return manifest.value!.tools.map((t) => [t.kind === 'function' ? t.tool : '?', t.action]);
}

describe('init on real layouts (issue 10 item 8)', () => {
  it('action ids are snake_case words', () => {
    expect(actionIdFor('checkEligibilityAndPossiblyInitiateReturn')).toBe('check_eligibility_and_possibly_initiate_return');
    expect(actionIdFor('getHTTPStatus')).toBe('get_http_status');
    expect(actionIdFor('lookupOrder2Items')).toBe('lookup_order2_items');
    expect(actionIdFor('get-weather')).toBe('get_weather');
    expect(actionIdFor('stripe.refund')).toBe('stripe.refund');
    expect(actionIdFor('Refund Expert')).toBe('refund_expert');
  });

  it('a pnpm workspace run from its root: the files go into the package that holds the tools, no new root folder', async () => {
    const dir = temp('init-pnpm-', {
      'package.json': pkg('root'),
      'pnpm-workspace.yaml': 'packages:\n  - packages/*\n',
      'packages/agent/package.json': pkg('@acme/agent'),
      'packages/agent/tsconfig.json': TSCONFIG,
      'packages/agent/src/tools/returns.ts': toolFile(['returns', 'checkEligibilityAndPossiblyInitiateReturn']),
      'packages/web/package.json': pkg('@acme/web'),
      'packages/web/src/page.ts': 'export const page = 1;\n',
    });
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    for (const f of ['ctrlrun.yaml', 'ctrlrun.tools.yaml', 'src']) expect(existsSync(path.join(dir, f)), f).toBe(false);
    const agent = path.join(dir, 'packages/agent');
    expect(actionsOf(path.join(agent, 'ctrlrun.yaml'))).toEqual({ check_eligibility_and_possibly_initiate_return: ['approve'] });
    expect(mappingsOf(path.join(agent, 'ctrlrun.tools.yaml'))).toEqual([
      ['checkEligibilityAndPossiblyInitiateReturn', 'check_eligibility_and_possibly_initiate_return'],
    ]);
    expect(readFileSync(path.join(agent, 'ctrlrun.tools.yaml'), 'utf8')).toContain('# src/tools/returns.ts:4');
    expect(existsSync(path.join(agent, 'src/ctrlrun.control.ts'))).toBe(true);
    expect(existsSync(path.join(dir, 'packages/web/ctrlrun.yaml'))).toBe(false);
    expect(r.stdout).toContain('wrote packages/agent/ctrlrun.yaml');
    // at a workspace root the printed commands need no --cwd: they go through each package's manifest (issue 21)
    expect(r.stdout).toMatch(/^ {2}npx ctrlrun-gen generate +# /m);
    expect(r.stdout).toContain('run here, at the root, each command goes through every package');

    // the rest of the loop, in that package
    for (const args of [['generate'], ['codemod', '--write', '--allow-dirty'], ['check']]) {
      const step = await cli([...args, '--cwd', 'packages/agent'], { cwd: dir });
      expect(step.code, `${args.join(' ')}\n${step.stdout}${step.stderr}`).toBe(0);
    }
    expect(readFileSync(path.join(agent, 'src/tools/returns.ts'), 'utf8')).toContain("protectedTool('check_eligibility_and_possibly_initiate_return', {");
  });

  it('npm workspaces with tools in two packages: each package gets its own files', async () => {
    const dir = temp('init-npmws-', {
      'package.json': pkg('root', { workspaces: ['apps/*'] }),
      'apps/support/package.json': pkg('support'),
      'apps/support/src/tools.ts': toolFile(['refund', 'refundOrder']),
      'apps/ops/package.json': pkg('ops'),
      'apps/ops/tsconfig.json': TSCONFIG,
      'apps/ops/lib/tools.ts': toolFile(['restart', 'restartService']),
    });
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('The tools are in 2 packages');
    expect(r.stdout).not.toContain('<package>');
    expect(r.stdout).toMatch(/^ {2}npx ctrlrun-gen check +# /m);
    expect(existsSync(path.join(dir, 'ctrlrun.yaml'))).toBe(false);
    expect(actionsOf(path.join(dir, 'apps/support/ctrlrun.yaml'))).toEqual({ refund_order: ['approve'] });
    expect(actionsOf(path.join(dir, 'apps/ops/ctrlrun.yaml'))).toEqual({ restart_service: ['approve'] });
    // a package without src/: the module and the control go beside its tools, in lib/ (no new folder)
    const ops = parseManifest(readFileSync(path.join(dir, 'apps/ops/ctrlrun.tools.yaml'), 'utf8'), path.join(dir, 'apps/ops/ctrlrun.tools.yaml'));
    expect(ops.value!.output).toBe(path.join(dir, 'apps/ops/lib/ctrlrun.generated.ts'));
    expect(existsSync(path.join(dir, 'apps/ops/lib/ctrlrun.control.ts'))).toBe(true);
    expect(existsSync(path.join(dir, 'apps/ops/src'))).toBe(false);
  });

  it('--force merges: edited actions, existing mappings and tools already protected are kept; new tools are added', async () => {
    const dir = temp('init-force-', {
      'package.json': pkg('desk'),
      'tsconfig.json': TSCONFIG,
      'src/tools.ts': toolFile(['refund', 'refund'], ['lookup', 'lookupCharge']),
    });
    expect((await cli(['init'], { cwd: dir })).code).toBe(0);
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    expect((await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir })).code).toBe(0);
    // the operator edits the policy; a new tool appears; someone loses the manifest's entries
    const policyFile = path.join(dir, 'ctrlrun.yaml');
    writeFileSync(
      policyFile,
      readFileSync(policyFile, 'utf8').replace(/ {2}lookup_charge:\n {4}decision: approve/, '  # reads are safe\n  lookup_charge:\n    decision: allow'),
    );
    writeFiles(dir, { 'src/more.ts': toolFile(['escalate', 'escalateToHuman']) });
    const manifestFile = path.join(dir, 'ctrlrun.tools.yaml');
    writeFileSync(manifestFile, readFileSync(manifestFile, 'utf8').replace(/ {2}# src\/tools\.ts:\d+\n {2}- tool: refund\n {4}action: refund\n/, ''));
    writeFileSync(path.join(dir, 'src/ctrlrun.control.ts'), `// mine\n${readFileSync(path.join(dir, 'src/ctrlrun.control.ts'), 'utf8')}`);

    const r = await cli(['init', '--force'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(actionsOf(policyFile)).toEqual({ lookup_charge: ['allow'], refund: ['approve'], escalate_to_human: ['approve'] });
    expect(readFileSync(policyFile, 'utf8')).toContain('# reads are safe');
    expect(mappingsOf(manifestFile).sort()).toEqual([
      ['escalateToHuman', 'escalate_to_human'],
      ['lookupCharge', 'lookup_charge'],
      ['refund', 'refund'],
    ]);
    expect(readFileSync(path.join(dir, 'src/ctrlrun.control.ts'), 'utf8').startsWith('// mine\n')).toBe(true);
    expect(r.stdout).toContain('kept src/ctrlrun.control.ts');

    // and the loop still closes
    for (const args of [['generate'], ['codemod', '--write', '--allow-dirty'], ['check']]) {
      const step = await cli(args, { cwd: dir });
      expect(step.code, `${args.join(' ')}\n${step.stdout}${step.stderr}`).toBe(0);
    }
    // a second --force changes nothing
    const before = [readFileSync(policyFile, 'utf8'), readFileSync(manifestFile, 'utf8')];
    expect((await cli(['init', '--force'], { cwd: dir })).code).toBe(0);
    expect([readFileSync(policyFile, 'utf8'), readFileSync(manifestFile, 'utf8')]).toEqual(before);
  });
});
