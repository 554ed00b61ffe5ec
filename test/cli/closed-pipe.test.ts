import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN } from '../helpers/paths.js';
import { copyFixture, filesOf, removeDir } from '../helpers/temp-repo.js';

// `ctrlrun-gen check | head -5`: the reader closes the pipe before the CLI is done printing. The
// command must run to its end and exit with its own code, with no EPIPE stack trace; before the
// fix Node threw the stream's error uncaught (exit 1) wherever the command was, init's writes included.

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));
const env = { ...process.env, NO_COLOR: '1' };

/** The CLI run with its stdout's reader gone before it prints: exit code and stderr. */
function withClosedStdout(args: string[], cwd: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('output to a pipe the reader closed', () => {
  it('check exits with its own code and no EPIPE', async () => {
    const dir = copyFixture('refund-desk', 'closed-pipe-check-');
    dirs.push(dir);
    const open = spawnSync(process.execPath, [CLI_BIN, 'check'], { cwd: dir, env, encoding: 'utf8' });
    expect(open.stdout.length).toBeGreaterThan(0);
    const closed = await withClosedStdout(['check'], dir);
    expect(closed.stderr).not.toContain('EPIPE');
    expect(closed.code).toBe(open.status);
  });

  it('init writes the same files as with the pipe open, and exits 0', async () => {
    const [a, b] = ['closed-pipe-init-a-', 'closed-pipe-init-b-'].map((prefix) => {
      const dir = copyFixture('refund-desk', prefix);
      dirs.push(dir);
      for (const f of ['ctrlrun.yaml', 'ctrlrun.tools.yaml', 'src/ctrlrun.control.ts']) rmSync(path.join(dir, f));
      return dir;
    }) as [string, string];
    const open = spawnSync(process.execPath, [CLI_BIN, 'init'], { cwd: a, env, encoding: 'utf8' });
    expect(open.status, open.stderr).toBe(0);
    const closed = await withClosedStdout(['init'], b);
    expect(closed.stderr).not.toContain('EPIPE');
    expect(closed.code).toBe(0);
    expect(filesOf(b)).toEqual(filesOf(a));
  });
});
