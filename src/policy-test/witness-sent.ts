/**
 * A diff's example call as the model would send it (issue 40): the decision procedure's witness
 * holds the arguments as the policy decides them, and where a tool's schema fills one in
 * (`limit: z.number().int().min(1).default(0)` left out reaches the body as 0) the call that reaches
 * a region at 0 is the one that leaves `limit` out: `{"limit":0}` sent is refused by the tool.
 * Where only a `.catch()` gives the value (`.min(1).default(5).catch(0)`), the call sends a value the
 * schema refuses, and the tool puts the catch's in its place. Pure.
 */
import { acceptsValue, type ParamSchema } from '../generate/tool-schemas.js';
import type { Operand } from '../policy/types.js';
import { sameScalar } from './arg-schemas.js';
import type { RegionDiff } from './diff-regions.js';

/** Whether the value reaches the body only when the argument is left out (a default's or a catch's for a missing value). */
function onlyLeftOut(p: ParamSchema, value: Operand): boolean {
  const absent = p.fill?.absent;
  return absent !== undefined && absent.from !== 'prefault' && sameScalar(absent.value, value) && !acceptsValue(p, value);
}

/** Whether the value reaches the body only in place of one the schema refuses (a `.catch()`'s), not by leaving the argument out. */
function onlyReplaced(p: ParamSchema, value: Operand): boolean {
  const invalid = p.fill?.invalid;
  return invalid !== undefined && sameScalar(invalid.value, value) && !acceptsValue(p, value) && !onlyLeftOut(p, value);
}

/** The arguments to send for `args`, leaving out each one only a fill-in gives; undefined when `args` are sent as they are. */
export function sentArguments(args: Readonly<Record<string, Operand>>, params: ReadonlyMap<string, ParamSchema>): Record<string, Operand> | undefined {
  let sent: Record<string, Operand> | undefined;
  for (const [name, value] of Object.entries(args)) {
    const p = params.get(name);
    if (p === undefined || !onlyLeftOut(p, value)) continue;
    sent ??= { ...args };
    delete sent[name];
  }
  return sent;
}

/**
 * The arguments whose value only a `.catch()` gives: sent as they are (the catch's own value is one
 * the schema refuses), they reach the body as the catch's value, not as sent.
 */
export function replacedArguments(args: Readonly<Record<string, Operand>>, params: ReadonlyMap<string, ParamSchema>): string[] {
  return Object.entries(args).flatMap(([name, value]) => {
    const p = params.get(name);
    return p !== undefined && onlyReplaced(p, value) ? [name] : [];
  });
}

/** The regions with each witness's sent arguments where they differ from the decided ones, and the arguments a catch replaces. */
export function withSentArguments(regions: RegionDiff[], params: ReadonlyMap<string, ParamSchema> | undefined): RegionDiff[] {
  if (params === undefined) return regions;
  return regions.map((r) => {
    const sent = sentArguments(r.witness.args, params);
    const replaced = replacedArguments(r.witness.args, params);
    if (sent === undefined && replaced.length === 0) return r;
    return { ...r, witness: { ...r.witness, ...(sent ? { sent } : {}), ...(replaced.length > 0 ? { replaced } : {}) } };
  });
}
