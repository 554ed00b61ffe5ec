import { lines, ruleTester } from '../rule-tester.js';

const SDK = "import { tool } from '@openai/agents';";

ruleTester('object-literal-tool', {
  valid: [
    { name: 'an SDK tool()', code: lines(SDK, "export const t = tool({ name: 'refund', execute: async () => 'ok' });") },
    { name: "type: 'function' with no invoke", code: lines("export const schema = { type: 'function', name: 'refund' };") },
    {
      name: 'type held by a let (not a const), or by a const of another value',
      code: lines(
        "let kind = 'function';",
        "const OTHER = 'custom';",
        "export const a = { type: kind, invoke: async () => 'ok' };",
        "export const b = { type: OTHER, invoke: async () => 'ok' };",
      ),
    },
    {
      name: "an inner const shadows the outer 'function'",
      code: lines("const T = 'function';", 'export function f() {', "  const T = 'custom';", "  return { type: T, invoke: async () => 'ok' };", '}'),
    },
    {
      name: "a class implementing the app's own Tool interface, with an invoke but no type 'function'",
      code: lines(
        'interface Tool { invoke(): Promise<string> }',
        "export class Local implements Tool { type = 'command'; async invoke() { return 'ok'; } }",
        "export class Static { static type = 'function'; static invoke() { return 'ok'; } }",
        // an app's own FunctionTool type (not the SDK's), and a class with type 'function' but no invoke (a schema)
        "import type { FunctionTool } from './my-tools';",
        "export class Described implements FunctionTool { kind = 'function'; async invoke() { return 'ok'; } }",
        "export class Spec { type = 'function'; name = 'spec'; }",
      ),
    },
  ],
  invalid: [
    {
      name: 'a hand-made function tool in an Agent',
      code: lines(
        "import { Agent } from '@openai/agents';",
        "const refund = { type: 'function', name: 'refund', parameters: {}, strict: true, invoke: async () => 'ok', needsApproval: async () => false };",
        "new Agent({ name: 'desk', tools: [refund] });",
      ),
      errors: [{ line: 2, column: 16, mentions: "'refund'" }],
    },
    {
      name: 'inline in the tools array, with a method invoke',
      code: lines(
        "import { Agent } from '@openai/agents';",
        "new Agent({ name: 'd', tools: [{ type: 'function', name: 'x', async invoke() { return ''; } }] });",
      ),
      errors: [{ line: 2, column: 32 }],
    },
    // hand-made function tools however they are spelled: the SDK tests `type === 'function'` and
    // calls `invoke`, whatever wrote them (issue 40's red team)
    {
      name: 'a class implementing FunctionTool, in an Agent',
      code: lines(
        "import { Agent, type FunctionTool } from '@openai/agents';",
        'class CloseAccount implements FunctionTool {',
        "  type = 'function' as const;",
        "  name = 'close_account';",
        "  description = 'Close an account.';",
        "  parameters = {} as FunctionTool['parameters'];",
        '  strict = true;',
        '  needsApproval = async () => false;',
        '  isEnabled = async () => true;',
        "  invoke = async (_ctx: unknown, input: string) => fetch('https://bank.example/close', { method: 'POST', body: input }).then((r) => r.text());",
        '}',
        "export const agent = new Agent({ name: 'a', tools: [new CloseAccount()] });",
      ),
      errors: [{ line: 2, column: 1 }],
    },
    {
      name: "type: 'function' held by a const",
      code: lines(
        "import { Agent } from '@openai/agents';",
        "const FUNCTION = 'function' as const;",
        "export const agent = new Agent({ name: 'a', tools: [{ type: FUNCTION, name: 'close_account', invoke: async () => 'ok' }] as never });",
      ),
      errors: [{ line: 3, column: 53 }],
    },
    {
      name: "type held by a const in the function's scope, written shorthand",
      code: lines(
        "import { Agent } from '@openai/agents';",
        'export function make() {',
        "  const type = 'function';",
        "  const name = 'close_account';",
        "  return new Agent({ name: 'a', tools: [{ type, name, invoke: async () => 'ok' }] as never });",
        '}',
      ),
      errors: [{ line: 5, column: 41, mentions: "'close_account'" }],
    },
    {
      name: 'type held by a const exported from another module of the repo',
      code: lines("import { FUNCTION } from './kinds';", "export const t = { type: FUNCTION, name: 'x', invoke: async () => 'ok' };"),
      files: { 'src/kinds.ts': "export const FUNCTION = 'function';\n" },
      errors: [{ line: 2, column: 18, mentions: "'x'" }],
    },
    {
      name: 'type: NAMES.fn of a top-level `as const` object',
      code: lines("const KIND = { fn: 'function' } as const;", "export const t = { type: KIND.fn, name: 'x', invoke: async () => 'ok' };"),
      errors: [{ line: 2, column: 18 }],
    },
    {
      name: "a class whose type getter returns 'function', implementing nothing",
      code: lines('export class Lookup {', "  get type() { return 'function' as const; }", "  invoke = async () => 'ok';", '}'),
      errors: [{ line: 1, column: 1 }],
    },
    {
      name: "a class with type = 'function' and an invoke method, implementing nothing",
      code: lines('export class Lookup {', "  readonly type = 'function';", "  name = 'lookup';", "  async invoke() { return 'ok'; }", '}'),
      errors: [{ line: 1, column: 1, mentions: "'lookup'" }],
    },
    {
      name: 'a class expression implementing the SDK namespace FunctionTool',
      code: lines(
        "import * as agents from '@openai/agents';",
        "const kind = () => 'function' as const;",
        'export const Close = class implements agents.FunctionTool {',
        "  type = kind(); name = 'close'; description = ''; parameters = {} as never; strict = true;",
        '  needsApproval = async () => false; isEnabled = async () => true; invoke = async () => "ok";',
        '};',
      ),
      errors: [{ line: 3, column: 22 }],
    },
    {
      // the SDK's type named in `implements` is enough: the type is declared, not given a value here
      name: 'an abstract base implementing FunctionTool, its type abstract',
      code: lines(
        "import type { FunctionTool as SdkTool } from '@openai/agents';",
        'export abstract class BaseTool implements SdkTool {',
        "  abstract readonly type: 'function';",
        "  name = 'base'; description = ''; parameters = {} as never; strict = true;",
        '  needsApproval = async () => false; isEnabled = async () => true;',
        '  abstract invoke(ctx: unknown, input: string): Promise<string>;',
        '}',
      ),
      errors: [{ line: 2, column: 1, mentions: "'base'" }],
    },
  ],
});
