/**
 * The tool's own gate, before any rule: the runtime checks a call's arguments against the tool's
 * parameter schema and refuses it (`invalid_arguments`) when they do not fit, so no rule ever sees
 * `"amount": "4500"` on an integer. `test` and `explain` ask the same question of the schema as
 * `generate` reads it from the code, through the runtime's own JSON-schema check
 * (runtime/json-schema.ts), not a second one. Pure.
 */
import { acceptsValue, type ActionSchemas, type ParamSchema, type ToolSchema } from '../generate/tool-schemas.js';
import type { Operand } from '../policy/types.js';
import { checkArguments, parseArguments, plainArguments } from '../runtime/arguments.js';
import { compileJsonSchema, type SchemaCheck } from '../runtime/json-schema.js';
import type { CallDecision } from '../runtime/types.js';

/** A call the tool refuses before any rule: denied, `invalid_arguments` (the runtime's refusal, not a rule's reason). */
export type ToolRefusal = Omit<CallDecision, 'reason'> & { reason: 'invalid_arguments'; detail: string };

/** A call whose arguments the tool's schema changes (a `.default('low')`, a `.trim()`): decided as changed, as the runtime decides it. */
export interface FilledCall {
  filled: Record<string, unknown>;
}

/** The tool's refusal of a call's arguments, the arguments it fills in, or null when they fit as sent. */
export type ToolGate = (action: string, args: unknown) => ToolRefusal | FilledCall | null;

/**
 * The arguments as the SDK's strict mode (a tool's default) checks them: the model sends `null` for
 * a parameter that may be left out, and the SDK drops it before the schema reads the call
 * (runtime/core/arguments.ts, `withoutOptionalNulls`), so such a null is no refusal. The decision
 * keeps it, as the runtime's does. A tool written `strict: false` is not told apart here.
 */
function withoutStrictNulls(schema: ToolSchema, args: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const p of schema.params.values()) {
    // optional to the SDK: not required, or an `.optional()` anywhere in its chain (`.optional().default('x')`)
    if (args[p.name] !== null || (p.required && !p.optional) || p.nullable || !Object.hasOwn(args, p.name)) continue;
    out ??= { ...args };
    delete out[p.name];
  }
  return out ?? args;
}

/**
 * A string as the schema's known steps (`.trim()`) and length checks (`.min(3)`) leave it, in
 * zod's order: the stepped string, or the length problem zod refuses it for. A check after a step
 * not known here is not made (the runtime's zod makes it).
 */
function stepped(p: ParamSchema, value: string): { value: string } | { problem: string } {
  const steps = p.steps ?? [];
  let v = value;
  for (let i = 0; i <= steps.length; i++) {
    for (const c of p.lengths ?? []) {
      if (c.after !== i) continue;
      const n = [...v].length;
      if (c.min !== undefined && n < c.min) return { problem: `/${p.name}: must have at least ${c.min} characters` };
      if (c.max !== undefined && n > c.max) return { problem: `/${p.name}: must have at most ${c.max} characters` };
    }
    if (i < steps.length) v = v[steps[i]!]();
  }
  return { value: v };
}

/** Whether the schema takes the value as sent (its type, enum, range and length), before any fill-in. */
function takes(p: ParamSchema, value: unknown): boolean {
  return acceptsValue(p, value as Operand) && (typeof value !== 'string' || !('problem' in stepped(p, value)));
}

/**
 * The arguments as the body gets them: the schema's literal fill-ins (see `Fill` in
 * generate/params.ts) and its known string steps (`.trim()`) applied; undefined when nothing
 * changes, a problem when a string's length is refused. A field left out takes the `absent` fill
 * (a `.prefault()`'s value then goes on as if sent); a value the schema refuses takes the
 * `invalid` one; a fill is not stepped. `filled` names the arguments a fill-in gave their value:
 * the schema never checks those (zod does not check a `.default(0)` against the schema before it,
 * so `.min(1).default(0)` hands the body 0), but it checks every value sent.
 */
function bodyArguments(
  schema: ToolSchema,
  args: Record<string, unknown>,
): { value: Record<string, unknown>; filled: string[] } | { problem: string } | undefined {
  let out: Record<string, unknown> | undefined;
  const filled: string[] = [];
  const set = (name: string, value: unknown) => {
    out ??= { ...args };
    out[name] = value;
  };
  for (const p of schema.params.values()) {
    let present = Object.hasOwn(args, p.name);
    let value = args[p.name];
    const { absent, invalid } = p.fill ?? {};
    if (!present && absent) {
      set(p.name, absent.value);
      if (absent.from !== 'prefault') {
        filled.push(p.name);
        continue;
      }
      // a `.prefault(v)`: v is parsed as if the model sent it (under `.optional()`, a refused v leaves the field out)
      if (absent.orLeftOut && !takes(p, absent.value)) {
        delete out![p.name];
        continue;
      }
      present = true;
      value = absent.value;
    }
    if (present && invalid && !takes(p, value)) {
      set(p.name, invalid.value);
      filled.push(p.name);
    } else if (present && typeof value === 'string' && (p.steps || p.lengths)) {
      const result = stepped(p, value);
      if ('problem' in result) return result;
      if (result.value !== value) set(p.name, result.value);
    }
  }
  return out === undefined ? undefined : { value: out, filled };
}

function bound(v: bigint | null): number | undefined {
  return v === null ? undefined : Number(v);
}

function paramSchema(p: ParamSchema): Record<string, unknown> {
  const nullable = (type: string) => (p.nullable ? [type, 'null'] : type);
  switch (p.type) {
    case 'string':
      return { type: nullable('string') };
    case 'enum':
      return { type: nullable('string'), enum: [...(p.enumValues ?? []), ...(p.nullable ? [null] : [])] };
    case 'boolean':
      return { type: nullable('boolean') };
    case 'integer':
    case 'number': {
      // the integers a number may be: the runtime refuses a fraction before the policy anyway
      const lo = bound(p.lo);
      const hi = bound(p.hi);
      return { type: nullable(p.type), ...(lo !== undefined ? { minimum: lo } : {}), ...(hi !== undefined ? { maximum: hi } : {}) };
    }
    default:
      return {};
  }
}

/**
 * The parameters as a JSON schema: each argument's type, enum, range and nullability, the required
 * ones required; the `filled` ones (given their value by a fill-in) left out: nothing checks them.
 */
export function jsonSchemaOf(schema: ToolSchema, filled: readonly string[] = []): Record<string, unknown> {
  const checked = [...schema.params].filter(([name]) => !filled.includes(name));
  const properties = Object.fromEntries(checked.map(([name, p]) => [name, paramSchema(p)]));
  const required = checked.filter(([, p]) => p.required && p.type !== 'unknown').map(([name]) => name);
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/** The gate of every action whose tool's schema was read (undefined: none was). */
export function toolGate(schemas: ActionSchemas | undefined): ToolGate | undefined {
  if (!schemas || schemas.byAction.size === 0) return undefined;
  const checks = new Map<string, SchemaCheck>();
  return (action, args) => {
    const schema = schemas.byAction.get(action);
    if (!schema) return null;
    // arguments the runtime refuses outright (not JSON, a float) are the decision's to refuse
    const parsed = typeof args === 'string' ? parseArguments(args) : checkArguments(args);
    if (!parsed.ok) return null;
    // the SDK drops strict mode's nulls before the schema fills anything in (`.default(5).optional()` gets 5)
    const sent = withoutStrictNulls(schema, parsed.value);
    const body = bodyArguments(schema, sent);
    if (body && 'problem' in body) return refusal(schema, body.problem);
    const filled = body?.filled ?? [];
    // one compiled check per set of filled-in arguments (a tool has few)
    const key = `${action}\u0000${filled.join('\u0000')}`;
    let check = checks.get(key);
    if (!check) {
      check = compileJsonSchema(jsonSchemaOf(schema, filled), `the tool schema of ${action}`);
      checks.set(key, check);
    }
    // (a filled-in argument is no property of that check's schema: whatever its value, it passes)
    const problem = check(plainArguments(body?.value ?? sent));
    if (problem === null) return body ? { filled: body.value } : null;
    return refusal(schema, problem);
  };
}

function refusal(schema: ToolSchema, problem: string): ToolRefusal {
  const tools = schema.tools.map((t) => `\`${t}\``).join(', ');
  return {
    decision: 'deny',
    rule: null,
    reason: 'invalid_arguments',
    effectKey: null,
    resource: null,
    detail: `the parameter schema of tool ${tools} refuses these arguments (${problem}), so at run time the call is refused before any rule`,
  };
}
