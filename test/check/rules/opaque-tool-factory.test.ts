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
      name: 'a require made by createRequire, held in a variable',
      code: lines("import module from 'node:module';", 'const req = module.createRequire(import.meta.url);', "const agents = req('@openai/agents-core');"),
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
