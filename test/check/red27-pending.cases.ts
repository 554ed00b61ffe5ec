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
  gap: 'I';
  /** How likely a real app is to write it. */
  likelihood: 'high' | 'medium' | 'low';
  /** The repo: path → source text. */
  files: Record<string, string>;
  /** The finding check should give (today: none). */
  expect: { ruleId: string; file: string; line: number };
}

// gaps B to G are tests now: test/check/red28-tamper.test.ts (B, C, D), red28-literal-doors.test.ts (E, F), red28-unlisted-modules.test.ts (G)

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
export const RED27_PENDING: readonly PendingCase[] = [...edgeSpecifiers];

/**
 * Cases that need the CLI (a git work tree, `init`, `generate`, `codemod --write`, or check run in
 * one package of a workspace): write `files` to a temp folder (with `node_modules` linking the SDK,
 * zod and ctrlrun-gen, and each workspace package as test/helpers' workspace writers do), `git init`
 * and commit, run `steps` in order in `cwd` (each a ctrlrun-gen command, committing after it), then
 * the last command; today it gives `now`, it should give `expect`.
 */
export interface PendingCliCase {
  name: string;
  gap: PendingCase['gap'];
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

export const RED27_PENDING_CLI: readonly PendingCliCase[] = [
  // gap A's case (the codemod and a computed key) is a test now: test/codemod/computed-key-answers.test.ts
  // gap H's two cases (check, init and the codemod in the package that holds the manifest, its agent
  // using a raw tool() of a workspace dependency or of a sibling folder) are tests now:
  // test/check/red28-unlisted-modules.test.ts
];
