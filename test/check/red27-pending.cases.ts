/**
 * Red team, session 27 (issue 40, "no false green"): apps where `check` is silent though a door is
 * open, or though the app answers a protected tool's interruption through the SDK. Each case is a
 * small repo (path → text) and the finding `check` should give; every one of them is silent today
 * (checked by probes against the test project of rule-tester.ts: `refund` → stripe.refund,
 * `lookup_charge` → stripe.charge.read, `close_account` → accounts.close). They are data, not tests,
 * so CI stays green until the readers learn them (docs/DECISIONS.md, "Session 27: red team").
 *
 * To turn one into a test once it is fixed (in a `*.test.ts` of this folder):
 *
 *   import { lintRepo, testProject } from './rule-tester.js';
 *   import { RED27_PENDING } from './red27-pending.cases.js';
 *   for (const c of RED27_PENDING)
 *     it(c.name, () => {
 *       const found = lintRepo(c.files, { project: testProject(), ruleId: c.expect.ruleId, file: c.expect.file });
 *       expect(found.map((f) => f.line)).toContain(c.expect.line);
 *     });
 *
 * Today every such test fails with `[]`: nothing is reported.
 */

import { lines } from './rule-tester.js';

export interface PendingCase {
  name: string;
  /** The gap's letter in docs/DECISIONS.md ("Session 27: red team (issue 40)"). */
  gap: 'G' | 'I';
  /** How likely a real app is to write it. */
  likelihood: 'high' | 'medium' | 'low';
  /** The repo: path → source text. */
  files: Record<string, string>;
  /** The finding check should give (today: none). */
  expect: { ruleId: string; file: string; line: number };
}

/** Gap G: a door in a module git ignores (generated at build time), imported by a module check reads. */
const ignoredModules: PendingCase[] = [
  {
    name: 'a mapped `tool()` in a git-ignored generated module, pushed onto an agent by a checked one',
    gap: 'G',
    likelihood: 'medium',
    files: {
      '.gitignore': 'src/gen/\n',
      'src/gen/wire.ts': lines(
        "import { tool } from '@openai/agents';",
        "import { z } from 'zod';",
        "export const wire = tool({ name: 'refund', description: 'From the OpenAPI spec', parameters: z.object({ payment_id: z.string(), amount: z.number() }), execute: async () => 'sent', errorFunction: null });",
      ),
      'src/agent.ts': lines(
        "import { Agent } from '@openai/agents';",
        "import { wire } from './gen/wire.js';",
        "export const desk = new Agent({ name: 'desk', instructions: 'Help with payments.', tools: [wire] });",
      ),
    },
    expect: { ruleId: 'unprotected-tool', file: 'src/gen/wire.ts', line: 3 },
  },
];

/** An edge function (Supabase, Deno Deploy) of the repo, its SDK imported by the runtime's own specifier. */
const edgeFunction = (specifier: string): Record<string, string> => ({
  'supabase/functions/agent/index.ts': lines(
    `import { Agent, run, tool } from '${specifier}';`,
    "import { z } from 'npm:zod@3';",
    '',
    'const refund = tool({',
    "  name: 'refund',",
    "  description: 'Refund a payment',",
    '  parameters: z.object({ payment_id: z.string(), amount: z.number() }),',
    '  execute: async ({ payment_id }) => `refunded ${payment_id}`,',
    '});',
    "const agent = new Agent({ name: 'desk', instructions: 'Help.', tools: [refund] });",
    'Deno.serve(async (req) => new Response(String((await run(agent, await req.lines())).finalOutput)));',
  ),
});
const edgeTool = { ruleId: 'unprotected-tool', file: 'supabase/functions/agent/index.ts', line: 4 };

/** Gap I: the SDK imported by a Deno `npm:` specifier or a CDN URL is not the SDK to check. */
const edgeSpecifiers: PendingCase[] = [
  {
    name: 'a Deno edge function importing `npm:@openai/agents@0.20.0`',
    gap: 'I',
    likelihood: 'medium',
    files: edgeFunction('npm:@openai/agents@0.20.0'),
    expect: edgeTool,
  },
  {
    name: 'a Deno edge function importing `npm:@openai/agents` (no version)',
    gap: 'I',
    likelihood: 'medium',
    files: edgeFunction('npm:@openai/agents'),
    expect: edgeTool,
  },
  {
    name: 'an edge function importing the SDK from a CDN URL (`https://esm.sh/@openai/agents@0.20.0`)',
    gap: 'I',
    likelihood: 'low',
    files: edgeFunction('https://esm.sh/@openai/agents@0.20.0'),
    expect: edgeTool,
  },
];

/** Every pending case, by gap (most likely gap first), most likely first within each gap. */
export const RED27_PENDING: readonly PendingCase[] = [
  // gaps B to F are tests now: test/check/red28-tamper.test.ts (B, C, D), red28-literal-doors.test.ts (E, F)
  ...ignoredModules,
  ...edgeSpecifiers,
];

/**
 * Cases that need the CLI (a git work tree, `init`, `generate`, `codemod --write`, or check run in
 * one package of a workspace): write `files` to a temp folder (with `node_modules` linking the SDK,
 * zod and ctrlrun-gen, and each workspace package as test/helpers' workspace writers do), `git init`
 * and commit, run `steps` in order in `cwd` (each a ctrlrun-gen command, committing after it), then
 * the last command; today it gives `now`, it should give `expect`.
 */
export interface PendingCliCase {
  name: string;
  gap: 'H';
  likelihood: 'high' | 'medium' | 'low';
  files: Record<string, string>;
  /** The folder the commands run in, relative to the repo's top. */
  cwd: string;
  /** ctrlrun-gen commands run first, in order. */
  steps: string[][];
  /** The command whose answer is wrong. */
  command: string[];
  now: string;
  expect: string;
}

const PKG = JSON.stringify({ name: 'app', private: true, type: 'module', dependencies: { '@openai/agents': '0.20.0', zod: '*' } });
const TSCONFIG = JSON.stringify({
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true },
  include: ['src'],
});

export const RED27_PENDING_CLI: readonly PendingCliCase[] = [
  // gap A's case (the codemod and a computed key) is a test now: test/codemod/computed-key-answers.test.ts
  {
    name: 'check in the package that holds the manifest, whose agent uses a raw tool() of a workspace dependency',
    gap: 'H',
    likelihood: 'medium',
    files: {
      'package.json': JSON.stringify({ name: 'ws', private: true, type: 'module', workspaces: ['packages/*'] }),
      'packages/extra/package.json': JSON.stringify({
        name: 'extra',
        version: '1.0.0',
        type: 'module',
        main: 'src/index.ts',
        dependencies: { '@openai/agents': '0.20.0', zod: '*' },
      }),
      'packages/extra/src/index.ts': lines(
        "import { tool } from '@openai/agents';",
        "import { z } from 'zod';",
        "export const wire = tool({ name: 'wire_money', description: 'Wire money', parameters: z.object({ to: z.string(), amount: z.number() }), errorFunction: null, execute: async () => 'sent' });",
      ),
      'packages/agents/package.json': JSON.stringify({
        name: 'agents',
        version: '1.0.0',
        type: 'module',
        dependencies: { '@openai/agents': '0.20.0', zod: '*', extra: 'workspace:*' },
      }),
      'packages/agents/tsconfig.json': TSCONFIG,
      'packages/agents/src/agent.ts': lines(
        "import { Agent, run, tool, setTracingDisabled } from '@openai/agents';",
        "import { z } from 'zod';",
        "import { wire } from 'extra';",
        'setTracingDisabled(true);',
        "export const refund = tool({ name: 'refund', description: 'Refund', parameters: z.object({ payment_id: z.string(), amount: z.number() }), execute: async ({ payment_id }) => payment_id });",
        "export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [refund, wire] });",
        "export const go = (input: string) => run(desk, input, { context: { user: 'u1' } });",
      ),
    },
    cwd: 'packages/agents',
    steps: [['init'], ['generate'], ['codemod', '--write']],
    command: ['check'],
    now: "exit 0, 'no findings (2 file(s) considered)'; init said 'Found 1 new tool name' and the codemod '0 unmapped' (check at the top reports wire_money and exits 2: extra has no manifest)",
    expect:
      "exit 1: the raw tool 'wire_money' of `extra` reaches `desk`'s tools (unprotected-tool or unmapped-tool, at ../extra/src/index.ts:3 or at the import, src/agent.ts:3)",
  },
  {
    name: 'check in the folder that holds the manifest, whose agent imports a raw tool() from a sibling folder by a relative path (no workspace)',
    gap: 'H',
    likelihood: 'medium',
    files: {
      'shared/src/index.ts': lines(
        "import { tool } from '@openai/agents';",
        "import { z } from 'zod';",
        "export const wire = tool({ name: 'wire_money', description: 'Wire money', parameters: z.object({ to: z.string(), amount: z.number() }), errorFunction: null, execute: async () => 'sent' });",
      ),
      'agents/package.json': PKG,
      'agents/tsconfig.json': TSCONFIG,
      'agents/src/agent.ts': lines(
        "import { Agent, run, tool, setTracingDisabled } from '@openai/agents';",
        "import { z } from 'zod';",
        "import { wire } from '../../shared/src/index.js';",
        'setTracingDisabled(true);',
        "export const refund = tool({ name: 'refund', description: 'Refund', parameters: z.object({ payment_id: z.string(), amount: z.number() }), execute: async ({ payment_id }) => payment_id });",
        "export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [refund, wire] });",
        "export const go = (input: string) => run(desk, input, { context: { user: 'u1' } });",
      ),
    },
    cwd: 'agents',
    steps: [['init'], ['generate'], ['codemod', '--write']],
    command: ['check'],
    now: "exit 0, 'no findings (2 file(s) considered)'",
    expect: "exit 1: the raw tool 'wire_money' of ../shared reaches `desk`'s tools (as the workspace case)",
  },
];
