import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/paths.js';
import { eslintWith } from './helpers.js';

/**
 * The plugin as an editor integration (the ESLint language server) drives it: one ESLint instance
 * for the whole session, one file linted at a time with the editor's text (`lintText`), the repo's
 * files changing on disk in between, never a restart.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function copyOfFixture(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-eslint-'));
  dirs.push(dir);
  cpSync(path.join(FIXTURES, 'check', name, 'repo'), dir, { recursive: true });
  return dir;
}

/** Moves a file's modification time on, as a save does (a stat-keyed cache must see it even within one clock tick). */
function touch(file: string, seconds: number): void {
  const t = new Date(Date.now() + seconds * 1000);
  utimesSync(file, t, t);
}

const rules = (messages: Array<{ ruleId: string | null; line: number }>) => messages.map((m) => `${m.line} ${m.ruleId}`);

describe('one file at a time, as an editor lints', () => {
  it('a changed manifest is picked up without a restart', async () => {
    const dir = copyOfFixture('open-doors');
    const eslint = eslintWith(dir);
    const tools = path.join(dir, 'src/tools.ts');
    const text = readFileSync(tools, 'utf8');
    const [first] = await eslint.lintText(text, { filePath: tools });
    expect(rules(first!.messages)).toContain('31 ctrlrun/unmapped-tool');

    // the user maps get_weather in the manifest and saves it
    const manifest = path.join(dir, 'ctrlrun.tools.yaml');
    writeFileSync(manifest, `${readFileSync(manifest, 'utf8').trimEnd()}\n  - tool: get_weather\n    action: stripe.charge.read\n`);
    touch(manifest, 5);
    const [second] = await eslint.lintText(text, { filePath: tools });
    expect(rules(second!.messages)).not.toContain('31 ctrlrun/unmapped-tool');
    expect(rules(second!.messages)).toContain('31 ctrlrun/unprotected-tool');
  });

  it("the editor's unsaved text is linted, and a repo-wide fact follows it into the next file", async () => {
    const dir = copyOfFixture('open-doors');
    const eslint = eslintWith(dir);
    const agent = path.join(dir, 'src/agent.ts');
    const text = readFileSync(agent, 'utf8');
    const [before] = await eslint.lintText(text, { filePath: agent });
    expect(rules(before!.messages)).toContain('1 ctrlrun/tracing-sensitive-data');
    // typed, not saved: the sticky approval goes, and tracing is turned off in this file
    const edited = `${text.replace('alwaysApprove: true', 'alwaysApprove: false').replace('{ Agent, run }', '{ Agent, run, setTracingDisabled }')}\nsetTracingDisabled(true);\n`;
    const [after] = await eslint.lintText(edited, { filePath: agent });
    expect(rules(after!.messages)).not.toContain('13 ctrlrun/sticky-approval');
    expect(rules(after!.messages)).not.toContain('1 ctrlrun/tracing-sensitive-data');
    expect(readFileSync(agent, 'utf8')).toBe(text);
    // another file's repo-wide finding goes with it: the SDK is imported there too, and tracing is now off
    const tools = path.join(dir, 'src/tools.ts');
    const [other] = await eslint.lintText(readFileSync(tools, 'utf8'), { filePath: tools });
    expect(other!.messages.filter((m) => m.ruleId === 'ctrlrun/tracing-sensitive-data')).toEqual([]);
    // and back: the saved text again
    const [again] = await eslint.lintText(text, { filePath: agent });
    expect(rules(again!.messages)).toContain('1 ctrlrun/tracing-sensitive-data');
  });

  it('a regenerated module is fresh again without a restart', async () => {
    const dir = copyOfFixture('open-doors');
    const eslint = eslintWith(dir);
    const tools = path.join(dir, 'src/tools.ts');
    const text = readFileSync(tools, 'utf8');
    const [stale] = await eslint.lintText(text, { filePath: tools });
    expect(rules(stale!.messages)).toContain('1 ctrlrun/stale-generated');
    // what `generate` writes, as check computes it
    const { renderGeneratedModule } = await import('../../src/generate/index.js');
    const { loadProject } = await import('../../src/manifest/load.js');
    const generated = renderGeneratedModule(loadProject({ cwd: dir }));
    writeFileSync(generated.path, generated.text);
    touch(generated.path, 5);
    const [fresh] = await eslint.lintText(text, { filePath: tools });
    expect(rules(fresh!.messages)).not.toContain('1 ctrlrun/stale-generated');
  });

  it('a package that becomes a Vite app is seen without a restart (its package.json is watched)', async () => {
    const dir = copyOfFixture('open-doors');
    const pkg = path.join(dir, 'package.json');
    writeFileSync(pkg, JSON.stringify({ name: 'app' }));
    const page = path.join(dir, 'src/page.ts');
    const text =
      "import { readFileSync } from 'node:fs';\nimport { Agent } from '@openai/agents';\nexport const a = new Agent({ name: 'a', instructions: readFileSync('x', 'utf8') });\n";
    writeFileSync(page, text);
    const eslint = eslintWith(dir);
    const [node] = await eslint.lintText(text, { filePath: page });
    expect(rules(node!.messages)).not.toContain('1 ctrlrun/node-module-in-browser');
    writeFileSync(pkg, JSON.stringify({ name: 'app', devDependencies: { vite: '8.3.8' } }));
    touch(pkg, 5);
    const [vite] = await eslint.lintText(text, { filePath: page });
    expect(rules(vite!.messages)).toContain('1 ctrlrun/node-module-in-browser');
  });

  it('a new package.json in a folder that had none is seen without a restart', async () => {
    const dir = copyOfFixture('open-doors');
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'app' }));
    mkdirSync(path.join(dir, 'src/web'));
    const page = path.join(dir, 'src/web/page.ts');
    const text =
      "import { readFileSync } from 'node:fs';\nimport { Agent } from '@openai/agents';\nexport const a = new Agent({ name: 'a', instructions: readFileSync('x', 'utf8') });\n";
    writeFileSync(page, text);
    const eslint = eslintWith(dir);
    const [node] = await eslint.lintText(text, { filePath: page });
    expect(rules(node!.messages)).not.toContain('1 ctrlrun/node-module-in-browser');
    // the folder becomes a Vite app of its own
    writeFileSync(path.join(dir, 'src/web/package.json'), JSON.stringify({ name: 'web', devDependencies: { vite: '8.3.8' } }));
    const [vite] = await eslint.lintText(text, { filePath: page });
    expect(rules(vite!.messages)).toContain('1 ctrlrun/node-module-in-browser');
  });
});
