import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check/engine.js';
import { runCodemod } from '../../src/codemod/index.js';
import { NAMESPACE } from '../../src/eslint/index.js';
import { renderGeneratedModule } from '../../src/generate/index.js';
import { loadProject } from '../../src/manifest/load.js';
import { cli } from '../helpers/cli.js';
import { copyFixture, makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
import { eslintWith, reported } from '../eslint/helpers.js';

/**
 * Components (`.vue`, `.svelte`, `.astro`, `.mdx`): check reads their code in place and names a
 * door at its line; the codemod and init leave it and say "in a component, move it to a module";
 * the ESLint plugin reports what check reports there.
 */
const VOICE = [
  '<template>',
  '  <button @click="start">Talk</button>',
  '</template>',
  '<script setup lang="ts">',
  "import { RealtimeAgent, RealtimeSession, tool } from '@openai/agents/realtime';",
  "import { z } from 'zod';",
  'const closeAccount = tool({',
  "  name: 'close_account',",
  "  description: 'Close the account.',",
  '  parameters: z.object({ id: z.string() }),',
  "  execute: async ({ id }) => fetch(`/api/close/${id}`, { method: 'POST' }).then((r) => r.text()),",
  '});',
  "const agent = new RealtimeAgent({ name: 'voice', instructions: 'Help.', tools: [closeAccount] });",
  'const session = new RealtimeSession(agent);',
  "function start() { session.connect({ apiKey: 'x' }); }",
  '</script>',
  '',
].join('\n');

// a component that uses the SDK for a type only, and one that never names it (never parsed)
const VIEW = [
  '<script lang="ts">',
  "  import type { RealtimeItem } from '@openai/agents/realtime';",
  '  export let items: RealtimeItem[] = [];',
  '</script>',
  '<ul>{#each items as i}<li>{i.type}</li>{/each}</ul>',
  '',
].join('\n');
const PLAIN = ['---', "const title = 'Home';", '---', '<h1>{title}</h1>', ''].join('\n');

const temps: string[] = [];
afterAll(() => temps.forEach(removeDir));

function deskWithComponents(): string {
  const dir = copyFixture('refund-desk', 'components-');
  temps.push(dir);
  const generated = renderGeneratedModule(loadProject({ cwd: dir }));
  writeFileSync(generated.path, generated.text);
  writeFiles(dir, { 'src/Voice.vue': VOICE, 'src/View.svelte': VIEW, 'src/pages/index.astro': PLAIN });
  return dir;
}

describe('components', () => {
  it('check names the tool in a Vue component at its line, with a hint to move it to a module; the others have nothing', async () => {
    const dir = deskWithComponents();
    const result = await runCheck({ cwd: dir });
    const inComponents = result.findings.filter((f) => /\.(vue|svelte|astro)$/.test(f.file));
    const tool = inComponents.find((f) => f.ruleId === 'unprotected-tool');
    expect(tool && [tool.file, tool.line, tool.column]).toEqual(['src/Voice.vue', 7, 22]);
    expect(tool?.hint).toMatch(/^In a component, move it to a module: .* there: Run `npx ctrlrun-gen codemod --write`/);
    expect(inComponents.filter((f) => f.file !== 'src/Voice.vue')).toEqual([]);
  });

  it('the codemod leaves the component as it is and says why; the modules are rewritten', async () => {
    const dir = deskWithComponents();
    const project = loadProject({ cwd: dir });
    const result = await runCodemod({ manifest: project.manifest, policy: project.policy });
    expect(result.changes.map((c) => path.relative(dir, c.file))).not.toContain(path.join('src', 'Voice.vue'));
    expect(result.changes.length).toBeGreaterThan(0);
    const left = result.findings.filter((f) => f.file.endsWith('Voice.vue'));
    expect(left.map((f) => [f.kind, f.line, f.column])).toEqual([['unreadable', 7, 22]]);
    expect(left[0]).toMatchObject({
      message: expect.stringContaining("the tool 'close_account' is in a component (.vue)"),
      hint: expect.stringContaining('in a component, move it to a module'),
    });
    expect(result.exitCode).toBe(1);
    expect(readFileSync(path.join(dir, 'src/Voice.vue'), 'utf8')).toBe(VOICE);
  });

  it('the ESLint plugin reports what check reports in the component (its parser hands over the whole file)', async () => {
    const dir = deskWithComponents();
    const check = await runCheck({ cwd: dir });
    // a parser like vue-eslint-parser as the rules see it: the source text is the whole component
    const sfc = {
      parseForESLint: (text: string) => ({
        ast: {
          type: 'Program',
          body: [],
          sourceType: 'module',
          range: [0, text.length],
          loc: { start: { line: 1, column: 0 }, end: { line: text.split('\n').length, column: 0 } },
          tokens: [],
          comments: [],
        },
      }),
    };
    const eslint = eslintWith(dir, { extra: [{ files: ['**/*.vue'], languageOptions: { parser: sfc as never } }] });
    const results = await eslint.lintFiles(['src/Voice.vue']);
    const got = reported(results, dir).map((m) => `${m.line}:${m.column} ${m.ruleId}`);
    // no fix offered: the codemod's rewrite does not apply inside a component
    expect(results[0]!.messages.filter((m) => m.fix !== undefined)).toEqual([]);
    const want = check.findings.filter((f) => f.file === 'src/Voice.vue').map((f) => `${f.line}:${f.column} ${NAMESPACE}/${f.ruleId}`);
    expect(want.length).toBeGreaterThan(0);
    // besides what check reports at 1:1 for other files (the generated module's state)
    expect(got.filter((g) => !g.startsWith('1:1 ')).sort()).toEqual(want.sort());
  });

  it('init maps no tool of a component and says where it is and what to do', async () => {
    const dir = makeTempDir('init-component-');
    temps.push(dir);
    writeFiles(dir, { 'package.json': JSON.stringify({ name: 'v', type: 'module' }), 'src/Voice.vue': VOICE });
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Found 0 new tool names');
    expect(r.stdout).toContain(
      'note: src/Voice.vue:7: the tool "close_account" is in a component: init does not map it there; in a component, move it to a module',
    );
  });
});
