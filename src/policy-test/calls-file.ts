/**
 * Recorded calls as JSON Lines (`--calls file.jsonl`): one call a line, as a decision log export or
 * a trace export writes them. Read losslessly (integers of any size, a float kept so the decision
 * refuses it as the runtime would). Never throws on user input: every bad line is a located Diagnostic.
 */
import { parse } from 'lossless-json';
import type { Diagnostic } from '../diagnostics.js';
import type { Decision } from '../policy/types.js';

export interface RecordedCall {
  /** 1-based line in the file. */
  line: number;
  action: string;
  /** The model's JSON text of the arguments (replayed as the runtime parses it). */
  argsText: string;
  /** Arguments recorded only as their hash (the policy's `data:` labels): their values are unknown. */
  hashed: string[];
  principal: { agent: string; user: string | null } | null;
  environment: string | null;
  task: string | null;
  /** When the call was decided (ms since the epoch), when recorded. */
  at: number | null;
  /** The decision recorded with the call, when there is one (the baseline of the replay). */
  recorded: { decision: Decision; reason: string | null } | null;
  callId: string | null;
  /** The receipts' arguments hash (a store's calls only): binds the call to its approval request. */
  argsHash?: string;
  /** A paused call's answer, as `receipts log` shows it (`approved by bob, used`): read from the store, never from a calls file. */
  answer?: string;
}

const DECISIONS = new Set(['allow', 'approve', 'deny']);

export function parseCallsFile(text: string, file: string): { calls: RecordedCall[]; diagnostics: Diagnostic[] } {
  const calls: RecordedCall[] = [];
  const diagnostics: Diagnostic[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    if (raw.trim() === '') return;
    const fail = (message: string, hint: string) => diagnostics.push({ severity: 'error', file, line: i + 1, column: 1, message, hint, code: 'bad-call' });
    let value: unknown;
    try {
      value = parse(raw) as unknown;
    } catch (error) {
      fail(`not a JSON line: ${(error as Error).message}`, 'each line is one JSON object: {"action": "stripe.refund", "args": {"amount": 5000}}');
      return;
    }
    const call = readCall(value, i + 1, fail);
    if (call) calls.push(call);
  });
  return { calls, diagnostics };
}

function readCall(value: unknown, line: number, fail: (message: string, hint: string) => void): RecordedCall | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return void fail('a call line must be a JSON object', 'write {"action": "...", "args": {...}}');
  const o = value as Record<string, unknown>;
  const str = (k: string): string | null | undefined => (o[k] === undefined || o[k] === null ? null : typeof o[k] === 'string' ? (o[k] as string) : undefined);
  const action = str('action');
  if (!action) return void fail('the call has no `action` string', 'name the policy action: "action": "stripe.refund"');
  let argsText: string;
  const args = o['args'];
  if (typeof o['arguments'] === 'string') argsText = o['arguments'] as string;
  else if (args !== undefined) {
    // the values themselves: a string here is not the arguments (their JSON text goes under `arguments`)
    if (typeof args !== 'object' || args === null || Array.isArray(args) || (args as { isLosslessNumber?: boolean }).isLosslessNumber)
      return void fail(
        `\`args\` must be a JSON object of the arguments, not ${args === null ? 'null' : Array.isArray(args) ? 'a list' : typeof args === 'string' ? 'a string' : `a ${typeof args}`}`,
        typeof args === 'string'
          ? 'the model\'s JSON text goes under "arguments": "{...}" (as `receipts log --calls` writes it), the values under "args": {...}'
          : 'write "args": {...}, or the JSON text under "arguments"',
      );
    argsText = losslessText(args);
  } else return void fail("the call has no `args` (an object) or `arguments` (the model's JSON text)", 'add "args": {...}');
  const hashed = o['hashed'] === undefined ? [] : o['hashed'];
  if (!Array.isArray(hashed) || !hashed.every((h) => typeof h === 'string'))
    return void fail('`hashed` must be a list of argument names', '"hashed": ["note"]');
  const p = o['principal'];
  let principal: RecordedCall['principal'] = null;
  if (p !== undefined && p !== null) {
    const agent = typeof p === 'object' ? (p as Record<string, unknown>)['agent'] : undefined;
    const user = typeof p === 'object' ? (p as Record<string, unknown>)['user'] : undefined;
    if (typeof agent !== 'string' || (user !== undefined && user !== null && typeof user !== 'string'))
      return void fail('`principal` must be {"agent": "...", "user": "..."}', "name the agent as the control's identity() does");
    principal = { agent, user: (user as string | undefined) ?? null };
  }
  const atText = str('at');
  const at = atText ? Date.parse(atText) : null;
  if (atText === undefined || (atText !== null && Number.isNaN(at))) return void fail('`at` must be an ISO 8601 time', '"at": "2026-12-01T10:00:00Z"');
  const decision = str('decision');
  if (decision === undefined || (decision !== null && !DECISIONS.has(decision)))
    return void fail('`decision` must be allow, approve or deny', "leave it out to take the working policy's decision as the baseline");
  const environment = str('environment');
  const task = str('task');
  const reason = str('reason');
  const callId = str('callId');
  if (environment === undefined || task === undefined || reason === undefined || callId === undefined)
    return void fail('`environment`, `task`, `reason` and `callId` are strings when given', 'remove the key or make it a string');
  return {
    line,
    action,
    argsText,
    hashed: hashed as string[],
    principal,
    environment,
    task,
    at,
    recorded: decision ? { decision: decision as Decision, reason } : null,
    callId,
  };
}

/**
 * One call as a line of the format `parseCallsFile` reads (`receipts log --calls` writes it): the
 * arguments as the recorded JSON text (`arguments`), so a value is replayed exactly as it was read.
 */
export function callLine(call: Omit<RecordedCall, 'line'>): string {
  return JSON.stringify({
    at: call.at === null ? null : new Date(call.at).toISOString(),
    callId: call.callId,
    action: call.action,
    arguments: call.argsText,
    hashed: call.hashed,
    principal: call.principal,
    environment: call.environment,
    task: call.task,
    decision: call.recorded?.decision ?? null,
    reason: call.recorded?.reason ?? null,
  });
}

/** JSON text of a lossless-json value (its numbers keep their digits, a float included). */
function losslessText(value: unknown): string {
  if (value !== null && typeof value === 'object' && (value as { isLosslessNumber?: boolean }).isLosslessNumber) return (value as { value: string }).value;
  if (Array.isArray(value)) return `[${value.map(losslessText).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${losslessText(v)}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}
