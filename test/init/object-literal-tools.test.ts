import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * Issue 21 item 8: a function tool written by hand as an object literal (`{ type: 'function',
 * name, invoke }`) is a door init cannot map; init says so (as check's object-literal-tool does)
 * instead of "Found 0 new tool names" and nothing else. Needs `npm run build`.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

const PARAMS = "{ type: 'object', properties: {}, required: [], additionalProperties: false }";
const AGENT = `import { Agent, type FunctionTool } from '@openai/agents';

const lookup: FunctionTool = {
  type: 'function',
  name: 'lookup',
  description: 'Look up.',
  parameters: ${PARAMS},
  strict: true,
  invoke: async () => 'x',
  needsApproval: async () => false,
  isEnabled: async () => true,
};

export const agent = new Agent({ name: 'a', tools: [lookup, { type: 'function', name: \`inline_\${1}\`, description: '', parameters: ${PARAMS}, strict: true, invoke: async () => 'y', needsApproval: async () => false, isEnabled: async () => true }] });
`;

describe('init notes function tools written as object literals', () => {
  it('each one, located, named when its name is a literal', async () => {
    const dir = makeTempDir('init-objtool-');
    dirs.push(dir);
    writeFiles(dir, { 'package.json': JSON.stringify({ name: 'o', type: 'module' }), 'src/agent.ts': AGENT });
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Found 0 new tool names');
    // in the codemod's words (session 32: init's notes and the codemod's conflicts are one list)
    const notes = r.stdout.split('\n').filter((l) => l.includes('written as an object literal with its own `invoke`'));
    expect(notes.map((l) => l.slice(0, l.indexOf(': written')).replace(/:\d+: function/, ': function'))).toEqual([
      "note: src/agent.ts:3: function tool 'lookup'",
      'note: src/agent.ts:14: function tool',
    ]);
    expect(r.stdout).toContain("hint: Build it with the SDK's `tool({ name, description, parameters, execute })`");
  });

  it('an object with type and invoke that is not a function tool (a spread of a tool) is not noted here', async () => {
    const dir = makeTempDir('init-objtool-');
    dirs.push(dir);
    writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'o', type: 'module' }),
      'src/agent.ts':
        "import { Agent } from '@openai/agents';\nexport const agent = new Agent({ name: 'a', tools: [] });\nexport const cfg = { type: 'hosted', invoke: 1 };\n",
    });
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('object literal');
  });
});
