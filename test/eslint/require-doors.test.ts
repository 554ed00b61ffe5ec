import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { parityAcross } from './helpers.js';

/**
 * Session 33 (test/check/red33-require-doors.test.ts): doors of a CommonJS module (`module.exports =
 * { … }`, `exports.x = …`) written through `require` by name and as a whole. The plugin reads the
 * same scan, so each gives check's finding at check's place with check's message.
 */
const FILES: Record<string, string> = {
  'src/doors33.js': [
    "const { MCPServerStdio } = require('@openai/agents');",
    "const { protectMcpServer, protectShellTool } = require('./ctrlrun.generated.js');",
    "const github = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
    "const shellTool = protectShellTool('host.shell', { shell: {} });",
    'module.exports = { github };',
    'exports.shellTool = shellTool;',
    '',
  ].join('\n'),
  'src/ops33.cjs': [
    "const { github } = require('./doors33');",
    "const doors = require('./doors33');",
    'github.toolInputGuardrails = [];',
    'doors.shellTool.shell = () => undefined;',
    '',
  ].join('\n'),
};
const RULES = ['invoke-replaced', 'mcp-server-unguarded'];

describe('doors required across CommonJS modules, in ESLint', () => {
  const cwd = copyFixture('check/open-doors/repo', 'eslint-require-doors-');
  afterAll(() => removeDir(cwd));

  it('each is reported as check reports it', async () => {
    for (const [file, text] of Object.entries(FILES)) writeFileSync(path.join(cwd, file), text);
    const files = ['src/ops33.cjs'];
    const { findings: check, eslint, check: expected } = await parityAcross(cwd, files, RULES);
    expect(check.map((f) => `${f.file}:${f.line} ${f.ruleId}${f.message.includes('cannot tell') ? ' unresolved' : ''}`).sort()).toEqual([
      'src/ops33.cjs:3 mcp-server-unguarded',
      'src/ops33.cjs:4 invoke-replaced',
    ]);
    expect(eslint).toEqual(expected);
  });
});
