import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';

/**
 * Issue 11.1: the packed package, as a registry would serve it. `@arethetypeswrong/cli` checks the
 * types of every entry for node10, node16 (from CommonJS and from ESM) and bundler resolution,
 * publint checks the package.json against the files, and a CommonJS and an ES module consumer,
 * outside this repository, load every runtime entry and make a protected call through the real
 * Runner with the generated refund-desk module compiled to their module system.
 */
/** ctrlrun-gen's own dependencies, as its package.json declares them. */
const runtimeDependencies =
  (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {};
const bin = (name: string) => path.join(REPO_ROOT, 'node_modules', '.bin', name);

function sh(command: string, args: string[], cwd: string) {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 180_000, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** What each consumer runs: every entry loads; one allowed and one denied call; the receipts verify. */
const program = (load: (spec: string) => string) => `
${load('@openai/agents/testing')}
${load('ctrlrun-gen/runtime')}
${load('ctrlrun-gen/runtime/sqlite')}
${load('ctrlrun-gen/runtime/postgres')}
${load('ctrlrun-gen/testing')}
${load('./ctrlrun.generated.js')}
${load('./ctrlrun.control.js')}
${load('./agent.js')}
${load('ctrlrun-gen/runtime/upstream')}

async function main() {
  const model = new m0.ScriptedModel([
    [m0.functionCall('refund', { payment_id: 'pay_1001', amount: 4500 }, { callId: 'call_ok' })],
    [m0.functionCall('close_account', { customer_id: 'cus_1' }, { callId: 'call_no' })],
    [m0.assistantMessage('done')],
  ]);
  const control = m6.default;
  const result = await m1.run(m7.refundDesk.clone({ model }), 'go', { context: { user: 'alice' } });
  const receipts = await control.store.listReceipts();
  const verify = await m1.verifyReceipts(control.store);
  await control.store.close();
  // @opentelemetry/api is an optional peer this app did not install: asked for, the control says so and calls still run
  const notices = [];
  const observed = m1.createControl({ store: m1.memoryStore(), identity: () => 'alice', telemetry: { openTelemetry: true }, notice: (l) => notices.push(l) });
  const tool = m1.bindProtectedTool(observed, m5.policy)('stripe.refund', { name: 'refund', description: 'r', parameters: m7.refundDesk.tools.find((t) => t.name === 'refund').parameters, execute: async () => 'ok' });
  const otelRun = await m1.run(m7.refundDesk.clone({ tools: [tool], model: new m0.ScriptedModel([[m0.functionCall('refund', { payment_id: 'pay_2', amount: 4500 }, { callId: 'call_2' })], [m0.assistantMessage('ok')]]) }), 'go');
  return {
    final: result.finalOutput,
    kinds: [typeof m2.sqliteStore, typeof m3.postgresStore, typeof m4.describeStoreConformance, typeof m5.protectedTool, typeof m8.createPinnedFetch],
    storeKind: control.store.kind,
    receipts: receipts.map((r) => [r.action, r.result]),
    verify: verify.ok,
    errorIsClass: new m1.NotExecuted() instanceof m1.CtrlrunError,
    withoutOtel: [otelRun.finalOutput, notices.map((l) => l.includes('api could not be loaded'))],
  };
}
main().then((r) => console.log(JSON.stringify(r)), (e) => { console.error(e); process.exit(1); });
`;

describe('the packed package under require and import', { timeout: 300_000 }, () => {
  let work: string;
  let tarball: string;
  let generated: string;
  let fixture: string;

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'ctrlrun-pack-'));
    // dist/ is built by `npm test` (and by the developer before this file); pack without rebuilding
    const packed = sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], REPO_ROOT);
    expect(packed.code, packed.stderr).toBe(0);
    tarball = path.join(work, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0]!.filename);
    fixture = copyFixture('refund-desk', 'pack-');
    expect((await cli(['generate'], { cwd: fixture })).code).toBe(0);
    const codemod = await cli(['codemod', '--write', '--allow-dirty'], { cwd: fixture });
    expect(codemod.code, codemod.stderr).toBe(0);
    generated = readFileSync(path.join(fixture, 'src/ctrlrun.generated.ts'), 'utf8');
  });
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
    if (fixture) removeDir(fixture);
  });

  it('arethetypeswrong: every runtime entry resolves with its types under node10, node16 (CJS and ESM) and bundler', () => {
    // to a file: attw exits before a large report through a pipe is flushed
    const file = path.join(work, 'attw.json');
    const fd = openSync(file, 'w');
    spawnSync(bin('attw'), [tarball, '--format', 'json'], { cwd: work, stdio: ['ignore', fd, 'pipe'], timeout: 180_000 });
    closeSync(fd);
    const report = JSON.parse(readFileSync(file, 'utf8')) as {
      analysis: { problems: Array<{ kind: string; entrypoint: string; resolutionKind: string }>; entrypoints: Record<string, unknown> };
    };
    // no `.` entry (issue 22.4): what an app imports are the named entries, each clean
    expect(Object.keys(report.analysis.entrypoints).sort()).toEqual([
      './manifest.schema.json',
      './package.json',
      './policy-test.schema.json',
      './policy.schema.json',
      './runtime',
      './runtime/postgres',
      './runtime/sqlite',
      './runtime/upstream',
      './testing',
    ]);
    expect(report.analysis.problems).toEqual([]);
  });

  it('publint: no error, warning or suggestion on the packed package', () => {
    const r = sh(bin('publint'), ['run', tarball, '--strict', '--level', 'suggestion'], work);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('All good');
  });

  for (const system of ['commonjs', 'module'] as const) {
    it(`${system === 'commonjs' ? 'a CommonJS (require)' : 'an ES module (import)'} app runs the generated module, every runtime entry, the SQLite store`, async () => {
      const app = path.join(work, system);
      const modules = path.join(app, 'node_modules');
      mkdirSync(path.join(modules, 'ctrlrun-gen'), { recursive: true });
      expect(sh('tar', ['-xzf', tarball, '-C', path.join(modules, 'ctrlrun-gen'), '--strip-components=1'], app).code).toBe(0);
      // its dependencies and the app's own, as installed packages (from this repo's node_modules)
      for (const dep of new Set(
        [...Object.keys(runtimeDependencies), '@openai/agents', 'zod', 'better-sqlite3', 'pg', 'undici'].map((n) => (n.startsWith('@') ? n.split('/')[0]! : n)),
      ))
        symlinkSync(path.join(REPO_ROOT, 'node_modules', dep), path.join(modules, dep), 'dir');
      writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: `app-${system}`, private: true, type: system }));
      const format = system === 'commonjs' ? 'cjs' : 'esm';
      const compile = async (source: string) => (await transform(source, { loader: 'ts', format, target: 'node20' })).code;
      writeFileSync(path.join(app, 'ctrlrun.generated.js'), await compile(generated));
      writeFileSync(
        path.join(app, 'ctrlrun.control.js'),
        await compile(`import { createControl } from 'ctrlrun-gen/runtime';
import { sqliteStore } from 'ctrlrun-gen/runtime/sqlite';
// offerAllTools: the denied closure reaches the body's refusal (by default it is not offered at all: least exposure)
export default createControl({ store: sqliteStore({ path: 'state.db' }), identity: (rc) => (rc.context as { user?: string }).user ?? null, offerAllTools: true });
`),
      );
      for (const file of ['agent', 'tools', 'payments']) {
        writeFileSync(path.join(app, `${file}.js`), await compile(readFileSync(path.join(fixture, 'src', `${file}.ts`), 'utf8')));
      }
      const specs: string[] = [];
      const load = (spec: string) => {
        const n = specs.push(spec) - 1;
        return system === 'commonjs' ? `const m${n} = require('${spec}');` : `import * as m${n} from '${spec}';`;
      };
      writeFileSync(path.join(app, 'main.js'), program(load));
      if (system === 'commonjs') expect(readFileSync(path.join(app, 'ctrlrun.generated.js'), 'utf8')).toContain('require("ctrlrun-gen/runtime")');

      const r = sh(process.execPath, ['main.js'], app);
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out).toEqual({
        final: 'done',
        kinds: ['function', 'function', 'function', 'function', 'function'],
        storeKind: 'sqlite',
        receipts: [
          ['stripe.refund', 'allowed'],
          ['stripe.refund', 'executed'],
          ['accounts.close', 'denied'],
        ],
        verify: true,
        errorIsClass: true,
        withoutOtel: ['ok', [true]],
      });
      // which build each system loaded: the CommonJS one under require, the ES module one under import
      const which = sh(
        process.execPath,
        system === 'commonjs'
          ? ['-e', "console.log(require.resolve('ctrlrun-gen/runtime'))"]
          : ['--input-type=module', '-e', "console.log(import.meta.resolve('ctrlrun-gen/runtime'))"],
        app,
      );
      expect(which.stdout.trim()).toMatch(system === 'commonjs' ? /dist\/cjs\/runtime\/index\.js$/ : /dist\/runtime\/index\.js$/);
      // the bare name is no entry (issue 22.4): Node's own refusal, never a crash on a CLI-only dependency
      const bare = sh(
        process.execPath,
        system === 'commonjs' ? ['-e', "require('ctrlrun-gen')"] : ['--input-type=module', '-e', "await import('ctrlrun-gen')"],
        app,
      );
      expect(bare.code).toBe(1);
      expect(bare.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
      expect(bare.stderr).not.toMatch(/code-frame|Cannot find (package|module)/);
    });
  }
});
