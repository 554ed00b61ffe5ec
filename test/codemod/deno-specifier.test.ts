import { describe, expect, it } from 'vitest';
import { rewriteFile } from '../../src/codemod/rewrite-file.js';
import { parsePolicy } from '../../src/policy/load.js';
import { scanSource } from '../../src/scan/index.js';

/**
 * Gap I of the session 27 red team (issue 40 item 4): a file that loads the SDK by Deno's `npm:` or a
 * URL is read as the SDK (check reports its tools), but the codemod does not rewrite it: the
 * generated module and the runtime load the SDK by its package name, which such a runtime may not
 * resolve to the agent's copy. Each tool and door is left as it is, with a finding that blocks and
 * says what to do.
 */

const parsed = parsePolicy('schema: ctrlrun.policy/v6\nactions:\n  pay:\n    decision: approve\n', '/repo/ctrlrun.yaml');
if (!parsed.value) throw new Error(JSON.stringify(parsed.diagnostics));
const POLICY = parsed.value;

const edgeFunction = (sdk: string, zod = 'npm:zod@3') =>
  [
    `import { Agent, hostedMcpTool, tool } from '${sdk}';`,
    `import { z } from '${zod}';`,
    "export const refund = tool({ name: 'refund', description: 'Refund', parameters: z.object({ id: z.string() }), execute: async ({ id }) => id });",
    "export const docs = hostedMcpTool({ serverLabel: 'docs', serverUrl: 'https://docs.example.com/mcp' });",
    "export const wiki = hostedMcpTool({ serverLabel: 'wiki', serverUrl: 'https://wiki.example.com/mcp' });",
    "export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [refund, docs, wiki] });",
    '',
  ].join('\n');

function rewrite(text: string) {
  const file = 'supabase/functions/agent/index.ts';
  const scan = scanSource(file, text, { root: '/repo', generatedModule: '/repo/src/ctrlrun.generated.ts' });
  return rewriteFile(scan, text, {
    fileAbs: `/repo/${file}`,
    actions: new Map([['refund', 'pay']]),
    hostedLabels: new Set(['docs']),
    policy: POLICY,
    generatedModule: '/repo/src/ctrlrun.generated.ts',
    settings: { extension: 'ts' },
  });
}

describe('the codemod and a file loading the SDK by npm: or a URL', () => {
  for (const sdk of ['npm:@openai/agents@0.20.0', 'npm:@openai/agents', 'https://esm.sh/@openai/agents@0.20.0'])
    it(`\`${sdk}\`: nothing written; the tool and the door are left, each saying why and what to do`, () => {
      const result = rewrite(edgeFunction(sdk));
      expect(result.after).toBeUndefined();
      const why = { message: expect.stringContaining(`\`${sdk}\``) };
      expect(result.findings).toEqual([
        expect.objectContaining({
          kind: 'unanalysable',
          line: 3,
          tool: 'refund',
          action: 'pay',
          message: expect.stringContaining('import map'),
        }),
        expect.objectContaining({ kind: 'error-function', line: 3, tool: 'refund' }),
        expect.objectContaining({
          kind: 'door-left',
          line: 4,
          door: 'hostedMcpTool',
          reason: 'unanalysable',
          ...why,
          hint: expect.stringContaining('import map'),
        }),
        // a door the manifest does not map stays what it was: unmapped
        expect.objectContaining({ kind: 'door-left', line: 5, door: 'hostedMcpTool', reason: 'unmapped' }),
      ]);
      expect(result.findings[0]).toMatchObject(why);
    });

  it('control: the same file importing the SDK by its name is rewritten (zod by `npm:` does not matter)', () => {
    const result = rewrite(edgeFunction('@openai/agents'));
    expect(result.after).toContain("protectedTool('pay'");
    expect(result.findings.map((f) => f.kind)).toEqual(['rewritten', 'door-rewritten', 'door-left']);
  });
});
