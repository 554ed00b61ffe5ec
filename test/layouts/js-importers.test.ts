import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { removeDir } from '../helpers/temp-repo.js';
import { typeCheck } from '../helpers/typecheck.js';
import { committedRepo, JS_AGENT, START_ESM, startNode, TS_AGENT } from './loop-helpers.js';

/**
 * Issue 21 item 2: a repo with a tsconfig (for its server) whose agents are `.mjs` scripts. The
 * generated module's language follows its importers: init writes JavaScript (plus declarations), so
 * `node scripts/start.mjs` starts after the loop and the TypeScript half still type-checks; and
 * `check` reports an import of the generated module that loads no file. Needs `npm run build`.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const TSCONFIG = JSON.stringify({
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: [] },
  include: ['src'],
});

const repo = (files: Record<string, string>): string => committedRepo(dirs, 'js-imp-', files);

async function loop(dir: string): Promise<void> {
  for (const args of [['init'], ['generate'], ['codemod', '--write'], ['check']]) {
    const r = await cli(args, { cwd: dir });
    expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
  }
}

const SERVER_TS = "import { createServer } from 'node:http';\n\nexport const server = createServer((_req, res) => res.end('ok'));\n";

describe('the generated module follows its importers (issue 21 item 2)', () => {
  it('a CommonJS package with a tsconfig and .mjs agent scripts gets an ES module (.mjs) and starts', async () => {
    const dir = repo({
      'package.json': JSON.stringify({ name: 'mjs-scripts', private: true, devDependencies: { typescript: '5.9.3' } }),
      'tsconfig.json': TSCONFIG,
      'src/server.ts': SERVER_TS.replace("import { createServer } from 'node:http';", "import { createServer } from 'http';"),
      'scripts/agent.mjs': JS_AGENT,
      'scripts/start.mjs': START_ESM('./agent.mjs'),
    });
    await loop(dir);
    expect(existsSync(path.join(dir, 'src/ctrlrun.generated.mjs'))).toBe(true);
    expect(existsSync(path.join(dir, 'src/ctrlrun.generated.d.mts'))).toBe(true);
    expect(existsSync(path.join(dir, 'src/ctrlrun.control.mjs'))).toBe(true);
    expect(readFileSync(path.join(dir, 'scripts/agent.mjs'), 'utf8')).toContain("from '../src/ctrlrun.generated.mjs'");
    expect(typeCheck(dir)).toEqual([]);
    expect(startNode(dir, 'scripts/start.mjs')).toEqual({ interruptions: ['refund'], ran: [] });
  }, 120_000);

  it('an ESM package with TypeScript and .mjs importers: JavaScript plus declarations, both halves work', async () => {
    const dir = repo({
      'package.json': JSON.stringify({ name: 'mixed', private: true, type: 'module' }),
      'tsconfig.json': TSCONFIG,
      'src/desk.ts': TS_AGENT.replace(/refund/g, 'lookup').replace("name: 'lookup'", "name: 'lookup_payment'"),
      'scripts/agent.mjs': JS_AGENT,
      'scripts/start.mjs': START_ESM('./agent.mjs'),
    });
    await loop(dir);
    expect(readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8')).toContain('output: src/ctrlrun.generated.js');
    expect(readFileSync(path.join(dir, 'src/desk.ts'), 'utf8')).toContain("from './ctrlrun.generated.js'");
    expect(typeCheck(dir), 'the TypeScript importer reads the declarations').toEqual([]);
    expect(startNode(dir, 'scripts/start.mjs')).toEqual({ interruptions: ['refund'], ran: [] });
  }, 120_000);

  it('check reports a .mjs import of a TypeScript generated module (what init wrote before)', async () => {
    const dir = repo({
      'package.json': JSON.stringify({ name: 'mjs-scripts', private: true }),
      'tsconfig.json': TSCONFIG,
      'src/server.ts': 'export const port = 8080;\n',
      'scripts/agent.mjs': JS_AGENT,
    });
    expect((await cli(['init'], { cwd: dir })).code).toBe(0);
    // the manifest as a TypeScript-only init wrote it
    const manifest = path.join(dir, 'ctrlrun.tools.yaml');
    writeFileSync(
      manifest,
      readFileSync(manifest, 'utf8')
        .replace('src/ctrlrun.generated.mjs', 'src/ctrlrun.generated.ts')
        .replace('src/ctrlrun.control.mjs', 'src/ctrlrun.control.ts'),
    );
    writeFileSync(path.join(dir, 'src/ctrlrun.control.ts'), readFileSync(path.join(dir, 'src/ctrlrun.control.mjs'), 'utf8'));
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    expect((await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir })).code).toBe(0);
    expect(readFileSync(path.join(dir, 'scripts/agent.mjs'), 'utf8')).toContain("from '../src/ctrlrun.generated.js'");
    const r = await cli(['check', '--format', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    const found = (JSON.parse(r.stdout) as { findings: Array<{ ruleId: string; file: string; line: number; message: string }> }).findings.filter(
      (f) => f.ruleId === 'generated-import-unresolved',
    );
    expect(found.map((f) => `${f.file}:${f.line}`)).toEqual(['scripts/agent.mjs:3']);
    expect(found[0]!.message).toContain('TypeScript, which a plain JavaScript file cannot load');
  }, 120_000);
});
