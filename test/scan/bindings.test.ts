import { describe, expect, it } from 'vitest';
import { scanSource } from '../../src/scan/index.js';

const scan = (text: string, file = 'a.ts') => scanSource(file, text);
const names = (text: string, file = 'a.ts') => scan(text, file).sdkToolCalls.map((c) => c.name);

describe('scanSource follows bindings, not text (issue 10)', () => {
  const forms: Array<[string, string, string?]> = [
    ['const alias of a member', `import * as sdk from '@openai/agents';\nconst t = sdk.tool;\nt({ name: 'x' });`],
    ['chained aliases', `import { tool } from '@openai/agents';\nconst a = tool;\nconst b = a;\nb({ name: 'x' });`],
    ['destructured from a namespace', `import * as sdk from '@openai/agents';\nconst { tool: make } = sdk;\nmake({ name: 'x' });`],
    ['element access', `import * as sdk from '@openai/agents';\nsdk['tool']({ name: 'x' });`],
    ['comma callee', `import * as sdk from '@openai/agents';\n(0, sdk.tool)({ name: 'x' });`],
    ['as any', `import { tool } from '@openai/agents';\n(tool as any)({ name: 'x' });`],
    ['non-null', `import { tool } from '@openai/agents';\ntool!({ name: 'x' });`],
    ['angle-bracket cast', `import { tool } from '@openai/agents';\n(<any>tool)({ name: 'x' });`],
    ['import = require', `import sdk = require('@openai/agents');\nsdk.tool({ name: 'x' });`],
    ['await import in a function', `export async function f() {\n  const { tool } = await import('@openai/agents');\n  return tool({ name: 'x' });\n}`],
    ['await import as namespace', `export async function f() {\n  const sdk = await import('@openai/agents/realtime');\n  return sdk.tool({ name: 'x' });\n}`],
    ['inline await import', `export async function f() {\n  return (await import('@openai/agents')).tool({ name: 'x' });\n}`],
    ['nested require', `function f() {\n  const { tool } = require('@openai/agents');\n  return tool({ name: 'x' });\n}`, 'a.cjs'],
    ['escaped specifier', `import { tool } from '@openai\\u002fagents';\ntool({ name: 'x' });`],
    ['the realtime subpath', `import { tool } from '@openai/agents/realtime';\ntool({ name: 'x' });`],
    ['an SDK subpath the table does not know (fail closed)', `import { tool } from '@openai/agents-future/sub';\ntool({ name: 'x' });`],
    ['default import (esModuleInterop)', `import agents from '@openai/agents';\nagents.tool({ name: 'x' });`],
  ];
  it.each(forms)('%s', (_label, text, file) => {
    expect(names(text, file)).toEqual(['x']);
  });

  it('tool.call / tool.apply / Reflect.apply are calls (indirect: the codemod cannot just swap the callee)', () => {
    const s = scan(
      [
        "import { tool } from '@openai/agents';",
        "tool.call(null, { name: 'c' });",
        "tool.apply(undefined, [{ name: 'a' }]);",
        "Reflect.apply(tool, null, [{ name: 'r' }]);",
      ].join('\n'),
    );
    expect(s.sdkToolCalls.map((c) => [c.name, c.indirect])).toEqual([
      ['c', 'call'],
      ['a', 'apply'],
      ['r', 'reflect'],
    ]);
    expect(s.opaqueFactoryUses).toEqual([]);
  });

  it('an alias inside a function does not leak out, and a local shadow still wins', () => {
    const text = [
      "import * as sdk from '@openai/agents';",
      'function a() { const t = sdk.tool; return t({ name: "in" }); }',
      'function b(t: any) { return t({ name: "param" }); }',
      'const t = (o: any) => o;',
      't({ name: "local" });',
    ].join('\n');
    expect(names(text)).toEqual(['in']);
  });

  it('a foreign tool through the same forms is never matched', () => {
    expect(names(`import * as ai from 'ai';\nconst t = ai.tool;\n(0, ai.tool)({ name: 'x' });\nt({ name: 'y' });`)).toEqual([]);
    expect(names(`import { tool } from '@openai/agents';\nconst t = tool;\nfunction f() { const t = (o: any) => o; t({ name: 'x' }); }`)).toEqual([]);
  });

  it('other SDK tool factories are recorded for their rules', () => {
    const s = scan(`import { shellTool, computerTool } from '@openai/agents';\nshellTool({ shell: s });\nconst c = computerTool;\nc({ computer: x });`);
    expect(s.sdkFactoryCalls?.map((c) => c.factory)).toEqual(['shellTool', 'computerTool']);
  });
});

describe('scanSource fails closed on what it cannot follow', () => {
  const opaque = (text: string, file = 'a.ts') => (scan(text, file).opaqueFactoryUses ?? []).map((o) => [o.what, o.span.line]);

  it('the factory passed on as a value, bound, or read with a computed key', () => {
    expect(opaque(`import { tool } from '@openai/agents';\nregister(tool);`)).toEqual([['tool', 2]]);
    expect(opaque(`import { tool } from '@openai/agents';\nconst f = tool.bind(null);`)).toEqual([['tool', 2]]);
    expect(opaque(`import * as sdk from '@openai/agents';\nconst k = 'tool';\nsdk[k]({ name: 'x' });`)).toEqual([['sdk', 3]]);
    expect(opaque(`import * as sdk from '@openai/agents';\nsetup(sdk);`)).toEqual([['sdk', 2]]);
    expect(opaque(`import { tool } from '@openai/agents';\nexport const factories = [tool];`)).toEqual([['tool', 2]]);
  });

  it('a dynamic import that is not awaited where it is made', () => {
    expect(opaque(`import('@openai/agents').then((m) => m.tool({ name: 'x' }));`)).toEqual([['@openai/agents', 1]]);
    expect(opaque(`async function f() { const { tool } = await import('@openai/agents'); }`)).toEqual([]);
  });

  it('what it follows is not reported: calls, members, aliases, re-exports, type queries', () => {
    const text = [
      "import * as sdk from '@openai/agents';",
      "import { tool, Agent } from '@openai/agents';",
      'const t = tool;',
      "t({ name: 'a' });",
      "sdk.tool({ name: 'b' });",
      'type T = typeof tool;',
      'export { tool };',
      "new Agent({ name: 'x' });",
      'const { Runner } = sdk;',
    ].join('\n');
    expect(opaque(text)).toEqual([]);
  });
});

describe('scanSource: hand-made tools and replaced invoke', () => {
  it('an object-literal function tool', () => {
    const s = scan(`export const t = { type: 'function', name: 'refund', parameters: {}, invoke: async () => 'ok' };`);
    expect(s.objectLiteralTools?.map((t) => [t.name, t.span.line])).toEqual([['refund', 1]]);
    expect(scan(`export const notATool = { type: 'function', name: 'x' };`).objectLiteralTools).toEqual([]);
  });

  it('spread with invoke, Object.assign with invoke, invoke assigned', () => {
    const s = scan(
      [
        'const a = { ...protectedRefund, invoke: async () => "x" };',
        'Object.assign(refund, { invoke: fake });',
        'refund.invoke = fake;',
        "refund['invoke'] = fake;",
        'const ok = { ...base, name: "n" };',
      ].join('\n'),
    );
    expect(s.invokeReplacements?.map((r) => [r.form, r.target, r.span.line])).toEqual([
      ['spread', 'protectedRefund', 1],
      ['object-assign', 'refund', 2],
      ['assignment', 'refund', 3],
      ['assignment', 'refund', 4],
    ]);
  });
});

describe('scanSource: SDK approvals of interruptions', () => {
  it('state.approve/reject and approveTool/rejectTool; not control.approve or Promise.reject', () => {
    const s = scan(
      [
        "import type { RunContext } from '@openai/agents'; for (const item of result.interruptions) state.approve(item);",
        'const result = await run(agent, "hi"); result.state.reject(item, { message: "no" });',
        'export function answer(ctx: RunContext<unknown>) { ctx.approveTool(item); }',
        'control.approve(state, item, { approver: "ana" });',
        'Promise.reject(new Error("x"));',
        "queue.reject('x');",
        'companyClient.approve(id); company.reject(request.id, "spam");',
      ].join('\n'),
    );
    expect(s.sdkApprovals?.map((a) => [a.method, a.receiver, a.item, a.span.line])).toEqual([
      ['approve', 'state', 'item', 1],
      ['reject', 'result.state', 'item', 2],
      ['approveTool', 'ctx', 'item', 3],
    ]);
  });
});
