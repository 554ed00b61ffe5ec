import { rewriteFile } from '../../src/codemod/rewrite-file.js';
import type { Policy } from '../../src/policy/types.js';
import { scanSource } from '../../src/scan/index.js';

/**
 * One file of `/repo/src/x.ts` scanned and rewritten as the codemod would, with no tool mapped:
 * its handoffs mapped by agent name (`oncall` → `handoff.oncall` unless given) and its sandbox
 * agents mapped or not. Shared by the codemod's door tests.
 */
export function rewriteDoors(text: string, policy: Policy, mapped: { sandbox: boolean; handoffs?: Record<string, string> }) {
  const scan = scanSource('src/x.ts', text, { root: '/repo', generatedModule: '/repo/src/ctrlrun.generated.ts' });
  return rewriteFile(scan, text, {
    fileAbs: '/repo/src/x.ts',
    actions: new Map(),
    policy,
    generatedModule: '/repo/src/ctrlrun.generated.ts',
    settings: { extension: 'js' },
    sandboxMapped: mapped.sandbox,
    handoffActions: new Map(Object.entries(mapped.handoffs ?? { oncall: 'handoff.oncall' })),
  });
}
