/**
 * The parameters of each mapped action's tool as the policy sees them, read statically from the
 * code (declarations.ts / params.ts: the `z.object({...})` or JSON-schema literal of each `tool()`):
 * per argument its type, whether every call has it, its enum values and its integer range. The
 * policy decides only on arguments the schema accepted (the runtime checks them first), so `diff`
 * keeps its witness calls inside it and the policy analysis finds conditions it makes impossible
 * or always true. Pure. An action whose schema is not found statically has none (and a reason).
 */
import type { Manifest } from '../manifest/types.js';
import { declarationKey } from '../manifest/computed.js';
import { ABSENT } from '../policy/exact/values.js';
import { holds, isInteger } from '../policy/evaluate.js';
import type { Condition, Operand, SourceLocation } from '../policy/types.js';
import type { ToolDeclaration } from './declarations.js';
import type { Fill, LengthCheck, NumericBound, ParamType, StringStep } from './params.js';
import { jsonEqual } from '../runtime/conditions.js';

export interface ParamSchema {
  name: string;
  /** `unknown`: a type not read statically; such an argument constrains nothing here. */
  type: ParamType;
  enumValues?: string[];
  required: boolean;
  nullable: boolean;
  /** An `.optional()` in its chain (params.ts): strict mode drops a `null` sent for it before the schema reads it. */
  optional?: true;
  /** The integers a number may be (the runtime refuses fractions before the policy): null is unbounded. */
  lo: bigint | null;
  hi: bigint | null;
  /** The literal the schema puts in the body's arguments (params.ts `Fill`): the runtime decides on it. */
  fill?: Fill;
  /** The string steps the schema applies to a value sent (params.ts): the runtime decides on their result. */
  steps?: StringStep[];
  /**
   * A string's length checks (params.ts), for `test` and `explain`'s gate only: the policy analysis
   * reads a string of any length (a superset, as for a `.regex()` it does not read).
   */
  lengths?: LengthCheck[];
  loc: SourceLocation;
}

export interface ToolSchema {
  action: string;
  /** The function tools mapped to the action. */
  tools: string[];
  /** Where the (first) declaration's parameters are. */
  loc: SourceLocation;
  params: ReadonlyMap<string, ParamSchema>;
}

export interface ActionSchemas {
  byAction: ReadonlyMap<string, ToolSchema>;
  /** Per mapped action without a schema, why (shown by `diff`). */
  unread: ReadonlyMap<string, string>;
}

export const NO_SCHEMAS: ActionSchemas = { byAction: new Map(), unread: new Map() };

/** An argument left out of the call (the decision procedure's own marker, so both read one value). */
export { ABSENT } from '../policy/exact/values.js';

function lowest(b: NumericBound | undefined): bigint | null {
  if (!b) return null;
  return b.exclusive ? BigInt(Math.floor(b.value)) + 1n : BigInt(Math.ceil(b.value));
}

function highest(b: NumericBound | undefined): bigint | null {
  if (!b) return null;
  return b.exclusive ? BigInt(Math.ceil(b.value)) - 1n : BigInt(Math.floor(b.value));
}

/**
 * One schema per action, from every declaration of every function tool mapped to it. Several
 * declarations are widened into one that accepts what any of them accepts (a call one of them
 * allows is a call the policy may see), so a claim made on it holds for each.
 */
export function actionSchemas(manifest: Manifest, declarations: ReadonlyMap<string, ToolDeclaration[]>): ActionSchemas {
  const byAction = new Map<string, ToolSchema>();
  const unread = new Map<string, string>();
  const entries = new Map<string, Manifest['tools']>();
  for (const t of manifest.tools) entries.set(t.action, [...(entries.get(t.action) ?? []), t]);
  for (const [action, tools] of entries) {
    const other = tools.find((t) => t.kind !== 'function' && t.kind !== 'computed');
    if (other) {
      unread.set(
        action,
        other.kind === 'mcp'
          ? `it is mapped to MCP tool \`${other.server}/${other.tool}\`, whose schema is the server's`
          : other.kind === 'sandbox'
            ? `it is mapped to sandbox tool \`${other.tool}\`, whose schema is the SDK's`
            : other.kind === 'handoff'
              ? `it is mapped to the handoff to \`${other.to}\``
              : 'it is a hosted MCP server',
      );
      continue;
    }
    const names = tools.flatMap((t) => declarationKey(t) ?? []);
    const found = names.flatMap((n) => declarations.get(n) ?? []);
    const missing = names.find((n) => (declarations.get(n) ?? []).length === 0);
    const opaque = found.find((d) => !d.parameters.readable);
    if (missing !== undefined)
      unread.set(
        action,
        missing.startsWith('@')
          ? `no tool() with a computed name was found at ${missing.slice(1)}`
          : `no \`tool({ name: '${missing}' })\` was found in the code`,
      );
    else if (opaque && !opaque.parameters.readable)
      unread.set(action, `the parameters of tool \`${opaque.name}\` cannot be read statically (${opaque.parameters.reason})`);
    else byAction.set(action, { action, tools: names, loc: found[0]!.parameters.loc, params: widened(found) });
  }
  return { byAction, unread };
}

function paramsOf(d: ToolDeclaration): ParamSchema[] {
  if (!d.parameters.readable) return [];
  return d.parameters.parameters.map((p) => ({
    name: p.name,
    type: p.type,
    ...(p.enumValues ? { enumValues: p.enumValues } : {}),
    required: p.required,
    nullable: p.nullable,
    ...(p.optional ? { optional: true as const } : {}),
    lo: p.type === 'integer' || p.type === 'number' ? lowest(p.min) : null,
    hi: p.type === 'integer' || p.type === 'number' ? highest(p.max) : null,
    ...(p.fill ? { fill: p.fill } : {}),
    ...(p.steps ? { steps: p.steps } : {}),
    ...(p.lengths ? { lengths: p.lengths } : {}),
    loc: p.loc,
  }));
}

/** The schema accepting what any of the declarations accepts. */
function widened(declarations: ToolDeclaration[]): Map<string, ParamSchema> {
  const all = declarations.map(paramsOf);
  const names = [...new Set(all.flatMap((ps) => ps.map((p) => p.name)))];
  const out = new Map<string, ParamSchema>();
  for (const name of names) {
    const each = all.map((ps) => ps.find((p) => p.name === name));
    const present = each.filter((p): p is ParamSchema => p !== undefined);
    const first = present[0]!;
    const types = new Set(present.map((p) => p.type));
    const numeric = [...types].every((t) => t === 'integer' || t === 'number');
    const type: ParamType = types.size === 1 ? first.type : numeric ? 'number' : 'unknown';
    // the widest end: unbounded when any declaration is
    const ends = (pick: (p: ParamSchema) => bigint | null, sign: 1n | -1n): bigint | null => {
      const values = present.map(pick);
      if (!numeric || values.some((v) => v === null)) return null;
      return (values as bigint[]).sort((a, b) => (a * sign < b * sign ? -1 : 1))[0]!;
    };
    out.set(name, {
      name,
      type,
      ...(type === 'enum' ? { enumValues: [...new Set(present.flatMap((p) => p.enumValues ?? []))] } : {}),
      required: each.every((p) => p?.required === true),
      nullable: present.some((p) => p.nullable),
      ...(each.every((p) => p?.optional === true) ? { optional: true as const } : {}),
      lo: ends((p) => p.lo, 1n),
      hi: ends((p) => p.hi, -1n),
      ...sameFill(each),
      ...sameSteps(each),
      ...sameLengths(each),
      loc: first.loc,
    });
  }
  return out;
}

/** The fill every declaration makes alike, else none (which one the body gets depends on the tool). */
function sameFill(each: ReadonlyArray<ParamSchema | undefined>): { fill?: Fill } {
  const fill = each[0]?.fill;
  const alike = (f: Fill | undefined) => f !== undefined && jsonEqual(f, fill);
  return fill !== undefined && each.every((p) => alike(p?.fill)) ? { fill } : {};
}

/** The string steps every declaration applies alike, else none. */
function sameSteps(each: ReadonlyArray<ParamSchema | undefined>): { steps?: StringStep[] } {
  const steps = each[0]?.steps;
  return steps !== undefined && each.every((p) => p?.steps?.join() === steps.join()) ? { steps } : {};
}

/** The length checks every declaration makes alike, else none (a call one of them allows may be seen). */
function sameLengths(each: ReadonlyArray<ParamSchema | undefined>): { lengths?: LengthCheck[] } {
  const lengths = each[0]?.lengths;
  const alike = (l: LengthCheck[] | undefined) => l !== undefined && jsonEqual(l, lengths);
  return lengths !== undefined && each.every((p) => alike(p?.lengths)) ? { lengths } : {};
}

/** Whether the schema accepts this value of the argument (`ABSENT`: left out). An argument it does not declare is not constrained. */
export function acceptsValue(p: ParamSchema | undefined, v: Operand | typeof ABSENT): boolean {
  if (!p || p.type === 'unknown') return true;
  if (v === ABSENT) return !p.required;
  if (v === null) return p.nullable;
  switch (p.type) {
    case 'string':
      return typeof v === 'string';
    case 'enum':
      return typeof v === 'string' && (p.enumValues ?? []).includes(v);
    case 'boolean':
      return typeof v === 'boolean';
    default:
      return isInteger(v) && (p.lo === null || BigInt(v) >= p.lo) && (p.hi === null || BigInt(v) <= p.hi);
  }
}

/** Whether the schema accepts every argument of the call. */
export function acceptsCall(schema: ToolSchema, args: Readonly<Record<string, Operand>>): boolean {
  for (const p of schema.params.values()) if (!acceptsValue(p, Object.hasOwn(args, p.name) ? args[p.name]! : ABSENT)) return false;
  return true;
}

function asNumber(v: bigint): number | bigint {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}

/** The values at the edges of what the schema accepts: the ends of a range, every enum value, both booleans. */
export function schemaValues(p: ParamSchema): Operand[] {
  if (p.type === 'enum') return [...(p.enumValues ?? [])];
  if (p.type === 'boolean') return [true, false];
  if (p.type === 'integer' || p.type === 'number') return [p.lo, p.hi].filter((v): v is bigint => v !== null).map(asNumber);
  return [];
}

/** A value the schema accepts, for a required argument no condition or template names. */
export function someValue(p: ParamSchema): Operand | undefined {
  if (p.type === 'string') return `${p.name}-1`;
  if (p.type === 'integer' || p.type === 'number') return asNumber(p.lo !== null && p.lo > 0n ? p.lo : p.hi !== null && p.hi < 0n ? p.hi : 0n);
  return schemaValues(p)[0];
}

/** Every value the schema accepts for the argument when they are few (an enum, a boolean, a short range), null among them when it may be null. */
export function finiteValues(p: ParamSchema): Operand[] | undefined {
  const nulls = p.nullable ? [null] : [];
  if (p.type === 'enum' || p.type === 'boolean') return [...schemaValues(p), ...nulls];
  if ((p.type === 'integer' || p.type === 'number') && p.lo !== null && p.hi !== null && p.hi - p.lo < 64n) {
    const out: Operand[] = [];
    for (let v = p.lo; v <= p.hi; v++) out.push(asNumber(v));
    return [...out, ...nulls];
  }
  return undefined;
}

/**
 * A value the schema accepts that satisfies the condition, or all of the conditions (on the one
 * argument) together, or undefined when none does. Only for a typed argument.
 */
export function satisfyingValue(c: Condition | readonly Condition[], p: ParamSchema): Operand | undefined {
  const all: readonly Condition[] = Array.isArray(c) ? c : [c as Condition];
  const fits = (v: Operand): boolean => all.every((x) => holds(x, v));
  const few = finiteValues(p);
  if (few) return few.find(fits);
  // an infinite domain (strings, a half-open range): one of these is in it and satisfies them when
  // any value does (each bound and its neighbours, the value beside a `neq`, the schema's ends)
  const near = all.flatMap((x) => {
    const listed: Operand[] = x.op === 'in' && Array.isArray(x.value) ? x.value : [x.value];
    return listed.flatMap((v): Operand[] => (isInteger(v) ? [0n, -1n, 1n].map((d) => asNumber(BigInt(v) + d)) : [v]));
  });
  const fresh = all.map((x) => (typeof x.value === 'string' ? `${x.value}~` : 'x'));
  const tried: Operand[] = [...near, ...schemaValues(p), ...fresh, null];
  return tried.find((v) => acceptsValue(p, v) && fits(v));
}

/** Whether every call the schema accepts satisfies the condition (the argument required, and every value it may take holds). */
export function alwaysHolds(c: Condition, p: ParamSchema): boolean {
  if (p.type === 'unknown' || !p.required) return false;
  const few = finiteValues(p);
  if (few) return few.every((v) => holds(c, v));
  // an infinite domain: only a range inside the comparison, or `neq` a value the schema never accepts
  if (c.op === 'neq') return !acceptsValue(p, c.value);
  if (p.nullable || !isInteger(c.value) || (p.type !== 'integer' && p.type !== 'number')) return false;
  const v = BigInt(c.value);
  if (c.op === 'gte') return p.lo !== null && p.lo >= v;
  if (c.op === 'gt') return p.lo !== null && p.lo > v;
  if (c.op === 'lte') return p.hi !== null && p.hi <= v;
  if (c.op === 'lt') return p.hi !== null && p.hi < v;
  return false;
}

/** The argument as the schema states it: `an integer from 0 to 50`, `one of "USD", "EUR"`, `a string`, `…, or null`. */
export function describeParam(p: ParamSchema): string {
  const range = (): string => {
    if (p.lo !== null && p.hi !== null) return p.lo === p.hi ? ` equal to ${p.lo}` : ` from ${p.lo} to ${p.hi}`;
    if (p.lo !== null) return ` of at least ${p.lo}`;
    if (p.hi !== null) return ` of at most ${p.hi}`;
    return '';
  };
  const base =
    p.type === 'enum'
      ? `one of ${(p.enumValues ?? []).map((v) => JSON.stringify(v)).join(', ')}`
      : p.type === 'integer'
        ? `an integer${range()}`
        : p.type === 'number'
          ? `a number${range()}`
          : `a ${p.type}`;
  return `${base}${p.nullable ? ', or null' : ''}`;
}
