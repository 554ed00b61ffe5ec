import type { ApplyPatchOperation } from '@openai/agents';
import type { PartsOf } from '../core/parts.js';

/**
 * The input of a sandbox's patch tool when the SDK gives it as a function tool (a filesystem
 * capability whose model cannot take `apply_patch_call`: a model given by name, Chat Completions):
 * a freeform patch (`*** Begin Patch` … `*** End Patch`, alone or as `{ patch }` or
 * `{ command: ['apply_patch', patch] }`) or structured operations (`{ operations }`, `{ operation }`,
 * one operation, a list). Read as the SDK's filesystem capability reads it (0.20), so the policy
 * decides on the operations the SDK would apply; the door then hands the SDK exactly these
 * operations (`{ operations }`), never the text again, so what runs is what was decided even where
 * the two readings could differ. Pure.
 */
export type PatchInput = { ok: true; operations: ApplyPatchOperation[] } | { ok: false; error: string };

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';

export function parsePatchInput(raw: string): PatchInput {
  if (raw.trimStart().startsWith(BEGIN)) return parseFreeform(raw.trimStart());
  let payload: unknown;
  try {
    payload = JSON.parse(raw);
  } catch (error) {
    return { ok: false, error: `Invalid apply_patch JSON: ${(error as Error).message}` };
  }
  return parsePayload(payload);
}

function parsePayload(payload: unknown): PatchInput {
  if (typeof payload === 'string') return parseFreeform(payload);
  if (Array.isArray(payload)) return parseStructured(payload);
  if (payload === null || typeof payload !== 'object') return { ok: false, error: 'apply_patch input must be an object or array.' };
  const p = payload as Record<string, unknown>;
  if (typeof p.patch === 'string') return parseFreeform(p.patch);
  if (Array.isArray(p.command) && p.command[0] === 'apply_patch' && typeof p.command[1] === 'string') return parseFreeform(p.command[1]);
  if (Array.isArray(p.operations)) return parseStructured(p.operations);
  if (p.operation !== undefined) return parseStructured([p.operation]);
  return parseStructured([p]);
}

/** One structured operation as the SDK's `ApplyPatchOperation` schema admits it (unknown fields dropped, as zod drops them). */
function operationOf(value: unknown): ApplyPatchOperation | string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'an operation must be an object';
  const v = value as Record<string, unknown>;
  if (typeof v.path !== 'string') return '`path` must be a string';
  if (v.type === 'delete_file') return { type: 'delete_file', path: v.path };
  if (v.type !== 'create_file' && v.type !== 'update_file') return '`type` must be create_file, update_file or delete_file';
  if (typeof v.diff !== 'string') return '`diff` must be a string';
  if (v.type === 'create_file') return { type: 'create_file', path: v.path, diff: v.diff };
  if (v.moveTo !== undefined && (typeof v.moveTo !== 'string' || v.moveTo === '')) return '`moveTo` must be a non-empty string';
  return typeof v.moveTo === 'string'
    ? { type: 'update_file', path: v.path, diff: v.diff, moveTo: v.moveTo }
    : { type: 'update_file', path: v.path, diff: v.diff };
}

function parseStructured(values: readonly unknown[]): PatchInput {
  const operations: ApplyPatchOperation[] = [];
  for (const value of values) {
    const op = operationOf(value);
    if (typeof op === 'string') return { ok: false, error: `Invalid apply_patch operation: ${op}` };
    operations.push(op);
  }
  return operations.length === 0 ? { ok: false, error: 'apply_patch input must include an operation.' } : { ok: true, operations };
}

const isHeader = (line: string) => line.startsWith(ADD) || line.startsWith(DELETE) || line.startsWith(UPDATE);
const headerPath = (line: string, prefix: string) => line.slice(prefix.length).trim() || null;
const joined = (lines: string[]) => `${lines.join('\n')}\n`;

function parseFreeform(text: string): PatchInput {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  if (lines[0] !== BEGIN) return { ok: false, error: `apply_patch input must start with "${BEGIN}".` };
  if (lines.length < 2 || lines.at(-1) !== END) return { ok: false, error: `apply_patch input must end with "${END}".` };
  const operations: ApplyPatchOperation[] = [];
  let i = 1;
  while (i < lines.length - 1) {
    const read = fileOperation(lines, i);
    if ('error' in read) return { ok: false, error: read.error };
    operations.push(read.operation);
    i = read.next;
  }
  return operations.length === 0 ? { ok: false, error: 'apply_patch input must include at least one file operation.' } : { ok: true, operations };
}

type Read = { operation: ApplyPatchOperation; next: number } | { error: string };

/** The file operation whose header is `lines[at]`, and the index after it. */
function fileOperation(lines: string[], at: number): Read {
  const line = lines[at] as string;
  const last = lines.length - 1;
  const body = (from: number) => {
    let i = from;
    while (i < last && !isHeader(lines[i] as string)) i++;
    return { lines: lines.slice(from, i), next: i };
  };
  if (line.startsWith(ADD)) {
    const path = headerPath(line, ADD);
    if (!path) return { error: `Missing path in apply_patch header: ${line}` };
    const b = body(at + 1);
    const bad = b.lines.find((l) => !l.startsWith('+'));
    if (bad !== undefined) return { error: `Invalid Add File line: ${bad}` };
    if (b.lines.length === 0) return { error: `Add File patch for ${path} must include at least one + line.` };
    return { operation: { type: 'create_file', path, diff: joined(b.lines) }, next: b.next };
  }
  if (line.startsWith(DELETE)) {
    const path = headerPath(line, DELETE);
    if (!path) return { error: `Missing path in apply_patch header: ${line}` };
    if (at + 1 < last && !isHeader(lines[at + 1] as string)) return { error: `Delete File patch for ${path} must not include a diff.` };
    return { operation: { type: 'delete_file', path }, next: at + 1 };
  }
  if (line.startsWith(UPDATE)) {
    const path = headerPath(line, UPDATE);
    if (!path) return { error: `Missing path in apply_patch header: ${line}` };
    let from = at + 1;
    let moveTo: string | undefined;
    if (from < last && (lines[from] as string).startsWith(MOVE)) {
      const to = headerPath(lines[from] as string, MOVE);
      if (!to) return { error: `Missing path in apply_patch header: ${lines[from]}` };
      moveTo = to;
      from++;
    }
    const b = body(from);
    if (b.lines.length === 0 && !moveTo) return { error: `Update File patch for ${path} must include a hunk.` };
    const diff = b.lines.length > 0 ? joined(b.lines) : '';
    return { operation: moveTo ? { type: 'update_file', path, diff, moveTo } : { type: 'update_file', path, diff }, next: b.next };
  }
  return { error: `Invalid apply_patch file operation header: ${line}` };
}

/** What the policy's `when` sees of one apply_patch operation: `{ operation, path, diff?, move_to? }`. */
export function presentPatchOperation(operation: ApplyPatchOperation | undefined): Record<string, string> {
  const op = (operation ?? {}) as { type?: unknown; path?: unknown; diff?: unknown; moveTo?: unknown };
  const out: Record<string, string> = { operation: String(op.type ?? ''), path: String(op.path ?? '') };
  if (typeof op.diff === 'string') out.diff = op.diff;
  if (typeof op.moveTo === 'string') out.move_to = op.moveTo;
  return out;
}

/**
 * What the policy sees of a sandbox patch: one operation as the local apply_patch door presents it
 * (`{ operation, path, diff?, move_to? }`). A function-form patch may carry several: then each field
 * is the operations' values joined by a newline, in order (`diff` and `move_to` only from the
 * operations that have one: what `effect:` and `resource:` templates read), and `operations` lists
 * each operation as one is presented, which the rules decide one by one (`patchParts`).
 */
export function presentPatchOperations(operations: readonly ApplyPatchOperation[]): Record<string, unknown> {
  if (operations.length === 1) return presentPatchOperation(operations[0]);
  const ops = operations as ReadonlyArray<{ type: string; path: string; diff?: string; moveTo?: string }>;
  const out: Record<string, unknown> = { operation: ops.map((o) => o.type).join('\n'), path: ops.map((o) => o.path).join('\n') };
  const diffs = ops.filter((o) => typeof o.diff === 'string').map((o) => o.diff as string);
  if (diffs.length > 0) out.diff = diffs.join('\n');
  const moves = ops.filter((o) => typeof o.moveTo === 'string').map((o) => o.moveTo as string);
  if (moves.length > 0) out.move_to = moves.join('\n');
  out.operations = operations.map((o) => presentPatchOperation(o));
  return out;
}

/** The parts of a presented patch of several operations (core/parts.ts): each operation as one is presented. */
export const patchParts: PartsOf = (args) => {
  const operations = (args as { operations?: unknown } | null)?.operations;
  return Array.isArray(operations) && operations.length > 1 ? operations : undefined;
};
