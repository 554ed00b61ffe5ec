import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
import { typeCheck } from '../helpers/typecheck.js';
import { git } from './loop-helpers.js';

/**
 * Issue 21 item 1: a realtime voice app built with Vite, whose tools are imported from
 * '@openai/agents' (not the realtime entry) and reach a RealtimeAgent. init gives it the
 * browser-safe control (httpStore), so after the loop `vite build` still succeeds; with the SQLite
 * control instead, `check` reports the Node-only store reachable from the page, located (the
 * app seen failed `vite build` on it; this Vite version only warns, so the lint is what says it).
 * Needs `npm run build`.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const TOOLS = `import { tool } from '@openai/agents';
import { z } from 'zod';

export const getWeather = tool({
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => \`sunny in \${city}\`,
});
`;

const AGENT = `import { RealtimeAgent } from '@openai/agents/realtime';
import { getWeather } from './tools';

export const voiceAgent = new RealtimeAgent({ name: 'voice', instructions: 'Help with the weather.', tools: [getWeather] });
`;

const MAIN = `import { voiceAgent } from './agent';

document.querySelector('#app')!.textContent = voiceAgent.name;
`;

const FILES = {
  'package.json': JSON.stringify({
    name: 'voice-app',
    private: true,
    type: 'module',
    scripts: { build: 'vite build' },
    devDependencies: { vite: '8.3.8', typescript: '5.9.3' },
  }),
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'bundler',
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      lib: ['ES2022', 'DOM'],
      types: [],
    },
    include: ['src'],
  }),
  '.gitignore': 'node_modules\ndist\n',
  'index.html': '<!doctype html>\n<html><body><div id="app"></div><script type="module" src="/src/main.ts"></script></body></html>\n',
  'src/tools.ts': TOOLS,
  'src/agent.ts': AGENT,
  'src/main.ts': MAIN,
};

async function viteBuild(dir: string): Promise<string | undefined> {
  try {
    await build({ root: dir, logLevel: 'silent', configFile: false, build: { outDir: 'dist', emptyOutDir: true } });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

function app(): string {
  const dir = makeTempDir('vite-rt-');
  dirs.push(dir);
  writeFiles(dir, FILES);
  git(dir, 'init', '-q', '.');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'the app as it was');
  return dir;
}

describe('a browser realtime app gets the browser-safe control (issue 21 item 1)', () => {
  it('Vite + RealtimeAgent with tools from @openai/agents: httpStore, and vite build still succeeds', async () => {
    const dir = app();
    expect(await viteBuild(dir), 'the app builds before the loop').toBeUndefined();
    for (const args of [['init'], ['generate'], ['codemod', '--write'], ['check']]) {
      const r = await cli(args, { cwd: dir });
      expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
    }
    const control = readFileSync(path.join(dir, 'src/ctrlrun.control.ts'), 'utf8');
    expect(control).toContain('httpStore({ url: SERVE_URL, token: RUNTIME_TOKEN })');
    expect(control).not.toContain('sqlite');
    expect(readFileSync(path.join(dir, 'src/tools.ts'), 'utf8')).toContain("protectedTool('get_weather'");
    expect(typeCheck(dir)).toEqual([]);
    expect(await viteBuild(dir), 'vite build after the loop').toBeUndefined();
  }, 180_000);

  it('with the SQLite control, check reports it at the import the page reaches, located', async () => {
    const dir = app();
    expect((await cli(['init'], { cwd: dir })).code).toBe(0);
    const node = `import { createControl } from 'ctrlrun-gen/runtime';\nimport { sqliteStore } from 'ctrlrun-gen/runtime/sqlite';\n\nexport default createControl({ store: sqliteStore({ path: '.ctrlrun/state.db' }), identity: () => 'alice' });\n`;
    writeFileSync(path.join(dir, 'src/ctrlrun.control.ts'), node);
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    expect((await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir })).code).toBe(0);
    const r = await cli(['check', '--format', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    const found = (JSON.parse(r.stdout) as { findings: Array<{ ruleId: string; file: string; line: number; message: string }> }).findings.filter(
      (f) => f.ruleId === 'node-module-in-browser',
    );
    expect(found.map((f) => `${f.file}:${f.line}`)).toEqual(['src/ctrlrun.control.ts:2', 'src/tools.ts:1']);
    expect(found[1]!.message).toContain("imports 'ctrlrun-gen/runtime/sqlite' (line 2)");
  }, 180_000);
});
