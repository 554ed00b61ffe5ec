import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * Session 31 (issue 40 item 4): after `codemod --write`, every door check still reports on the
 * tree is named by the codemod's summary (a conflict, or what it leaves unmapped or cannot
 * rewrite), so it never says "0 conflicts" where check is red. Before, a door written as an object
 * literal, a function tool written by hand, a `needsApproval` given to a protected tool, and a
 * handoff's `onInvokeHandoff` written on an object the file cannot name were silent or misnamed.
 */
const DOOR_RULES = new Set([
  'unprotected-door',
  'unprotected-tool',
  'unprotected-handoff',
  'unprotected-agent-tool',
  'unprotected-sandbox-agent',
  'mcp-server-unguarded',
  'hosted-mcp-unguarded',
  'invoke-replaced',
  'object-literal-tool',
  'mcp-function-tool',
  'unmapped-tool',
  'opaque-tool-factory',
  'needs-approval-override',
]);

/**
 * Session 32: the rules of check's door list left out above, each with why. `run-without-context`
 * is compared too, against the runs the codemod's report names (`runsWithoutContext`: the same
 * analysis, scan/context-runs.ts). The others are no door the codemod leaves open:
 * - `sdk-approval`, `sticky-approval`: an app's answer to an interruption (`state.approve(item)`,
 *   `{ alwaysApprove: true }`), not a door: a protected tool refuses the call it answers
 *   (ApprovalMismatch, fails closed), and an unprotected tool it answers is itself a door compared
 *   here. check reports every answer in a repo with protected tools, as it cannot tell which tool an
 *   interruption is of; the codemod names the answers that stop a tool it would rewrite (its
 *   `app-approvals` conflict, with where the app answers).
 * - `unknown-action`: a `protectedTool()` whose action the policy lacks or the manifest maps
 *   otherwise: the door is protected and fails closed (every call denied `unknown_action`, or the
 *   tool refused when made), and the codemod writes no such action (it leaves the tool as
 *   `unknown-action` instead).
 */
const NOT_DOORS = new Set(['sdk-approval', 'sticky-approval', 'unknown-action']);
const RUN_RULE = 'run-without-context';

const KINDS: Record<string, string> = {
  'src/literal.ts': [
    "import { Agent, type Shell, type Editor } from '@openai/agents';",
    'declare const shell: Shell;',
    'declare const editor: Editor;',
    "export const a = new Agent({ name: 'a', tools: [{ type: 'shell', shell } as never, { type: 'apply_patch', editor } as never] });",
    '',
  ].join('\n'),
  'src/hosted.ts': [
    "import { Agent, shellTool } from '@openai/agents';",
    "const s = shellTool({ environment: { type: 'container_auto' } });",
    "s.environment = { type: 'local' } as never;",
    "export const b = new Agent({ name: 'b', tools: [s] });",
    '',
  ].join('\n'),
  'src/hosted-literal.ts': [
    "import { Agent } from '@openai/agents';",
    "export const f = new Agent({ name: 'f', tools: [{ type: 'hosted_tool', name: 'hosted_mcp', providerData: { type: 'mcp', server_label: 'git', server_url: 'https://x.invalid', require_approval: 'never' } } as never] });",
    '',
  ].join('\n'),
  'src/hosted-always.ts': [
    "import { Agent } from '@openai/agents';",
    'declare const more: object;',
    "const answered = { type: 'hosted_tool', name: 'hosted_mcp', providerData: { type: 'mcp', server_label: 'a', server_url: 'https://a.invalid', require_approval: 'always', on_approval: async () => ({ approve: true }) } };",
    "const spread = { type: 'hosted_tool', name: 'hosted_mcp', providerData: { type: 'mcp', server_label: 'b', server_url: 'https://b.invalid', require_approval: 'always', ...more } };",
    "export const g = new Agent({ name: 'g', tools: [answered as never, spread as never] });",
    '',
  ].join('\n'),
  'src/function-literal.ts': [
    "import { Agent } from '@openai/agents';",
    "export const d = new Agent({ name: 'd', tools: [{ type: 'function', name: 'lit', invoke: async () => 'x' } as never] });",
    '',
  ].join('\n'),
  'src/override.ts': [
    "import { z } from 'zod';",
    "import { protectedTool } from './ctrlrun.generated.js';",
    "export const read = protectedTool('stripe.charge.read', { name: 'read_charge', description: 'r', parameters: z.object({ id: z.string() }), needsApproval: async () => false, execute: async () => 'ok' });",
    '',
  ].join('\n'),
  'src/protected-handoff.ts': [
    "import { Agent } from '@openai/agents';",
    "import { protectHandoff } from './ctrlrun.generated.js';",
    "const oncall = new Agent({ name: 'oncall' });",
    "const h = protectHandoff('handoff.oncall', oncall);",
    'h.onInvokeHandoff = async () => oncall;',
    "export const e = new Agent({ name: 'e', handoffs: [h] });",
    'export function tamper(x: { onInvokeHandoff: unknown }) {',
    '  x.onInvokeHandoff = async () => oncall;',
    '}',
    '',
  ].join('\n'),
};

const MANIFEST = `schema: ctrlrun.tools/v1
policy: ctrlrun.yaml
output: src/ctrlrun.generated.ts
control: src/ctrlrun.control.ts
tools:
  - tool: read_charge
    action: stripe.charge.read
  - handoff: { to: oncall }
    action: handoff.oncall
`;

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });

/** A committed tree on the codemod fixtures' shared files, its generated module written. */
async function tree(layers: string[], files: Record<string, string> = {}, manifest?: string): Promise<string> {
  const dir = makeTempDir('codemod-red31-');
  dirs.push(dir);
  for (const layer of layers) cpSync(layer, dir, { recursive: true });
  writeFiles(dir, files);
  if (manifest !== undefined) writeFiles(dir, { 'ctrlrun.tools.yaml': manifest });
  await cli(['generate'], { cwd: dir });
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'app');
  return dir;
}

interface Entry {
  file: string;
  line: number;
  kind: string;
  cause?: string;
  tool?: string;
}
interface CodemodJson {
  summary: { conflicts: number };
  outcome: { conflicts: Entry[]; unmapped: Entry[]; notRewritable: Entry[]; unparseable: Entry[]; exitReasons: string[] };
  runsWithoutContext?: Array<{ file: string; line: number }>;
}
const named = (o: CodemodJson) => [...o.outcome.conflicts, ...o.outcome.unmapped, ...o.outcome.notRewritable, ...o.outcome.unparseable];
const keyOf = (dir: string, e: Entry) => `${path.relative(dir, path.resolve(dir, e.file))}|${e.kind}|${e.cause ?? ''}|${e.tool ?? ''}`;

/**
 * `codemod --write`, then check: the door findings check reports that no entry of the codemod's
 * report names (by file and line, read by a dry run on the written tree, whose places are the
 * written text's), and the written run's and the dry run's entries (the same doors left).
 */
async function leftUnnamed(dir: string) {
  const written = await cli(['codemod', '--write', '--format', 'json'], { cwd: dir });
  const first = JSON.parse(written.stdout) as CodemodJson;
  const again = JSON.parse((await cli(['codemod', '--format', 'json'], { cwd: dir })).stdout) as CodemodJson;
  const entries = named(again).map((e) => ({ file: path.relative(dir, path.resolve(dir, e.file)), line: e.line, tool: e.tool }));
  // a tool's conflict is placed at what keeps it (its `needsApproval`), check's finding at the call: the same tool of the same file
  const isNamed = (f: { file: string; line: number; message: string }) =>
    entries.some((e) => e.file === f.file && (e.line === f.line || (e.tool !== undefined && f.message.includes(`tool '${e.tool}'`))));
  const findings = (
    JSON.parse((await cli(['check', '--format', 'json'], { cwd: dir })).stdout) as {
      findings: Array<{ ruleId: string; file: string; line: number; message: string }>;
    }
  ).findings;
  const doors = findings.filter((f) => DOOR_RULES.has(f.ruleId));
  // a run the codemod's report names among its runs without context, by file and line
  const runs = findings.filter((f) => f.ruleId === RUN_RULE);
  const runNamed = (f: { file: string; line: number }) =>
    (again.runsWithoutContext ?? []).some((e) => path.relative(dir, path.resolve(dir, e.file)) === f.file && e.line === f.line);
  return {
    written,
    first,
    doors,
    runs,
    ruleIds: new Set(findings.map((f) => f.ruleId)),
    unnamed: [
      ...doors.filter((f) => !isNamed(f)).map((f) => `${f.ruleId} ${f.file}:${f.line}`),
      ...runs.filter((f) => !runNamed(f)).map((f) => `${f.ruleId} ${f.file}:${f.line}`),
    ],
    same: [
      named(first)
        .map((e) => keyOf(dir, e))
        .sort(),
      named(again)
        .map((e) => keyOf(dir, e))
        .sort(),
    ],
  };
}

const SHARED = path.join(FIXTURES, 'codemod', '_shared');
const POLICY_EXTRA = '  handoff.oncall:\n    decision: allow\n';

describe('codemod: every door check reports after --write is named', () => {
  it('each kind check reports and the codemod has no rewrite for is a conflict, in text and JSON', async () => {
    const dir = await tree([SHARED], KINDS, MANIFEST);
    writeFiles(dir, { 'ctrlrun.yaml': `${readFileSync(path.join(SHARED, 'ctrlrun.yaml'), 'utf8')}${POLICY_EXTRA}` });
    await cli(['generate'], { cwd: dir });
    git(dir, 'add', '-A');
    git(dir, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'policy');
    const r = await leftUnnamed(dir);
    expect(r.doors.map((f) => `${f.ruleId} ${f.file}:${f.line}`).sort()).toEqual(
      [
        'unprotected-door src/literal.ts:4',
        'unprotected-door src/literal.ts:4',
        'unprotected-door src/hosted.ts:3',
        'hosted-mcp-unguarded src/hosted-literal.ts:2',
        'hosted-mcp-unguarded src/hosted-always.ts:3',
        'hosted-mcp-unguarded src/hosted-always.ts:4',
        'object-literal-tool src/function-literal.ts:2',
        'needs-approval-override src/override.ts:3',
        'unprotected-handoff src/protected-handoff.ts:5',
        'unprotected-handoff src/protected-handoff.ts:8',
      ].sort(),
    );
    expect(r.unnamed).toEqual([]);
    expect(r.same[0]).toEqual(r.same[1]);
    expect(r.written.code).toBe(1);
    expect(r.first.outcome.exitReasons).toEqual(['conflicts']);
    expect(r.first.summary.conflicts).toBe(10);
    expect(r.first.outcome.conflicts.map((c) => `${c.cause} ${c.file}:${c.line}`).sort()).toEqual(
      [
        'shellTool src/literal.ts:4',
        'applyPatchTool src/literal.ts:4',
        'shellTool src/hosted.ts:3',
        'hostedMcpTool src/hosted-literal.ts:2',
        'hostedMcpTool src/hosted-always.ts:3',
        'hostedMcpTool src/hosted-always.ts:4',
        'tool src/function-literal.ts:2',
        'tool src/override.ts:3',
        'handoff src/protected-handoff.ts:5',
        'handoff src/protected-handoff.ts:8',
      ].sort(),
    );
    const text = await cli(['codemod'], { cwd: dir });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('10 conflicts');
    expect(text.stdout).toMatch(/src\/hosted\.ts:3:1: conflict: shell tool: `s\.environment` is reassigned on a hosted shell tool/);
    expect(text.stdout).toMatch(/src\/literal\.ts:4:\d+: conflict: shell tool: written as an object literal/);
    expect(text.stdout).toMatch(/src\/hosted-literal\.ts:2:\d+: conflict: hosted MCP server 'git': written as an object literal/);
    expect(text.stdout).toMatch(/src\/function-literal\.ts:2:\d+: conflict: function tool 'lit': written as an object literal/);
    expect(text.stdout).toMatch(
      /src\/override\.ts:3:\d+: conflict: function tool 'read_charge': protectedTool\('stripe\.charge\.read'\) is given `needsApproval`/,
    );
    expect(text.stdout).toMatch(/src\/protected-handoff\.ts:8:\d+: conflict: handoff to: `onInvokeHandoff` is assigned/);
  }, 60_000);

  it('control: a hosted MCP object that always asks, and a protected tool with no needsApproval, are no conflict', async () => {
    const dir = await tree(
      [SHARED],
      {
        'src/ok.ts': [
          "import { Agent } from '@openai/agents';",
          "import { z } from 'zod';",
          "import { protectedTool } from './ctrlrun.generated.js';",
          "export const read = protectedTool('stripe.charge.read', { name: 'read_charge', description: 'r', parameters: z.object({ id: z.string() }), execute: async () => 'ok' });",
          "export const f = new Agent({ name: 'f', tools: [read, { type: 'hosted_tool', name: 'hosted_mcp', providerData: { type: 'mcp', server_label: 'git', server_url: 'https://x.invalid', require_approval: 'always' } } as never] });",
          '',
        ].join('\n'),
      },
      MANIFEST.replace('  - handoff: { to: oncall }\n    action: handoff.oncall\n', ''),
    );
    const r = await leftUnnamed(dir);
    expect(r.doors).toEqual([]);
    expect(r.first.summary.conflicts).toBe(0);
    expect(r.written.code).toBe(0);
  }, 60_000);

  it('a run that passes no context the identity reads: check names it, and so does the codemod report (session 32)', async () => {
    const dir = await tree(
      [SHARED],
      {
        'src/ctrlrun.control.ts': [
          "import { createControl, memoryStore } from 'ctrlrun-gen/runtime';",
          'export default createControl({ store: memoryStore(), identity: (runContext) => (runContext.context as { user?: string } | undefined)?.user ?? null });',
          '',
        ].join('\n'),
        'src/agent.ts': [
          "import { Agent, run, tool } from '@openai/agents';",
          "import { z } from 'zod';",
          "export const read = tool({ name: 'read_charge', description: 'r', parameters: z.object({ id: z.string() }), execute: async () => 'ok' });",
          "export const a = new Agent({ name: 'a', tools: [read] });",
          "export const go = () => run(a, 'charge ch_1');",
          "export const goAs = (user: string) => run(a, 'charge ch_1', { context: { user } });",
          '',
        ].join('\n'),
      },
      MANIFEST.replace('  - handoff: { to: oncall }\n    action: handoff.oncall\n', ''),
    );
    const r = await leftUnnamed(dir);
    // `go`'s run: line 5 as written, line 6 once --write adds the generated module's import
    expect(r.runs.map((f) => `${f.ruleId} ${f.file}:${f.line}`)).toEqual(['run-without-context src/agent.ts:6']);
    expect(r.doors).toEqual([]);
    expect(r.unnamed).toEqual([]);
    expect(r.first.runsWithoutContext?.map((e) => `${path.relative(dir, path.resolve(dir, e.file))}:${e.line}`)).toEqual(['src/agent.ts:5']);
  }, 60_000);

  it('the rules left out of the comparison: check reports them after --write, and the codemod rightly claims none (session 32)', async () => {
    const dir = await tree(
      [SHARED],
      {
        'src/agent.ts': [
          "import { Agent, run, tool } from '@openai/agents';",
          "import { z } from 'zod';",
          "export const read = tool({ name: 'read_charge', description: 'r', parameters: z.object({ id: z.string() }), execute: async () => 'ok' });",
          "export const a = new Agent({ name: 'a', tools: [read] });",
          'export async function go() {',
          "  const result = await run(a, 'charge ch_1');",
          '  for (const item of result.interruptions) result.state.approve(item, { alwaysApprove: true });',
          '  for (const item of result.interruptions) result.state.reject(item);',
          '}',
          '',
        ].join('\n'),
        'src/typo.ts': [
          "import { z } from 'zod';",
          "import { protectedTool } from './ctrlrun.generated.js';",
          "export const t = protectedTool('stripe.nope', { name: 'nope', description: 'n', parameters: z.object({}), execute: async () => 'x' });",
          '',
        ].join('\n'),
      },
      MANIFEST.replace('  - handoff: { to: oncall }\n    action: handoff.oncall\n', ''),
    );
    const r = await leftUnnamed(dir);
    // the answer is refused by the protected tool it answers, the unknown action denies every call: no door is open
    expect([...NOT_DOORS].filter((id) => !r.ruleIds.has(id))).toEqual([]);
    expect(r.doors).toEqual([]);
    expect(r.first.summary.conflicts).toBe(0);
    expect(r.written.code).toBe(0);
  }, 60_000);

  const CASES = readdirSync(path.join(FIXTURES, 'codemod'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('_'))
    .map((d) => d.name)
    .sort();
  it('every codemod fixture: a door check reports after --write is named, and --write exits 1 for it', async () => {
    const report: string[] = [];
    const trees: Array<[string, string[]]> = [
      ...CASES.map((name): [string, string[]] => [name, [SHARED, path.join(FIXTURES, 'codemod', name, 'input')]]),
      ['check/open-doors', [path.join(FIXTURES, 'check', 'open-doors', 'repo')]],
    ];
    for (const [name, layers] of trees) {
      const dir = await tree(layers);
      const r = await leftUnnamed(dir);
      for (const u of r.unnamed) report.push(`${name}: ${u}`);
      if (r.doors.length > 0 && r.written.code !== 1) report.push(`${name}: exit ${r.written.code} with ${r.doors.length} door findings`);
      if (r.same[0]!.join() !== r.same[1]!.join()) report.push(`${name}: the written run and the dry run name other doors`);
      removeDir(dir);
    }
    expect(report).toEqual([]);
  }, 300_000);
});
