import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES } from './paths.js';

/*
 * The app of issue 40's "no false green" helper case, shared by the codemod's and ESLint's tests
 * (test/codemod/helper-answers.test.ts, test/eslint/fix-helper-answers.test.ts): it answers its
 * interruptions through `decide(result.state, item, yes)`, a helper in its own module.
 */

/** src/app.ts: runs the desk and hands each interruption to `decide`. */
export const HELPER_APP = [
  "import { Agent, run } from '@openai/agents';",
  "import { closeAccount, lookupCharge } from './tools.js';",
  "import { decide } from './decide.js';",
  '',
  "const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [closeAccount, lookupCharge] });",
  '',
  'export async function answer(text: string, ok: (tool: string) => Promise<boolean>) {',
  "  let result = await run(desk, text, { context: { user: 'ana' } });",
  '  while (result.interruptions.length > 0) {',
  "    for (const item of result.interruptions) decide(result.state, item, await ok(item.name ?? ''));",
  '    result = await run(desk, result.state);',
  '  }',
  '  return result.finalOutput;',
  '}',
  '',
].join('\n');

/** src/decide.ts with untyped (`any`) parameters. */
export const UNTYPED_DECIDE = [
  'export function decide(state: any, item: any, yes: boolean): void {',
  '  if (yes) state.approve(item);',
  '  else state.reject(item);',
  '}',
  '',
].join('\n');

/** Writes the app into `dir`: the codemod fixtures' shared files, app-approvals' tools and manifest, the app, and `decide` as src/decide.ts. */
export function writeHelperAnswersApp(dir: string, decide: string): void {
  cpSync(path.join(FIXTURES, 'codemod/_shared'), dir, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input'), dir, { recursive: true });
  writeFileSync(path.join(dir, 'src/app.ts'), HELPER_APP);
  writeFileSync(path.join(dir, 'src/decide.ts'), decide);
}
