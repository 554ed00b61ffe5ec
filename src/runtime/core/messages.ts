/** The text the model reads for a refused call: what was refused, why, and that it must not be retried. */
export function refusal(action: string, why: string): string {
  return `The call to ${action} was refused (${why}). It did not run and must not be retried; tell the user it was refused.`;
}

/** The schema's problem with a call the SDK's own parse refused and whose arguments it withheld (tool data not logged). */
export const WITHHELD_ARGUMENTS = "refused by the SDK's own parse, details withheld";

/**
 * What the model reads for a call whose arguments the tool's schema refuses: it did not run, and
 * may be made again with corrected arguments. One text for every way it is refused (the guardrail's
 * refusal, or the tool's error function when the SDK's own parse refused the call).
 */
export function invalidArgumentsText(action: string, problem: string): string {
  return `The call to ${action} was refused (its arguments do not match the tool's schema: ${problem}). It did not run; call it again with arguments of the right types if still needed.`;
}

/** Why a call of a TLS-pinned action cannot run through a door that opens no connection ctrlrun-gen can see. */
export const UNOBSERVED_TEXT =
  "its upstream's TLS certificate is pinned (upstream.tls_cert_sha256 / tls_cert_file), and this door opens no connection ctrlrun-gen can see, so no pinned certificate was observed; only a tool of an MCP server over HTTP built with the generated module's upstreamFetch can run it";

/** Why a call is held while an earlier body with the same arguments, which the SDK gave up on, still runs. */
export const STILL_RUNNING_TEXT =
  'an earlier call with the same arguments timed out and its body is still running (it may still complete); it did not run again. Wait for the earlier call to finish before calling again';

/** An effect whose outcome is unknown, and how an operator resolves it. */
export function ambiguousText(action: string, key: string, why: string): string {
  return `ctrlrun: ${action} did not run: whether effect ${key} happened is unknown (${why}). An operator must check and resolve it: ctrlrun-gen effects resolve ${key} --committed|--failed.`;
}

/** A budget's window in the largest whole unit (`1 day(s)`, `90 second(s)`). */
export function windowText(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s % 86_400 === 0) return `${s / 86_400} day(s)`;
  if (s % 3_600 === 0) return `${s / 3_600} hour(s)`;
  if (s % 60 === 0) return `${s / 60} minute(s)`;
  return `${s} second(s)`;
}

/**
 * What the model reads for a call a person stopped: a response in the tool's place is the result
 * itself (as if the tool had answered; its receipt says `responded`); a rejection is a refusal
 * with the approver's message as its reason.
 */
export function rejectionText(
  action: string,
  request: { answers: readonly { approver: string; decision: string; reason?: string; result?: string }[] },
): string {
  const no = request.answers.find((a) => a.decision === 'reject' || a.decision === 'respond');
  if (no?.decision === 'respond') return no.result ?? '';
  return refusal(action, no ? `rejected by ${no.approver}${no.reason ? `: ${no.reason}` : ''}` : 'rejected');
}
