import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

const weather = (entry: string) => `import { tool } from '${entry}';
import { z } from 'zod';

export const getWeather = tool({
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => \`sunny in \${city}\`,
});
`;

const lookup = `import { tool } from '@openai/agents';
import { z } from 'zod';

export const lookup = tool({ name: 'lookup', description: 'Look up', parameters: z.object({ id: z.string() }), execute: async ({ id }) => id });
`;

const pkg = (name: string) => JSON.stringify({ name, private: true, type: 'module' });
const TSCONFIG = JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } });

function workspace(files: Record<string, string>): string {
  const dir = makeTempDir('init-rt-');
  dirs.push(dir);
  writeFiles(dir, { 'package.json': JSON.stringify({ name: 'root', private: true, workspaces: ['examples/*'] }), ...files });
  return dir;
}

describe('init chooses httpStore only for a package whose tools run in a realtime session (issue 13)', () => {
  it('a tool name shared with a realtime package does not carry the realtime store into a Node package', async () => {
    // as in the SDK's examples: realtime-demo and basic both declare get_weather
    const dir = workspace({
      'examples/realtime-demo/package.json': pkg('realtime-demo'),
      'examples/realtime-demo/tsconfig.json': TSCONFIG,
      'examples/realtime-demo/src/main.ts': weather('@openai/agents/realtime'),
      'examples/basic/package.json': pkg('basic'),
      'examples/basic/tsconfig.json': TSCONFIG,
      'examples/basic/tools.ts': weather('@openai/agents'),
    });
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'examples/realtime-demo/src/ctrlrun.control.ts'), 'utf8')).toContain(
      'httpStore({ url: SERVE_URL, token: RUNTIME_TOKEN })',
    );
    const basic = readFileSync(path.join(dir, 'examples/basic/ctrlrun.control.ts'), 'utf8');
    expect(basic).toContain("sqliteStore({ path: '.ctrlrun/state.db' })");
    expect(basic).not.toContain('httpStore');
    // the realtime note is printed once, for the realtime package only
    expect(r.stdout.match(/its tools run in a realtime session/g)).toHaveLength(1);
  });

  it('a package where only some tools come from the realtime entry keeps the Node control and names the realtime ones', async () => {
    const dir = workspace({
      'examples/docs/package.json': pkg('docs'),
      'examples/docs/tsconfig.json': TSCONFIG,
      'examples/docs/voice/defineTool.ts': weather('@openai/agents/realtime'),
      'examples/docs/tools/lookup.ts': lookup,
    });
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const control = readFileSync(path.join(dir, 'examples/docs/ctrlrun.control.ts'), 'utf8');
    expect(control).toContain('sqliteStore');
    expect(control).not.toContain('httpStore');
    expect(r.stdout).toContain('note: 1 tool() declaration of this package comes from the realtime entry (examples/docs/voice/defineTool.ts:4)');
  });
});

describe('a Vite realtime client in a root of sibling packages (no workspaces field; issue 21)', () => {
  const client = {
    'package.json': JSON.stringify({ name: 'demo', private: true, scripts: { postinstall: 'npm --prefix client install' } }),
    'server/package.json': JSON.stringify({ name: 'server', private: true, type: 'module', dependencies: { express: '^4' } }),
    'server/src/index.js': "import express from 'express';\nexpress().listen(3001);\n",
    'client/package.json': JSON.stringify({
      name: 'client',
      private: true,
      type: 'module',
      dependencies: { '@openai/agents-realtime': '^0.1.0' },
      devDependencies: { vite: '^5.4.0' },
    }),
    'client/vite.config.js': 'export default {};\n',
    'client/src/main.jsx': "import { connect } from './lib/agent.js';\nconnect();\n",
  };
  const session = (tools: string) =>
    `import { RealtimeAgent, RealtimeSession } from '@openai/agents-realtime';\n${tools === '' ? '' : "import { getWeather } from './tools.js';\n"}export function connect() {\n  const agent = new RealtimeAgent({ name: 'Assistant', instructions: 'x'${tools} });\n  return new RealtimeSession(agent, { model: 'gpt-realtime' });\n}\n`;

  it('tools from @openai/agents-realtime: found, and the client gets the httpStore control', async () => {
    const dir = makeTempDir('rt-siblings-');
    dirs.push(dir);
    writeFiles(dir, { ...client, 'client/src/lib/tools.js': weather('@openai/agents-realtime'), 'client/src/lib/agent.js': session(', tools: [getWeather]') });
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Found 1 new tool name in 1 call');
    const control = readFileSync(path.join(dir, 'client/src/ctrlrun.control.js'), 'utf8');
    expect(control).toContain('httpStore(');
    expect(control).not.toContain('sqlite');
  });

  it('no tool() call (tools as plain objects): the files still go to the client, with the httpStore control, not to the root for Node', async () => {
    const dir = makeTempDir('rt-siblings-none-');
    dirs.push(dir);
    writeFiles(dir, { ...client, 'client/src/lib/agent.js': session('') });
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('wrote client/ctrlrun.yaml');
    expect(readFileSync(path.join(dir, 'client/src/ctrlrun.control.js'), 'utf8')).toContain('httpStore(');
    expect(() => readFileSync(path.join(dir, 'ctrlrun.yaml'))).toThrow();
  });
});
