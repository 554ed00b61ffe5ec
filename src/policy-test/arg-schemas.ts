/** A tool's parameter schema (as `generate` reads it) in the form the decision procedure reads. Pure. */
import { acceptsValue, type ParamSchema, schemaValues } from '../generate/tool-schemas.js';
import { ABSENT, type ArgSchema, type ArgValue } from '../policy/exact/values.js';
import type { Operand } from '../policy/types.js';

/** Per argument, what the schema accepts and the values at its edges (undefined: no schema read). */
export function argSchemas(params: ReadonlyMap<string, ParamSchema> | undefined): Map<string, ArgSchema> | undefined {
  if (!params) return undefined;
  return new Map([...params].map(([name, p]) => [name, { accepts: (v) => decidedOn(p, v), edges: p.type === 'unknown' ? [] : edgesOf(p) }]));
}

/**
 * Whether the policy may be handed `v` for the argument: a value the schema accepts as sent, or a
 * fill-in value, which zod hands the body without checking it against the schema before it
 * (`.min(1).default(0)` gives 0; `.catch(1)` gives 1 for any value refused). An argument a fill-in
 * gives a value when it is left out is never decided on as left out.
 */
function decidedOn(p: ParamSchema, v: ArgValue): boolean {
  if (v === ABSENT) return acceptsValue(p, v) && p.fill?.absent === undefined;
  return acceptsValue(p, v) || fillValues(p).some((f) => sameScalar(f, v));
}

/** The schema's own edges, and each fill-in value the procedure cuts on. */
function edgesOf(p: ParamSchema): Operand[] {
  const own = schemaValues(p);
  return [...own, ...fillValues(p).filter((f, i, all) => !own.some((v) => sameScalar(v, f)) && all.findIndex((g) => sameScalar(g, f)) === i)];
}

/**
 * The scalar values a fill-in hands the body as they are: a default's, a catch's (not a
 * `.prefault()`'s, which the schema parses as if sent: a value it accepts is in its domain anyway).
 */
function fillValues(p: ParamSchema): Array<string | number | boolean | null> {
  const { absent, invalid } = p.fill ?? {};
  return [absent && absent.from !== 'prefault' ? absent.value : undefined, invalid?.value].filter(isScalar);
}

function isScalar(v: unknown): v is string | number | boolean | null {
  return v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isInteger(v));
}

/** The same value, an integer held as a `bigint` on one side and a `number` on the other included (witness-sent.ts too). */
export function sameScalar(a: unknown, b: unknown): boolean {
  const integral = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v); // (BigInt(0.5) throws)
  return a === b || (typeof a === 'bigint' && integral(b) && a === BigInt(b)) || (typeof b === 'bigint' && integral(a) && b === BigInt(a));
}
