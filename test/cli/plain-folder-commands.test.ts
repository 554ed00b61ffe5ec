import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { plainFolderOfSiblings } from '../helpers/plain-folder.js';
import { removeDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * Every command that reads the working folder's manifest (or policy), run in a plain folder of
 * sibling projects (src/cli/plain-folder.ts): the refusal `check` gives there (exit 2, the
 * manifests below named, a hint to run the same command with `--cwd`), not "no manifest found",
 * which sends the user to `init` in a folder that is no project. A command given the files it
 * reads (`--policy`, two policy files, a ctrlrun.yaml here) runs as ever.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const REFUSED = 'the manifests below it: a/ctrlrun.tools.yaml';

/** The command line, the command the message names, and what the hint runs in `a/`. */
const COMMANDS: Array<{ argv: string[]; command: string; invocation: string }> = [
  { argv: ['generate'], command: 'generate', invocation: 'generate' },
  { argv: ['generate', '--check'], command: 'generate', invocation: 'generate' },
  { argv: ['codemod'], command: 'codemod', invocation: 'codemod' },
  { argv: ['codemod', '--format', 'json'], command: 'codemod', invocation: 'codemod' },
  { argv: ['validate'], command: 'validate', invocation: 'validate' },
  { argv: ['test'], command: 'test', invocation: 'test' },
  { argv: ['diff', 'main'], command: 'diff', invocation: 'diff main' },
  { argv: ['explain', 'refund', '--args', '{"id":"x"}'], command: 'explain', invocation: `explain refund --args '{"id":"x"}'` },
];

describe('a command in a plain folder of sibling projects', () => {
  it.each(COMMANDS)('$argv: exit 2, the manifests below named, the hint runs $invocation in a project', async ({ argv, command, invocation }) => {
    const dir = plainFolderOfSiblings(dirs);
    const r = await cli(argv, { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain(`${command}: no ctrlrun.tools.yaml in`);
    expect(r.stderr).toContain(REFUSED);
    expect(r.stderr).toContain(`hint: run ${command} in each project's own folder (\`npx ctrlrun-gen ${invocation} --cwd a\`)`);
    expect(r.stderr).not.toContain('ctrlrun-gen init');
  });

  it.each(COMMANDS)('$argv with --cwd a: no refusal (the project is read as ever)', async ({ argv }) => {
    const dir = plainFolderOfSiblings(dirs);
    const r = await cli([...argv, '--cwd', 'a'], { cwd: dir });
    expect(r.stderr).not.toContain(REFUSED);
  });
});

// the long-running commands: only their refusal is run here (given a project, they would start serving)
describe.each([
  { argv: ['serve', '--port', '0'], command: 'serve', invocation: 'serve' },
  { argv: ['mcp-operator', '--stdio'], command: 'mcp-operator', invocation: 'mcp-operator --stdio' },
])('$command in a plain folder of sibling projects', ({ argv, command, invocation }) => {
  it('exit 2 before serving, the manifests below named, the hint runs it in a project', async () => {
    const r = await cli(argv, { cwd: plainFolderOfSiblings(dirs) });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain(REFUSED);
    expect(r.stderr).toContain(`hint: run ${command} in each project's own folder (\`npx ctrlrun-gen ${invocation} --cwd a\`)`);
  });
});

describe('a command given the files it reads, in a plain folder', () => {
  const given: Array<{ name: string; argv: string[]; files?: Record<string, string> }> = [
    { name: 'validate --policy (the policy alone)', argv: ['validate', '--policy', 'a/ctrlrun.yaml'] },
    { name: 'validate --manifest', argv: ['validate', '--manifest', 'a/ctrlrun.tools.yaml'] },
    { name: 'generate --manifest', argv: ['generate', '--check', '--manifest', 'a/ctrlrun.tools.yaml'] },
    { name: 'codemod --manifest', argv: ['codemod', '--manifest', 'a/ctrlrun.tools.yaml'] },
    { name: 'diff of two policy files', argv: ['diff', 'a/ctrlrun.yaml', 'a/ctrlrun.yaml'] },
    { name: 'diff --policy', argv: ['diff', 'a/ctrlrun.yaml', '--policy', 'a/ctrlrun.yaml'] },
    { name: 'explain --policy', argv: ['explain', 'refund', '--policy', 'a/ctrlrun.yaml'] },
    { name: 'test --policy', argv: ['test', '--policy', 'a/ctrlrun.yaml'] },
    { name: 'test --manifest', argv: ['test', '--manifest', 'a/ctrlrun.tools.yaml'] },
    { name: 'explain --manifest', argv: ['explain', 'refund', '--manifest', 'a/ctrlrun.tools.yaml'] },
    { name: 'test of a named test file', argv: ['test', 'cases.yaml'], files: { 'cases.yaml': 'policy: a/ctrlrun.yaml\ncases: []\n' } },
    { name: 'test with a ctrlrun.yaml here', argv: ['test'], files: { 'ctrlrun.yaml': 'version: 1\nrules: []\n' } },
    { name: 'explain with a ctrlrun.yaml here', argv: ['explain', 'refund'], files: { 'ctrlrun.yaml': 'version: 1\nrules: []\n' } },
  ];
  it.each(given)('$name: no refusal', async ({ argv, files }) => {
    const dir = plainFolderOfSiblings(dirs);
    if (files) writeFiles(dir, files);
    const r = await cli(argv, { cwd: dir });
    expect(r.stderr).not.toContain(REFUSED);
  });
});

describe('init in a plain folder of sibling projects', () => {
  // init makes a project's files, so the manifests of projects already set up are no answer to it:
  // it keeps its own refusal (no package.json here), which names the folder to run it in
  it('keeps its refusal for a folder with no package.json, naming no manifest below, writing nothing', async () => {
    const dir = plainFolderOfSiblings(dirs);
    const before = readdirSync(dir).sort();
    const r = await cli(['init'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('init: no package.json in');
    expect(r.stderr).not.toContain(REFUSED);
    expect(readdirSync(dir).sort()).toEqual(before);
    expect(existsSync(path.join(dir, 'ctrlrun.yaml'))).toBe(false);
  });
});
