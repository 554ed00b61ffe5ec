import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { parityAcross } from './helpers.js';

/**
 * Session 35 (test/check/red35-require-this.test.ts): a CommonJS door exported through top-level
 * `this` (also in an IIFE called with it, and in a callback: an export check cannot tell), and a
 * local given the exports object and then another value. The plugin reads the same scan, so each
 * gives check's finding at check's place with check's message, and the local's write none.
 */
const DOORS = [
  "const { MCPServerStdio } = require('@openai/agents');",
  "const { protectMcpServer, protectShellTool } = require('./ctrlrun.generated.js');",
  "const github = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
  "const shellTool = protectShellTool('host.shell', { shell: {} });",
];
const FILES: Record<string, string> = {
  'src/this35.js': [...DOORS, 'this.github = github;', ''].join('\n'),
  'src/call35.js': [...DOORS, '(function () {', '  this.shellTool = shellTool;', '}).call(this);', ''].join('\n'),
  'src/later35.js': [...DOORS, 'setup(() => {', '  this.github = github;', '});', ''].join('\n'),
  'src/moved35.js': [...DOORS, 'let e = module.exports;', 'e = {};', 'e.github = github;', 'module.exports.shellTool = shellTool;', ''].join('\n'),
  // an IIFE's own `d` beside the top's, and a getter of a `let` given a door later: "cannot tell"
  'src/other35.js': ['exports.github = 1;', ''].join('\n'),
  'src/iife35.js': ["const d = require('./other35');", '(function () {', "  const d = require('./this35');", '  exports.gh = d.github;', '})();', ''].join(
    '\n',
  ),
  'src/let35.js': [
    "const d = require('./other35');",
    'let gh = d.github;',
    "Object.defineProperty(exports, 'gh', { get: () => gh });",
    "exports.init = () => { gh = require('./this35').github; };",
    '',
  ].join('\n'),
  'src/ops35.cjs': [
    "require('./this35').github.toolInputGuardrails = [];",
    "require('./call35').shellTool.shell = () => undefined;",
    "require('./later35').github.toolInputGuardrails = [];",
    "require('./moved35').github.toolInputGuardrails = [];",
    "require('./iife35').gh.toolInputGuardrails = [];",
    "require('./let35').gh.toolInputGuardrails = [];",
    '',
  ].join('\n'),
};
const RULES = ['invoke-replaced', 'mcp-server-unguarded'];

describe('CommonJS exports through `this` and a local given another value, in ESLint', () => {
  const cwd = copyFixture('check/open-doors/repo', 'eslint-require-this-');
  afterAll(() => removeDir(cwd));

  it('each is reported as check reports it', async () => {
    for (const [file, text] of Object.entries(FILES)) writeFileSync(path.join(cwd, file), text);
    const { findings: check, eslint, check: expected } = await parityAcross(cwd, ['src/ops35.cjs'], RULES);
    expect(check.map((f) => `${f.file}:${f.line} ${f.ruleId}${f.message.includes('cannot tell') ? ' unresolved' : ''}`).sort()).toEqual([
      'src/ops35.cjs:1 mcp-server-unguarded',
      'src/ops35.cjs:2 invoke-replaced',
      'src/ops35.cjs:3 mcp-server-unguarded unresolved',
      'src/ops35.cjs:5 mcp-server-unguarded unresolved',
      'src/ops35.cjs:6 mcp-server-unguarded unresolved',
    ]);
    expect(eslint).toEqual(expected);
  });
});
