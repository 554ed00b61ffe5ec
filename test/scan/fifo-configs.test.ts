import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

// Issue 40 item 1: a FIFO where a config file is expected is read as unreadable, never waited on.
// Each read runs in a child process with a timeout (a read that waits blocks its thread for good):
// the built scanner, as the CLI loads it.
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function inChild(script: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}
const dist = (file: string) => pathToFileURL(path.join(REPO_ROOT, 'dist', file)).href;

describe('config files that are FIFOs', () => {
  it("the tsc build's configs (tsc -p, and a FIFO base it extends): no program, no wait", () => {
    const dir = makeTempDir('fifo-config-');
    dirs.push(dir);
    writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'x', scripts: { build: 'tsc -p tsconfig.build.json' } }),
      'tsconfig.json': JSON.stringify({ extends: './base.json', compilerOptions: { outDir: 'dist' }, include: ['src'] }),
      'src/a.ts': 'export const a = 1;\n',
    });
    execFileSync('mkfifo', [path.join(dir, 'tsconfig.build.json'), path.join(dir, 'base.json')]);
    const r = inChild(
      `import { tscPrograms } from '${dist('scan/tsc-build.js')}';
       const dir = ${JSON.stringify(dir)};
       const fifo = tscPrograms(dir).length;
       const { rmSync } = await import('node:fs');
       rmSync(dir + '/package.json');
       console.log(JSON.stringify({ fifo, base: tscPrograms(dir).map((p) => p.files.size) }));`,
    );
    expect(r.status, r.out).toBe(0);
    // the build's own config a FIFO: no program; tsconfig.json read, its FIFO base left out (an error
    // tsc reports itself): its one source file
    expect(JSON.parse(r.out)).toEqual({ fifo: 0, base: [1] });
  });

  it('readConfigText: undefined for a FIFO, the text of a file', () => {
    const dir = makeTempDir('fifo-text-');
    dirs.push(dir);
    writeFiles(dir, { 'a.json': '{"x": 1}' });
    execFileSync('mkfifo', [path.join(dir, 'b.json')]);
    const r = inChild(
      `import { readConfigText } from '${dist('scan/tsconfig.js')}';
       console.log(JSON.stringify([readConfigText(${JSON.stringify(path.join(dir, 'a.json'))}), readConfigText(${JSON.stringify(path.join(dir, 'b.json'))}) ?? null]));`,
    );
    expect(r.status, r.out).toBe(0);
    expect(JSON.parse(r.out)).toEqual(['{"x": 1}', null]);
  });

  it("the installed SDK's package.json a FIFO: no version read, no wait", () => {
    const dir = makeTempDir('fifo-sdk-');
    dirs.push(dir);
    writeFiles(dir, { 'package.json': JSON.stringify({ name: 'x', dependencies: { '@openai/agents': '0.20.0' } }) });
    const sdkDir = path.join(dir, 'node_modules/@openai/agents');
    execFileSync('mkdir', ['-p', sdkDir]);
    execFileSync('mkfifo', [path.join(sdkDir, 'package.json')]);
    const r = inChild(
      `import { findInstalledSdk } from '${dist('scan/sdk-version.js')}';
       console.log(JSON.stringify(findInstalledSdk(${JSON.stringify(dir)})?.version ?? null));`,
    );
    expect(r.status, r.out).toBe(0);
    expect(JSON.parse(r.out)).toBe('');
  });
});
