import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_BIN } from '../helpers/paths.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

/** Starts `ctrlrun-gen serve --port 0` (the built CLI, as a user's shell would) and resolves with its first stdout line, then stops it. */
function serveOnce(cwd: string, extra: string[] = []): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_BIN, 'serve', '--port', '0', ...extra], { cwd, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    let stopping = false;
    child.stdout.on('data', (d: Buffer) => {
      stdout += String(d);
      // one SIGTERM only: serve's lines may arrive in two chunks, and a second signal while it
      // closes is the user's "stop now" (the default action, no exit code)
      if (!stopping && stdout.includes('Serving')) {
        stopping = true;
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    child.on('close', (code) => resolve({ stdout, stderr, code }));
  });
}

describe('ctrlrun-gen serve (the command)', () => {
  it("creates the project's SQLite store when there is none yet: a browser agent's only store is serve's", async () => {
    const dir = copyFixture('refund-desk', 'serve-cmd-');
    dirs.push(dir);
    expect(existsSync(path.join(dir, '.ctrlrun/state.db'))).toBe(false);
    const r = await serveOnce(dir);
    expect(r.stdout, r.stderr).toMatch(/Serving the approvals inbox on http:\/\/127\.0\.0\.1:\d+\/ \(store sqlite:\.ctrlrun\/state\.db\)/);
    expect(r.code).toBe(0); // SIGTERM stops it cleanly
    expect(existsSync(path.join(dir, '.ctrlrun/state.db'))).toBe(true);
  });

  it('refuses a --cors-origin that is not an origin with exit 2, before opening anything', async () => {
    const dir = copyFixture('refund-desk', 'serve-cmd-');
    dirs.push(dir);
    const r = await serveOnce(dir, ['--cors-origin', '*']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--cors-origin "\*": not a web origin/);
    expect(existsSync(path.join(dir, '.ctrlrun'))).toBe(false);
  });
});
