import { describe, expect, it } from 'vitest';
import { scanSource } from '../../src/scan/index.js';
import { parseSource } from '../../src/scan/parse.js';
import { scanParsed } from '../../src/scan/scan-source.js';
import type { FileScan } from '../../src/scan/types.js';

/** The names of the SDK tool() calls the scanner finds. */
const toolNames = (file: string, text: string) => scanSource(file, text).sdkToolCalls.map((c) => c.name);

describe('scanSource: binding forms of the SDK tool()', () => {
  const cases: Array<[string, string, string, Array<string | undefined>]> = [
    ['named', 'a.ts', `import { tool } from '@openai/agents';\nexport const x = tool({ name: 'refund' });`, ['refund']],
    ['aliased', 'a.ts', `import { tool as t } from '@openai/agents';\nt({ name: 'refund' });`, ['refund']],
    ['agents-core', 'a.ts', `import { tool } from '@openai/agents-core';\ntool({ name: 'a' });`, ['a']],
    ['agents-realtime', 'a.ts', `import { tool } from '@openai/agents-realtime';\ntool({ name: 'a' });`, ['a']],
    [
      'agents/realtime subpath (openai-realtime-agents)',
      'a.ts',
      `import { RealtimeAgent, tool } from '@openai/agents/realtime';\nnew RealtimeAgent({ name: 'r', tools: [tool({ name: 'lookupOrders' })] });`,
      ['lookupOrders'],
    ],
    ['namespace', 'a.ts', `import * as agents from '@openai/agents';\nagents.tool({ name: 'ns' });`, ['ns']],
    ['realtime namespace', 'a.ts', `import { realtime } from '@openai/agents';\nrealtime.tool({ name: 'rt' });`, ['rt']],
    ['namespace.realtime', 'a.ts', `import * as agents from '@openai/agents';\nagents.realtime.tool({ name: 'rt2' });`, ['rt2']],
    ['require destructured', 'a.cjs', `const { tool } = require('@openai/agents');\ntool({ name: 'cjs' });`, ['cjs']],
    ['require aliased', 'a.cts', `const { tool: mk } = require('@openai/agents-core');\nmk({ name: 'cjs2' });`, ['cjs2']],
    ['require namespace', 'a.js', `const agents = require('@openai/agents-realtime');\nagents.tool({ name: 'cjs3' });`, ['cjs3']],
    ['tsx with JSX around', 'a.tsx', `import { tool } from '@openai/agents';\nconst el = <div>{String(tool({ name: 'jsx' }))}</div>;`, ['jsx']],
    ['jsx', 'a.jsx', `import { tool } from '@openai/agents';\nconst el = <b title="tool">{tool({ name: 'j' }).name}</b>;`, ['j']],
    ['mts template name', 'a.mts', "import { tool } from '@openai/agents';\ntool({ name: `tpl` });", ['tpl']],
    ['no literal name', 'a.ts', `import { tool } from '@openai/agents';\nlet n = 'x';\ntool({ name: n });`, [undefined]],
    ['a same-file const name resolves', 'a.ts', `import { tool } from '@openai/agents';\nconst n = 'x' as const;\ntool({ name: n });`, ['x']],
    [
      'inline in Agent tools array',
      'a.ts',
      `import { Agent, tool } from '@openai/agents';\nnew Agent({ name: 'a', tools: [tool({ name: 'one' }), tool({ name: 'two' })] });`,
      ['one', 'two'],
    ],
  ];
  it.each(cases)('%s', (_label, file, text, expected) => {
    expect(toolNames(file, text)).toEqual(expected);
  });
});

describe('scanSource: never a foreign or local tool', () => {
  const cases: Array<[string, string]> = [
    ['Vercel AI', `import { tool } from 'ai';\ntool({ name: 'x' });`],
    ['LangChain', `import { tool } from '@langchain/core/tools';\ntool(async () => 1, { name: 'x' });`],
    ['local function', `function tool(o: object) { return o; }\ntool({ name: 'x' });`],
    ['foreign require', `const { tool } = require('ai');\ntool({ name: 'x' });`],
    ['type-only import', `import type { tool } from '@openai/agents';\ndeclare const f: any; f({ name: 'x' });`],
    ['shadowed by a parameter', `import { tool } from '@openai/agents';\nexport function f(tool: (o: object) => void) { tool({ name: 'x' }); }`],
    ['shadowed by a nested const', `import { tool } from '@openai/agents';\n{ const tool = (o: object) => o; tool({ name: 'x' }); }`],
    [
      'shadowed by a nested function',
      `import { tool } from '@openai/agents';\nexport function f() { return tool({ name: 'x' }); function tool(o: object) { return o; } }`,
    ],
    [
      'shadowed by a hoisted var',
      `import { tool } from '@openai/agents';\nexport function f() { if (1) { var tool = (o: object) => o; } return tool({ name: 'x' }); }`,
    ],
    ['shadowed by a destructured param', `import * as agents from '@openai/agents';\nexport const f = ({ agents }: any) => agents.tool({ name: 'x' });`],
    ['catch variable', `import { tool } from '@openai/agents';\ntry {} catch (tool: any) { tool({ name: 'x' }); }`],
    ['a method named tool', `import { tool } from '@openai/agents';\nconst o = { tool(x: object) { return x; } };\no.tool({ name: 'x' });`],
    ['realtime of another module', `import { realtime } from 'elsewhere';\nrealtime.tool({ name: 'x' });`],
  ];
  it.each(cases)('%s', (_label, text) => {
    expect(scanSource('a.ts', text).sdkToolCalls).toEqual([]);
  });

  it('an ambient declaration never shadows: nothing is emitted for it, so at run time the name is the SDK import (issue 35)', () => {
    // `declare const tool` in a namespace hid the SDK's tool() from the lint
    const forms = [
      'declare const tool: (o: object) => object;',
      'declare let tool: (o: object) => object;',
      'declare function tool(o: object): object;',
      'export declare const tool: (o: object) => object;',
    ];
    for (const decl of forms) {
      const text = `import { tool } from '@openai/agents';\nnamespace Tools {\n  ${decl}\n  export const t = tool({ name: 'evasive' });\n}\n`;
      expect(toolNames('a.ts', text), decl).toEqual(['evasive']);
    }
    // a real (emitted) declaration in the namespace still shadows
    expect(
      toolNames('a.ts', `import { tool } from '@openai/agents';\nnamespace N { const tool = (o: object) => o; export const t = tool({ name: 'x' }); }\n`),
    ).toEqual([]);
  });

  it('the outer call still matches when only an inner scope shadows', () => {
    const text = `import { tool } from '@openai/agents';\nfunction f(tool: any) { tool({ name: 'inner' }); }\ntool({ name: 'outer' });`;
    expect(toolNames('a.ts', text)).toEqual(['outer']);
  });
});

describe('scanSource: FileScan fields', () => {
  const text = [
    `import { tool as t, Agent, hostedMcpTool, setTracingDisabled } from '@openai/agents';`,
    `import { protectedTool } from './ctrlrun.generated.js';`,
    `// ctrlrun-ignore sticky-approval -- reviewed by payments`,
    `export const a = t({`,
    `  name: 'refund',`,
    `  parameters: schema,`,
    `  needsApproval: async () => true,`,
    `  errorFunction: null,`,
    `  async execute({ id }) { return id; },`,
    `});`,
    `export const b = protectedTool('stripe.refund', { name: 'refund2', execute: () => 'x' });`,
    `export const h = hostedMcpTool({ serverLabel: 'gitmcp', requireApproval: 'never' });`,
    `export const ag = new Agent({ name: 'x', mcpServers: [server] });`,
    `export const ag2 = Agent.create({ name: 'y', mcpServers: [] });`,
    `state.approve(item, { alwaysApprove: true });`,
    `ctx.approveTool(item, { alwaysApprove });`,
    `state.approve(item, { alwaysApprove: false });`,
    `setTracingDisabled(true);`,
    `const s = "// ctrlrun-ignore not-a-comment";`,
    `type T = typeof t;`,
  ].join('\n');
  const scan = scanSource('src/a.ts', text);

  it('tool call: literal name, callee span, option properties with value kinds', () => {
    expect(scan.importsSdk).toBe(true);
    const [call] = scan.sdkToolCalls;
    expect(call?.name).toBe('refund');
    expect(call?.binding).toEqual({ module: '@openai/agents', kind: 'named', localName: 't' });
    expect(text.slice(call!.callee.start, call!.callee.end)).toBe('t');
    expect(call?.callee.line).toBe(4);
    const p = call!.options.properties;
    expect(Object.keys(p)).toEqual(['name', 'parameters', 'needsApproval', 'errorFunction', 'execute']);
    expect(p.needsApproval?.valueKind).toBe('function');
    expect(p.errorFunction?.valueKind).toBe('null');
    expect(p.execute?.valueKind).toBe('function');
    expect(p.parameters?.valueKind).toBe('other');
    expect(text.slice(p.parameters!.valueSpan.start, p.parameters!.valueSpan.end)).toBe('schema');
    expect(text.slice(p.needsApproval!.span.start, p.needsApproval!.span.end)).toBe('needsApproval: async () => true');
    expect(p.needsApproval?.span.line).toBe(7);
    expect(p.needsApproval?.span.column).toBe(3);
  });

  it('protectedTool call and the generated import', () => {
    expect(scan.protectedToolCalls).toHaveLength(1);
    expect(scan.protectedToolCalls[0]?.action).toBe('stripe.refund');
    expect(scan.protectedToolCalls[0]?.name).toBe('refund2');
    expect(scan.generatedImports).toEqual([expect.objectContaining({ specifier: './ctrlrun.generated.js', localName: 'protectedTool', syntax: 'import' })]);
  });

  it('hostedMcpTool, Agent mcpServers, sticky approvals, tracing, suppressions', () => {
    expect(scan.hostedMcpCalls.map((h) => h.serverLabel)).toEqual(['gitmcp']);
    expect(scan.hostedMcpCalls[0]?.options.properties.requireApproval?.stringValue).toBe('never');
    expect(scan.agentMcpServers.map((a) => a.span.line)).toEqual([13, 14]);
    expect(scan.stickyApprovals.map((s) => [s.method, s.span.line])).toEqual([
      ['approve', 15],
      ['approveTool', 16],
    ]);
    expect(scan.disablesSensitiveTracing).toBe(true);
    expect(scan.suppressions).toEqual([expect.objectContaining({ ruleId: 'sticky-approval', reason: 'reviewed by payments' })]);
    expect(scan.suppressions[0]?.span.line).toBe(3);
  });

  it('import records count references (call sites and type queries, not shadowed ones)', () => {
    const sdk = scan.moduleImports?.find((m) => m.module === '@openai/agents');
    const t = sdk?.named.find((n) => n.imported === 'tool');
    expect(t?.local).toBe('t');
    expect(t?.references).toBe(2);
    expect(scan.moduleSyntax).toBe('esm');
  });

  it('a scan counts its own references: a second scan of the same tree neither adds to them nor changes the first', () => {
    const text = "import { tool as t } from '@openai/agents';\nt({ name: 'a' });\nt({ name: 'b' });\n";
    const parsed = parseSource('a.ts', text);
    const count = (s: FileScan) => s.moduleImports?.find((m) => m.module === '@openai/agents')?.named[0]?.references;
    const first = scanParsed('a.ts', text, parsed);
    const second = scanParsed('a.ts', text, parsed);
    expect([count(first), count(second)]).toEqual([2, 2]);
  });

  it("tracing flags count only in the SDK Runner's config (issue 14.9)", () => {
    const sdk = "import { Runner, run } from '@openai/agents';\n";
    expect(scanSource('a.ts', `${sdk}new Runner({ tracingDisabled: true });`).disablesSensitiveTracing).toBe(true);
    expect(scanSource('a.ts', `${sdk}new Runner({ traceIncludeSensitiveData: false });`).disablesSensitiveTracing).toBe(true);
    expect(scanSource('a.ts', `${sdk}new Runner({ traceIncludeSensitiveData: true });`).disablesSensitiveTracing).toBe(false);
    // run()'s options carry no RunConfig (the SDK ignores these there), and a stray literal is nothing
    expect(scanSource('a.ts', `${sdk}run(a, 'x', { tracingDisabled: true });`).disablesSensitiveTracing).toBe(false);
    expect(scanSource('a.ts', `${sdk}export const flags = { tracingDisabled: true };`).disablesSensitiveTracing).toBe(false);
    expect(scanSource('a.ts', `setTracingDisabled(true);`).disablesSensitiveTracing).toBe(false);
  });

  it('a parse error carries line and column', () => {
    const bad = scanSource('bad.ts', `import { tool } from '@openai/agents';\nconst x = tool({ name: 'a' ;\n`);
    expect(bad.parseError).toEqual(expect.objectContaining({ line: 2, message: expect.stringContaining('expected') }));
    expect(bad.parseError!.column).toBeGreaterThan(1);
    expect(scanSource('ok.ts', `const x = 1;`).parseError).toBeUndefined();
  });

  it('CommonJS files are recognised', () => {
    expect(scanSource('a.js', `const { tool } = require('@openai/agents');`).moduleSyntax).toBe('commonjs');
    expect(scanSource('a.cts', `import { tool } from '@openai/agents';`).moduleSyntax).toBe('commonjs');
    expect(scanSource('a.js', `const { tool } = require('@openai/agents');\nexport const x = 1;`).moduleSyntax).toBe('esm');
  });

  it('an SDK value re-exported in an object given to module.exports is followed by its importers, not an escape (the scan has no parent pointers)', () => {
    // the test read the assignment's text through parent pointers the scan's tree does not have: the scan threw
    for (const exported of ['{ sdk }', '{ agents: sdk }', '{ t: sdk.tool }']) {
      const scan = scanSource('a.cjs', `const sdk = require('@openai/agents');\nmodule.exports = ${exported};\n`);
      expect(scan.opaqueFactoryUses).toEqual([]);
    }
    // the same object handed anywhere else is an escape: the test is of the assignment's target
    const elsewhere = scanSource('a.cjs', `const sdk = require('@openai/agents');\nholder.exports = { sdk };\n`);
    expect(elsewhere.opaqueFactoryUses).toHaveLength(1);
  });

  it('recognises the generated module by resolved path when given', () => {
    const src = `import { protectedTool } from '../gen/ctrlrun.generated.js';\nprotectedTool('a', {});`;
    const hit = scanSource('src/a.ts', src, { root: '/r', generatedModule: '/r/gen/ctrlrun.generated.ts' });
    expect(hit.protectedToolCalls).toHaveLength(1);
    const miss = scanSource('src/a.ts', src, { root: '/r', generatedModule: '/r/src/ctrlrun.generated.ts' });
    expect(miss.protectedToolCalls).toHaveLength(0);
    expect(miss.generatedImports).toHaveLength(0);
  });
});
