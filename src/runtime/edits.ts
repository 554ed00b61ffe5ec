import { jsonDepthProblem, parseArguments } from './arguments.js';
import { canonicalHash, canonicalJson } from './canonical.js';
import { compileJsonSchema } from './json-schema.js';
import type { ApprovalAnswer, ApprovalRequest, CallDecision, PausedDoor, PausedDoorKind } from './types.js';

/**
 * Approve with edits, the parts every answering surface (a Control, the CLI, serve, an MCP console
 * through operator-actions.ts) and the core share, pure: which doors can run edited arguments, an
 * edit checked before it is recorded, the edit a request's approvals carry, and the words that tell
 * the model what ran.
 */

/**
 * Why a door cannot run arguments other than the model's, or undefined when it can. The doors
 * whose body this library calls with the input it chooses (function tools, MCP tools made by
 * `protectMcpTools`, agents as tools, a sandbox's function tools) run the edit; the others run the
 * call the model wrote from the SDK's own item.
 */
export const EDIT_REFUSED: Readonly<Record<PausedDoorKind, string | undefined>> = {
  function: undefined,
  mcp: undefined,
  agent: undefined,
  sandbox: undefined,
  shell:
    "the SDK runs the shell command the model wrote, from its own item; the door cannot hand the shell other arguments (reject with a message, or respond in the tool's place)",
  apply_patch:
    "the SDK applies the patch the model wrote, from its own item; the door cannot hand the editor another patch (reject with a message, or respond in the tool's place)",
  computer:
    "the SDK performs the computer action the model wrote, from its own item; the door cannot hand the computer another action (reject with a message, or respond in the tool's place)",
  hosted_mcp:
    'the provider runs a hosted MCP call itself once it reads the approval; an approval response carries no arguments (reject with a message instead)',
};

/** Why a request's call cannot be approved with edits, or undefined when it can. */
export function editRefusal(request: Pick<ApprovalRequest, 'door'>): string | undefined {
  const door = request.door;
  if (door === undefined)
    return 'the request was filed without its door (by an older ctrlrun-gen, or by control.request on a state), so its tool and schema are unknown here';
  const refused = EDIT_REFUSED[door.kind];
  if (refused !== undefined) return refused;
  if (door.schema === undefined)
    return 'the tool returns structured output (outputSchema) or has a schema this check cannot read, so the model could not be told what ran';
  return undefined;
}

/** The door to file with a paused call: its kind, and the tool's JSON schema where the door runs edits and the schema can be checked. */
export function pausedDoor(kind: PausedDoorKind, schema: unknown): PausedDoor {
  if (EDIT_REFUSED[kind] !== undefined || schema === undefined || schema === null || typeof schema !== 'object') return { kind };
  try {
    compileJsonSchema(schema, 'the tool');
    // a copy as JSON, so the request stores plain data (a zod-made schema object may carry more)
    return { kind, schema: JSON.parse(JSON.stringify(schema)) as unknown };
  } catch {
    return { kind };
  }
}

/** An edit checked for recording: the arguments' canonical JSON and hash, and the policy's decision on them. */
export type EditCheck =
  | { ok: true; args: string; argsHash: string; value: Record<string, unknown>; decision: CallDecision | undefined; unchanged: boolean }
  | { ok: false; code: EditRefusalCode; message: string };

export type EditRefusalCode = 'edit_unsupported' | 'edit_invalid' | 'edit_schema' | 'edit_denied' | 'edit_undecided';

/** What the policy decides for an action's arguments; undefined when the answering surface has no policy for the action. */
export type DecideEdit = (action: string, args: Record<string, unknown>) => CallDecision | undefined;

/**
 * An approver's edited arguments, checked as the runtime checks the model's before anything runs:
 * a JSON object read losslessly (no float, nothing too deep), valid for the tool's schema as the
 * request filed it, and decided again by the policy (an edit into `deny` is refused; `decide`
 * answering undefined refuses too: with no policy, nobody can say the edit is not a denial). The
 * run decides it again under its own policy before the body runs (core/edit.ts).
 */
export function checkEdit(request: Pick<ApprovalRequest, 'action' | 'argsHash' | 'door'>, edited: unknown, decide: DecideEdit | undefined): EditCheck {
  const refused = editRefusal(request);
  if (refused !== undefined) return { ok: false, code: 'edit_unsupported', message: `This call cannot be approved with edits: ${refused}.` };
  const text = typeof edited === 'string' ? edited : safeJson(edited);
  if (text === undefined) return { ok: false, code: 'edit_invalid', message: 'The edited arguments are not JSON.' };
  const deep = jsonDepthProblem(text);
  if (deep !== null) return { ok: false, code: 'edit_invalid', message: `The edited arguments are refused: ${deep}.` };
  const parsed = parseArguments(text);
  if (!parsed.ok) return { ok: false, code: 'edit_invalid', message: `The edited arguments are refused: ${parsed.detail}.` };
  const check = compileJsonSchema(request.door!.schema, 'the tool');
  const problem = check(JSON.parse(text));
  if (problem !== null) return { ok: false, code: 'edit_schema', message: `The edited arguments do not match the tool's schema: ${problem}.` };
  const argsHash = canonicalHash(parsed.value);
  const args = canonicalJson(parsed.value);
  if (argsHash === request.argsHash) return { ok: true, args, argsHash, value: parsed.value, decision: undefined, unchanged: true };
  const decision = decide?.(request.action, parsed.value);
  if (decision === undefined)
    return {
      ok: false,
      code: 'edit_undecided',
      message: `No policy here decides ${request.action}, so the edit cannot be decided again; answer it where the policy is loaded.`,
    };
  if (decision.decision === 'deny') {
    const why = decision.detail ?? decision.reason;
    return { ok: false, code: 'edit_denied', message: `Refused: the policy denies the edited call (${why}); an edit never approves what the policy denies.` };
  }
  return { ok: true, args, argsHash, value: parsed.value, decision, unchanged: false };
}

function safeJson(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** The edit a request's approvals carry: the approved arguments and who first approved them, or null (approved as proposed). */
export function editOf(request: Pick<ApprovalRequest, 'answers' | 'argsHash'>): { args: string; argsHash: string; editedBy: string } | null {
  const first = request.answers.find((a) => a.decision === 'approve' && a.argsHash !== undefined && a.argsHash !== request.argsHash);
  if (!first || first.args === undefined || first.argsHash === undefined) return null;
  return { args: first.args, argsHash: first.argsHash, editedBy: first.approver };
}

/** The answer that stopped a call: a reject or a respond, or undefined. */
export function refusalAnswerOf(request: Pick<ApprovalRequest, 'answers'>): ApprovalAnswer | undefined {
  return request.answers.find((a) => a.decision === 'reject' || a.decision === 'respond');
}

/**
 * What changed between the proposed and the approved arguments, for the model and the inbox:
 * `amount 250000 → 200000`, each changed, added (`(none) → v`) or removed (`v → (removed)`) argument
 * by name, values as canonical JSON.
 */
export function changesText(proposed: string, approved: string): string {
  const a = parseArguments(proposed);
  const b = parseArguments(approved);
  if (!a.ok || !b.ok) return 'the arguments were changed';
  const names = [...new Set([...Object.keys(a.value), ...Object.keys(b.value)])].sort();
  const shown = (v: unknown) => canonicalJson(v);
  const parts: string[] = [];
  for (const name of names) {
    const [x, y] = [a.value[name], b.value[name]];
    if (x === undefined && y !== undefined) parts.push(`${name} (none) → ${shown(y)}`);
    else if (y === undefined && x !== undefined) parts.push(`${name} ${shown(x)} → (removed)`);
    else if (shown(x) !== shown(y)) parts.push(`${name} ${shown(x)} → ${shown(y)}`);
  }
  return parts.length ? parts.join('; ') : 'the arguments were changed';
}

/** What the model reads before the result of an edited call: the call ran with changed arguments, not as it proposed them. */
export function editNote(proposed: string, approved: string, editedBy: string): string {
  return `[ctrlrun] Approved with changes by ${editedBy}: ${changesText(proposed, approved)}. The call ran with the approved arguments, not the ones proposed; report what ran.`;
}
