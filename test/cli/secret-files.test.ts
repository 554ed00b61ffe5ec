import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { CLI_BIN } from '../helpers/paths.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';

// Issue 14.5: a pull request that points the manifest's `policy:` (or `--manifest`) at a secret
// must not get the secret's lines printed in the CI log, and a device or FIFO must not hang the run.
// Each command runs as a child process with a short timeout (the old code hung on /dev/zero
// synchronously, which no in-process timeout could stop), with a marker in its environment.

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const SECRET = 'hunter2-do-not-print-4f1c';
const COMMANDS = [['validate'], ['generate', '--check'], ['check'], ['explain', 'stripe.refund'], ['codemod']];
const STACK = /^\s+at .*[(\s]\S+:\d+:\d+\)?$/m;

/** The sample repo as its own git work tree (the repository's root), with `policy:` replaced. */
function repo(policyLine: string | undefined, setup?: (dir: string) => void): string {
  const dir = copyFixture('refund-desk', 'secret-');
  dirs.push(dir);
  execFileSync('git', ['init', '-q'], { cwd: dir });
  setup?.(dir);
  if (policyLine !== undefined) {
    const manifest = path.join(dir, 'ctrlrun.tools.yaml');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace(/^policy:.*$/m, `policy: ${policyLine}`));
  }
  return dir;
}

/** In process: the leaking cases did not hang, they printed. */
async function expectRefusedQuietly(dir: string, args: string[], located: RegExp, secretLine: string) {
  const r = await cli(args, { cwd: dir });
  const out = `${r.stdout}${r.stderr}`;
  expect(r.code, out).toBe(2);
  expect(out).toMatch(located);
  expect(out).not.toContain(SECRET);
  expect(out).not.toContain(secretLine);
  expect(out).not.toMatch(STACK);
  expect(out).not.toMatch(/internal error/);
  return out;
}

/** As a child process with a short timeout: the old code hung synchronously on a device or FIFO. */
function expectNoHang(dir: string, args: string[], located: RegExp) {
  const r = spawnSync(process.execPath, [CLI_BIN, ...args], { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, encoding: 'utf8', timeout: 30_000 });
  const out = `${r.stdout}${r.stderr}`;
  expect(r.signal, `${args.join(' ')} hung`).toBeNull();
  expect(r.status, out).toBe(2);
  expect(out).toMatch(located);
  expect(out).not.toMatch(STACK);
}

describe('secret files named as a policy or manifest (issue 14.5)', () => {
  it('policy: /proc/self/environ (and a symlink in the repo to it) is refused at the manifest line, unread, by every command', async () => {
    for (const dir of [repo('/proc/self/environ'), repo('env-link', (d) => symlinkSync('/proc/self/environ', path.join(d, 'env-link')))]) {
      for (const args of COMMANDS) {
        const out = await expectRefusedQuietly(dir, args, /ctrlrun\.tools\.yaml.*3:9/s, 'PATH=');
        expect(out).toContain('outside the repository');
      }
    }
  });

  it('a key outside the repository is not read, even by a relative path', async () => {
    const outside = copyFixture('refund-desk', 'secret-outside-');
    dirs.push(outside);
    writeFileSync(path.join(outside, 'id_ed25519'), `-----BEGIN OPENSSH PRIVATE KEY-----\n${SECRET}\n-----END OPENSSH PRIVATE KEY-----\n`);
    const dir = repo(`../${path.basename(outside)}/id_ed25519`);
    for (const args of COMMANDS) await expectRefusedQuietly(dir, args, /outside the repository/, 'BEGIN OPENSSH');
  });

  it('a .env in the repository named as the policy: one located error, no line of it printed', async () => {
    const dir = repo('.env', (d) => writeFileSync(path.join(d, '.env'), `SECRET_TOKEN=${SECRET}\nOTHER=1\n`));
    for (const args of COMMANDS) {
      const out = await expectRefusedQuietly(dir, args, /\.env.*1:1/s, 'SECRET_TOKEN');
      expect(out).toContain('not a ctrlrun policy');
    }
  });

  it('--manifest or --policy naming a secret file: no line of it printed; /proc refused as a system file', async () => {
    const dir = repo(undefined, (d) => writeFileSync(path.join(d, 'secrets.yaml'), `aws_secret_access_key: ${SECRET}\n`));
    for (const args of [['validate'], ['generate', '--check'], ['check']]) {
      const out = await expectRefusedQuietly(dir, [...args, '--manifest', 'secrets.yaml'], /secrets\.yaml/, 'aws_secret_access_key');
      expect(out).toContain('not a ctrlrun manifest');
      await expectRefusedQuietly(dir, [...args, '--policy', 'secrets.yaml'], /not a ctrlrun policy/, 'aws_secret_access_key');
      await expectRefusedQuietly(dir, [...args, '--policy', '/proc/self/environ'], /system file/, 'PATH=');
    }
  });

  it('a FIFO or /dev/zero as the policy does not hang and is refused before reading', () => {
    const fifo = repo('pipe.yaml', (d) => execFileSync('mkfifo', [path.join(d, 'pipe.yaml')]));
    for (const args of [['validate'], ['generate', '--check'], ['check']]) expectNoHang(fifo, args, /pipe\.yaml.*named pipe/s);
    const zero = repo('/dev/zero');
    expectNoHang(zero, ['validate'], /outside the repository/);
    expectNoHang(zero, ['check', '--policy', '/dev/zero'], /system file/);
  });
});
