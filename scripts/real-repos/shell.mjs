// Running commands for the real-repos loop: one place that spawns, times, logs and bounds them.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

/** The environment a command of the loop runs in: the chosen Node first on PATH, nothing interactive, no model key. */
export function envFor(node) {
  const bin = path.dirname(node);
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (/^(OPENAI_|CTRLRUN_)/.test(key)) delete env[key];
  return {
    ...env,
    PATH: `${bin}${path.delimiter}${env.PATH ?? ''}`,
    // native modules build against the Node that runs them
    npm_config_nodedir: path.dirname(bin),
    CI: '1',
    NEXT_TELEMETRY_DISABLED: '1',
    ASTRO_TELEMETRY_DISABLED: '1',
    DO_NOT_TRACK: '1',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    COREPACK_ENABLE_STRICT: '0',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_yes: 'true',
  };
}

/**
 * Runs `cmd args` (or a shell line when `args` is a string) in `cwd`, appending its output to `log`.
 * Never throws: a command that cannot start or runs past `timeout` seconds is an exit of its own.
 */
export function run(cmd, args, { cwd, env, timeout = 900, log }) {
  const started = Date.now();
  const shellLine = typeof args === 'string';
  const r = spawnSync(shellLine ? 'bash' : cmd, shellLine ? ['-c', `${cmd} ${args}`.trim()] : args, {
    cwd,
    env,
    encoding: 'utf8',
    timeout: timeout * 1000,
    killSignal: 'SIGKILL',
    maxBuffer: 256 * 1024 * 1024,
  });
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  const stdout = r.stdout ?? '';
  const stderr = r.stderr ?? '';
  const timedOut = r.error?.code === 'ETIMEDOUT' || (r.signal === 'SIGKILL' && seconds >= timeout);
  const exit = r.status ?? (timedOut ? 'timeout' : r.signal ? `signal ${r.signal}` : `error ${r.error?.code ?? '?'}`);
  if (log) {
    mkdirSync(path.dirname(log), { recursive: true });
    const line = shellLine ? `${cmd} ${args}` : [cmd, ...args].join(' ');
    appendFileSync(log, `\n$ (cd ${cwd} && ${line})\n${stdout}${stderr ? `\n[stderr]\n${stderr}` : ''}\n[exit ${exit} in ${seconds}s]\n`);
  }
  return { exit, seconds, stdout, stderr, timedOut };
}

/** `git` in `dir` with a fixed identity (the loop commits as a user would before `codemod --write`). */
export function git(dir, args, env) {
  return run('git', ['-c', 'user.email=loop@example.com', '-c', 'user.name=loop', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, env, timeout: 300 });
}
