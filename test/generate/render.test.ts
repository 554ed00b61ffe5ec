import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { fillTemplate, renderModuleText, type RenderInput } from '../../src/generate/render.js';
import { extensionFor, relativeSpecifier } from '../../src/scan/specifier.js';
import type { Policy } from '../../src/policy/types.js';
import type { CompiledPolicy } from '../../src/runtime/types.js';
import { policyOf, template } from './helpers.js';

function input(policy: Policy, extra: Partial<RenderInput> = {}): RenderInput {
  return {
    policy,
    policyFile: 'ctrlrun.yaml',
    manifestFile: 'ctrlrun.tools.yaml',
    controlFile: 'src/ctrlrun.control.ts',
    controlSpecifier: './ctrlrun.control.js',
    tools: {},
    sdkTypes: '@openai/agents',
    inputsHash: 'a'.repeat(64),
    version: '1.2.3',
    ...extra,
  };
}

/** Syntax errors of the emitted TypeScript (none expected). */
function syntaxErrors(text: string): string[] {
  const out = ts.transpileModule(text, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.CommonJS } });
  return (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

function evaluateModule(text: string): CompiledPolicy {
  const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const exports: Record<string, unknown> = {};
  new Function('exports', 'require', js)(exports, (s: string) =>
    s === 'ctrlrun-gen/runtime'
      ? {
          bindProtectedTool: () => () => undefined,
          bindMcp: () => ({}),
          bindHostedMcp: () => () => undefined,
          bindLocalTools: () => ({}),
          bindAgentTools: () => ({}),
          bindSandbox: () => ({}),
          bindHandoffs: () => ({}),
        }
      : { default: {} },
  );
  return exports['policy'] as CompiledPolicy;
}

describe('renderModuleText', () => {
  it("carries an action's CTRLRun mcp: { not_executed_on_error: true } to the runtime, and nothing for the default", () => {
    const p = policyOf({ 'github.create_issue': { decision: 'allow' }, 'github.list_issues': { decision: 'allow' } });
    p.actions['github.create_issue']!.mcp = { notExecutedOnError: true };
    const compiled = evaluateModule(renderModuleText(input(p)));
    expect(compiled.actions['github.create_issue']?.mcp).toEqual({ notExecutedOnError: true });
    expect(compiled.actions['github.list_issues']).not.toHaveProperty('mcp');
  });

  it('does not depend on the order the policy lists actions or the manifest lists tools', () => {
    const a = policyOf({ 'b.read': { decision: 'allow' }, 'a.write': { rules: [{ when: { n_lt: 3 }, decision: 'approve' }] } });
    const b: Policy = { ...a, actions: Object.fromEntries(Object.entries(a.actions).reverse()) };
    const one = renderModuleText(input(a, { tools: { z: 'b.read', y: 'a.write' } }));
    const two = renderModuleText(input(b, { tools: { y: 'a.write', z: 'b.read' } }));
    expect(one).toBe(two);
    expect(one.indexOf("'a.write': {")).toBeLessThan(one.indexOf("'b.read': {"));
    expect(one.indexOf('    y: ')).toBeLessThan(one.indexOf('    z: '));
    expect(one).not.toContain('\r');
    expect(one.endsWith('= handoffDoors.protectHandoff;\n')).toBe(true);
  });

  it("tests an argument's type once per rule, however many entries compare it", () => {
    const p = policyOf({
      'pay.refund': {
        rules: [
          { when: { amount_gte: 1, amount_lte: 100, amount_neq: 7, currency_neq: 'x', currency_in: ['eur', 'usd'] }, decision: 'allow' },
          { when: { amount_gt: 100 }, decision: 'approve' },
        ],
      },
    });
    const text = renderModuleText(input(p));
    const rules = text.split('// rules[').slice(1);
    expect(rules[0]!.match(/isInt\(\$amount\)/g)).toHaveLength(1);
    expect(rules[0]!.match(/\$currency !== undefined/g)).toHaveLength(1);
    expect(rules[1]!.match(/isInt\(\$amount\)/g)).toHaveLength(1);
    const decide = evaluateModule(text).actions['pay.refund']!.decide;
    expect(decide({ amount: 50, currency: 'eur' }).rule).toBe(0);
    expect(decide({ amount: 7, currency: 'eur' }).rule).toBe(null);
    expect(decide({ amount: 50.5, currency: 'eur' }).rule).toBe(null);
    expect(decide({ amount: 101 }).rule).toBe(1);
  });

  it('gives clashing action ids distinct function names, each bound to its own action', () => {
    const p = policyOf({ 'a.b': { decision: 'allow' }, 'a-b': { decision: 'deny' }, a_b: { decision: 'approve' } });
    const text = renderModuleText(input(p));
    expect(text).toContain('function decide_a_b(');
    expect(text).toContain('function decide_a_b_2(');
    expect(text).toContain('function decide_a_b_3(');
    const compiled = evaluateModule(text);
    expect(compiled.actions['a.b']?.decide({}).decision).toBe('allow');
    expect(compiled.actions['a-b']?.decide({}).decision).toBe('deny');
    expect(compiled.actions['a_b']?.decide({}).decision).toBe('approve');
  });

  it('an empty policy: ActionId is never, no helpers, no unused imports', () => {
    const text = renderModuleText(input(policyOf({})));
    expect(text).toContain('export type ActionId = never;');
    expect(text).toContain(
      "import type { FunctionTool, ToolInputParameters, ToolOptions, UnknownContext } from '@openai/agents';\nimport {\n  bindAgentTools,\n  bindHandoffs,\n  bindHostedMcp,\n  bindLocalTools,\n  bindMcp,\n  bindProtectedTool,\n  bindSandbox,\n  type AgentDoors,\n  type CompiledPolicy,\n  type HandoffDoors,\n  type LocalDoors,\n  type McpDoors,\n  type ProtectHostedMcp,\n  type ProtectedTool,\n  type SandboxDoors,\n} from 'ctrlrun-gen/runtime';",
    );
    expect(text).not.toMatch(/function (own|isInt|isPart)\(/);
    expect(syntaxErrors(text)).toEqual([]);
  });

  it("emits the manifest's MCP entries as policy.mcp (server -> tool -> action, code-unit order) and only when there are some", () => {
    const p = policyOf({ 'gh.create': { decision: 'approve' }, 'gh.list': { decision: 'allow' } });
    const text = renderModuleText(
      input(p, {
        mcp: { zeta: { list: 'gh.list' }, github: { list_issues: 'gh.list', create_issue: 'gh.create' } },
        hostedMcp: { 'git mcp': 'gh.list', deepwiki: 'gh.create' },
      }),
    );
    expect(evaluateModule(text).mcp).toEqual({ github: { create_issue: 'gh.create', list_issues: 'gh.list' }, zeta: { list: 'gh.list' } });
    expect(evaluateModule(text).hostedMcp).toEqual({ deepwiki: 'gh.create', 'git mcp': 'gh.list' });
    expect(text).toContain('export const protectHostedMcp: ProtectHostedMcp = bindHostedMcp(control, policy);');
    expect(text.indexOf("create_issue: 'gh.create'")).toBeLessThan(text.indexOf("list_issues: 'gh.list'"));
    expect(text.indexOf('    github: {')).toBeLessThan(text.indexOf('    zeta: {'));
    expect(text).toContain("export const protectMcpServer: McpDoors['protectMcpServer'] = mcpDoors.protectMcpServer;");
    expect(renderModuleText(input(p))).not.toMatch(/ {2}(mcp|hostedMcp): \{/);
    expect(syntaxErrors(text)).toEqual([]);
  });

  it('escapes quotes, backslashes, line breaks and comment terminators in values, keys and templates', () => {
    const p = policyOf({
      'x.y': {
        effect: "a'b\\c*/d\n{id}\u2028",
        rules: [{ when: { id_eq: "it's \\ */ \n \u2028", id_in: ['*/', "'"] }, decision: 'allow' }],
      },
    });
    p.actions['x.y']!.effect = template("a'b\\c*/d\n{id}\u2028");
    const text = renderModuleText(input(p, { tools: { "Refund 'Expert'\n": 'x.y' } }));
    expect(syntaxErrors(text)).toEqual([]);
    const compiled = evaluateModule(text);
    expect(compiled.tools).toEqual({ "Refund 'Expert'\n": 'x.y' });
    expect(compiled.actions['x.y']?.effect?.({ id: 'Q' }, null)).toEqual({ ok: true, value: "a'b\\c*/d\nQ\u2028" });
    expect(compiled.actions['x.y']?.decide({ id: "it's \\ */ \n \u2028" }).decision).toBe('deny'); // id_in does not hold
  });

  it('keeps a lone surrogate in a value exactly (escaped, since UTF-8 cannot carry it)', () => {
    const p = policyOf({ 'x.y': { rules: [{ when: { id_eq: 'a\ud800b' }, decision: 'allow' }] } });
    const text = renderModuleText(input(p));
    expect(text).toContain("$id === 'a\\ud800b'");
    expect(Buffer.from(text, 'utf8').toString('utf8')).toBe(text);
    expect(evaluateModule(text).actions['x.y']?.decide({ id: 'a\ud800b' }).decision).toBe('allow');
  });

  it('a long ActionId union goes one member a line', () => {
    const ids = Array.from({ length: 8 }, (_, i) => `payments.action_number_${i}`);
    const text = renderModuleText(input(policyOf(Object.fromEntries(ids.map((id) => [id, { decision: 'allow' as const }])))));
    expect(text).toContain(`export type ActionId =\n  | 'payments.action_number_0'\n  | 'payments.action_number_1'`);
    expect(text.split('\n').filter((l) => l.length > 120)).toEqual([]);
  });

  it('rules after one that always matches are not emitted', () => {
    const p = policyOf({ 'a.b': { rules: [{ when: { n_lt: 1 }, decision: 'deny' }, { decision: 'allow' }, { when: { n_gt: 5 }, decision: 'deny' }] } });
    const text = renderModuleText(input(p));
    expect(text).toContain('// rules[1] (ctrlrun.yaml:12): always matches');
    expect(text).not.toContain('rules[2]');
    expect(text).not.toContain("reason: 'no_matching_rule'");
  });

  it('header: the generated-code line, the inputs hash and the version', () => {
    const lines = renderModuleText(input(policyOf({}))).split('\n');
    expect(lines[0]).toBe('// Code generated by ctrlrun-gen from ctrlrun.yaml and ctrlrun.tools.yaml. DO NOT EDIT.');
    expect(lines[1]).toBe(`// inputs sha256:${'a'.repeat(64)} · ctrlrun-gen 1.2.3`);
  });
});

describe('fillTemplate', () => {
  it('fills slots and refuses a missing value or an unused one', () => {
    expect(fillTemplate('a {{x}} b {{y}}', { x: '1', y: '$&' })).toBe('a 1 b $&');
    expect(() => fillTemplate('{{x}}', {})).toThrow(/x/);
    expect(() => fillTemplate('{{x}}', { x: '', y: '' })).toThrow(/y/);
  });
});

describe("control specifier (the codemod's rule: one rule for both imports)", () => {
  it('follows the module resolution of the repo', () => {
    expect(relativeSpecifier('/r/src/gen/out.ts', '/r/src/control.ts', { extension: 'js' })).toBe('../control.js');
    expect(relativeSpecifier('/r/src/out.ts', '/r/src/control.ts', { extension: 'none' })).toBe('./control');
    expect(relativeSpecifier('/r/src/out.ts', '/r/control.mts', { extension: 'js' })).toBe('../control.mjs');
    expect(relativeSpecifier('/r/out.ts', '/r/src/control.ts', { extension: 'ts' })).toBe('./src/control.ts');
    expect(extensionFor({ module: ts.ModuleKind.NodeNext })).toBe('js');
    expect(extensionFor({ module: ts.ModuleKind.CommonJS })).toBe('none');
    expect(extensionFor({ moduleResolution: ts.ModuleResolutionKind.Node10 })).toBe('none');
    expect(extensionFor({ allowImportingTsExtensions: true, moduleResolution: ts.ModuleResolutionKind.Bundler })).toBe('ts');
  });
  it('keeps `.mjs`/`.cjs` for a `.mts`/`.cts` control without extensions (its stem would not resolve)', () => {
    expect(relativeSpecifier('/r/src/out.ts', '/r/src/control.mts', { extension: 'none' })).toBe('./control.mjs');
    expect(relativeSpecifier('/r/src/out.ts', '/r/src/control.cts', { extension: 'none' })).toBe('./control.cjs');
    expect(relativeSpecifier('/r/src/out.ts', '/r/src/control.mjs', { extension: 'none' })).toBe('./control.mjs');
    expect(relativeSpecifier('/r/src/out.ts', '/r/src/control.js', { extension: 'none' })).toBe('./control');
  });
});
