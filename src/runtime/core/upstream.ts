import type { CompiledAction } from '../types.js';
import { UNOBSERVED_TEXT } from './messages.js';
import type { UpstreamCheck, UpstreamProblem } from './types.js';

/** Whether the action pins its upstream's TLS certificate (a pin only the HTTP MCP doors can observe). */
export function tlsPinned(compiled: CompiledAction | undefined): boolean {
  return (compiled?.upstream?.tlsCertSha256?.length ?? 0) > 0 || (compiled?.upstream?.tlsCertPems?.length ?? 0) > 0;
}

/**
 * Stage 4, the upstream: why the call may not reach the upstream it would, or null. A door with a
 * check (the HTTP MCP doors) asks it; a door without one cannot observe a pinned certificate, so
 * a pinned action's every call is `upstream_unverified` there (CTRLRun in-process, SPEC-v0.10 §4.4).
 */
export function upstreamProblem(
  compiled: CompiledAction | undefined,
  check: UpstreamCheck | undefined,
  toolCall: { callId: string; name?: string; arguments: string },
): Promise<UpstreamProblem | null> | UpstreamProblem | null {
  // a promise only where a door checks (no turn for a door without an upstream)
  if (check) return check(toolCall);
  return tlsPinned(compiled) ? unobserved() : null;
}

/** The refusal of a pinned call through a door that sees no connection. */
export function unobserved(): UpstreamProblem {
  return { reason: 'upstream_unverified', text: `${UNOBSERVED_TEXT} (upstream_unverified)` };
}
