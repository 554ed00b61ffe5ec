import { lines, ruleTester } from '../rule-tester.js';

// Issue 21, item 8: the doors a new user's repos used that check did not see (with the cases of the rounds before).

// cases of doors
{
  const SDK = "import { tool } from '@openai/agents';";

  const NS = "import * as sdk from '@openai/agents';";

  ruleTester('opaque-tool-factory', {
    valid: [
      { name: 'a direct call', code: lines(SDK, "tool({ name: 'refund' });") },
      { name: 'an alias, a comma callee, a member', code: lines(NS, 'const t = sdk.tool;', "(0, sdk.tool)({ name: 'a' });", "t({ name: 'b' });") },
      {
        name: 'an awaited dynamic import',
        code: lines('export async function f() {', "  const { tool } = await import('@openai/agents');", "  return tool({ name: 'x' });", '}'),
      },
      { name: 'a re-export and a type query', code: lines(SDK, 'export { tool };', 'type T = typeof tool;') },
      { name: 'a foreign tool passed around', code: lines("import { tool } from 'ai';", 'register(tool);') },
      { name: 'suppressed with a reason', code: lines(SDK, '// ctrlrun-ignore opaque-tool-factory -- only logs the factory name', 'log(tool);') },
    ],
    invalid: [
      { name: 'the factory passed on as a value', code: lines(SDK, 'register(tool);'), errors: [{ line: 2, column: 10, mentions: 'passed on as a value' }] },
      { name: 'the factory in an array', code: lines(SDK, 'export const makers = [tool];'), errors: [{ line: 2, column: 24 }] },
      { name: 'bind', code: lines(SDK, 'const make = tool.bind(null);'), errors: [{ line: 2, column: 14, mentions: 'bind' }] },
      {
        name: 'a computed key',
        code: lines(NS, "const k = 'to' + 'ol';", "sdk[k]({ name: 'x' });"),
        errors: [{ line: 3, column: 1, mentions: 'computed key' }],
      },
      { name: 'the namespace passed on', code: lines(NS, 'setup(sdk);'), errors: [{ line: 2, column: 7 }] },
      {
        // a name only a nested scope binds to the factory is followed where it is read
        name: 'an alias made in a function, passed on',
        code: lines(NS, 'function setup() {', '  const make = sdk.tool;', '  register(make);', '}'),
        errors: [{ line: 4, column: 12, mentions: 'passed on as a value' }],
      },
      {
        name: 'a dynamic import that is not awaited',
        code: lines("import('@openai/agents').then((m) => m.tool({ name: 'x' }));"),
        errors: [{ line: 1, column: 1, mentions: 'not awaited' }],
      },
    ],
  });
}

// cases of adoption-doors
ruleTester('opaque-tool-factory', {
  valid: [
    {
      name: 'createRequire for another package',
      code: lines("import { createRequire } from 'node:module';", 'const require2 = createRequire(import.meta.url);', "const _ = require2('lodash');"),
    },
    {
      name: "a plugin loader's computed require (nothing says it is the SDK)",
      code: lines("const plugin = require(path.join(__dirname, 'plugins', name));", "import '@openai/agents';"),
    },
    { name: 'a literal require of the SDK is followed, not opaque', code: lines("const { tool } = require('@openai/agents');", "tool({ name: 'refund' });") },
    { name: 'a computed import of a local file', code: lines("import { Agent } from '@openai/agents';", 'const mod = await import(`./routes/${route}.js`);') },
  ],
  invalid: [
    {
      name: "createRequire(import.meta.url)('@openai/agents')",
      code: lines(
        "import { createRequire } from 'node:module';",
        "const { tool } = createRequire(import.meta.url)('@openai/agents');",
        "tool({ name: 'refund' });",
      ),
      errors: [{ line: 2, column: 18, mentions: 'createRequire' }],
    },
    {
      // issue 40: the name is read where it is called, not at its first declaration anywhere in the file
      name: "a require made by createRequire in this function, though another function's `load` is no require; a parameter keeps the file's",
      code: lines(
        "import { createRequire } from 'node:module';",
        'function other() { const load = (s: string) => s; return load; }',
        "export function sdk() { const load = createRequire(import.meta.url); return load('@openai/agents'); }",
        'export function main() { const req = createRequire(import.meta.url); return helper(req); }',
        "function helper(req: NodeRequire) { return req('@openai/agents'); }",
      ),
      errors: [
        { line: 3, column: 77, mentions: 'createRequire' },
        { line: 5, column: 44, mentions: 'createRequire' },
      ],
    },
    {
      name: 'a require made by createRequire, given to a `let` after its declaration',
      code: lines(
        "import { createRequire } from 'node:module';",
        "export function sdk() { let load = (s: string) => s; load = createRequire(import.meta.url); return load('@openai/agents'); }",
      ),
      errors: [{ line: 2, column: 100, mentions: 'createRequire' }],
    },
    {
      name: 'a require made by createRequire, held in a variable',
      code: lines("import module from 'node:module';", 'const req = module.createRequire(import.meta.url);', "const agents = req('@openai/agents-core');"),
      errors: [{ line: 3, column: 16, mentions: 'createRequire' }],
    },
    {
      // the scan follows callees to createRequire only in a file whose text may name it: an escape counts
      name: 'a require made by createRequire named through an escape',
      code: lines("import * as m from 'node:module';", 'const req = m.\\u0063reateRequire(import.meta.url);', "const agents = req('@openai/agents');"),
      errors: [{ line: 3, column: 16, mentions: 'createRequire' }],
    },
    {
      name: 'a computed require() specifier',
      code: lines("const agents = require('@openai/' + 'agents');", "agents.tool({ name: 'refund' });"),
      errors: [{ line: 1, column: 16, mentions: 'computed' }],
    },
    {
      name: 'a computed specifier from a const and a template',
      code: lines("const SCOPE = '@openai';", 'const agents = await import(`${SCOPE}/agents`);', "const other = require([SCOPE, 'agents'].join('/'));"),
      errors: [
        { line: 2, column: 22, mentions: 'import() specifier is computed' },
        { line: 3, column: 15, mentions: 'require() specifier is computed' },
      ],
    },
  ],
});

// Red team #5 (issue 35): the factory read through a namespace import, `require(...)` or an awaited
// `import()` escapes where a bare `tool` escapes; the same walk decides for every form.
{
  const NS = "import * as sdk from '@openai/agents';";
  ruleTester('opaque-tool-factory', {
    valid: [
      { name: 'sdk.tool called, aliased, destructured', code: lines(NS, "sdk.tool({ name: 'a' });", 'const t = sdk.tool;', 'const { tool } = sdk;') },
      { name: 'a member of the namespace that makes no door, stored', code: lines(NS, 'class K { u = sdk.user; }', 'const o = { u: sdk.user };') },
      { name: 'sdk.tool.call read where it is called', code: lines(NS, "sdk.tool.call(null, { name: 'a' });") },
    ],
    invalid: [
      {
        name: 'sdk.tool in a class field, an object property, a return',
        code: lines(NS, 'class Toolbox {', '  make = sdk.tool;', '}', 'const kit = { make: sdk.tool };', 'function factory() {', '  return sdk.tool;', '}'),
        errors: [
          { line: 3, column: 10, mentions: "`sdk.tool` leads to the SDK's tool factory" },
          { line: 5, column: 21, mentions: 'passed on as a value' },
          { line: 7, column: 10 },
        ],
      },
      {
        name: "require('@openai/agents').tool stored in an object",
        code: lines("const kit = { make: require('@openai/agents').tool };"),
        errors: [{ line: 1, column: 21, mentions: 'passed on as a value' }],
      },
      {
        name: 'a member of an awaited import() passed on',
        code: lines('export async function f() {', "  register((await import('@openai/agents')).tool);", '}'),
        errors: [{ line: 2, column: 12 }],
      },
      {
        name: 'sdk.tool.bind and sdk.tool.call read as a value',
        code: lines(NS, 'const a = sdk.tool.bind(null);', 'const b = sdk.tool.call;'),
        errors: [
          { line: 2, column: 11, mentions: 'bind' },
          { line: 3, column: 11, mentions: '`call` is read as a value' },
        ],
      },
      {
        name: 'another door export passed on: handoff, Agent',
        code: lines("import { Agent, handoff } from '@openai/agents';", 'register(handoff);', 'const kinds = [Agent];'),
        errors: [
          { line: 2, column: 10, mentions: '`handoff`, which makes doors' },
          { line: 3, column: 16, mentions: '`Agent`, which makes doors' },
        ],
      },
    ],
  });
}
