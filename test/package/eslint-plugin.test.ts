import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';

/**
 * `eslint-plugin-ctrlrun` (packages/eslint-plugin-ctrlrun) as a user installs it: packed, with
 * ctrlrun-gen and ctrlrun-gen-cli nested under it (not hoisted, as pnpm lays them out, so neither
 * the compiler nor the YAML parser resolves from ctrlrun-gen's own folder), loaded by the ESLint
 * command line from a flat `eslint.config.js`.
 */
interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}
const read = (file: string) => JSON.parse(readFileSync(path.join(REPO_ROOT, file), 'utf8')) as Manifest;
const root = read('package.json');
const companion = read('packages/cli/package.json');
const plugin = read('packages/eslint-plugin-ctrlrun/package.json');

describe('eslint-plugin-ctrlrun, the package', { timeout: 300_000 }, () => {
  it('is named as ESLint names plugins and depends on ctrlrun-gen and its companion of the same version', () => {
    expect(plugin.name).toBe('eslint-plugin-ctrlrun');
    expect(plugin.version).toBe(root.version);
    expect(plugin.dependencies).toEqual({ 'ctrlrun-gen': root.version, 'ctrlrun-gen-cli': companion.version });
    expect(plugin.peerDependencies?.eslint).toBe('>=9.0.0 <11');
    // the runtime package stays light: no ESLint, no plugin code among its dependencies
    expect(Object.keys(root.dependencies ?? {})).not.toContain('eslint');
  });

  let work: string;
  let app: string;
  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'ctrlrun-eslint-pkg-'));
    const unpack = (dir: string, into: string) => {
      const r = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: dir, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      mkdirSync(into, { recursive: true });
      const tgz = path.join(work, (JSON.parse(r.stdout) as Array<{ filename: string }>)[0]!.filename);
      expect(spawnSync('tar', ['-xzf', tgz, '-C', into, '--strip-components=1']).status).toBe(0);
    };
    const link = (names: string[], into: string) => {
      mkdirSync(into, { recursive: true });
      for (const dir of new Set(names.map((n) => (n.startsWith('@') ? n.split('/')[0]! : n))))
        symlinkSync(path.join(REPO_ROOT, 'node_modules', dir), path.join(into, dir), 'dir');
    };
    app = path.join(work, 'app');
    const pluginDir = path.join(app, 'node_modules/eslint-plugin-ctrlrun');
    unpack(path.join(REPO_ROOT, 'packages/eslint-plugin-ctrlrun'), pluginDir);
    const nested = path.join(pluginDir, 'node_modules');
    unpack(REPO_ROOT, path.join(nested, 'ctrlrun-gen'));
    link(Object.keys(root.dependencies ?? {}), path.join(nested, 'ctrlrun-gen/node_modules'));
    unpack(path.join(REPO_ROOT, 'packages/cli'), path.join(nested, 'ctrlrun-gen-cli'));
    link(
      Object.keys(companion.dependencies ?? {}).filter((d) => d !== 'ctrlrun-gen'),
      path.join(nested, 'ctrlrun-gen-cli/node_modules'),
    );
    link(['eslint'], path.join(app, 'node_modules'));
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    writeFileSync(path.join(app, 'eslint.config.js'), "import ctrlrun from 'eslint-plugin-ctrlrun';\nexport default [ctrlrun.configs.recommended];\n");
    writeFileSync(path.join(app, 'ctrlrun.yaml'), 'schema: ctrlrun.policy/v6\nactions:\n  stripe.refund:\n    decision: approve\n');
    writeFileSync(
      path.join(app, 'ctrlrun.tools.yaml'),
      'schema: ctrlrun.tools/v1\npolicy: ctrlrun.yaml\noutput: src/ctrlrun.generated.js\ncontrol: src/ctrlrun.control.js\ntools:\n  - tool: refund\n    action: stripe.refund\n',
    );
    mkdirSync(path.join(app, 'src'));
    writeFileSync(
      path.join(app, 'src/tools.js'),
      "import { tool } from '@openai/agents';\nexport const refund = tool({ name: 'refund', errorFunction: null, execute: async () => 'ok' });\nexport const weather = tool({ name: 'get_weather', errorFunction: null, execute: async () => 'sunny' });\n",
    );
  });
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("the ESLint command line loads it from eslint.config.js and reports check's findings", () => {
    const r = spawnSync(process.execPath, [path.join(app, 'node_modules/eslint/bin/eslint.js'), '--format', 'json', 'src'], { cwd: app, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    const [result] = JSON.parse(r.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string; line: number; column: number; message: string }> }>;
    const found = result!.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}`);
    expect(found).toContain('2:23 ctrlrun/unprotected-tool');
    expect(found).toContain('3:24 ctrlrun/unmapped-tool');
    expect(found).toContain('1:1 ctrlrun/stale-generated');
  });
});
