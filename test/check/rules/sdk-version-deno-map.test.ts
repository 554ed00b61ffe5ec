import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../../src/check/engine.js';
import { eslintMessage, NAMESPACE } from '../../../src/eslint/index.js';
import { SDK_TESTED } from '../../../src/scan/sdk-surface.js';
import { REPO_ROOT } from '../../helpers/paths.js';
import { makeTempDir, removeDir, writeFiles } from '../../helpers/temp-repo.js';
import { eslintWith, reported } from '../../eslint/helpers.js';

/**
 * Session 30 (issue 40 item 4): `sdk-version-untested` reads the version a Deno import map pins
 * (`deno.json`/`deno.jsonc` `"imports"`, or the file its `"importMap"` names; the nearest config to
 * the file decides) and the one a dynamic `import('npm:…@x')` pins, as it reads a pin in the import.
 * The Node tree beside it has the tested SDK installed, so only the pin can be reported.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const REAL = JSON.parse(readFileSync(path.join(REPO_ROOT, 'node_modules/@openai/agents/package.json'), 'utf8')) as Record<string, unknown>;
const TESTED = REAL['version'] as string;

const AGENT = "import { Agent } from '@openai/agents';\nexport const agent = new Agent({ name: 'desk', instructions: 'x' });\n";

function tree(files: Record<string, string>): string {
  const dir = makeTempDir('sdk-deno-map-');
  dirs.push(dir);
  writeFiles(dir, {
    'package.json': '{ "name": "desk", "type": "module", "dependencies": { "@openai/agents": "*" } }\n',
    'ctrlrun.yaml': 'schema: ctrlrun.policy/v6\nactions:\n  lookup:\n    decision: allow\n',
    'ctrlrun.tools.yaml':
      'schema: ctrlrun.tools/v1\npolicy: ctrlrun.yaml\noutput: src/ctrlrun.generated.ts\ncontrol: src/ctrlrun.control.ts\ntools:\n  - tool: lookup\n    action: lookup\n',
    'node_modules/@openai/agents/package.json': JSON.stringify(REAL, null, 2),
    'src/agent.ts': AGENT,
    ...files,
  });
  return dir;
}

async function findings(dir: string, file = 'src/agent.ts') {
  const check = (await runCheck({ cwd: dir })).findings.filter((f) => f.ruleId === 'sdk-version-untested');
  const eslint = reported(await eslintWith(dir).lintFiles([file]), dir).filter((m) => m.ruleId === `${NAMESPACE}/sdk-version-untested`);
  return { check, eslint };
}

const place = (f: { file: string; line: number; column: number }) => `${f.file}:${f.line}:${f.column}`;

describe('sdk-version-untested: a Deno import map', () => {
  const configs: Array<[string, string]> = [
    ['deno.json', '{ "imports": { "@openai/agents": "npm:@openai/agents@0.2.0", "zod": "npm:zod@3" } }\n'],
    // comments and trailing commas: Deno reads its config so
    ['deno.jsonc', '{\n  // the SDK, pinned\n  "imports": {\n    "@openai/agents": "npm:@openai/agents@0.2.0", /* old */\n  },\n}\n'],
    // a prefix key maps every subpath
    ['deno.json', '{ "imports": { "@openai/agents/": "npm:/@openai/agents@0.2.0/", "@openai/agents": "npm:@openai/agents@0.2.0" } }\n'],
  ];
  for (const [name, text] of configs) {
    it(`invalid: ${name} maps @openai/agents to 0.2.0: at the import, with the map's target; ESLint the same`, async () => {
      const { check, eslint } = await findings(
        tree({ [`supabase/functions/${name}`]: text, 'supabase/functions/agent/index.ts': AGENT }),
        'supabase/functions/agent/index.ts',
      );
      expect(check.map(place)).toEqual(['supabase/functions/agent/index.ts:1:1']);
      expect(check[0]!.message).toContain(`This file loads the SDK by \`@openai/agents\`, which ${name} maps to \`npm:@openai/agents@0.2.0\``);
      expect(check[0]!.message).toContain("lacks what the runtime's doors rely on");
      expect(eslint.map((m) => `${place(m)} ${m.message}`)).toEqual([`supabase/functions/agent/index.ts:1:1 ${eslintMessage(check[0]!)}`]);
    });
  }

  it('invalid: a subpath through a prefix key; a newer pin', async () => {
    const { check } = await findings(
      tree({
        'deno.json': '{ "imports": { "@openai/agents/": "npm:/@openai/agents@0.21.0/" } }\n',
        'src/agent.ts': "import { OpenAIRealtimeWebRTC } from '@openai/agents/realtime';\nexport const t = OpenAIRealtimeWebRTC;\n",
      }),
    );
    expect(check.map(place)).toEqual(['src/agent.ts:1:1']);
    expect(check[0]!.message).toContain('which deno.json maps to `npm:/@openai/agents@0.21.0/realtime`');
    expect(check[0]!.message).toContain('a door this SDK added is not known');
  });

  it('invalid: "importMap" names a separate file; its pin is judged', async () => {
    const { check, eslint } = await findings(
      tree({ 'deno.json': '{ "importMap": "./import_map.json" }\n', 'import_map.json': '{ "imports": { "@openai/agents": "npm:@openai/agents@0.21.0" } }\n' }),
    );
    expect(check.map(place)).toEqual(['src/agent.ts:1:1']);
    expect(check[0]!.message).toContain('which import_map.json maps to `npm:@openai/agents@0.21.0`');
    expect(eslint).toHaveLength(1);
  });

  it('the nearest config decides: a function folder with its own tested pin is silent under a root config pinning an old one', async () => {
    const { check } = await findings(
      tree({
        'deno.json': '{ "imports": { "@openai/agents": "npm:@openai/agents@0.2.0" } }\n',
        'fn/deno.json': `{ "imports": { "@openai/agents": "npm:@openai/agents@${TESTED}" } }\n`,
        'fn/index.ts': AGENT,
      }),
    );
    expect(check.map(place)).toEqual(['src/agent.ts:1:1']);
  });

  const silent: Array<[string, Record<string, string>]> = [
    ['a tested pin', { 'deno.json': `{ "imports": { "@openai/agents": "npm:@openai/agents@${TESTED}" } }\n` }],
    ['a pin fixing no minor', { 'deno.json': '{ "imports": { "@openai/agents": "npm:@openai/agents@latest" } }\n' }],
    ['another package mapped', { 'deno.json': '{ "imports": { "@openai/agentsfoo": "npm:@openai/agents@0.2.0", "zod": "npm:zod@3" } }\n' }],
    ['a prefix key that does not start the import', { 'deno.json': '{ "imports": { "@openai/agents/realtime/": "npm:/@openai/agents@0.2.0/realtime/" } }\n' }],
    ['no imports at all', { 'deno.json': '{ "tasks": { "dev": "deno run main.ts" } }\n' }],
    ['a remote import map (not fetched)', { 'deno.json': '{ "importMap": "https://example.com/map.json" }\n' }],
    ['a config in another folder', { 'other/deno.json': '{ "imports": { "@openai/agents": "npm:@openai/agents@0.2.0" } }\n' }],
  ];
  for (const [name, files] of silent) {
    it(`valid: ${name}`, async () => {
      const { check, eslint } = await findings(tree(files));
      expect(check).toEqual([]);
      expect(eslint).toEqual([]);
    });
  }

  it('valid: a type-only import mapped to an old pin (no SDK code of that version runs)', async () => {
    const { check } = await findings(
      tree({
        'deno.json': '{ "imports": { "@openai/agents": "npm:@openai/agents@0.2.0" } }\n',
        'src/agent.ts': "import type { Tool } from '@openai/agents';\nexport const tools: Tool[] = [];\n",
      }),
    );
    expect(check).toEqual([]);
  });
});

describe('sdk-version-untested: a Deno config that does not parse', () => {
  const broken: Array<[string, Record<string, string>, string, string]> = [
    ['a missing value', { 'deno.json': '{\n  "imports": {\n    "@openai/agents": \n  }\n}\n' }, 'deno.json:4:3', 'does not parse ('],
    ['a top level that is no object', { 'deno.jsonc': '["@openai/agents"]\n' }, 'deno.jsonc:1:1', 'is not a JSON object at its top level'],
    [
      '"imports" that is no object',
      { 'deno.json': '{ "imports": ["npm:@openai/agents@0.2.0"] }\n' },
      'deno.json:1:1',
      'has an "imports" that is not an object',
    ],
    [
      'a missing import map',
      { 'deno.json': '{ "importMap": "./nowhere.json" }\n' },
      'deno.json:1:1',
      'names an import map (`nowhere.json`) that cannot be read',
    ],
    [
      'an import map that does not parse',
      { 'deno.json': '{ "importMap": "map.json" }\n', 'map.json': '{ "imports": { ,, } }' },
      'map.json:1:',
      'does not parse (',
    ],
  ];
  for (const [name, files, at, says] of broken) {
    it(`a located warning, no internal error: ${name}`, async () => {
      const dir = tree({ ...files, 'src/tools.ts': AGENT.replace('desk', 'tools') });
      const result = await runCheck({ cwd: dir });
      const check = result.findings.filter((f) => f.ruleId === 'sdk-version-untested');
      // one finding though two files below the config use the SDK
      expect(check).toHaveLength(1);
      expect(place(check[0]!)).toContain(at);
      expect(check[0]!.severity).toBe('warning');
      expect(check[0]!.message).toContain(says);
      expect(check[0]!.message).toContain('the SDK version its import map pins is not checked');
      expect(result.findings.filter((f) => f.ruleId.includes('internal'))).toEqual([]);
    });
  }
});

describe('sdk-version-untested: a dynamic import pins the SDK', () => {
  it("invalid: `await import('npm:@openai/agents@0.21.0')` at the call; ESLint the same", async () => {
    const { check, eslint } = await findings(
      tree({
        'src/agent.ts':
          "export async function make() {\n  const { Agent } = await import('npm:@openai/agents@0.21.0');\n  return new Agent({ name: 'desk', instructions: 'x' });\n}\n",
      }),
    );
    expect(check.map(place)).toEqual(['src/agent.ts:2:27']);
    expect(check[0]!.message).toContain('This file loads the SDK by `npm:@openai/agents@0.21.0`');
    expect(eslint.map(place)).toEqual(['src/agent.ts:2:27']);
  });

  it('invalid: a dynamic import of the bare name that deno.json maps to an old pin', async () => {
    const { check } = await findings(
      tree({
        'deno.json': '{ "imports": { "@openai/agents": "npm:@openai/agents@0.2.0" } }\n',
        'src/agent.ts': "export const load = async () => (await import('@openai/agents')).Agent;\n",
      }),
    );
    expect(check.map(place)).toEqual(['src/agent.ts:1:40']);
  });

  it(`valid: a dynamic import of a tested pin (${SDK_TESTED.newest})`, async () => {
    const { check } = await findings(tree({ 'src/agent.ts': `export const load = async () => (await import('npm:@openai/agents@${TESTED}')).Agent;\n` }));
    expect(check).toEqual([]);
  });
});

describe('sdk-version-untested: a folder named deno.json', () => {
  it('is no config: nothing is said of it, and the config above it is read', async () => {
    const dir = tree({
      'supabase/functions/deno.json': '{ "imports": { "@openai/agents": "npm:@openai/agents@0.2.0" } }\n',
      'supabase/functions/agent/deno.json/readme.md': 'a folder, not a config\n',
      'supabase/functions/agent/index.ts': AGENT,
    });
    const { check, eslint } = await findings(dir, 'supabase/functions/agent/index.ts');
    expect(check.map((f) => `${place(f)} ${f.message}`)).toEqual([expect.stringMatching(/^supabase\/functions\/agent\/index\.ts:1:\d+ .*0\.2\.0/)]);
    expect(eslint).toHaveLength(1);
  });
});
