import type { OptionProperty, ToolCallOptions } from '../scan/types.js';
import { yamlScalar } from '../manifest/yaml-scalar.js';
import { removalRange } from './edits.js';
import { needsApprovalVerdict } from './strictness.js';
import type { DoorContext, DoorKind, DoorPlan, Located } from './types.js';

// What every door's rewrite (doors.ts, sandbox-doors.ts, handoff-doors.ts) shares: the project's
// mappings, the plan being built, and the checks and findings of a door left as it is.

/** The plan being built, and the checks and findings every door shares. */
export interface DoorTools {
  plan: DoorPlan;
  text: string;
  ctx: DoorContext;
  at: (span: { line: number; column: number }) => Located;
  left: (
    door: DoorKind,
    span: { line: number; column: number },
    reason: 'unmapped' | 'conflict' | 'unanalysable' | 'unknown-action',
    message: string,
    hint: string,
    name?: string,
  ) => void;
  remove: (prop: OptionProperty) => void;
  unreadable: (o: ToolCallOptions) => string | undefined;
  mappedAction: (door: DoorKind, span: { line: number; column: number }, name: string, what: string) => string | undefined;
  settleGate: (door: DoorKind, o: ToolCallOptions, action: string, name: string, keep: string) => string[] | undefined;
}

export function doorTools(text: string, ctx: DoorContext): DoorTools {
  const plan: DoorPlan = { edits: [], findings: [], used: new Set(), replaced: [] };
  const at = (span: { line: number; column: number }): Located => ({ file: ctx.fileAbs, line: span.line, column: span.column });
  const left = (
    door: DoorKind,
    span: { line: number; column: number },
    reason: 'unmapped' | 'conflict' | 'unanalysable' | 'unknown-action',
    message: string,
    hint: string,
    name?: string,
  ) => plan.findings.push({ kind: 'door-left', ...at(span), door, reason, message, hint, ...(name !== undefined ? { name } : {}) });
  const remove = (prop: OptionProperty) => {
    const [s, e] = removalRange(text, prop.span.start, prop.span.end);
    plan.edits.push({ start: s, end: e, text: '' });
  };
  const unreadable = (o: ToolCallOptions): string | undefined =>
    !o.span ? 'the options are not an object literal' : o.hasSpread ? 'the options spread other properties in (...), which check cannot read' : undefined;
  /** A hand-written `needsApproval` may go only where the policy is at least as strict (as for tool()). */
  const gateProblem = (o: ToolCallOptions, actionId: string): { prop: OptionProperty; message: string } | 'remove' | undefined => {
    const na = o.properties.needsApproval;
    if (!na) return undefined;
    const verdict = needsApprovalVerdict(na, ctx.policy, ctx.policy.actions[actionId]!);
    return verdict.remove ? 'remove' : { prop: na, message: verdict.reason };
  };
  /** The policy action a door's tool name maps to; undefined (and a finding saying why) when there is none. */
  const mappedAction = (door: DoorKind, span: { line: number; column: number }, name: string, what: string): string | undefined => {
    const action = ctx.actions.get(name);
    if (action === undefined) {
      left(
        door,
        span,
        'unmapped',
        `the manifest maps no action to the ${what} '${name}'`,
        `Add \`- tool: ${yamlScalar(name)}\` with its \`action:\` to ctrlrun.tools.yaml.`,
        name,
      );
      return undefined;
    }
    if (!Object.hasOwn(ctx.policy.actions, action)) {
      left(
        door,
        span,
        'unknown-action',
        `the ${what} '${name}' maps to '${action}', which the policy does not define`,
        `Add action '${action}' to ctrlrun.yaml, or map the tool to one it defines.`,
        name,
      );
      return undefined;
    }
    return action;
  };
  /**
   * A door's hand-written `needsApproval`, settled as tool()'s is: removed where the policy is at
   * least as strict (the names removed are returned), else a conflict finding (undefined).
   */
  const settleGate = (door: DoorKind, o: ToolCallOptions, action: string, name: string, keep: string): string[] | undefined => {
    const gate = gateProblem(o, action);
    if (gate && gate !== 'remove') {
      left(
        door,
        gate.prop.span,
        'conflict',
        `it keeps its needsApproval: ${gate.message}`,
        `Make the policy at least as strict (\`decision: approve\`), or ${keep} and suppress the finding with a reason.`,
        name,
      );
      return undefined;
    }
    if (gate === 'remove') {
      remove(o.properties.needsApproval!);
      return ['needsApproval'];
    }
    return [];
  };
  return { plan, text, ctx, at, left, remove, unreadable, mappedAction, settleGate };
}
