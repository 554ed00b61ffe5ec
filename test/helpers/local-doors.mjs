// Shared by test/runtime/local-tools.test.ts and its child process (test/runtime/children/local-resume.mjs):
// the policy of the shell and apply_patch doors, a real shell (each command runs in a /bin/sh child
// process) and a real editor on a temp directory. Each body run appends one line to a log file.
import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { applyDiff } from '@openai/agents';

const matched = (decision, rule) => ({ decision, rule, reason: `rule[${rule}]` });

/**
 * host.shell: `command` "pwd" or starting "echo " allow; starting "rm " deny; anything else approve.
 * Effect `shell:{command}`.
 * repo.patch: create_file under docs/ allow; a path naming .env deny; anything else approve.
 * Effect `patch:{path}`.
 */
export function localPolicy() {
  const str = (args, name) => (args && typeof args === 'object' && typeof args[name] === 'string' ? args[name] : undefined);
  return {
    hash: 'f'.repeat(64),
    mode: 'enforce',
    environment: 'test',
    actions: {
      'host.shell': {
        id: 'host.shell',
        decide(args) {
          const command = str(args, 'command');
          if (command === undefined) return matched('deny', 3);
          if (command === 'pwd' || command.startsWith('echo ')) return matched('allow', 0);
          if (command.startsWith('rm ')) return matched('deny', 1);
          return matched('approve', 2);
        },
        effect: (args) => (str(args, 'command') ? { ok: true, value: `shell:${str(args, 'command')}` } : { ok: false, arg: 'command' }),
        controls: [],
        approvalsRequired: 1,
        maxAttempts: 1,
      },
      'repo.patch': {
        id: 'repo.patch',
        decide(args) {
          const p = str(args, 'path');
          if (p === undefined) return matched('deny', 3);
          if (p.includes('.env')) return matched('deny', 1);
          if (str(args, 'operation') === 'create_file' && p.startsWith('docs/')) return matched('allow', 0);
          return matched('approve', 2);
        },
        effect: (args) => (str(args, 'path') ? { ok: true, value: `patch:${str(args, 'path')}` } : { ok: false, arg: 'path' }),
        controls: [],
        approvalsRequired: 1,
        maxAttempts: 1,
      },
    },
    tools: {},
  };
}

/** A real shell: each command runs in its own /bin/sh process; every run is logged first. */
export function realShell(logFile, cwd) {
  return {
    async run(action) {
      const output = [];
      for (const command of action.commands) {
        appendFileSync(logFile, `${JSON.stringify({ command, pid: process.pid })}\n`);
        const result = await new Promise((resolve) =>
          execFile('/bin/sh', ['-c', command], { cwd, timeout: 10_000 }, (error, stdout, stderr) =>
            resolve({ stdout, stderr, outcome: { type: 'exit', exitCode: error ? (typeof error.code === 'number' ? error.code : 1) : 0 } }),
          ),
        );
        output.push(result);
      }
      return { output };
    },
  };
}

/** A real editor on `root` (the SDK's applyDiff); every operation is logged first. */
export function realEditor(root, logFile) {
  const target = (p) => {
    const full = path.resolve(root, p);
    if (!full.startsWith(path.resolve(root) + path.sep)) throw new Error(`path escapes the workspace: ${p}`);
    return full;
  };
  const log = (operation) => appendFileSync(logFile, `${JSON.stringify({ type: operation.type, path: operation.path, pid: process.pid })}\n`);
  return {
    async createFile(operation) {
      log(operation);
      const full = target(operation.path);
      mkdirSync(path.dirname(full), { recursive: true });
      writeFileSync(full, applyDiff('', operation.diff, 'create'));
      return { status: 'completed', output: `created ${operation.path}` };
    },
    async updateFile(operation) {
      log(operation);
      const full = target(operation.path);
      writeFileSync(full, applyDiff(readFileSync(full, 'utf8'), operation.diff));
      return { status: 'completed', output: `updated ${operation.path}` };
    },
    async deleteFile(operation) {
      log(operation);
      const full = target(operation.path);
      if (!existsSync(full)) throw new Error(`no such file: ${operation.path}`);
      rmSync(full);
      return { status: 'completed', output: `deleted ${operation.path}` };
    },
  };
}

export const shellCall = (callId, commands) => ({ type: 'shell_call', callId, status: 'completed', action: { commands } });
export const patchCall = (callId, operation) => ({ type: 'apply_patch_call', callId, status: 'completed', operation });
