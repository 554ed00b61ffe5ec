import { canonicalJson, sha256Hex } from '../canonical.js';
import type { ObservedEvent } from './event.js';

/** One attribute value, as OpenTelemetry and the SDK's custom span data both take it. */
export type AttributeValue = string | number | boolean | string[];
export type Attributes = Record<string, AttributeValue>;

/** What the recorder knows of the call besides its receipt. */
export interface EventSight {
  /** The SDK tool name (as the model sees it); absent: the action's first mapped tool, else the action. */
  toolName?: string | null;
  /** The call's checked arguments (absent: none shown). */
  args?: unknown;
  /** Their canonical JSON, when the caller has it: shown as it is when no argument is labelled. */
  argsJson?: string | undefined;
  /** The arguments the action's `data:` labels: never shown in clear. */
  labelled?: readonly string[];
  /**
   * Whether the run shows argument values in its traces (the SDK's `traceIncludeSensitiveData`, as
   * the SDK's own span of the call shows it): without it only the arguments' hash is recorded.
   */
  sensitive: boolean;
}

/**
 * A reason that is one of this library's words (`rule[0]`, `no_principal`, `approval_expired`):
 * shown always. Any other (a body's error message, an approver's message, a schema problem naming
 * a value) only where argument values may be, as the SDK redacts a tool's error.
 */
const REASON_WORD = /^[a-z_]+(\[\d+\])?$/;
export const REDACTED = '[redacted]';

/** Written in place of a labelled argument's value: its presence is known, never its value (nor an unkeyed hash of it). */
export const LABELLED = '[labelled]';

/**
 * The attributes of one event: the GenAI semantic conventions' tool attributes (`gen_ai.*`), then
 * this library's (`ctrlrun.*`). The arguments appear as their hash; in clear (`ctrlrun.arguments`)
 * only when the run shows argument values, and then without the labelled ones. Pure.
 */
export function attributesOf(event: ObservedEvent, sight: EventSight): Attributes {
  const a: Attributes = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': sight.toolName ?? event.action,
    'gen_ai.tool.type': 'function',
    'ctrlrun.event': event.kind,
    'ctrlrun.action': event.action,
    'ctrlrun.outcome': event.outcome,
    'ctrlrun.reason': sight.sensitive || REASON_WORD.test(event.reason) ? event.reason : REDACTED,
    'ctrlrun.refused': event.refused,
    'ctrlrun.mode': event.mode,
  };
  if (event.callId !== null) a['gen_ai.tool.call.id'] = event.callId;
  if (event.decision !== null) a['ctrlrun.decision'] = event.decision;
  if (event.rule !== null) a['ctrlrun.rule'] = event.rule;
  if (event.policyHash !== '') a['ctrlrun.policy.hash'] = event.policyHash;
  // an approval request's id is its call's id
  if (event.callId !== null && (event.decision === 'approve' || event.kind === 'pause' || event.kind === 'answer' || event.kind === 'claim'))
    a['ctrlrun.approval.id'] = event.callId;
  if (event.approvers.length > 0) a['ctrlrun.approvers'] = event.approvers;
  // a key is rendered from arguments: in clear only where they may be, and never for an action with labels (its template may read one)
  if (event.effectKey !== null) {
    if (sight.sensitive && (sight.labelled ?? []).length === 0) a['ctrlrun.effect.key'] = event.effectKey;
    else a['ctrlrun.effect.key.hash'] = `sha256:${sha256Hex(event.effectKey)}`;
  }
  if (event.argsHash !== null) a['ctrlrun.arguments.hash'] = event.argsHash;
  if (event.editedBy !== null) a['ctrlrun.edited_by'] = event.editedBy;
  if (event.grantId !== null) a['ctrlrun.grant.id'] = event.grantId;
  if (sight.sensitive) {
    if (event.principal !== null) a['ctrlrun.principal'] = event.principal;
    const labelled = sight.labelled ?? [];
    // nothing to replace: the arguments' canonical JSON as written for their hash (a plain object's only)
    const written = labelled.length === 0 && sight.argsJson !== undefined && isPlainObject(sight.args) ? sight.argsJson : undefined;
    const shown = written ?? shownArguments(sight.args, labelled);
    if (shown !== undefined) a['ctrlrun.arguments'] = shown;
  }
  return a;
}

const isPlainObject = (v: unknown): boolean => v !== undefined && v !== null && typeof v === 'object' && !Array.isArray(v);

/** The arguments' canonical JSON with each labelled one's value replaced by `[labelled]`; undefined when there are none to show. */
export function shownArguments(args: unknown, labelled: readonly string[]): string | undefined {
  if (args === undefined || args === null || typeof args !== 'object' || Array.isArray(args)) return undefined;
  const shown: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args as Record<string, unknown>)) shown[key] = labelled.includes(key) ? LABELLED : value;
  try {
    return canonicalJson(shown);
  } catch {
    return undefined;
  }
}
