import { describe, expect, it } from 'vitest';
import { ts } from 'ts-morph';
import { applyEdits, removalRange } from '../../src/codemod/edits.js';
import { rewriteFile } from '../../src/codemod/rewrite-file.js';
import { extensionFor, relativeSpecifier } from '../../src/scan/specifier.js';
import { needsApprovalVerdict, reachableAllow } from '../../src/codemod/strictness.js';
import { parsePolicy } from '../../src/policy/load.js';
import type { Policy } from '../../src/policy/types.js';
import { scanSource } from '../../src/scan/index.js';

function policy(yaml: string): Policy {
  const r = parsePolicy(`schema: ctrlrun.policy/v6\n${yaml}`, '/repo/ctrlrun.yaml');
  if (!r.value) throw new Error(JSON.stringify(r.diagnostics));
  return r.value;
}

const POLICY = policy(`actions:
  some:
    rules:
      - when: { amount_lte: 100 }
        decision: allow
      - decision: approve
  all:
    decision: approve
  gated:
    rules:
      - when: { amount_gte: 5 }
        decision: deny
      - decision: approve
      - decision: allow
  never:
    decision: deny
`);

const ACTIONS = new Map([
  ['a', 'some'],
  ['b', 'all'],
  ['c', 'gated'],
  ['d', 'never'],
]);

function rewrite(text: string, options: { file?: string; policy?: Policy; extension?: 'js' | 'ts' | 'none' } = {}) {
  const file = options.file ?? 'src/x.ts';
  const scan = scanSource(file, text, { root: '/repo', generatedModule: '/repo/src/ctrlrun.generated.ts' });
  return rewriteFile(scan, text, {
    fileAbs: `/repo/${file}`,
    actions: ACTIONS,
    policy: options.policy ?? POLICY,
    generatedModule: '/repo/src/ctrlrun.generated.ts',
    settings: { extension: options.extension ?? 'js' },
  });
}

describe('needsApproval strictness', () => {
  const prop = (valueKind: 'true' | 'false' | 'function') => ({
    span: { start: 0, end: 0, line: 1, column: 1 },
    valueSpan: { start: 0, end: 0, line: 1, column: 1 },
    valueKind,
  });

  it('a reachable allow rule is a conflict; approve/deny on every path is not', () => {
    expect(needsApprovalVerdict(prop('true'), POLICY, POLICY.actions.some!)).toMatchObject({ remove: false, related: { line: 5 } });
    expect(needsApprovalVerdict(prop('function'), POLICY, POLICY.actions.all!)).toEqual({ remove: true, why: 'policy-strict' });
    expect(needsApprovalVerdict(prop('true'), POLICY, POLICY.actions.never!)).toEqual({ remove: true, why: 'policy-strict' });
  });

  it('an allow after a catch-all is unreachable', () => {
    expect(reachableAllow(POLICY.actions.gated!)).toBeUndefined();
    expect(needsApprovalVerdict(prop('true'), POLICY, POLICY.actions.gated!).remove).toBe(true);
  });

  it("observe mode never pauses: a conflict even for approve-all; the tool's own false is always removed", () => {
    const observe = policy(`mode: observe\nactions:\n  all:\n    decision: approve\n`);
    expect(needsApprovalVerdict(prop('true'), observe, observe.actions.all!).remove).toBe(false);
    expect(needsApprovalVerdict(prop('false'), observe, observe.actions.all!)).toEqual({ remove: true, why: 'tool-false' });
  });
});

describe('removalRange', () => {
  const remove = (text: string, target: string) => {
    const start = text.indexOf(target);
    const [s, e] = removalRange(text, start, start + target.length);
    return text.slice(0, s) + text.slice(e);
  };
  it('removes a property alone on its line with its line', () => {
    expect(remove('{\n  a: 1,\n  b: true,\n  c: 2,\n}', 'b: true')).toBe('{\n  a: 1,\n  c: 2,\n}');
  });
  it('removes an inline property with its comma, keeping the rest', () => {
    expect(remove('{ a: 1, b: true, c: 2 }', 'b: true')).toBe('{ a: 1, c: 2 }');
  });
  it('takes the comma before the last inline property', () => {
    expect(remove('{ a: 1, b: true }', 'b: true')).toBe('{ a: 1 }');
  });
  it('keeps a trailing comment on the line', () => {
    expect(remove('{\n  b: true, // why\n  c: 2,\n}', 'b: true')).toBe('{\n  // why\n  c: 2,\n}');
  });
  it('handles CRLF line ends', () => {
    expect(remove('{\r\n  a: 1,\r\n  b: true,\r\n}', 'b: true')).toBe('{\r\n  a: 1,\r\n}');
  });
  it('applyEdits refuses overlaps', () => {
    expect(() =>
      applyEdits('abc', [
        { start: 0, end: 2, text: '' },
        { start: 1, end: 3, text: '' },
      ]),
    ).toThrow(/overlapping/);
  });
});

describe('module specifiers', () => {
  it('follows module resolution', () => {
    expect(extensionFor({ moduleResolution: ts.ModuleResolutionKind.NodeNext })).toBe('js');
    expect(extensionFor({ module: ts.ModuleKind.Node16 })).toBe('js');
    expect(extensionFor({ moduleResolution: ts.ModuleResolutionKind.Bundler })).toBe('none');
    expect(extensionFor({ moduleResolution: ts.ModuleResolutionKind.Node10 })).toBe('none');
    expect(extensionFor({ moduleResolution: ts.ModuleResolutionKind.Bundler, allowImportingTsExtensions: true })).toBe('ts');
  });
  it('is relative, with the emitted extension under NodeNext', () => {
    expect(relativeSpecifier('/r/src/a/b.ts', '/r/src/ctrlrun.generated.ts', { extension: 'js' })).toBe('../ctrlrun.generated.js');
    expect(relativeSpecifier('/r/src/b.ts', '/r/src/ctrlrun.generated.mts', { extension: 'js' })).toBe('./ctrlrun.generated.mjs');
    expect(relativeSpecifier('/r/src/b.ts', '/r/src/ctrlrun.generated.ts', { extension: 'none' })).toBe('./ctrlrun.generated');
    expect(relativeSpecifier('/r/b.ts', '/r/src/ctrlrun.generated.ts', { extension: 'ts' })).toBe('./src/ctrlrun.generated.ts');
  });
  it('a JavaScript file importing a JavaScript module names the file itself, whatever the settings (Node ESM loads nothing else)', () => {
    expect(relativeSpecifier('/r/scripts/a.mjs', '/r/ctrlrun.generated.js', { extension: 'none' })).toBe('../ctrlrun.generated.js');
    expect(relativeSpecifier('/r/ctrlrun.generated.js', '/r/ctrlrun.control.js', { extension: 'none' })).toBe('./ctrlrun.control.js');
    expect(relativeSpecifier('/r/a.js', '/r/ctrlrun.generated.mjs', { extension: 'ts' })).toBe('./ctrlrun.generated.mjs');
    expect(relativeSpecifier('/r/a.ts', '/r/ctrlrun.generated.js', { extension: 'none' }), 'a TypeScript importer keeps its settings').toBe(
      './ctrlrun.generated',
    );
  });
});

describe('rewriteFile', () => {
  it('rewrites callee and import; every other byte stays', () => {
    const text = `import { tool } from '@openai/agents';\n\nexport const x = tool({ name: 'b', execute: () => 'ok' });\n`;
    const r = rewrite(text);
    expect(r.after).toBe(
      `import { protectedTool } from './ctrlrun.generated.js';\n\nexport const x = protectedTool('all', { name: 'b', execute: () => 'ok' });\n`,
    );
    expect(r.findings).toEqual([expect.objectContaining({ kind: 'rewritten', tool: 'b', action: 'all', needsApprovalRemoved: false })]);
  });

  it('keeps the SDK tool import while something else uses it', () => {
    const text = `import { tool } from '@openai/agents';\nexport const make = tool;\nexport const x = tool({ name: 'b' });\n`;
    const r = rewrite(text);
    expect(r.after).toBe(
      `import { tool } from '@openai/agents';\nimport { protectedTool } from './ctrlrun.generated.js';\nexport const make = tool;\nexport const x = protectedTool('all', { name: 'b' });\n`,
    );
  });

  it('a conflict leaves the tool byte-identical and names both places', () => {
    const text = `import { tool } from '@openai/agents';\nexport const x = tool({\n  name: 'a',\n  needsApproval: true,\n});\n`;
    const r = rewrite(text);
    expect(r.after).toBeUndefined();
    expect(r.findings[0]).toMatchObject({ kind: 'conflict', tool: 'a', action: 'some', line: 4, column: 3, related: { file: '/repo/ctrlrun.yaml', line: 5 } });
    expect(r.findings[1]).toMatchObject({ kind: 'error-function', tool: 'a' });
  });

  it('reports the errorFunction of a tool it leaves as check does: a custom one too, not one the SDK defaults to null', () => {
    const text = [
      "import { tool } from '@openai/agents';",
      "export const x = tool({ name: 'unmapped_custom', errorFunction: () => 'try again', execute: () => 'x' });",
      "export const y = tool({ name: 'unmapped_schema', outputSchema: schema, execute: () => 'x' });",
      "export const z = tool({ name: 'unmapped_null', errorFunction: null, execute: () => 'x' });",
      '',
    ].join('\n');
    const r = rewrite(text);
    expect(r.findings.filter((f) => f.kind === 'error-function')).toEqual([
      expect.objectContaining({
        kind: 'error-function',
        tool: 'unmapped_custom',
        line: 2,
        column: 50,
        message: expect.stringContaining('custom errorFunction'),
      }),
    ]);
  });

  it('removes needsApproval when the policy is stricter', () => {
    const text = `import { tool } from '@openai/agents';\nexport const x = tool({\n  name: 'd',\n  needsApproval: async () => true,\n  execute: () => 'x',\n});\n`;
    expect(rewrite(text).after).toBe(
      `import { protectedTool } from './ctrlrun.generated.js';\nexport const x = protectedTool('never', {\n  name: 'd',\n  execute: () => 'x',\n});\n`,
    );
  });

  it('spread options are reported, not rewritten; type arguments are kept on protectedTool', () => {
    const spread = rewrite(`import { tool } from '@openai/agents';\nconst base = {};\nexport const x = tool({ ...base, name: 'b' });\n`);
    expect(spread.after).toBeUndefined();
    expect(spread.findings[0]).toMatchObject({ kind: 'unanalysable' });
    const typed = rewrite(`import { tool } from '@openai/agents';\nexport const x = tool<undefined, { user: string }>({ name: 'b' });\n`);
    expect(typed.after).toBe(
      `import { protectedTool } from './ctrlrun.generated.js';\nexport const x = protectedTool<undefined, { user: string }>('all', { name: 'b' });\n`,
    );
  });

  it('uses require in CommonJS files and the bundler specifier without extension', () => {
    const cjs = rewrite(`const { tool } = require("@openai/agents")\nexports.x = tool({ name: "b" })\n`, { file: 'src/x.js' });
    expect(cjs.after).toBe(`const { protectedTool } = require("./ctrlrun.generated.js")\nexports.x = protectedTool("all", { name: "b" })\n`);
    const bundler = rewrite(`import { Agent, tool } from '@openai/agents';\nexport const x = tool({ name: 'b' });\n`, {
      extension: 'none',
      file: 'src/a/x.ts',
    });
    expect(bundler.after).toBe(
      `import { Agent } from '@openai/agents';\nimport { protectedTool } from '../ctrlrun.generated';\nexport const x = protectedTool('all', { name: 'b' });\n`,
    );
  });

  it('a file that does not parse is reported and not rewritten', () => {
    const r = rewrite(`import { tool } from '@openai/agents';\nexport const x = tool({ name: 'b' ;\n`);
    expect(r.after).toBeUndefined();
    expect(r.findings).toEqual([expect.objectContaining({ kind: 'parse-error', line: 2 })]);
  });

  it('keeps CRLF line ends in the lines it adds', () => {
    const text = `import { Agent, tool } from '@openai/agents';\r\nimport { z } from 'zod';\r\n\r\nexport const x = tool({\r\n  name: 'b',\r\n  needsApproval: true,\r\n});\r\n`;
    expect(rewrite(text).after).toBe(
      `import { Agent } from '@openai/agents';\r\nimport { z } from 'zod';\r\nimport { protectedTool } from './ctrlrun.generated.js';\r\n\r\nexport const x = protectedTool('all', {\r\n  name: 'b',\r\n});\r\n`,
    );
  });

  it('removes tool from every SDK import that only served the rewritten calls', () => {
    const text = `import { tool } from '@openai/agents';\nimport { tool as rt, RealtimeAgent } from '@openai/agents-realtime';\nexport const x = tool({ name: 'b' });\nexport const y = rt({ name: 'd' });\nexport { RealtimeAgent };\n`;
    expect(rewrite(text).after).toBe(
      `import { protectedTool } from './ctrlrun.generated.js';\nimport { RealtimeAgent } from '@openai/agents-realtime';\nexport const x = protectedTool('all', { name: 'b' });\nexport const y = protectedTool('never', { name: 'd' });\nexport { RealtimeAgent };\n`,
    );
  });

  it('reuses a namespace import of the generated module instead of adding one', () => {
    const text = `import { tool } from '@openai/agents';\nimport * as gen from './ctrlrun.generated.js';\nexport const x = tool({ name: 'b' });\nexport const y = gen.protectedTool('all', { name: 'z' });\n`;
    const r = rewrite(text);
    expect(r.after).toBe(
      `import * as gen from './ctrlrun.generated.js';\nexport const x = gen.protectedTool('all', { name: 'b' });\nexport const y = gen.protectedTool('all', { name: 'z' });\n`,
    );
    expect(r.alreadyProtected).toBe(1);
  });
});
