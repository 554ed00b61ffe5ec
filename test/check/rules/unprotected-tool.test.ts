import { lines, ruleTester } from '../rule-tester.js';

const IMPORT = "import { tool } from '@openai/agents';";

ruleTester('unprotected-tool', {
  valid: [
    {
      name: 'a protected tool',
      code: lines(
        "import { protectedTool } from './ctrlrun.generated.js';",
        "export const r = protectedTool('stripe.refund', { name: 'refund', execute: async () => 'ok' });",
      ),
    },
    {
      name: 'an unmapped SDK tool is unmapped-tool, not this',
      code: lines(IMPORT, "export const t = tool({ name: 'send_email', execute: async () => 'ok' });"),
    },
    { name: 'tool() from another package', code: lines("import { tool } from 'ai';", "export const t = tool({ name: 'refund', execute: async () => 'ok' });") },
    { name: 'a local function named tool', code: lines('function tool(o: unknown) { return o; }', "export const t = tool({ name: 'refund' });") },
    {
      name: 'suppressed with a reason',
      code: lines(
        IMPORT,
        '// ctrlrun-ignore unprotected-tool -- read-only, reviewed',
        "export const t = tool({ name: 'refund', errorFunction: null, execute: async () => 'ok' });",
      ),
    },
  ],
  invalid: [
    {
      name: 'an ambient `declare const tool` in a namespace does not hide the SDK import (issue 35)',
      code: lines(
        IMPORT,
        'namespace Desk {',
        '  declare const tool: (o: object) => object;',
        "  export const r = tool({ name: 'refund', execute: async () => 'ok' });",
        '}',
      ),
      errors: [{ line: 4, column: 20, mentions: "protectedTool('stripe.refund'" }],
    },
    {
      name: 'a mapped SDK tool (named import)',
      code: lines(IMPORT, "export const r = tool({ name: 'refund', execute: async () => 'ok' });"),
      errors: [{ line: 2, column: 18, mentions: "protectedTool('stripe.refund'" }],
    },
    {
      name: 'aliased import',
      code: lines("import { tool as t } from '@openai/agents';", "export const r = t({ name: 'lookup_charge', execute: async () => 'ok' });"),
      errors: [{ line: 2, column: 18, mentions: 'codemod' }],
    },
    {
      name: 'namespace import',
      code: lines("import * as agents from '@openai/agents-core';", "export const r = agents.tool({ name: 'refund', execute: async () => 'ok' });"),
      errors: [{ line: 2, column: 18 }],
    },
    {
      name: 'CommonJS require',
      file: 'src/tools.cjs',
      code: lines("const { tool } = require('@openai/agents');", "module.exports = tool({ name: 'close_account', execute: async () => 'ok' });"),
      errors: [{ line: 2, column: 18 }],
    },
    {
      name: 'a name that is not a literal cannot be mapped',
      code: lines(IMPORT, 'let n = "refund";', 'export const r = tool({ name: n, execute: async () => "ok" });'),
      errors: [{ line: 3, column: 18, mentions: 'cannot be resolved' }],
    },
    {
      name: 'a same-file const name resolves like a literal (mapped: the codemod fixes it)',
      code: lines(IMPORT, 'const n = "refund";', 'export const r = tool({ name: n, execute: async () => "ok" });'),
      errors: [{ line: 3, column: 18, mentions: "mapped to action 'stripe.refund'" }],
    },
    {
      name: 'no project: every SDK tool is unprotected',
      project: null,
      code: lines(IMPORT, "export const r = tool({ name: 'send_email', execute: async () => 'ok' });"),
      errors: [{ line: 2, column: 18 }],
    },
    {
      name: 'a suppression for another rule does not hide it',
      code: lines(IMPORT, '// ctrlrun-ignore unmapped-tool -- not this one', "export const r = tool({ name: 'refund', execute: async () => 'ok' });"),
      errors: [{ line: 3, column: 18 }],
    },
  ],
});
