import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Model } from '@openai/agents';
import { UnixLocalSandboxClient } from '@openai/agents/sandbox/local';
import { functionCall, ScriptedModel } from '@openai/agents/testing';
import type { CompiledPolicy, DecisionResult } from '../../src/runtime/index.js';

/**
 * For the sandbox door's tests (test/runtime/sandbox.test.ts): a compiled policy of the two
 * capability actions, the model's calls as strict mode writes them, and a real workspace of the
 * SDK's local sandbox client (each command a real process in a temp folder).
 */

const matched = (decision: DecisionResult['decision'], rule: number): DecisionResult => ({ decision, rule, reason: `rule[${rule}]` });
const str = (args: unknown, name: string) =>
  args && typeof args === 'object' && typeof (args as Record<string, unknown>)[name] === 'string'
    ? ((args as Record<string, unknown>)[name] as string)
    : undefined;

/**
 * box.exec (exec_command): `cmd` starting `rm ` deny; `pwd`, `ls` or starting `echo hi` allow; anything
 * else approve. box.patch (apply_patch): a path naming `.env` deny; a create under `docs/` allow;
 * anything else approve. deny.all: deny. The manifest maps exec_command and apply_patch of every
 * SandboxAgent, and `deploy` (a tool a configureTools adds) to deny.all; write_stdin stays unmapped.
 */
export function sandboxPolicy(): CompiledPolicy {
  const action = (id: string, decide: (args: unknown) => DecisionResult) => ({ id, decide, controls: [], approvalsRequired: 1, maxAttempts: 1 });
  return {
    hash: `sha256:${'e'.repeat(64)}`,
    mode: 'enforce',
    environment: 'test',
    actions: {
      'box.exec': action('box.exec', (args) => {
        const cmd = str(args, 'cmd');
        if (cmd === undefined) return matched('deny', 3);
        if (cmd.startsWith('rm ')) return matched('deny', 1);
        if (cmd === 'pwd' || cmd === 'ls' || cmd.startsWith('echo hi')) return matched('allow', 0);
        return matched('approve', 2);
      }),
      'box.patch': action('box.patch', (args) => {
        const p = str(args, 'path');
        if (p === undefined) return matched('deny', 3);
        if (p.includes('.env')) return matched('deny', 1);
        if (str(args, 'operation') === 'create_file' && p.startsWith('docs/')) return matched('allow', 0);
        return matched('approve', 2);
      }),
      'deny.all': action('deny.all', () => matched('deny', 0)),
    },
    tools: {},
    sandbox: { tools: { exec_command: 'box.exec', apply_patch: 'box.patch', deploy: 'deny.all' } },
  } as CompiledPolicy;
}

/** A model call of `exec_command` as strict mode writes it (every property, the optional ones null). */
export const execCall = (callId: string, cmd: string) =>
  functionCall('exec_command', { cmd, workdir: null, shell: null, login: false, tty: false, yield_time_ms: 2000, max_output_tokens: null }, { callId });

export const patchCall = (callId: string, operation: { type: string; path: string; diff?: string }) => ({
  type: 'apply_patch_call' as const,
  callId,
  status: 'completed' as const,
  operation,
});

/** A scripted model the sandbox takes for Chat Completions: its filesystem gives `apply_patch` as a function tool. */
export class ScriptedChatCompletionsModel extends ScriptedModel {}

/** A live session of the SDK's local sandbox client in its own temp workspace (closed by `close`). */
export async function localSandbox() {
  const session = await new UnixLocalSandboxClient().create({});
  const root = (session.state as unknown as { workspaceRootPath: string }).workspaceRootPath;
  return {
    session,
    root,
    has: (file: string) => existsSync(path.join(root, file)),
    read: (file: string) => readFileSync(path.join(root, file), 'utf8'),
    close: async () => {
      await (session as { close?: () => Promise<void> }).close?.();
    },
  };
}

/** What the model was sent back for a call, as JSON text (a function call's result or an apply_patch output). */
export function outputSeen(model: Model & { calls: ReadonlyArray<{ request: { input: unknown } }> }, index: number, callId: string): string {
  const input = model.calls[index]?.request.input;
  const item = Array.isArray(input)
    ? input.find((i) => (i as { callId?: string }).callId === callId && /_output$|_result$/.test(String((i as { type?: string }).type)))
    : undefined;
  return JSON.stringify(item ?? null);
}
