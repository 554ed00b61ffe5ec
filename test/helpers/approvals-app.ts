import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { cli } from './cli.js';
import { FIXTURES } from './paths.js';
import { makeTempDir } from './temp-repo.js';

/**
 * The codemod's answer tests (issue 40 item 4) share one app: the app-approvals fixture's tools and
 * manifest, with `src/app.ts` holding the desk agent and, from line 7 on, the code that answers
 * close_account's interruptions; `files` adds the files that code imports.
 */
const HEAD = [
  "import { Agent } from '@openai/agents';",
  "import { closeAccount, lookupCharge } from './tools.js';",
  '',
  "export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [closeAccount, lookupCharge] });",
  '',
];

/** A temporary copy of the app (added to `dirs` for removal) with `code` answering at src/app.ts:7. */
export function approvalsApp(dirs: string[], code: string, files: Record<string, string>, tsconfig?: object): string {
  const root = makeTempDir('approvals-app-');
  dirs.push(root);
  cpSync(path.join(FIXTURES, 'codemod/_shared'), root, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input'), root, { recursive: true });
  writeFileSync(path.join(root, 'src/app.ts'), [...HEAD, code, ''].join('\n'));
  for (const [rel, t] of Object.entries(files)) writeFileSync(path.join(root, rel), t);
  if (tsconfig) writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify(tsconfig));
  return root;
}

/** The codemod in `cwd` leaves close_account a conflict naming the answer at src/app.ts:7, exit 1. */
export async function expectAnswerConflict(cwd: string): Promise<void> {
  const r = await cli(['codemod'], { cwd });
  expect(r.stdout).toContain('answered at src/app.ts:7:');
  expect(r.stdout).toContain('1 conflicts');
  expect(r.code).toBe(1);
}

/** The codemod in `cwd` finds no answer of the SDK's in src/app.ts: no conflict. */
export async function expectNoAnswerConflict(cwd: string): Promise<void> {
  const r = await cli(['codemod'], { cwd });
  expect(r.stdout).not.toContain('answered at src/app.ts');
  expect(r.stdout).toContain('0 conflicts');
}
