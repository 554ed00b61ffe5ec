import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { createPlugin } from '../../src/eslint/index.js';
import { writeAnsweringWorkspace } from '../helpers/answering-workspace.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { SOURCE_FILES } from './helpers.js';

const dirs: string[] = [];

/** `eslint --fix` with the plugin's recommended config, as a user's flat config has it. */
function fixer(cwd: string): ESLint {
  const plugin = createPlugin();
  return new ESLint({
    cwd,
    fix: true,
    overrideConfigFile: true,
    overrideConfig: [{ files: SOURCE_FILES }, { files: SOURCE_FILES, languageOptions: { parser: tseslint.parser as never } }, plugin.configs.recommended],
  });
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A fresh folder holding the fixtures (folders of fixtures/, in order), with `files` written over them. */
function appFrom(prefix: string, fixtures: readonly string[], files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  for (const f of fixtures) cpSync(path.join(FIXTURES, f), dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

/** The app-approvals app: close_account (the policy pauses it) and lookup_charge, answered in src/app.ts. */
const APPROVALS_APP = ['codemod/_shared', 'codemod/app-approvals/input'];

/** What `eslint --fix` makes of the app's src/tools.ts. */
async function fixedTools(dir: string, eslint = fixer(dir)): Promise<string | undefined> {
  const [result] = await eslint.lintFiles([path.join(dir, 'src/tools.ts')]);
  return result!.output;
}

const LOOKUP_REWRITTEN = "export const lookupCharge = protectedTool('stripe.charge.read', {";
const CLOSE_KEPT = 'export const closeAccount = tool({';

/**
 * `eslint --fix` writes what `codemod --write` writes (src/eslint/fix.ts). Where the app answers its
 * interruptions itself (`state.approve(item)` in src/app.ts, issue 40 item 4) the codemod keeps the
 * tool the policy can pause as a conflict: once protected, those answers authorize nothing and every
 * approved call is refused. ESLint's fix must not rewrite it either.
 */
describe('eslint --fix in an app that answers its own interruptions', () => {
  it('leaves close_account as it is (the codemod keeps it as a conflict) and rewrites lookup_charge', async () => {
    const dir = appFrom('ctrlrun-eslint-answers-', APPROVALS_APP);
    const eslint = fixer(dir);
    const output = await fixedTools(dir, eslint);
    expect(output).toContain(LOOKUP_REWRITTEN);
    expect(output).toContain(CLOSE_KEPT);
    expect(output).toContain('needsApproval: true,');
    // an editor: the app's answers edited away (unsaved), the same session fixes close_account too
    const app = path.join(dir, 'src/app.ts');
    await eslint.lintText("import { run } from '@openai/agents';\nexport const go = run;\n", { filePath: app });
    const [again] = await eslint.lintText(readFileSync(path.join(dir, 'src/tools.ts'), 'utf8'), { filePath: path.join(dir, 'src/tools.ts') });
    expect(again!.output).toContain("export const closeAccount = protectedTool('accounts.close', {");
  });
});

/**
 * Session 22, more layouts of the app's answers, read by the fix as by the codemod (close_account
 * stays): a class keeping a field map of run results without a written field type
 * (`this.runs.get(id)!.state.approve(item)`), and a class's state typed with `import type
 * { RunState }` from the app's own barrel of the SDK (`src/sdk.ts`: `export * from '@openai/agents'`).
 */
const CLASS_ANSWERS: Array<{ name: string; files: Record<string, string> }> = [
  {
    name: 'answers from a class field',
    files: {
      'src/app.ts': [
        "import { Agent, run, type RunResult } from '@openai/agents';",
        "import { closeAccount, lookupCharge } from './tools.js';",
        "const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [closeAccount, lookupCharge] });",
        'export class Desk {',
        '  private runs = new Map<string, RunResult<any, any>>();',
        "  async send(id: string, text: string) { this.runs.set(id, await run(desk, text, { context: { user: 'ana' } })); }",
        '  yes(id: string, item: unknown) { this.runs.get(id)!.state.approve(item); }',
        '}',
        '',
      ].join('\n'),
    },
  },
  {
    name: 'answers typed through its own barrel (`import type`)',
    files: {
      'src/sdk.ts': "export * from '@openai/agents';\n",
      'src/app.ts': [
        "import { Agent } from '@openai/agents';",
        "import type { RunState } from './sdk.js';",
        "import { closeAccount, lookupCharge } from './tools.js';",
        "export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [closeAccount, lookupCharge] });",
        'export class Desk {',
        '  private state?: RunState<any, any>;',
        '  yes(item: unknown) { this.state!.approve(item); }',
        '}',
        '',
      ].join('\n'),
    },
  },
];

describe('eslint --fix in an app whose class answers its interruptions', () => {
  it.each(CLASS_ANSWERS)('$name: leaves close_account as it is', async ({ files }) => {
    const output = await fixedTools(appFrom('ctrlrun-eslint-class-answers-', APPROVALS_APP, files));
    expect(output).toContain(LOOKUP_REWRITTEN);
    expect(output).toContain(CLOSE_KEPT);
  });
});

/**
 * Session 23: the answer's receiver typed in another file of the app (`p: Pending` of `src/types.ts`,
 * `export interface Pending { state: RunState }` with the SDK's `RunState`). The fix reads the other
 * file as the codemod does: close_account stays.
 */
describe('eslint --fix in an app whose answers are typed in another file', () => {
  it('leaves close_account as it is', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-eslint-other-file-answers-'));
    dirs.push(dir);
    cpSync(path.join(FIXTURES, 'codemod/_shared'), dir, { recursive: true });
    cpSync(path.join(FIXTURES, 'codemod/app-approvals/input'), dir, { recursive: true });
    writeFileSync(path.join(dir, 'src/types.ts'), "import type { RunState } from '@openai/agents';\nexport interface Pending { state: RunState<any, any> }\n");
    writeFileSync(
      path.join(dir, 'src/app.ts'),
      [
        "import { Agent } from '@openai/agents';",
        "import type { Pending } from './types.js';",
        "import { closeAccount, lookupCharge } from './tools.js';",
        "export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [closeAccount, lookupCharge] });",
        'export function yes(p: Pending, item: unknown) { p.state.approve(item); }',
        '',
      ].join('\n'),
    );
    const [result] = await fixer(dir).lintFiles([path.join(dir, 'src/tools.ts')]);
    expect(result!.output).toContain("export const lookupCharge = protectedTool('stripe.charge.read', {");
    expect(result!.output).toContain('export const closeAccount = tool({');
  });
});

describe('eslint --fix of a tool generate leaves out', () => {
  it('leaves refund as it is when another declaration of it (in another file) keeps its action out of the module', async () => {
    const dir = appFrom('ctrlrun-eslint-left-', ['refund-desk'], {
      'src/legacy.ts':
        "import { tool } from '@openai/agents';\nimport { z } from 'zod';\n\nexport const legacyRefund = tool({\n  name: 'refund',\n  description: 'Refund a charge.',\n  parameters: z.object({ payment_id: z.string(), amount: z.string().transform(Number) }),\n  execute: async () => 'refunded',\n});\n",
    });
    const output = await fixedTools(dir);
    expect(output).toContain(LOOKUP_REWRITTEN);
    expect(output).toContain('export const refund = tool({');
  });
});

/**
 * An npm workspace: `agents` holds the tools and the manifest, `server` depends on it by name and
 * answers their interruptions with `result.state.approve(item)` (issue 40). The codemod reads the
 * dependents' answers and keeps close_account as a conflict; ESLint's fix read only the manifest's
 * package and removed its `needsApproval`, so the server's answers then authorized nothing.
 */
function answeringWorkspace(dependsOnAgents = true): string {
  const root = mkdtempSync(path.join(tmpdir(), 'ctrlrun-eslint-ws-answers-'));
  dirs.push(root);
  writeAnsweringWorkspace(root, dependsOnAgents ? { agents: '*' } : {});
  return root;
}

describe('eslint --fix in a workspace package whose dependent answers its interruptions', () => {
  it('writes what codemod --write writes: close_account kept with its needsApproval, from the package and from the root', async () => {
    const byCodemod = answeringWorkspace();
    const agents = path.join(byCodemod, 'packages/agents');
    expect((await cli(['generate'], { cwd: agents })).code).toBe(0);
    const r = await cli(['codemod', '--write', '--allow-dirty'], { cwd: agents });
    expect(r.stdout + r.stderr).toContain('1 conflicts');
    const expected = readFileSync(path.join(agents, 'src/tools.ts'), 'utf8');
    expect(expected).toContain(LOOKUP_REWRITTEN);
    expect(expected).toContain(CLOSE_KEPT);
    expect(expected).toContain('needsApproval: true,');
    for (const at of ['packages/agents', '.']) {
      const root = answeringWorkspace();
      const cwd = path.join(root, at);
      const [result] = await fixer(cwd).lintFiles([path.join(root, 'packages/agents/src/tools.ts')]);
      expect(result!.output, at).toBe(expected);
    }
  }, 60_000);

  it('a package that does not depend on agents: its answers are not read, close_account is rewritten as by the codemod', async () => {
    const root = answeringWorkspace(false);
    const [result] = await fixer(path.join(root, 'packages/agents')).lintFiles([path.join(root, 'packages/agents/src/tools.ts')]);
    expect(result!.output).toContain("export const closeAccount = protectedTool('accounts.close', {");
  }, 60_000);
});
