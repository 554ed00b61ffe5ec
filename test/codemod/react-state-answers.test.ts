import { cpSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/check/types.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Issue 40 item 4 (was red21-realtime-pending-state). Code shape: a React voice app (one package: the app-approvals
 * fixture's tools and manifest) built on the SDK's realtime-next example, whose handler answers
 * `session.current?.approve(approvalRequest.approvalItem)` from `window.confirm`. A real page shows
 * a dialog instead, so the handler keeps the item in React state
 * (`useState<RunToolApprovalItem | null>`) and the dialog's buttons answer
 * `session.current?.approve(pending)` (the session in `useRef<RealtimeSession | null>`). The scanner
 * followed neither `ref.current` nor a `useState` value, though both types are written, so the
 * codemod rewrites close_account with "0 conflicts" and check is then green; at run time every
 * approval clicked in the dialog authorizes nothing and the call is refused ApprovalMismatch (the
 * session's error event). Control: the example's own form, answering in the handler, is seen.
 */
const PAGE = (onRequest: string) =>
  [
    "import type { RunToolApprovalItem } from '@openai/agents';",
    "import { RealtimeAgent, RealtimeSession } from '@openai/agents/realtime';",
    "import { useEffect, useRef, useState } from 'react';",
    "import { closeAccount, lookupCharge } from './tools.js';",
    '',
    "const agent = new RealtimeAgent({ name: 'desk', instructions: 'Help.', tools: [closeAccount, lookupCharge] });",
    '',
    'export function Desk() {',
    '  const session = useRef<RealtimeSession | null>(null);',
    '  const [pending, setPending] = useState<RunToolApprovalItem | null>(null);',
    '  useEffect(() => {',
    '    session.current = new RealtimeSession(agent);',
    `    session.current.on('tool_approval_requested', (_context, _agent, approvalRequest) => ${onRequest});`,
    '  }, []);',
    '  const answer = (ok: boolean) => {',
    '    if (!pending) return;',
    '    if (ok) session.current?.approve(pending);',
    '    else session.current?.reject(pending);',
    '    setPending(null);',
    '  };',
    '  return (',
    '    <dialog open={pending !== null}>',
    '      Allow {pending?.name}?',
    '      <button onClick={() => answer(true)}>Approve</button>',
    '      <button onClick={() => answer(false)}>Reject</button>',
    '    </dialog>',
    '  );',
    '}',
    '',
  ].join('\n');

const KEEP = 'setPending(approvalRequest.approvalItem)';
const ANSWER_HERE = "{ if (confirm('Allow?')) session.current?.approve(approvalRequest.approvalItem); }";

function app(text: string): string {
  const root = makeTempDir('react-state-');
  dirs.push(root);
  cpSync(path.join(FIXTURES, 'codemod/_shared'), root, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input'), root, { recursive: true });
  rmSync(path.join(root, 'src/app.ts'));
  writeFileSync(path.join(root, 'src/Desk.tsx'), text);
  return root;
}

describe('a realtime page answers from a dialog, the item kept in React state', () => {
  it('the codemod keeps close_account as a conflict naming src/Desk.tsx', async () => {
    const r = await cli(['codemod'], { cwd: app(PAGE(KEEP)) });
    expect(r.stdout).toContain('1 conflicts');
    expect(r.stdout).toContain('src/Desk.tsx:17');
    expect(r.code).toBe(1);
  });

  it('after generate and codemod --write, check is not green', async () => {
    const root = app(PAGE(KEEP));
    expect((await cli(['generate'], { cwd: root })).code).toBe(0);
    await cli(['codemod', '--write'], { cwd: root });
    const c = await cli(['check', '--format', 'json'], { cwd: root });
    const findings = (JSON.parse(c.stdout) as { findings: Finding[] }).findings;
    expect(findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => `${f.file}:${f.line}`)).toEqual(['src/Desk.tsx:17', 'src/Desk.tsx:18']);
    expect(c.code).toBe(1);
  });

  // control: the SDK example's form, answering in the handler, is seen
  it('control: answering approvalRequest.approvalItem in the handler is kept as a conflict', async () => {
    const r = await cli(['codemod'], { cwd: app(PAGE(ANSWER_HERE)) });
    expect(r.stdout).toContain('1 conflicts');
    expect(r.stdout).toContain('src/Desk.tsx:13');
  });
});
