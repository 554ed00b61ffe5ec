import { lines, ruleTester } from '../rule-tester.js';

const SDK = "import { Agent, MCPServerStdio, hostedMcpTool } from '@openai/agents';";

const GEN = "import { protectAgent, protectAgentTool, protectHostedMcp, protectMcpServer } from './ctrlrun.generated.js';";

ruleTester('unprotected-agent-tool', {
  valid: [
    {
      name: 'protectAgentTool',
      code: lines(
        SDK,
        GEN,
        "const writer = new Agent({ name: 'writer' });",
        "export const t = protectAgentTool('stripe.refund', writer, { toolDescription: 'x' });",
      ),
    },
    {
      name: 'asTool of something that is not an SDK agent',
      code: lines(SDK, "import { chain } from 'langchain';", "export const t = chain.asTool({ name: 'x' });"),
    },
    {
      name: 'asTool of what a function of this file returns when that is not an agent',
      code: lines(SDK, 'function chainOf(name: string) { return { asTool: (o: object) => ({ name, o }) }; }', "export const t = chainOf('x').asTool({});"),
    },
    {
      name: 'asTool of a function that makes an agent: only the own returns of the factory count',
      code: lines(SDK, "function lazy() { return () => { return new Agent({ name: 'l' }); }; }", 'export const t = (lazy() as any).asTool({});'),
    },
    {
      name: 'asTool of values provably not agents: a local object (in place or a property), a local class, a package import',
      code: lines(
        SDK,
        "import { ChatModel } from 'langchain';",
        'const helper = { asTool: (o: object) => o };',
        'const kit = { runner: { asTool: (o: object) => o }, make() { return 1; } };',
        'class Local { asTool(o: object) { return o; } }',
        'export const a = helper.asTool({});',
        'export const b = kit.runner.asTool({});',
        'export const c = new Local().asTool({});',
        'export const d = new ChatModel().asTool({});',
        'export const e = ChatModel.from().asTool({});',
        'export const f = (kit as any).missing.asTool({});',
        'export const g = (kit.make as any).asTool({});',
        'const spread = { ...kit, make() { return 2; } };',
        'export const h = (spread.make as any).asTool({});',
      ),
    },
    {
      name: 'asTool of a parameter in a file that uses neither the SDK nor the generated module',
      code: lines("import { Runnable } from 'langchain';", 'export const toTool = (r: Runnable) => r.asTool({ name: "x" });'),
    },
    {
      name: 'a RealtimeAgent is not an agent tool',
      code: lines(
        "import { RealtimeAgent } from '@openai/agents/realtime';",
        "const r = new RealtimeAgent({ name: 'r' });",
        'export const t = (r as any).asTool?.({});',
      ),
    },
  ],
  invalid: [
    // issue 40: a name is read where it is used, not at its first declaration anywhere in the file
    {
      name: 'asTool of a `let` or `var` given an agent after its declaration',
      code: lines(
        SDK,
        'export function lazy() {',
        '  let w = undefined;',
        "  w = new Agent({ name: 'w' });",
        "  return w.asTool({ toolName: 'write' });",
        '}',
        'export function bare(on: boolean) {',
        '  var r;',
        "  if (on) r = new Agent({ name: 'r' });",
        "  return r.asTool({ toolName: 'read' });",
        '}',
      ),
      errors: [
        { line: 5, column: 10 },
        { line: 10, column: 10 },
      ],
    },
    {
      name: "asTool of this function's agent, though another function's same name holds no agent; a parameter keeps the file's",
      code: lines(
        SDK,
        'function chain() {',
        '  const w = { asTool: (o: object) => o };',
        '  return w.asTool({});',
        '}',
        'export function writer() {',
        "  const w = new Agent({ name: 'w' });",
        "  return w.asTool({ toolName: 'write' });",
        '}',
        "const shared = new Agent({ name: 'shared' });",
        "export function wrap(shared: Agent) { return shared.asTool({ toolName: 'share' }); }",
      ),
      errors: [
        { line: 8, column: 10 },
        { line: 11, column: 46 },
      ],
    },
    {
      name: 'asTool of a variable, with the SDK default name from the agent',
      code: lines(SDK, "const writer = new Agent({ name: 'Writer bot' });", "export const t = writer.asTool({ toolDescription: 'Writes' });"),
      errors: [{ line: 3, column: 18, severity: 'error', mentions: "'Writer_bot'" }],
    },
    {
      name: 'a mapped toolName: the hint names its action',
      code: lines(SDK, "export const t = new Agent({ name: 'w' }).asTool({ toolName: 'refund', toolDescription: 'x' });"),
      errors: [{ line: 2, column: 18, mentions: "protectAgentTool('stripe.refund'" }],
    },
    {
      name: 'Agent.create and a clone, followed through variables',
      code: lines(
        SDK,
        "const a = Agent.create({ name: 'a' });",
        "const b = a.clone({ name: 'b' });",
        "export const tools = [b.asTool({ toolDescription: 'x' })];",
      ),
      errors: [{ line: 4, column: 23 }],
    },
    {
      // a CommonJS app of the loop (issue 21): five specialists made by one factory, each turned into a tool
      name: 'agents made by a factory function of this file, declared or arrow, followed through variables',
      code: lines(
        SDK,
        'function specialist(name: string, instructions: string) {',
        '  const prompt = `${instructions}.`;',
        '  const inner = () => { return 1; };',
        '  return new Agent({ name, instructions: prompt, tools: [] });',
        '}',
        'const maker = (name: string) => Agent.create({ name });',
        "const sites = specialist('Sites', 'Checks sites');",
        "export const tools = [sites.asTool({ toolName: 'check_sites', toolDescription: 'x' }), maker('m').asTool({ toolName: 'm' })];",
      ),
      errors: [
        { line: 9, column: 23, mentions: "'check_sites'" },
        { line: 9, column: 88, mentions: "'m'" },
      ],
    },
  ],
});

// Red team #12 (issue 35): `asTool` reached other than by calling it on the agent is the same door.
ruleTester('unprotected-agent-tool', {
  valid: [
    { name: 'asTool of something else, bound', code: lines(SDK, 'const chain = { asTool: (o: object) => o };', 'const f = chain.asTool.bind(chain);') },
    { name: 'a prototype method that makes no door', code: lines(SDK, "const w = new Agent({ name: 'w' });", 'const s = Agent.prototype.toJSON.call(w);') },
    {
      name: 'asTool taken as a value off a parameter in a file that uses neither the SDK nor the generated module',
      code: lines(
        "import type { Runnable } from 'langchain';",
        'export const bindAll = (r: Runnable) => { const { asTool } = r; return [asTool, r.asTool.bind(r)]; };',
      ),
    },
  ],
  invalid: [
    {
      name: 'asTool bound, then called',
      code: lines(
        SDK,
        "const researcher = new Agent({ name: 'researcher' });",
        'const f = researcher.asTool.bind(researcher);',
        "export const t = f({ toolName: 'research' });",
      ),
      errors: [{ line: 3, column: 11 }],
    },
    {
      name: 'Agent.prototype.asTool.call and .apply, Reflect.apply',
      code: lines(
        SDK,
        "const writer = new Agent({ name: 'writer' });",
        "export const a = Agent.prototype.asTool.call(writer, { toolName: 'write' });",
        "export const b = writer.asTool.apply(writer, [{ toolName: 'write2' }]);",
        "export const c = Reflect.apply(writer.asTool, writer, [{ toolName: 'write3' }]);",
      ),
      errors: [
        { line: 3, column: 18, mentions: "'write'" },
        { line: 4, column: 18, mentions: "'write2'" },
        { line: 5, column: 18, mentions: "'write3'" },
      ],
    },
    {
      name: 'asTool taken off the agent: a computed key, a destructure, a stored method',
      code: lines(
        SDK,
        "const w = new Agent({ name: 'w' });",
        "export const a = w['asTool']({ toolName: 'x' });",
        'const { asTool } = w;',
        'const kit = { m: w.asTool };',
        "const { ['asTool']: viaKey } = w;",
        'const { [`asTool`]: viaTemplate } = w;',
      ),
      errors: [
        { line: 3, column: 18, mentions: "'x'" },
        { line: 4, column: 9 },
        { line: 5, column: 18 },
        { line: 6, column: 9 },
        { line: 7, column: 9 },
      ],
    },
    {
      name: 'asTool taken as a value off a value check cannot follow (a parameter, an import): destructured, stored, bound, through Reflect.apply or .call',
      code: lines(
        SDK,
        "import { billing } from './billing';",
        'export function wire(a: Agent) {',
        '  const { asTool } = a;',
        "  const f = a.asTool; const t2 = f.call(a, { toolName: 'y' });",
        "  const t3 = a.asTool.bind(a)({ toolName: 'z' });",
        "  const t4 = Reflect.apply(a.asTool, a, [{ toolName: 'w' }]);",
        "  const t6 = billing.asTool.call(billing, { toolName: 'u' });",
        '  return [asTool, t2, t3, t4, t6];',
        '}',
      ),
      errors: [
        { line: 4, column: 11, mentions: 'parameter' },
        { line: 5, column: 13, mentions: 'parameter' },
        { line: 6, column: 14 },
        { line: 7, column: 14, mentions: "'w'" },
        { line: 8, column: 14, mentions: "'u'" },
      ],
    },
    // asTool of a value the scan cannot follow is reported (fail closed): an agent imported from
    // another module, a callback's or helper's parameter; and the scan follows awaits and objects
    {
      name: 'asTool of an agent imported from another module of the repo: reported, naming the import',
      code: lines(
        SDK,
        "import { billing } from './billing.js';",
        "export const triage = new Agent({ name: 'triage', tools: [billing.asTool({ toolName: 'ask_billing', toolDescription: 'Ask billing.' })] });",
      ),
      files: { 'src/billing.ts': lines(SDK, "export const billing = new Agent({ name: 'billing', instructions: 'Handle refunds.' });") },
      errors: [{ line: 3, column: 59, mentions: "`billing` is imported from './billing.js'" }],
    },
    {
      name: 'asTool of an agent reached through a namespace import of a repo module: reported, naming the import',
      code: lines(
        SDK,
        "import * as specialists from './billing.js';",
        "export const triage = new Agent({ name: 'triage', tools: [specialists.billing.asTool({ toolName: 'ask_billing', toolDescription: 'Ask billing.' })] });",
      ),
      files: { 'src/billing.ts': lines(SDK, "export const billing = new Agent({ name: 'billing', instructions: 'Handle refunds.' });") },
      errors: [{ line: 3, column: 59, mentions: "`specialists` is imported from './billing.js'" }],
    },
    {
      // a package-like specifier the repo's tsconfig maps to its own file is a module of the repo
      name: 'asTool of an agent imported through a tsconfig paths alias: reported, naming the import',
      code: lines(
        SDK,
        "import { billing } from '@app/billing';",
        "export const triage = new Agent({ name: 'triage', tools: [billing.asTool({ toolName: 'ask_billing', toolDescription: 'Ask billing.' })] });",
      ),
      files: {
        'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@app/*': ['src/*'] } } }),
        'src/billing.ts': lines(SDK, "export const billing = new Agent({ name: 'billing', instructions: 'Handle refunds.' });"),
      },
      errors: [{ line: 3, column: 59, mentions: "`billing` is imported from '@app/billing'" }],
    },
    {
      name: "asTool in a map over an array of agents: the callback's parameter is not followed, so reported",
      code: lines(
        SDK,
        "const specialists = [new Agent({ name: 'charges' }), new Agent({ name: 'disputes' })];",
        "export const lead = new Agent({ name: 'lead', tools: specialists.map((s) => s.asTool({ toolName: `ask_${s.name}`, toolDescription: 'x' })) });",
      ),
      errors: [{ line: 3, column: 77, mentions: '`s` is a parameter' }],
    },
    {
      name: "asTool of a helper's parameter: reported whatever its callers pass",
      code: lines(
        SDK,
        'function toTool(agent: Agent) {',
        "  return agent.asTool({ toolDescription: 'Ask a specialist.' });",
        '}',
        "const billing = new Agent({ name: 'billing' });",
        "export const triage = new Agent({ name: 'triage', tools: [toTool(billing)] });",
      ),
      errors: [{ line: 3, column: 10 }],
    },
    {
      name: 'asTool of an agent an async factory of the file returns, through `await`',
      code: lines(
        SDK,
        "async function makeBilling() { return new Agent({ name: 'billing' }); }",
        'const billing = await makeBilling();',
        "export const triage = new Agent({ name: 'triage', tools: [billing.asTool({ toolDescription: 'x' })] });",
      ),
      errors: [{ line: 4, column: 59, mentions: 'made with `.asTool()`: no policy' }],
    },
    {
      name: 'asTool of an agent held in a const object of the file',
      code: lines(
        SDK,
        "const agents = { billing: new Agent({ name: 'billing' }) };",
        "export const triage = new Agent({ name: 'triage', tools: [agents.billing.asTool({ toolDescription: 'x' })] });",
      ),
      errors: [{ line: 3, column: 59, mentions: "'billing' made with `.asTool()`: no policy" }],
    },
    {
      name: 'asTool of a parameter in a file that imports only the generated module; `this`; an agent or an import: no one name',
      code: lines(
        GEN,
        "import { billing } from './billing.js';",
        'export const wrap = (a: unknown) => (a as any).asTool({});',
        'export class Desk { tool() { return (this as any).agent.asTool({}); } }',
        "export const r = (b: any) => b.asTool({ toolName: 'refund' });",
      ),
      errors: [
        { line: 3, column: 37, mentions: '`a` is a parameter' },
        { line: 4, column: 37, mentions: '`(this as any).agent` is not followed' },
        { line: 5, column: 30, mentions: "protectAgentTool('stripe.refund', <agent>" },
      ],
    },
    {
      name: 'asTool of a class imported from the repo, a `let` given no value, a loop variable: reported',
      code: lines(
        SDK,
        "import { Desk } from './desk.js';",
        'let later: any;',
        'export const a = new Desk().asTool({});',
        'export const b = later.asTool({});',
        'export const c = (list: any[]) => { for (const x of list) x.asTool({}); };',
      ),
      errors: [
        { line: 4, column: 18, mentions: "`Desk` is imported from './desk.js'" },
        { line: 5, column: 18, mentions: '`later` is given no value' },
        { line: 6, column: 59, mentions: '`x` is a part of another value' },
      ],
    },
    {
      name: 'an agent of the file or one imported: reported, with no name (neither may be meant)',
      code: lines(
        SDK,
        "import { billing } from './billing.js';",
        "const local = new Agent({ name: 'local' });",
        'export const pick = (on: boolean) => (on ? local : billing).asTool({});',
      ),
      errors: [{ line: 4, column: 38, mentions: 'Agent tool made with' }],
    },
  ],
});
