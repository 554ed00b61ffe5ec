import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
import { typeCheck } from '../helpers/typecheck.js';
import { git, startRefund, START_ESM, TS_AGENT, TSCONFIG_NODENEXT } from './loop-helpers.js';

/**
 * Issue 21 item 3: a monorepo's CI runs at the workspace root. init writes each package's manifest
 * into the package; then `generate`, `codemod --write` and `check` run at the root, as init prints
 * them, go through every package's manifest, and each package still type-checks and starts (its
 * refund tool now pauses for a human). Needs `npm run build`.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const pkg = (name: string) => JSON.stringify({ name, private: true, type: 'module' });
/** A workspace of two packages, `a` and `b`, each with the refund agent. */
const TWO_PACKAGES = {
  'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }),
  'packages/a/package.json': pkg('a'),
  'packages/a/tsconfig.json': TSCONFIG_NODENEXT,
  'packages/a/src/agent.ts': TS_AGENT,
  'packages/b/package.json': pkg('b'),
  'packages/b/tsconfig.json': TSCONFIG_NODENEXT,
  'packages/b/src/agent.ts': TS_AGENT,
};

const LAYOUTS: Array<{ name: string; root: Record<string, string>; packages: string[] }> = [
  {
    name: 'npm workspaces (package.json `workspaces`)',
    root: { 'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }) },
    packages: ['packages/desk', 'packages/billing'],
  },
  {
    name: 'pnpm workspace (pnpm-workspace.yaml)',
    root: { 'package.json': JSON.stringify({ name: 'mono', private: true }), 'pnpm-workspace.yaml': "packages:\n  - 'apps/*'\n  # the docs site\n  - docs\n" },
    packages: ['apps/voice'],
  },
  {
    // no `workspaces` field: each package installed on its own (`npm --prefix client install`)
    name: 'a root of sibling packages that is no workspace',
    root: {
      'package.json': JSON.stringify({ name: 'demo', private: true, scripts: { postinstall: 'npm --prefix client install && npm --prefix server install' } }),
    },
    packages: ['client', 'server'],
  },
];

describe('every command works at a workspace root or a root of sibling packages (issue 21 item 3)', () => {
  for (const layout of LAYOUTS) {
    it(layout.name, async () => {
      const dir = makeTempDir('ws-');
      dirs.push(dir);
      const files: Record<string, string> = { ...layout.root };
      for (const p of layout.packages) {
        Object.assign(files, {
          [`${p}/package.json`]: pkg(path.basename(p)),
          [`${p}/tsconfig.json`]: TSCONFIG_NODENEXT,
          [`${p}/src/agent.ts`]: TS_AGENT,
          [`${p}/src/start.ts`]: START_ESM('./agent.js'),
        });
      }
      writeFiles(dir, files);
      git(dir, 'init', '-q', '.');
      git(dir, 'add', '-A');
      git(dir, 'commit', '-qm', 'the app as it was');

      // before the loop the root has no manifest: check says so (exit 2), as before
      expect((await cli(['check'], { cwd: dir })).code).toBe(2);

      const init = await cli(['init'], { cwd: dir });
      expect(init.code, init.stdout + init.stderr).toBe(0);
      for (const p of layout.packages) expect(existsSync(path.join(dir, p, 'ctrlrun.tools.yaml'))).toBe(true);
      // the printed commands run as printed: no `--cwd <package>` placeholder
      expect(init.stdout).not.toContain('<package>');
      const printed = [...init.stdout.matchAll(/^ {2}npx ctrlrun-gen (.+?)\s+#/gm)].map((m) => m[1]!.trim().split(/\s+/));
      expect(printed.map((a) => a[0])).toEqual(['generate', 'codemod', 'check']);
      for (const args of printed) {
        const r = await cli(args, { cwd: dir });
        expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
      }
      // the CI job at the root: check and generate --check are green
      const ci = await cli(['check', '--format', 'json'], { cwd: dir });
      expect(ci.code, ci.stdout).toBe(0);
      expect((await cli(['generate', '--check'], { cwd: dir })).code).toBe(0);
      for (const p of layout.packages) {
        expect(readFileSync(path.join(dir, p, 'src/agent.ts'), 'utf8')).toContain("protectedTool('refund'");
        expect(typeCheck(path.join(dir, p)), `${p} type-checks`).toEqual([]);
        expect(await startRefund(path.join(dir, p))).toEqual({ interruptions: ['refund'], ran: [] });
      }
    }, 180_000);
  }

  it("check at the root reports each package's findings with its path, in one report", async () => {
    const dir = makeTempDir('ws-find-');
    dirs.push(dir);
    writeFiles(dir, {
      ...TWO_PACKAGES,
    });
    expect((await cli(['init'], { cwd: dir })).code).toBe(0);
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    const r = await cli(['check', '--format', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    const files = (JSON.parse(r.stdout) as { findings: Array<{ ruleId: string; file: string }> }).findings
      .filter((f) => f.ruleId === 'unprotected-tool')
      .map((f) => f.file);
    expect(files).toEqual(['packages/a/src/agent.ts', 'packages/b/src/agent.ts']);
    // `--cwd` one package still checks that package only
    const one = await cli(['check', '--format', 'json', '--cwd', 'packages/b'], { cwd: dir });
    expect(
      (JSON.parse(one.stdout) as { findings: Array<{ ruleId: string; file: string }> }).findings
        .filter((f) => f.ruleId === 'unprotected-tool')
        .map((f) => f.file),
    ).toEqual(['src/agent.ts']);
  }, 120_000);

  it('check at the root also checks the packages no manifest covers: a new one, one that deleted its manifest (no false green)', async () => {
    const dir = makeTempDir('ws-uncovered-');
    dirs.push(dir);
    writeFiles(dir, {
      ...TWO_PACKAGES,
      // a package with no SDK in it needs no manifest and gets no finding
      'packages/util/package.json': pkg('util'),
      'packages/util/src/index.ts': 'export const twice = (n: number) => n * 2;\n',
      // a fork of the SDK's repo: the SDK's own packages implement the doors, they are none
      'packages/agents-core/package.json': JSON.stringify({ name: '@openai/agents-core' }),
      'packages/agents-core/src/tool.ts': TS_AGENT,
    });
    expect((await cli(['init', '--cwd', 'packages/a'], { cwd: dir })).code).toBe(0);
    expect((await cli(['init', '--cwd', 'packages/b'], { cwd: dir })).code).toBe(0);
    for (const args of [['generate'], ['codemod', '--write', '--allow-dirty']]) expect((await cli(args, { cwd: dir })).code).toBe(0);
    const errors = async () => {
      const r = await cli(['check', '--format', 'json'], { cwd: dir });
      const findings = (JSON.parse(r.stdout) as { findings: Array<{ ruleId: string; file: string; severity: string; message: string }> }).findings;
      return { code: r.code, errors: findings.filter((f) => f.severity === 'error') };
    };
    expect(await errors()).toEqual({ code: 0, errors: [] });

    // a file of the root's own, outside every package, with an open tool
    writeFiles(dir, { 'scripts/ops.ts': TS_AGENT });
    const rootFile = await errors();
    expect(rootFile.code).toBe(2);
    expect(rootFile.errors.map((f) => [f.ruleId, f.file])).toEqual([
      ['policy-invalid', 'ctrlrun.tools.yaml'],
      ['unprotected-tool', 'scripts/ops.ts'],
      ['unsafe-error-function', 'scripts/ops.ts'],
    ]);
    rmSync(path.join(dir, 'scripts'), { recursive: true });

    // a new package with an open tool and no manifest
    writeFiles(dir, { 'packages/c/package.json': pkg('c'), 'packages/c/src/agent.ts': TS_AGENT });
    const added = await errors();
    expect(added.code).toBe(2);
    expect(added.errors.map((f) => [f.ruleId, f.file])).toEqual([
      ['policy-invalid', 'packages/c/ctrlrun.tools.yaml'],
      ['unprotected-tool', 'packages/c/src/agent.ts'],
      ['unsafe-error-function', 'packages/c/src/agent.ts'],
    ]);
    rmSync(path.join(dir, 'packages/c'), { recursive: true });

    // b deletes its manifest: its tools still call the generated module, which nothing checks any more
    rmSync(path.join(dir, 'packages/b/ctrlrun.tools.yaml'));
    const gone = await errors();
    expect(gone.code).toBe(2);
    expect(gone.errors.map((f) => [f.ruleId, f.file])).toEqual([['policy-invalid', 'packages/b/ctrlrun.tools.yaml']]);
    expect(gone.errors[0]!.message).toContain('packages/b/src/ctrlrun.generated.ts');
    // a path limits the packages checked as it does the manifests'
    expect((await cli(['check', 'packages/a'], { cwd: dir })).code).toBe(0);
    expect((await cli(['check', 'packages/b'], { cwd: dir })).code).toBe(2);
  }, 180_000);

  it('a package the workspace patterns do not list is checked as one, with its own manifest or without (no false green)', async () => {
    const dir = makeTempDir('ws-unlisted-');
    dirs.push(dir);
    const bot = 'packages/a/examples/bot';
    writeFiles(dir, { 'package.json': TWO_PACKAGES['package.json'], 'packages/a/package.json': pkg('a'), 'packages/a/src/agent.ts': TS_AGENT });
    expect((await cli(['init', '--cwd', 'packages/a'], { cwd: dir })).code).toBe(0);
    // an example inside a, which `packages/*` does not list, protected through a manifest of its own
    writeFiles(dir, { [`${bot}/package.json`]: pkg('bot'), [`${bot}/src/agent.ts`]: TS_AGENT });
    expect((await cli(['init', '--cwd', bot], { cwd: dir })).code).toBe(0);
    for (const args of [['generate'], ['codemod', '--write', '--allow-dirty']]) expect((await cli(args, { cwd: dir })).code).toBe(0);
    const errors = async (paths: string[] = []) => {
      const r = await cli(['check', '--format', 'json', ...paths], { cwd: dir });
      const findings = (JSON.parse(r.stdout) as { findings: Array<{ ruleId: string; file: string; severity: string; message: string }> }).findings;
      return { code: r.code, errors: findings.filter((f) => f.severity === 'error').map((f) => [f.ruleId, f.file]) };
    };
    expect(await errors()).toEqual({ code: 0, errors: [] });
    // a's scan stops at the example's manifest: only that manifest's check can see this tool
    writeFiles(dir, { [`${bot}/src/more.ts`]: TS_AGENT.replace(/refund/g, 'wipe').replace("'desk'", "'ops'") });
    const open = [
      ['unmapped-tool', `${bot}/src/more.ts`],
      ['unsafe-error-function', `${bot}/src/more.ts`],
    ];
    for (const paths of [[], [bot], ['packages/a']]) expect(await errors(paths)).toEqual({ code: 1, errors: open });
    rmSync(path.join(dir, bot, 'src/more.ts'));
    // one at the root that no pattern lists, without a manifest: named as the package it is
    writeFiles(dir, { 'examples/desk/package.json': pkg('desk'), 'examples/desk/src/agent.ts': TS_AGENT });
    expect(await errors()).toEqual({
      code: 2,
      errors: [
        ['policy-invalid', 'examples/desk/ctrlrun.tools.yaml'],
        ['unprotected-tool', 'examples/desk/src/agent.ts'],
        ['unsafe-error-function', 'examples/desk/src/agent.ts'],
      ],
    });
  }, 120_000);

  it("a package below another is checked once, on its own: no finding twice, no generated module taken for the outer one's", async () => {
    const dir = makeTempDir('ws-nested-');
    dirs.push(dir);
    writeFiles(dir, {
      'package.json': pkg('root'),
      // app has no SDK of its own: its packages below are checked on their own
      'app/package.json': pkg('app'),
      'app/agent/package.json': pkg('agent'),
      'app/agent/tsconfig.json': TSCONFIG_NODENEXT,
      'app/agent/src/agent.ts': TS_AGENT,
    });
    expect((await cli(['init', '--cwd', 'app/agent'], { cwd: dir })).code).toBe(0);
    for (const args of [['generate'], ['codemod', '--write', '--allow-dirty']]) expect((await cli(args, { cwd: dir })).code).toBe(0);
    const errors = async () => {
      const r = await cli(['check', '--format', 'json'], { cwd: dir });
      const findings = (JSON.parse(r.stdout) as { findings: Array<{ ruleId: string; file: string; severity: string }> }).findings;
      return { code: r.code, errors: findings.filter((f) => f.severity === 'error').map((f) => [f.ruleId, f.file]) };
    };
    // app/agent's generated module is its manifest's, not one app left behind
    expect(await errors()).toEqual({ code: 0, errors: [] });
    writeFiles(dir, { 'app/tools/package.json': pkg('tools'), 'app/tools/src/agent.ts': TS_AGENT });
    expect(await errors()).toEqual({
      code: 2,
      errors: [
        ['policy-invalid', 'app/tools/ctrlrun.tools.yaml'],
        ['unprotected-tool', 'app/tools/src/agent.ts'],
        ['unsafe-error-function', 'app/tools/src/agent.ts'],
      ],
    });
  }, 120_000);
});

const OPEN_TOOL = `import { Agent, tool } from '@openai/agents';
import { z } from 'zod';
export const wipe = tool({ name: 'wipe_db', description: 'x', parameters: z.object({}), execute: async () => 'ok' });
export const agent = new Agent({ name: 'ops', tools: [wipe] });
`;

describe('a git-ignored copy of a workspace package is no package of the repository', () => {
  it('check, generate and codemod at the root leave a pruned copy under an ignored out/ alone', async () => {
    const dir = makeTempDir('ctrlrun-ws-ignored-');
    dirs.push(dir);
    cpSync(path.join(FIXTURES, 'refund-desk'), path.join(dir, 'packages/a'), { recursive: true });
    writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }),
      '.gitignore': 'node_modules\nout/\n',
    });
    const generate = await cli(['generate'], { cwd: path.join(dir, 'packages/a') });
    expect(generate.code, generate.stdout + generate.stderr).toBe(0);
    const codemod = await cli(['codemod', '--write', '--allow-dirty'], { cwd: path.join(dir, 'packages/a') });
    expect(codemod.code, codemod.stdout + codemod.stderr).toBe(0);
    git(dir, 'init', '-q', '.');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'the workspace');
    const clean = await cli(['check'], { cwd: dir });
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);

    // `turbo prune a --docker`: the pruned workspace copied under the ignored out/, here with a file
    // the repository does not have, and without the generated module
    const copy = path.join(dir, 'out/full/packages/a');
    cpSync(path.join(dir, 'packages/a'), copy, { recursive: true });
    writeFiles(dir, { 'out/full/packages/a/src/scratch.ts': OPEN_TOOL });
    rmSync(path.join(copy, 'src/ctrlrun.generated.ts'));

    const after = await cli(['check'], { cwd: dir });
    expect(after.stdout).not.toContain('out/full');
    expect(after.code, after.stdout + after.stderr).toBe(0);
    const regenerate = await cli(['generate'], { cwd: dir });
    expect(regenerate.code, regenerate.stdout + regenerate.stderr).toBe(0);
    expect(existsSync(path.join(copy, 'src/ctrlrun.generated.ts'))).toBe(false);
    const rewrite = await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir });
    expect(rewrite.stdout + rewrite.stderr).not.toContain('out/full');
    expect(readFileSync(path.join(copy, 'src/scratch.ts'), 'utf8')).toBe(OPEN_TOOL);
  });
});
