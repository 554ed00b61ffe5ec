import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rewriteFile } from '../../src/codemod/rewrite-file.js';
import { parsePolicy } from '../../src/policy/load.js';
import type { Policy } from '../../src/policy/types.js';
import { scanSource } from '../../src/scan/index.js';

const POLICY = parsePolicy(
  `schema: ctrlrun.policy/v6\nactions:\n  some:\n    rules:\n      - when: { amount_lte: 100 }\n        decision: allow\n      - decision: approve\n  all:\n    decision: approve\n`,
  '/repo/ctrlrun.yaml',
).value as Policy;
const ACTIONS = new Map([
  ['mapped_some', 'some'],
  ['mapped_all', 'all'],
]);

const importForms = [
  `import { tool } from '@openai/agents';`,
  `import { Agent, tool } from '@openai/agents';`,
  `import { tool as t } from '@openai/agents-core';`,
  `import * as agents from '@openai/agents';`,
  `const { tool } = require('@openai/agents');`,
];
const calleeFor = (imp: string): string => (imp.includes('tool as t') ? 't' : imp.includes('* as agents') ? 'agents.tool' : 'tool');
const needsApproval = fc.constantFrom(
  '',
  'needsApproval: true,',
  'needsApproval: false,',
  'needsApproval: async () => true,',
  '/* c */ needsApproval: true, // why',
);
const name = fc.constantFrom('mapped_some', 'mapped_all', 'unmapped');
const gap = fc.constantFrom('', ' ', '\n', '\n\n', ' /* x */ ', '\n  // note\n');
const toolCall = fc.record({ name, needsApproval, gap, layout: fc.boolean() });

function rewrite(text: string) {
  const scan = scanSource('src/x.ts', text, { root: '/repo', generatedModule: '/repo/src/ctrlrun.generated.ts' });
  return rewriteFile(scan, text, {
    fileAbs: '/repo/src/x.ts',
    actions: ACTIONS,
    policy: POLICY,
    generatedModule: '/repo/src/ctrlrun.generated.ts',
    settings: { extension: 'js' },
  });
}

describe('codemod properties', () => {
  it('scanSource never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        scanSource('a.ts', `import { tool } from '@openai/agents';\n${text}`);
        scanSource('a.tsx', text);
      }),
      { numRuns: 300 },
    );
  });

  it('the output parses, keeps one protectedTool import, and a second run changes nothing', () => {
    fc.assert(
      fc.property(fc.constantFrom(...importForms), fc.array(toolCall, { minLength: 1, maxLength: 4 }), (imp, calls) => {
        const callee = calleeFor(imp);
        const body = calls
          .map((c, i) => {
            const gate = c.layout ? c.needsApproval : c.needsApproval.replace('// why', '/* why */');
            const props = [`name: '${c.name}',`, gate, `execute: async () => 'x',`].filter(Boolean);
            const object = c.layout ? `{\n  ${props.join('\n  ')}\n}` : `{ ${props.join(' ')} }`;
            return `export const v${i} =${c.gap}${callee}(${object});`;
          })
          .join('\n\n');
        const text = `${imp}\nimport { z } from 'zod';\n\n${body}\n`;
        expect(scanSource('src/x.ts', text).parseError).toBeUndefined();
        const first = rewrite(text);
        const after = first.after ?? text;
        const rescan = scanSource('src/x.ts', after, { root: '/repo', generatedModule: '/repo/src/ctrlrun.generated.ts' });
        expect(rescan.parseError).toBeUndefined();
        expect(after.match(/import \{ protectedTool \}|const \{ protectedTool \}/g)?.length ?? 0).toBe(
          first.findings.some((f) => f.kind === 'rewritten') ? 1 : 0,
        );
        // Every rewritten tool is a protectedTool call now; every other one is still an SDK call.
        const rewritten = first.findings.filter((f) => f.kind === 'rewritten').length;
        expect(rescan.protectedToolCalls).toHaveLength(rewritten);
        expect(rescan.sdkToolCalls).toHaveLength(calls.length - rewritten);
        // No rewritten tool keeps a needsApproval; a truthy gate on an allow-some action is never rewritten.
        for (const c of rescan.protectedToolCalls) expect(c.options.properties.needsApproval).toBeUndefined();
        for (const c of rescan.sdkToolCalls) {
          const gate = c.options.properties.needsApproval;
          if (c.name === 'mapped_all' || (c.name === 'mapped_some' && (!gate || gate.valueKind === 'false'))) throw new Error('a rewritable tool was left');
        }
        expect(rewrite(after).after).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });
});
