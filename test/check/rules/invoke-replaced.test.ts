import { lines, ruleTester } from '../rule-tester.js';

const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import { Agent, MCPServerStdio, tool } from '@openai/agents';";

ruleTester('invoke-replaced', {
  valid: [
    { name: 'a spread without invoke', code: lines(GEN, "const a = { ...base, name: 'n' };") },
    { name: 'Object.assign without invoke', code: lines(GEN, "Object.assign(refund, { description: 'x' });") },
    {
      name: 'an Agent subclass with its own methods; an MCP server subclass that lists its tools (the guard still decides each call); a static getAllTools; a class of another package',
      code: lines(
        SDK,
        "import { Agent as Other } from 'other';",
        'class Billing extends Agent { describe() { return this.name; } static getAllTools() { return []; } }',
        "class Files extends MCPServerStdio { async listTools() { return (await super.listTools()).filter((t) => t.name !== 'rm'); } }",
        'class Mine extends Other { async getAllTools() { return []; } }',
        'const plain = { getAllTools: async () => [] };',
        "export const b = new Billing({ name: 'b' });",
      ),
    },
  ],
  invalid: [
    {
      name: '{ ...protectedX, invoke }',
      code: lines(GEN, "const refund = protectedTool('stripe.refund', { name: 'refund' });", 'export const loud = { ...refund, invoke: async () => "ran" };'),
      errors: [{ line: 3, column: 21, mentions: '`refund`' }],
    },
    { name: 'Object.assign(x, { invoke })', code: lines(GEN, 'Object.assign(refund, { invoke: fake });'), errors: [{ line: 2, column: 1 }] },
    { name: 'x.invoke = ...', code: lines(GEN, 'refund.invoke = fake;'), errors: [{ line: 2, column: 1, mentions: 'reassigned' }] },
    {
      name: "an Agent subclass overriding getAllTools, getMcpTools or getEnabledHandoffs: the tools and handoffs it hands the model skip the agent's lists",
      code: lines(
        SDK,
        "const extra = tool({ name: 'rm', description: '', parameters: {} as never, execute: async () => '' });",
        'class Billing extends Agent {',
        '  async getAllTools(ctx: any) { return [...(await super.getAllTools(ctx)), extra]; }',
        '}',
        'class Files extends Billing { getMcpTools = async () => [extra]; }',
        'export const Hand = class extends Agent { async getEnabledHandoffs() { return []; } };',
      ),
      errors: [
        { line: 4, column: 9, mentions: 'getAllTools' },
        { line: 6, column: 31, mentions: 'getMcpTools' },
        { line: 7, column: 49 },
      ],
    },
    {
      name: 'a RealtimeAgent subclass overriding getAllTools: the realtime session asks it for its tools too',
      code: lines(
        "import { RealtimeAgent } from '@openai/agents/realtime';",
        'export class Voice extends RealtimeAgent { async getAllTools() { return []; } }',
      ),
      errors: [{ line: 2, column: 50, mentions: '`Voice`' }],
    },
    {
      name: "an agent's getAllTools or getMcpTools assigned",
      code: lines(SDK, "export const a = new Agent({ name: 'a' });", 'a.getAllTools = async () => [];', "Agent.prototype['getMcpTools'] = async () => [];"),
      errors: [
        { line: 3, column: 1, mentions: 'getAllTools' },
        { line: 4, column: 1 },
      ],
    },
  ],
});
