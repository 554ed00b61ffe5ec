import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { parityAcross } from './helpers.js';

/**
 * Session 34 (test/check/red34-require-locals.test.ts): CommonJS doors exported through a local
 * holding `module.exports`, in an IIFE, and in a named function (an export check cannot tell), and
 * an ES module whose own local is named `exports`. The plugin reads the same scan, so each gives
 * check's finding at check's place with check's message.
 */
const DOORS = [
  "const { MCPServerStdio } = require('@openai/agents');",
  "const { protectMcpServer, protectShellTool } = require('./ctrlrun.generated.js');",
  "const github = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
  "const shellTool = protectShellTool('host.shell', { shell: {} });",
];
const FILES: Record<string, string> = {
  'src/alias34.js': [...DOORS, 'const e = module.exports;', 'e.github = github;', ''].join('\n'),
  'src/iife34.js': [...DOORS, '(function () {', '  exports.shellTool = shellTool;', '})();', ''].join('\n'),
  'src/fn34.js': [...DOORS, 'function init() {', '  exports.github = github;', '}', 'module.exports.init = init;', ''].join('\n'),
  'src/esm34.ts': [
    "import { MCPServerStdio } from '@openai/agents';",
    "import { protectMcpServer } from './ctrlrun.generated.js';",
    "export const github = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
    'const exports = {};',
    'register(exports);',
    '',
  ].join('\n'),
  'src/ops34.cjs': [
    "require('./alias34').github.toolInputGuardrails = [];",
    "require('./iife34').shellTool.shell = () => undefined;",
    "require('./fn34').github.toolInputGuardrails = [];",
    '',
  ].join('\n'),
  'src/ops34.ts': ["import { github } from './esm34.js';", 'github.toolInputGuardrails = [];', ''].join('\n'),
};
const RULES = ['invoke-replaced', 'mcp-server-unguarded'];

describe('CommonJS exports in locals and functions, in ESLint', () => {
  const cwd = copyFixture('check/open-doors/repo', 'eslint-require-locals-');
  afterAll(() => removeDir(cwd));

  it('each is reported as check reports it', async () => {
    for (const [file, text] of Object.entries(FILES)) writeFileSync(path.join(cwd, file), text);
    const files = ['src/ops34.cjs', 'src/ops34.ts'];
    const { findings: check, eslint, check: expected } = await parityAcross(cwd, files, RULES);
    expect(check.map((f) => `${f.file}:${f.line} ${f.ruleId}${f.message.includes('cannot tell') ? ' unresolved' : ''}`).sort()).toEqual([
      'src/ops34.cjs:1 mcp-server-unguarded',
      'src/ops34.cjs:2 invoke-replaced',
      'src/ops34.cjs:3 mcp-server-unguarded unresolved',
      'src/ops34.ts:2 mcp-server-unguarded',
    ]);
    expect(eslint).toEqual(expected);
  });
});
