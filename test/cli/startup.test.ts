import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { soleCommand } from '../../src/cli/commands/index.js';
import { CLI_BIN } from '../helpers/paths.js';

/**
 * Issue 10 item 10: start-up is what a user feels. The built CLI, as a process, loads the
 * TypeScript compiler only once the text prefilter has found a file worth parsing, never loads
 * ts-morph, and loads only the command it runs. What a process loaded is read from its CommonJS
 * module cache (the compiler, ts-morph, better-sqlite3 and yaml are CommonJS) at exit.
 */
const work = mkdtempSync(path.join(tmpdir(), 'ctrlrun-startup-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const PROBE = path.join(work, 'probe.cjs');
writeFileSync(PROBE, "process.on('exit', () => require('node:fs').writeFileSync(process.env.PROBE_OUT, JSON.stringify(Object.keys(require.cache))));\n");

/** Runs the built CLI with `args`; returns the exit code and the CommonJS files it loaded. */
function loaded(args: string[], cwd: string): { code: number | null; files: string[]; stderr: string } {
  const out = path.join(work, `loaded-${Math.random().toString(36).slice(2)}.json`);
  const r = spawnSync(process.execPath, ['--require', PROBE, CLI_BIN, ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', PROBE_OUT: out },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, files: JSON.parse(readFileSync(out, 'utf8')) as string[], stderr: r.stderr };
}

const compiler = (files: string[]) => files.filter((f) => /[\\/]typescript\.js$/.test(f));
const tsMorph = (files: string[]) => files.filter((f) => /[\\/]ts-morph[\\/]/.test(f));

function repo(name: string, files: Record<string, string>): string {
  const dir = path.join(work, name);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const PROJECT = {
  'ctrlrun.yaml': 'schema: ctrlrun.policy/v6\nactions:\n  records.read:\n    decision: allow\n',
  'ctrlrun.tools.yaml':
    'schema: ctrlrun.tools/v1\npolicy: ctrlrun.yaml\noutput: src/ctrlrun.generated.ts\ncontrol: src/ctrlrun.control.ts\ntools:\n  - tool: lookup\n    action: records.read\n',
  'src/ctrlrun.control.ts': 'export default {};\n',
  'src/plain.ts': 'export const add = (a: number, b: number) => a + b; // no agent code here\n',
};

describe('start-up: what the check process loads (issue 10 item 10)', () => {
  it('on a repo with no SDK file: no compiler, no ts-morph, no other command (SQLite driver)', () => {
    const dir = repo('plain', PROJECT);
    const r = loaded(['check', '--format', 'json'], dir);
    expect(r.code, r.stderr).not.toBe(null);
    expect(compiler(r.files)).toEqual([]);
    expect(tsMorph(r.files)).toEqual([]);
    expect(r.files.filter((f) => f.includes('better-sqlite3'))).toEqual([]);
    // the list is the process's own: the probe itself is in it (the CLI's bundle and the packages it
    // inlines are ES modules, not listed; the next test shows a later require is)
    expect(r.files).toContain(PROBE);
  });

  it('on a repo with an SDK file: the compiler is loaded (by require), still no ts-morph', () => {
    const dir = repo('sdk', {
      ...PROJECT,
      'src/agent.ts':
        "import { tool } from '@openai/agents';\nimport { z } from 'zod';\nexport const lookup = tool({ name: 'lookup', description: 'd', parameters: z.object({ id: z.string() }), execute: async () => 'x' });\n",
    });
    const r = loaded(['check', '--format', 'json'], dir);
    expect(r.code, r.stderr).toBe(1);
    expect(compiler(r.files)).toHaveLength(1);
    expect(tsMorph(r.files)).toEqual([]);
    // a plain check runs from its own CommonJS file (cached by V8 on Node 20); a check through yargs does not
    expect(r.files.filter((f) => f.endsWith('plain-check.cjs'))).toHaveLength(1);
    const viaYargs = loaded(['check', '--format', 'json', '--max-findings', '10'], dir);
    expect(viaYargs.code, viaYargs.stderr).toBe(1);
    expect(viaYargs.files.filter((f) => f.endsWith('plain-check.cjs'))).toEqual([]);
  });

  it('a plain check loads node:child_process only to ask git, and never node:worker_threads (issue 40, item 8)', () => {
    // Node's own list of the builtins it loaded (`process.moduleLoadList`), read at exit.
    const probe = path.join(work, 'builtins.cjs');
    writeFileSync(probe, "process.on('exit', () => require('node:fs').writeFileSync(process.env.PROBE_OUT, JSON.stringify(process.moduleLoadList)));\n");
    const dir = repo('builtins', {
      ...PROJECT,
      'src/agent.ts': "import { tool } from '@openai/agents';\nexport const lookup = tool({ name: 'lookup', description: 'd', execute: async () => 'x' });\n",
    });
    const some = ['NativeModule child_process', 'NativeModule worker_threads'];
    const builtins = (args: string[]) => {
      const out = path.join(work, `builtins-${Math.random().toString(36).slice(2)}.json`);
      const r = spawnSync(process.execPath, ['--require', probe, CLI_BIN, ...args], {
        cwd: dir,
        env: { ...process.env, NO_COLOR: '1', PROBE_OUT: out },
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(r.status, r.stderr).toBe(1);
      const loadedNow = (JSON.parse(readFileSync(out, 'utf8')) as string[]).filter((m) => some.includes(m));
      return { loadedNow, stdout: r.stdout };
    };
    const outside = builtins(['check', '--format', 'json']);
    expect(outside.loadedNow).toEqual([]);
    // in a git work tree the listing asks git (ls-files): the same findings, child_process loaded for it
    const git = (args: string[]) => spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
    expect(git(['init', '-q']).status).toBe(0);
    expect(git(['add', '-A']).status).toBe(0);
    const inside = builtins(['check', '--format', 'json']);
    expect(inside.loadedNow).toEqual(['NativeModule child_process']);
    expect(inside.stdout).toBe(outside.stdout);
  });

  it("a plain check never builds node:fs's ES module view: neither its streams nor its promises load (issue 40, item 8)", () => {
    // An ES module importing node:fs makes Node read every export of it, lazy ones included, which
    // loads the file streams and fs/promises; the launcher's modules take node:fs as CommonJS.
    const probe = path.join(work, 'fs-builtins.cjs');
    writeFileSync(probe, "process.on('exit', () => require('node:fs').writeFileSync(process.env.PROBE_OUT, JSON.stringify(process.moduleLoadList)));\n");
    const dir = repo('fs-view', PROJECT);
    const out = path.join(work, `fs-builtins-${Math.random().toString(36).slice(2)}.json`);
    const r = spawnSync(process.execPath, ['--require', probe, CLI_BIN, 'check', '--format', 'json'], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', PROBE_OUT: out },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.stdout).toContain('"findings"');
    const list = JSON.parse(readFileSync(out, 'utf8')) as string[];
    expect(list).toContain('NativeModule fs');
    expect(list.filter((m) => m === 'NativeModule internal/fs/streams' || m === 'NativeModule internal/fs/promises')).toEqual([]);
  });

  it('a plain codemod runs from its own CommonJS file, no yargs; through yargs it prints the same', () => {
    const dir = repo('codemod', {
      ...PROJECT,
      'src/agent.ts': "import { tool } from '@openai/agents';\nexport const lookup = tool({ name: 'lookup', description: 'd', execute: async () => 'x' });\n",
    });
    const plain = loaded(['codemod', '--format', 'json'], dir);
    expect(plain.files.filter((f) => f.endsWith('plain-codemod.cjs'))).toHaveLength(1);
    expect(plain.files.filter((f) => f.endsWith('plain-check.cjs'))).toEqual([]);
    // `--no-write` is yargs' to parse (issue 40, item 8)
    const viaYargs = loaded(['codemod', '--format', 'json', '--no-write'], dir);
    expect(viaYargs.files.filter((f) => f.endsWith('plain-codemod.cjs'))).toEqual([]);
    expect([plain.code, plain.stderr]).toEqual([viaYargs.code, viaYargs.stderr]);
    const run = (args: string[]) => spawnSync(process.execPath, [CLI_BIN, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    const a = run(['codemod', '--format', 'json']);
    const b = run(['codemod', '--format', 'json', '--no-write']);
    expect(a.stdout).toContain('"rewritten"');
    expect([a.status, a.stdout, a.stderr]).toEqual([b.status, b.stdout, b.stderr]);
  });

  it('a plain check lists and reads the repo on the main thread (--debug says so), as a check through yargs does', () => {
    const dir = repo('thread', {
      ...PROJECT,
      'src/agent.ts': "import { tool } from '@openai/agents';\nexport const lookup = tool({ name: 'lookup', description: 'd', execute: async () => 'x' });\n",
    });
    const plain = spawnSync(process.execPath, [CLI_BIN, 'check', '--format', 'json', '--debug'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    // no reading thread (issue 40, item 8: its Node bootstrap cost more CPU than its overlap saved)
    expect(plain.stderr).toContain('debug: the repo was listed and read on the main thread (3 files)');
    // through yargs (an option the plain path does not take)
    const viaYargs = spawnSync(process.execPath, [CLI_BIN, 'check', '--format', 'json', '--debug', '--max-findings', '100'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(viaYargs.stderr).toContain('debug: the repo was listed and read on the main thread (3 files)');
    expect(JSON.parse(plain.stdout)).toEqual(JSON.parse(viaYargs.stdout));
    expect(plain.status).toBe(1);
  });

  it('--version loads no compiler', () => {
    const r = loaded(['--version'], work);
    expect(r.code).toBe(0);
    const v = spawnSync(process.execPath, [CLI_BIN, '-V'], { encoding: 'utf8' });
    expect(v.stdout).toBe(`${JSON.parse(readFileSync(path.join(CLI_BIN, '../../../package.json'), 'utf8')).version}\n`);
    expect(v.status).toBe(0);
    expect(compiler(r.files)).toEqual([]);
  });
});

describe('soleCommand: only the command that runs is loaded', () => {
  it('names the command when argv runs one of ours', () => {
    expect(soleCommand(['check'])).toBe('check');
    expect(soleCommand(['--cwd', 'check', 'codemod', '--write'])).toBe('codemod');
    expect(soleCommand(['--debug', 'approvals', 'list'])).toBe('approvals');
    expect(soleCommand(['check', '--help'])).toBe('check');
  });

  it('is undefined when help may list every command (no command, an unknown one)', () => {
    expect(soleCommand([])).toBeUndefined();
    expect(soleCommand(['--help'])).toBeUndefined();
    expect(soleCommand(['chek'])).toBeUndefined();
    expect(soleCommand(['--', 'check'])).toBeUndefined();
  });
});
