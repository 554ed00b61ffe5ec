import type { CommandSpec } from '../context.js';

/**
 * Every command of SPEC §8, in the order `--help` lists them, each loaded only when needed: a
 * command's module (and what it imports: the scanner, the stores, the server…) is imported when that
 * command runs, so `check` does not pay for `serve` at start-up.
 */
export const commandLoaders: ReadonlyArray<{ name: string; load: () => Promise<CommandSpec<any>> }> = [
  { name: 'init', load: async () => (await import('./init.js')).initCommand },
  { name: 'validate', load: async () => (await import('./validate.js')).validateCommand },
  { name: 'generate', load: async () => (await import('./generate.js')).generateCommand },
  { name: 'codemod', load: async () => (await import('./codemod.js')).codemodCommand },
  { name: 'check', load: async () => (await import('./check.js')).checkCommand },
  { name: 'explain', load: async () => (await import('./explain.js')).explainCommand },
  { name: 'approvals', load: async () => (await import('./approvals.js')).approvalsCommand },
  { name: 'grants', load: async () => (await import('./grants.js')).grantsCommand },
  { name: 'effects', load: async () => (await import('./effects.js')).effectsCommand },
  { name: 'receipts', load: async () => (await import('./receipts.js')).receiptsCommand },
  { name: 'halts', load: async () => (await import('./halts.js')).haltsCommand },
  { name: 'operators', load: async () => (await import('./operators.js')).operatorsCommand },
  { name: 'serve', load: async () => (await import('./serve.js')).serveCommand },
  { name: 'stats', load: async () => (await import('./stats.js')).statsCommand },
  { name: 'mcp-operator', load: async () => (await import('./mcp-operator.js')).mcpOperatorCommand },
  { name: 'test', load: async () => (await import('./test.js')).testCommand },
  { name: 'replay', load: async () => (await import('./replay.js')).replayCommand },
  { name: 'diff', load: async () => (await import('./diff.js')).diffCommand },
  { name: 'demo', load: async () => (await import('./demo.js')).demoCommand },
];

/** Every command, loaded (for the top-level help, and tests). */
export async function loadCommands(): Promise<CommandSpec<any>[]> {
  return Promise.all(commandLoaders.map((c) => c.load()));
}

/**
 * The command `argv` runs when it is one of ours and nothing in argv can print the list of commands
 * (help, or a usage error): then only that command needs loading. Undefined otherwise (load them all).
 */
export function soleCommand(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') return undefined;
    if (arg === '--cwd') {
      i++;
      continue;
    }
    if (arg.startsWith('-')) continue;
    return commandLoaders.some((c) => c.name === arg) ? arg : undefined;
  }
  return undefined;
}
