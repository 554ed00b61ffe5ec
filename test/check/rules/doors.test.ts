import { lines, ruleTester } from '../rule-tester.js';

const SDK = "import { tool } from '@openai/agents';";
const NS = "import * as sdk from '@openai/agents';";
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";

ruleTester('opaque-tool-factory', {
  valid: [
    { name: 'a direct call', code: lines(SDK, "tool({ name: 'refund' });") },
    { name: 'an alias, a comma callee, a member', code: lines(NS, 'const t = sdk.tool;', "(0, sdk.tool)({ name: 'a' });", "t({ name: 'b' });") },
    { name: 'an awaited dynamic import', code: lines('export async function f() {', "  const { tool } = await import('@openai/agents');", "  return tool({ name: 'x' });", '}') },
    { name: 'a re-export and a type query', code: lines(SDK, 'export { tool };', 'type T = typeof tool;') },
    { name: 'a foreign tool passed around', code: lines("import { tool } from 'ai';", 'register(tool);') },
    { name: 'suppressed with a reason', code: lines(SDK, '// ctrlrun-ignore opaque-tool-factory -- only logs the factory name', 'log(tool);') },
  ],
  invalid: [
    { name: 'the factory passed on as a value', code: lines(SDK, 'register(tool);'), errors: [{ line: 2, column: 10, mentions: 'passed on as a value' }] },
    { name: 'the factory in an array', code: lines(SDK, 'export const makers = [tool];'), errors: [{ line: 2, column: 24 }] },
    { name: 'bind', code: lines(SDK, 'const make = tool.bind(null);'), errors: [{ line: 2, column: 14, mentions: 'bind' }] },
    { name: 'a computed key', code: lines(NS, "const k = 'to' + 'ol';", "sdk[k]({ name: 'x' });"), errors: [{ line: 3, column: 1, mentions: 'computed key' }] },
    { name: 'the namespace passed on', code: lines(NS, 'setup(sdk);'), errors: [{ line: 2, column: 7 }] },
    {
      name: 'a dynamic import that is not awaited',
      code: lines("import('@openai/agents').then((m) => m.tool({ name: 'x' }));"),
      errors: [{ line: 1, column: 1, mentions: 'not awaited' }],
    },
  ],
});

ruleTester('object-literal-tool', {
  valid: [
    { name: 'an SDK tool()', code: lines(SDK, "export const t = tool({ name: 'refund', execute: async () => 'ok' });") },
    { name: "type: 'function' with no invoke", code: lines("export const schema = { type: 'function', name: 'refund' };") },
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
      code: lines("import { Agent } from '@openai/agents';", "new Agent({ name: 'd', tools: [{ type: 'function', name: 'x', async invoke() { return ''; } }] });"),
      errors: [{ line: 2, column: 32 }],
    },
  ],
});

ruleTester('invoke-replaced', {
  valid: [
    { name: 'a spread without invoke', code: lines(GEN, "const a = { ...base, name: 'n' };") },
    { name: 'Object.assign without invoke', code: lines(GEN, "Object.assign(refund, { description: 'x' });") },
  ],
  invalid: [
    {
      name: '{ ...protectedX, invoke }',
      code: lines(GEN, "const refund = protectedTool('stripe.refund', { name: 'refund' });", 'export const loud = { ...refund, invoke: async () => "ran" };'),
      errors: [{ line: 3, column: 21, mentions: '`refund`' }],
    },
    { name: 'Object.assign(x, { invoke })', code: lines(GEN, 'Object.assign(refund, { invoke: fake });'), errors: [{ line: 2, column: 1 }] },
    { name: 'x.invoke = ...', code: lines(GEN, 'refund.invoke = fake;'), errors: [{ line: 2, column: 1, mentions: 'reassigned' }] },
  ],
});

ruleTester('sdk-approval', {
  valid: [
    { name: 'the Control answers', code: lines(GEN, 'await control.approve(state, item, { approver: "ana" });', 'await control.reject(state, item, { approver: "ana" });') },
    { name: 'a promise rejection', code: lines(GEN, 'Promise.reject(new Error("x"));') },
    { name: 'no protected tools in the repo (no project, no protectedTool)', project: null, code: lines('state.approve(item);') },
    { name: 'alwaysApprove is sticky-approval\'s finding', code: lines('state.approve(item, { alwaysApprove: true });') },
    {
      name: "an app's own approve methods (issue 21: companyClient.approve(id), company.approve(...))",
      code: lines(
        GEN,
        'export async function onClick(id: string) { await companyClient.approve(id); }',
        'await company.approve(request.id, { note: "ok" });',
        'await company.reject(invoice);',
        'const pending = await api.list(); for (const p of pending) await api.approve(p);',
        'items.forEach((it) => moderation.approve(it));',
        'export function decide(state: { approve(x: unknown): void }, row: Row) { state.approve(row); }',
      ),
    },
  ],
  invalid: [
    {
      name: 'state.approve(item) with tools mapped in the manifest',
      code: lines("import { run } from '@openai/agents';", 'for (const item of result.interruptions) result.state.approve(item);'),
      errors: [{ line: 2, column: 42, mentions: 'control.approve(state, item, { approver })' }],
    },
    {
      name: 'reject, approveTool and rejectTool',
      code: lines('for (const item of result.interruptions) state.reject(item);', 'result.interruptions.forEach((call) => ctx.approveTool(call));', 'const [call] = state.getInterruptions(); ctx.rejectTool(call, { message: "no" });'),
      errors: [
        { line: 1, column: 42, mentions: 'control.reject' },
        { line: 2, column: 40, mentions: 'control.approve' },
        { line: 3, column: 42, mentions: 'control.reject' },
      ],
    },
    {
      name: "a RealtimeSession's approve in a file of the realtime entry: the realtime calls are the hint",
      code: lines(
        "import { RealtimeSession } from '@openai/agents/realtime';",
        "session.on('tool_approval_requested', (_c, _a, request) => {",
        '  session.current?.approve(request.approvalItem);',
        '});',
      ),
      errors: [{ line: 3, column: 3, mentions: 'control.resolveRealtime(session, request.approvalItem)' }],
    },
    {
      name: 'no manifest, but the file builds a protected tool',
      project: null,
      code: lines(GEN, "export const r = protectedTool('stripe.refund', { name: 'refund' });", 'const state = await RunState.fromString(agent, saved); state.approve(item);'),
      errors: [{ line: 3, column: 56 }],
    },
    {
      name: 'a typed RunState parameter, a run result held in a variable, a typed item, a streamed result',
      code: lines(
        'export async function answer(state: RunState<unknown, Agent>, item: unknown) { state.approve(item); }',
        'const result = await runner.run(agent, "hi"); const held = result; held.state.reject(pending);',
        'export function one(item: RunToolApprovalItem) { store.approve(item); }',
        'const stream = await run(agent, "hi", { stream: true }); stream.state.approve(event.item);',
      ),
      errors: [{ line: 1, column: 80 }, { line: 2, column: 68 }, { line: 3, column: 50 }, { line: 4, column: 58 }],
    },
  ],
});
