import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NAMESPACE } from '../../src/eslint/index.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { eslintWith } from './helpers.js';

/**
 * Session 33 left this: the modules an agent's `tools` hands literal doors from (a module naming no
 * SDK) were found once per ESLint session, so an agent's file edited to hand such a module's
 * literal shell left it unreported until the session was built again, and an edit that stopped
 * handing it left a stale finding. The session's contract: other files are seen as ESLint last
 * linted them, as `check` would read the saved files.
 */
const KINDS = "export const SHELL = ['sh', 'ell'].join('');\n";
const DOORS = [
  "import { SHELL } from './kinds33.js';",
  'declare const runner: any;',
  "export const myShell = { type: SHELL, name: 'sh', shell: runner };",
  '',
].join('\n');
// the module before the literal: its text cannot hold a door (no `type`), so no name was read from it
const NO_DOOR = ['export const myShell = null;', ''].join('\n');
// the module holding the literal under another name than the one handed
const RENAMED = DOORS.replace('myShell', 'oldShell').concat('export const myShell = null;\n');
const desk = (handed: boolean): string =>
  [
    "import { Agent } from '@openai/agents';",
    "import { myShell } from './doors33.js';",
    `export const desk33 = new Agent({ name: 'desk33', instructions: 'Help.', tools: [${handed ? 'myShell' : ''}] });`,
    'void myShell;',
    '',
  ].join('\n');
const RULE = `${NAMESPACE}/unprotected-door`;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) removeDir(d);
});

function repo(deskText: string, doors = DOORS): { dir: string; desk: string; doors: string } {
  const dir = copyFixture('check/open-doors/repo', 'eslint-agent-tools-edited-');
  dirs.push(dir);
  writeFileSync(path.join(dir, 'src/kinds33.ts'), KINDS);
  writeFileSync(path.join(dir, 'src/doors33.ts'), doors);
  writeFileSync(path.join(dir, 'src/desk33.ts'), deskText);
  return { dir, desk: path.join(dir, 'src/desk33.ts'), doors: path.join(dir, 'src/doors33.ts') };
}

/** A file's new text linted, then saved with a later mtime (an editor's save). */
async function edit(eslint: ReturnType<typeof eslintWith>, file: string, text: string): Promise<void> {
  await eslint.lintText(text, { filePath: file });
  writeFileSync(file, text);
  const t = new Date(Date.now() + 5000);
  utimesSync(file, t, t);
}

/** The module's findings of the rule, as ESLint lints its saved text. */
async function doorFindings(eslint: ReturnType<typeof eslintWith>, doors: string): Promise<string[]> {
  const [result] = await eslint.lintText(readFileSync(doors, 'utf8'), { filePath: doors });
  return result!.messages.filter((m) => m.ruleId === RULE).map((m) => `${m.line}:${m.column}`);
}

describe("a literal door handed to an agent, the agent's file or the module edited during an ESLint session", () => {
  it('controls: a session begun with each text', async () => {
    const handed = repo(desk(true));
    expect(await doorFindings(eslintWith(handed.dir), handed.doors)).toEqual(['3:24']);
    const not = repo(desk(false));
    expect(await doorFindings(eslintWith(not.dir), not.doors)).toEqual([]);
  });

  it("reports the literal once the agent's file hands it", async () => {
    const { dir, desk: file, doors } = repo(desk(false));
    const eslint = eslintWith(dir);
    expect(await doorFindings(eslint, doors)).toEqual([]);
    await edit(eslint, file, desk(true));
    expect(await doorFindings(eslint, doors)).toEqual(['3:24']);
  });

  it("drops the finding once the agent's file no longer hands it", async () => {
    const { dir, desk: file, doors } = repo(desk(true));
    const eslint = eslintWith(dir);
    expect(await doorFindings(eslint, doors)).toEqual(['3:24']);
    await edit(eslint, file, desk(false));
    expect(await doorFindings(eslint, doors)).toEqual([]);
  });

  it('reports the literal a module already handed is edited to hold', async () => {
    const { dir, doors } = repo(desk(true), NO_DOOR);
    const eslint = eslintWith(dir);
    expect(await doorFindings(eslint, doors)).toEqual([]);
    await edit(eslint, doors, DOORS);
    expect(await doorFindings(eslint, doors)).toEqual(['3:24']);
  });

  it('reports the literal a module newly handed is then edited to hold', async () => {
    const { dir, desk: file, doors } = repo(desk(false), NO_DOOR);
    const eslint = eslintWith(dir);
    await edit(eslint, file, desk(true));
    expect(await doorFindings(eslint, doors)).toEqual([]);
    await edit(eslint, doors, DOORS);
    expect(await doorFindings(eslint, doors)).toEqual(['3:24']);
  });

  it('reports the literal renamed to the name handed', async () => {
    const { dir, doors } = repo(desk(true), RENAMED);
    const eslint = eslintWith(dir);
    expect(await doorFindings(eslint, doors)).toEqual([]);
    await edit(eslint, doors, DOORS);
    expect(await doorFindings(eslint, doors)).toEqual(['3:24']);
  });

  it('follows the new re-export of a barrel the agent imports its tools through', async () => {
    const deskText = desk(true).replace("'./doors33.js'", "'./tools33.js'");
    const { dir, doors } = repo(deskText);
    const barrel = path.join(dir, 'src/tools33.ts');
    writeFileSync(path.join(dir, 'src/plain33.ts'), NO_DOOR);
    writeFileSync(barrel, "export { myShell } from './plain33.js';\n");
    const eslint = eslintWith(dir);
    expect(await doorFindings(eslint, doors)).toEqual([]);
    await edit(eslint, barrel, "export { myShell } from './doors33.js';\n");
    expect(await doorFindings(eslint, doors)).toEqual(['3:24']);
  });
});
