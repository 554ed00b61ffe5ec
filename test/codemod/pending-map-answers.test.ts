import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/check/types.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Issue 40 item 4 (was red21-pending-map-answers). Code shape: one package (the app-approvals fixture's tools and
 * manifest) with an HTTP approval flow, the usual one once the answer is not a console prompt:
 * `start()` runs the agent and files each interruption with its run's state in a module-level
 * `Map<string, { state: RunState<…>; item: RunToolApprovalItem }>` keyed by a fresh id, returning
 * the ids to the page; `decide(id, ok)`, the handler of the person's click, takes the entry out and
 * answers `entry.state.approve(entry.item)`, then resumes. The receiver and the item both come from
 * the map (`pending.get(id)`), which the scanner did not type, although the map's declared type
 * says exactly what they are; so the codemod rewrites close_account with "0 conflicts" and check is
 * then green, while every approved call of close_account is refused ApprovalMismatch. (Session 21
 * left "a receiver and an item both from untyped calls" unread; here the types are written.)
 * Control: the same handler naming the entry's type on the local is seen.
 */
const SERVER = (entry: string) =>
  [
    "import { randomUUID } from 'node:crypto';",
    "import { Agent, run, type RunState, type RunToolApprovalItem } from '@openai/agents';",
    "import { closeAccount, lookupCharge } from './tools.js';",
    '',
    "const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [closeAccount, lookupCharge] });",
    'type Pending = { state: RunState<any, any>; item: RunToolApprovalItem };',
    'const pending = new Map<string, Pending>();',
    '',
    '/** Runs the desk; the paused calls wait in `pending` until the person answers on the page. */',
    'export async function start(text: string) {',
    "  const result = await run(desk, text, { context: { user: 'ana' } });",
    '  for (const item of result.interruptions) pending.set(randomUUID(), { state: result.state, item });',
    '  return [...pending.keys()];',
    '}',
    '',
    '/** The handler of the approve / reject buttons. */',
    'export async function decide(id: string, ok: boolean) {',
    entry,
    '  pending.delete(id);',
    '  if (ok) entry.state.approve(entry.item);',
    '  else entry.state.reject(entry.item);',
    '  return run(desk, entry.state);',
    '}',
    '',
  ].join('\n');

function app(text: string): string {
  const root = makeTempDir('pending-map-');
  dirs.push(root);
  cpSync(path.join(FIXTURES, 'codemod/_shared'), root, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input'), root, { recursive: true });
  writeFileSync(path.join(root, 'src/app.ts'), text);
  return root;
}

describe('an approval handler answers entry.state.approve(entry.item) from a typed Map of pending calls', () => {
  it('the codemod keeps close_account as a conflict naming src/app.ts', async () => {
    const r = await cli(['codemod'], { cwd: app(SERVER('  const entry = pending.get(id)!;')) });
    expect(r.stdout).toContain('1 conflicts');
    expect(r.stdout).toContain('src/app.ts:20');
    expect(r.code).toBe(1);
  });

  it('after generate and codemod --write, check is not green', async () => {
    const root = app(SERVER('  const entry = pending.get(id)!;'));
    expect((await cli(['generate'], { cwd: root })).code).toBe(0);
    await cli(['codemod', '--write'], { cwd: root });
    const c = await cli(['check', '--format', 'json'], { cwd: root });
    const findings = (JSON.parse(c.stdout) as { findings: Finding[] }).findings;
    expect(findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => `${f.file}:${f.line}`)).toEqual(['src/app.ts:20', 'src/app.ts:21']);
    expect(c.code).toBe(1);
  });

  // control: the same entry with its item named on a local typed RunToolApprovalItem
  it('control: the item read into a local typed RunToolApprovalItem is kept as a conflict', async () => {
    const text = SERVER('  const entry = pending.get(id)!;\n  const item: RunToolApprovalItem = entry.item;').replace(
      '  if (ok) entry.state.approve(entry.item);\n  else entry.state.reject(entry.item);',
      '  if (ok) entry.state.approve(item);\n  else entry.state.reject(item);',
    );
    const r = await cli(['codemod'], { cwd: app(text) });
    expect(r.stdout).toContain('1 conflicts');
    expect(r.stdout).toContain('src/app.ts:21');
  });
});
