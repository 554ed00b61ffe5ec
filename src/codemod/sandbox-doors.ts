import type { FileScan } from '../scan/types.js';
import type { DoorTools } from './door-tools.js';

/**
 * `new SandboxAgent({...})` → `protectSandboxAgent(new SandboxAgent({...}))`: the agent's
 * capabilities are guarded in place, each tool decided by the action the manifest maps to its name
 * (`- sandbox: { tool }`). Left as it is: a repo whose manifest maps no sandbox tool (every call
 * would be denied), and an agent whose `configureTools` writes its own `needsApproval` (a human gate
 * is never replaced silently).
 */
export function planSandboxAgents(scan: FileScan, d: DoorTools): void {
  const { plan, ctx, at, left } = d;
  for (const site of scan.sandboxAgents ?? []) {
    if (site.guarded) continue;
    const name = site.name ?? 'SandboxAgent';
    if (!ctx.sandboxMapped) {
      left(
        'SandboxAgent',
        site.span,
        'unmapped',
        'the manifest maps none of its capability tools',
        `Add \`- sandbox: { tool: exec_command }\` (and write_stdin, view_image, apply_patch, …) with their \`action:\` to ctrlrun.tools.yaml; an unmapped tool is denied.`,
        name,
      );
      continue;
    }
    const gate = site.handApprovals[0];
    if (gate) {
      left(
        'SandboxAgent',
        gate,
        'conflict',
        'its `configureTools` sets `needsApproval` on the capability tools; under protectSandboxAgent the policy decides instead',
        'Move the condition into the policy (`decision: approve` for what a person must see), remove `needsApproval` from `configureTools`, and run the codemod again.',
        name,
      );
      continue;
    }
    plan.edits.push(
      { start: site.span.start, end: site.span.start, text: `${ctx.callee('protectSandboxAgent')}(` },
      { start: site.span.end, end: site.span.end, text: ')' },
    );
    plan.used.add('protectSandboxAgent');
    plan.findings.push({
      kind: 'door-rewritten',
      ...at(site.span),
      door: 'SandboxAgent',
      name,
      to: `protectSandboxAgent(new SandboxAgent({ name: '${name}' }))`,
      removed: [],
    });
  }
}
