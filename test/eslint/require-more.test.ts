import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { parityAcross } from './helpers.js';

/**
 * Session 33 (test/check/red33-require-more.test.ts): doors exported by `Object.assign(module.exports,
 * …)` and an `exports = module.exports = …` chain, written through `require(...)` in place and a
 * `require` inside a function and an ES default import read through a member, and an export check cannot list (fail closed). The plugin reads the
 * same scan, so each gives check's finding at check's place with check's message.
 */
const DOORS = [
  "const { MCPServerStdio } = require('@openai/agents');",
  "const { protectMcpServer, protectShellTool } = require('./ctrlrun.generated.js');",
  "const github = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
  "const shellTool = protectShellTool('host.shell', { shell: {} });",
];
const FILES: Record<string, string> = {
  'src/assign33.js': [...DOORS, 'Object.assign(module.exports, { github });', ''].join('\n'),
  'src/chain33.js': [...DOORS, 'exports = module.exports = { shellTool };', ''].join('\n'),
  'src/opaque33.js': [...DOORS, 'Object.assign(exports, makeDoors());', ''].join('\n'),
  'src/esm33.ts': ["import d from './assign33.js';", 'd.github.toolInputGuardrails = [];', ''].join('\n'),
  'src/ops33.cjs': [
    "require('./assign33').github.toolInputGuardrails = [];",
    'function open() {',
    "  const { shellTool } = require('./chain33');",
    '  shellTool.shell = () => undefined;',
    '}',
    "const { github } = require('./opaque33');",
    'github.toolInputGuardrails = [];',
    'open();',
    '',
  ].join('\n'),
};
const RULES = ['invoke-replaced', 'mcp-server-unguarded'];

describe('more CommonJS doors across modules, in ESLint', () => {
  const cwd = copyFixture('check/open-doors/repo', 'eslint-require-more-');
  afterAll(() => removeDir(cwd));

  it('each is reported as check reports it', async () => {
    for (const [file, text] of Object.entries(FILES)) writeFileSync(path.join(cwd, file), text);
    const files = ['src/ops33.cjs', 'src/esm33.ts'];
    const { findings: check, eslint, check: expected } = await parityAcross(cwd, files, RULES);
    expect(check.map((f) => `${f.file}:${f.line} ${f.ruleId}${f.message.includes('cannot tell') ? ' unresolved' : ''}`).sort()).toEqual([
      'src/esm33.ts:2 mcp-server-unguarded',
      'src/ops33.cjs:1 mcp-server-unguarded',
      'src/ops33.cjs:4 invoke-replaced',
      'src/ops33.cjs:7 mcp-server-unguarded unresolved',
    ]);
    expect(eslint).toEqual(expected);
  });
});
