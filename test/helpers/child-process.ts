import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { REPO_ROOT, requireBuilt } from './paths.js';

/**
 * Runs `script` (a plain ESM file that imports the built runtime) once in a real child process,
 * with `config` as its one JSON argument, and resolves with the first JSON line it printed plus its
 * exit code. The doors' tests resume a saved run this way: another process, its own store handle.
 */
export function runChildJson(script: string, config: object): Promise<Record<string, unknown>> {
  requireBuilt('the child process imports the built runtime', 'dist/runtime/index.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, JSON.stringify(config)], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) reject(new Error(`child exited ${code} without a result; stderr: ${err}`));
      else resolve({ ...JSON.parse(line), code });
    });
  });
}

/** A JSON-lines log (what a test's shell, editor, computer or server wrote), or [] when there is none yet. */
export function jsonLines<T>(file: string): T[] {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as T)
    : [];
}
