import { commitPlan, initSummaryLines, nothingButTestsLines, planInit } from '../../init/run-init.js';
import type { CommandSpec } from '../context.js';

interface InitArgs {
  force?: boolean;
  identity?: string;
  discoverMcp?: boolean;
}

export const initCommand: CommandSpec<InitArgs> = {
  command: 'init',
  describe: "Scan this repo and write ctrlrun.yaml, ctrlrun.tools.yaml and the operator's control in the package that holds the tools",
  builder: (y) =>
    y
      .option('force', {
        type: 'boolean',
        default: false,
        describe: 'Merge into files that already exist: their actions and mappings are kept, new tools are added',
      })
      .option('discover-mcp', {
        type: 'boolean',
        default: false,
        describe:
          "Ask each MCP server the code configures for its tools by starting it (a stdio server's literal command, or an HTTP server on this machine), each for at most 15 s; without it, init maps only the tools of servers defined in this repository",
      })
      .option('identity', {
        type: 'string',
        describe:
          "Who a run acts for, as the control reads it: a key path of the context passed to run() (`userId`, `session.user`), or `env:NAME` for runs no person stands behind. Default: proposed from the code's run() calls, else `user`",
      }),
  examples: [
    ['ctrlrun-gen init', 'Write a policy that asks a human before any tool runs'],
    ['ctrlrun-gen init --force', 'Add the tools found since, keeping every action and mapping already there'],
    ['ctrlrun-gen init --cwd packages/agent', 'One package of a workspace'],
    ['ctrlrun-gen init --identity env:CTRLRUN_PRINCIPAL', 'A script or job: the principal comes from an environment variable'],
    ['ctrlrun-gen init --discover-mcp', "Map the tools of the MCP servers the code starts, as they list them (runs each server's command)"],
  ],
  run: async (args, ctx) => {
    const planned = await planInit({ cwd: ctx.cwd, force: args.force, identity: args.identity, discoverMcp: args.discoverMcp });
    if (planned.kind === 'tests-only') {
      for (const line of nothingButTestsLines(planned.inTests)) ctx.stdout(line);
      return 0;
    }
    for (const line of commitPlan(planned.writes, ctx.cwd)) ctx.stdout(line);
    for (const line of initSummaryLines(planned.plans, planned.summary, ctx.cwd)) ctx.stdout(line);
    return 0;
  },
};
