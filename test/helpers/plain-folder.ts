import { makeTempDir, writeFiles } from './temp-repo.js';

/** An agent with one tool, `refund`. */
export const REFUND_AGENT = `import { Agent, tool } from '@openai/agents';
import { z } from 'zod';
export const refund = tool({ name: 'refund', description: 'Refund.', parameters: z.object({ id: z.string() }), execute: async ({ id }) => id });
export const agent = new Agent({ name: 'a', tools: [refund] });
`;

/** A manifest mapping `refund`, its policy beside it. */
export const REFUND_MANIFEST = `policy: ./ctrlrun.yaml
tools:
  refund:
    action: refund
`;

/**
 * A plain folder (no package.json, no manifest here or above) of two sibling projects: `a/` with a
 * package.json, a manifest and its policy, `b/` with an agent and nothing else. The folder is
 * pushed on `dirs` for removal.
 */
export function plainFolderOfSiblings(dirs: string[]): string {
  const dir = makeTempDir('siblings-');
  dirs.push(dir);
  writeFiles(dir, {
    'a/package.json': JSON.stringify({ name: 'a', private: true, type: 'module' }),
    'a/src/agent.ts': REFUND_AGENT,
    'a/ctrlrun.tools.yaml': REFUND_MANIFEST,
    'a/ctrlrun.yaml': 'version: 1\nrules: []\n',
    'b/src/agent.ts': REFUND_AGENT,
  });
  return dir;
}
