import { checkArguments, depthProblemOf, holdsBigint, jsonDepthProblem, plainArguments, type ArgumentsCheck } from '../arguments.js';
import { parseJson } from '../internals.js';
import { compileJsonSchema } from '../json-schema.js';
import { outputAsArguments } from '../schema-output.js';
import { holdsNull, strictNullsDropped } from './strict-nulls.js';
import type { ArgsSchema } from './types.js';

/** The arguments the body would get, or why not (`problem`: JSON the tool's schema refuses; none when the text is not JSON). */
export type PolicyArgs = { ok: true; value: unknown } | { ok: false; problem?: string };

/** Stage 1, the arguments: the tool's own schema applied to the model's text, the way the body will see it. */
export interface ArgumentsStage {
  /**
   * JSON-schema `parameters`: the SDK only JSON-parses the arguments, so `"5000000"` would reach an
   * `amount: {type: 'integer'}` tool and slip past `amount_gt` rules. Checked before any decision.
   * (A zod schema is checked by the SDK's own parsing before the body, and by `policyArgs` here.)
   */
  schemaCheck: ((value: unknown) => string | null) | null;
  /**
   * The arguments the body would get, from the model's raw JSON (`lossless`: `parseArguments(raw)`,
   * when done; `raw` is read only when `lossless` is not given or refused it). `share`: `keep` (needsApproval) keeps a zod schema's parse for the guardrail's
   * `take`, which uses it only for the same value handed to the schema (`sharedParse`); `callId`
   * the call's, so its own guardrail lets go of the parse whether it took it or not.
   */
  policyArgs: (raw: string, lossless?: ArgumentsCheck, share?: 'keep' | 'take', callId?: string) => PolicyArgs;
  /** Lets go of a kept parse no guardrail will take (needsApproval paused its call). */
  dropShared: () => void;
}

/**
 * The zod parse `needsApproval` made last, kept for the guardrail that runs next (the SDK asks
 * `needsApproval` first, on its own parse of the model's text, then the guardrail on the text):
 * without it the schema runs three times a call (the SDK, `needsApproval`, the guardrail). The
 * parse is kept with the value the schema was handed, and the guardrail takes it only when the
 * value it would hand the schema is that same value (`sameParseInput`: -0 is not 0, one prototype,
 * the same members in the same order): the schema got this very input, and gave this. Not the
 * text: the SDK's value printing back to the model's exact text does not make it the same input
 * (`-0` prints as `0`), and a text written otherwise (a space) can be. (A schema that answers one
 * input two ways, a transform reading the clock, is no worse off: the body's authorization still
 * compares what runs with what was decided, `inputIsTheCalls`.) One parse a tool: taken once, or
 * replaced by the next; a guardrail of another call (parallel calls) leaves it for its own.
 */
function sharedParse() {
  // the kept parse's three parts, not an object made for them on every call
  let keptParsed: PolicyArgs | undefined;
  let keptInput: unknown;
  let keptCallId: string | undefined;
  const drop = (): void => {
    keptParsed = undefined;
    keptInput = undefined;
    keptCallId = undefined;
  };
  return {
    keep(input: unknown, parsed: PolicyArgs, callId: string | undefined): void {
      keptParsed = parsed;
      keptInput = input;
      keptCallId = callId;
    },
    take(input: unknown, callId: string | undefined): PolicyArgs | undefined {
      const parsed = keptParsed;
      if (parsed === undefined) return undefined;
      const same = sameParseInput(keptInput, input, 0);
      // let go once taken, or once its own call's guardrail has run (nothing else takes it): the
      // arguments of a call are not kept beyond it; another call's guardrail leaves it in place
      if (same || (callId !== undefined && keptCallId === callId)) drop();
      return same ? parsed : undefined;
    },
    drop,
  };
}

/**
 * Whether two values are one input to a schema: the same primitives (`Object.is`: -0 is not 0),
 * and plain arrays or objects of one prototype with the same members in the same order. Stricter than
 * `sameArgs` (which compares arguments, not what a schema is handed).
 */
export function sameParseInput(a: unknown, b: unknown, depth: number): boolean {
  if (Object.is(a, b)) return true;
  if (depth > 512 || typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const prototype = Object.getPrototypeOf(a);
  // plain data only: a Date, a Map or a class keeps its state where Object.keys does not look
  if (prototype !== Object.getPrototypeOf(b) || (prototype !== Object.prototype && prototype !== Array.prototype && prototype !== null)) return false;
  if (Array.isArray(a)) {
    const c = b as unknown[];
    if (a.length !== c.length) return false;
    for (let i = 0; i < a.length; i++) if (i in a !== i in c || !sameParseInput(a[i], c[i], depth + 1)) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  // one key list, the other object's keys read in place (for-in: own keys in Object.keys' order)
  const others = Object.keys(y);
  let i = 0;
  for (const k in x) {
    if (!hasOwn.call(x, k)) continue;
    if (k !== others[i] || !sameParseInput(x[k], y[k], depth + 1)) return false;
    i++;
  }
  return i === others.length;
}

// `hasOwnProperty.call`, not Object.hasOwn: V8 answers it from the for-in's own cache
const hasOwn = Object.prototype.hasOwnProperty;

/**
 * `strict`: the SDK parses a JSON-schema tool in strict mode (its default): the model sends every
 * property, `null` for an optional one left empty, and the SDK drops that `null` before the body
 * (where the property's own schema does not admit it).
 */
export function argumentsStage(parameters: ArgsSchema | undefined, action: string, strict = false): ArgumentsStage {
  const schemaCheck =
    parameters && typeof parameters === 'object' && typeof parameters.safeParse !== 'function'
      ? compileJsonSchema(parameters, `protectedTool('${action}')`)
      : null;
  const shared = sharedParse();
  const policyArgs = (raw: string, lossless?: ArgumentsCheck, share?: 'keep' | 'take', callId?: string): PolicyArgs => {
    // the parse already scanned the text for its depth: not again
    const deep = lossless === undefined ? jsonDepthProblem(raw) : depthProblemOf(lossless);
    if (deep !== null) return { ok: false, problem: deep };
    // the stage's one parse: the lossless value, integers as JSON.parse gives them; the text again
    // only when the lossless parse refused it (a float, a duplicate key: refused later anyway). The
    // value alone: a zod schema's answer is its own object (made only where the value is the answer)
    let value: unknown;
    if (lossless?.ok) value = plainArguments(lossless.value);
    else {
      const parsed = parseJson(raw);
      if (!parsed.ok) return parsed;
      value = parsed.value;
    }
    if (schemaCheck) {
      const problem = schemaCheck(value);
      if (problem === null) return { ok: true, value };
      if (!strict) return { ok: false, problem };
      // strict mode: what the body gets, the optional properties' nulls dropped as the SDK drops them
      const sent = withoutOptionalNulls(parameters, value);
      return sent !== value && schemaCheck(sent) === null ? { ok: true, value: sent } : { ok: false, problem };
    }
    if (typeof parameters?.safeParse !== 'function') return { ok: true, value };
    const taken = share === 'take' ? shared.take(value, callId) : undefined;
    if (taken !== undefined) return taken;
    const fromSchema = zodArguments(parameters as Required<ArgsSchema>, value, strict);
    if (share === 'keep' && fromSchema.ok) shared.keep(value, fromSchema, callId);
    return fromSchema;
  };
  return { schemaCheck, policyArgs, dropShared: shared.drop };
}

/**
 * A zod schema's output for the arguments `value` (parsed from the model's text): what the body
 * gets, or refused. `strict`: the SDK drops strict mode's nulls before zod parses, so they go
 * first here too (a `.catch()` would turn a null into a value the body never gets); only a value
 * holding a null is walked. Refused so, the readings below still apply: a pause's strict
 * completion files a null for every property left out (`.default()` ones too), which the body
 * never gets. A value with no null is parsed once.
 */
function zodArguments(parameters: Required<ArgsSchema>, value: unknown, strict: boolean): PolicyArgs {
  // the value's nulls read once, for the SDK's mirror and the fallbacks alike: a value with none
  // has nothing for either to drop (a null-free copy of a refused value is refused again)
  const nulls = holdsNull(value);
  if (strict && nulls) {
    const sent = strictNullsDropped(parameters, value);
    const dropped = parameters.safeParse(sent);
    if (dropped.success) return outputAsArguments(sent, dropped.data);
  }
  const checked = parameters.safeParse(value);
  // what the body gets (a default filled in, a value trimmed): the call's arguments (issue 40)
  if (checked.success) return outputAsArguments(value, checked.data);
  if (!nulls) return { ok: false, problem: zodProblem(checked.error) };
  // the SDK's strict mode sends null for optional fields and strips them before zod parses; only
  // those: a `.nullable()` member keeps its null (the SDK's stripStrictNullsForZodSchema)
  for (const sent of [withoutRefusedNulls(parameters, value), withoutNulls(value)]) {
    if (sent === value) continue;
    const stripped = parameters.safeParse(sent);
    if (stripped.success) return outputAsArguments(sent, stripped.data);
  }
  return { ok: false, problem: zodProblem(checked.error) };
}

/**
 * The first issue of a zod error, worded as a JSON schema's (`/to: Expected string, received
 * number`): the refusal's reason and the model's text. A schema that reports no readable issue is
 * still a refusal.
 */
export function zodProblem(error: unknown): string {
  const issue = (error as { issues?: { path?: unknown; message?: unknown }[] } | undefined)?.issues?.[0];
  if (issue === undefined || typeof issue.message !== 'string') return "the tool's schema refused them";
  const path = Array.isArray(issue.path) ? issue.path.map(String).join('/') : '';
  return `/${path}: ${issue.message}`;
}

/**
 * The call's arguments (issue 40): the model's text read losslessly (CTRLRun's reading: an integer
 * of any size exact, a float refused), with what the tool's schema changed on the way to the body
 * taken from its output (`fromRaw`: `policyArgs` of the same text): a default filled in, a value
 * trimmed or coerced. The policy decides on these, the approval binds and the approver reads them,
 * and the body gets them: one value for all. A part the schema left alone keeps the lossless value;
 * a member the schema dropped (an optional `null` in strict mode, an unknown key) stays as the
 * model sent it. The lossless check itself when the schema changed nothing; refused (a float the
 * schema filled in, say) as CTRLRun refuses such arguments.
 */
export function callArguments(lossless: ArgumentsCheck, fromRaw: PolicyArgs): ArgumentsCheck {
  if (!lossless.ok || !fromRaw.ok) return lossless;
  const value = overlay(lossless.value, plainArguments(lossless.value), fromRaw.value, 0);
  return value === lossless.value ? lossless : checkArguments(value);
}

/**
 * `callArguments` of arguments known as values only (what `needsApproval` sees: the SDK's parse of
 * the text, or its schema's output), read as the JSON text they print to.
 */
export function valueArguments(stage: ArgumentsStage, checked: ArgumentsCheck, callId?: string): ArgumentsCheck {
  // (a JSON schema changes nothing the stage does not already put back: only a zod schema is run again)
  if (!checked.ok || stage.schemaCheck !== null) return checked;
  // checked arguments print to JSON unless they hold a bigint (JSON.stringify throws): those are
  // left as checked. No text is made: `policyArgs` reads the text only where the check refused it
  if (holdsBigint(checked.value)) return checked;
  // kept for the guardrail, which hands the schema this same value when the model wrote what the SDK parsed
  return callArguments(checked, stage.policyArgs('', checked, 'keep', callId));
}

/** `exact` (the lossless value) where the schema's `output` equals its plain reading `plain`; the output where it changed it. */
function overlay(exact: unknown, plain: unknown, output: unknown, depth: number): unknown {
  if (depth > 512 || sameArgs(plain, output)) return exact;
  if (Array.isArray(output) && Array.isArray(exact) && Array.isArray(plain) && exact.length === output.length) return overlayItems(exact, plain, output, depth);
  if (!isObject(output) || !isObject(exact) || !isObject(plain) || Object.getPrototypeOf(output) !== Object.prototype) return output;
  const out: Record<string, unknown> = { ...exact };
  for (const [key, v] of Object.entries(output)) {
    if (v === undefined) continue; // JSON has no undefined: the member is not there
    const next = Object.hasOwn(exact, key) ? overlay(exact[key], plain[key], v, depth + 1) : v;
    Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** `overlay` of arrays, item by item (the closure here: in `overlay` it gave every call a context). */
function overlayItems(exact: unknown[], plain: unknown[], output: unknown[], depth: number): unknown[] {
  return output.map((v, i) => overlay(exact[i], plain[i], v, depth + 1));
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Why the input about to run is not the call's own, or null: nested too deep, or not matching a
 * JSON-schema `parameters`. (`raw` is the model's text when the door has it; `parsed`, when given,
 * is `parseArguments(raw)`, whose scan already found the text's depth.)
 */
export function inputProblem(stage: ArgumentsStage, raw: string | undefined, input: unknown, parsed?: ArgumentsCheck): string | null {
  const deep = typeof raw !== 'string' ? null : parsed === undefined ? jsonDepthProblem(raw) : depthProblemOf(parsed);
  return deep ?? (stage.schemaCheck ? stage.schemaCheck(input) : null);
}

/** Whether the input to run is what the call's raw arguments give (`fromRaw`: `policyArgs` of them). */
export function inputIsTheCalls(fromRaw: PolicyArgs, input: unknown): boolean {
  return fromRaw.ok && sameArgs(fromRaw.value, input);
}

/**
 * The arguments without each top-level `null` the zod object's own member refuses (an optional
 * field left empty in strict mode), keeping the ones a `.nullable()` member accepts. The same
 * value when the schema's shape is not readable or nothing was dropped.
 */
function withoutRefusedNulls(parameters: ArgsSchema, value: unknown): unknown {
  const shape = (parameters as { shape?: unknown }).shape;
  if (shape === null || typeof shape !== 'object' || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  let out: Record<string, unknown> | null = null;
  for (const [key, v] of Object.entries(value)) {
    const member = (shape as Record<string, ArgsSchema | undefined>)[key];
    if (v !== null || typeof member?.safeParse !== 'function' || member.safeParse(null).success) continue;
    out ??= { ...(value as Record<string, unknown>) };
    delete out[key];
  }
  return out ?? value;
}

/** The value with every null object member removed (what the SDK's strict mode does before zod parses). */
export function withoutNulls(value: unknown, depth = 0): unknown {
  if (depth > 200 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => withoutNulls(v, depth + 1));
  const out: Record<string, unknown> = {};
  // defined, not assigned: an own `__proto__` key the model sent stays a key, as the SDK's spread keeps it
  for (const [k, v] of Object.entries(value))
    if (v !== null) Object.defineProperty(out, k, { value: withoutNulls(v, depth + 1), enumerable: true, writable: true, configurable: true });
  return out;
}

/** Whether a JSON schema plainly admits `null` (a `$ref` or anything unclear counts as admitting it: its null is kept). */
function admitsNull(schema: unknown, depth: number): boolean {
  if (schema === null || typeof schema !== 'object' || depth > 64) return true;
  const s = schema as Record<string, unknown>;
  if (s.$ref !== undefined || s.nullable === true || s.type === 'null' || s.const === null) return true;
  if (Array.isArray(s.type) && s.type.includes('null')) return true;
  if (Array.isArray(s.enum) && s.enum.includes(null)) return true;
  return ['anyOf', 'oneOf'].some((k) => Array.isArray(s[k]) && (s[k] as unknown[]).some((b) => admitsNull(b, depth + 1)));
}

/**
 * The value as the SDK's strict mode hands a JSON-schema tool its arguments: a `null` the model
 * sent for a property its schema does not require and does not admit `null` is dropped, at any
 * depth the schema's `properties` and `items` reach. The same value (not a copy) when none was.
 */
export function withoutOptionalNulls(schema: unknown, value: unknown, depth = 0): unknown {
  if (depth > 64 || schema === null || typeof schema !== 'object' || value === null || typeof value !== 'object') return value;
  const s = schema as { properties?: unknown; required?: unknown; items?: unknown };
  if (Array.isArray(value)) {
    if (s.items === undefined) return value;
    const items = value.map((v) => withoutOptionalNulls(s.items, v, depth + 1));
    return items.some((v, i) => v !== value[i]) ? items : value;
  }
  if (s.properties === null || typeof s.properties !== 'object') return value;
  const required = new Set(Array.isArray(s.required) ? (s.required as unknown[]) : []);
  const given = value as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const [key, sub] of Object.entries(s.properties as Record<string, unknown>)) {
    if (!Object.hasOwn(given, key)) continue;
    const v = given[key];
    const drop = v === null && !required.has(key) && !admitsNull(sub, depth + 1);
    const next = drop ? undefined : withoutOptionalNulls(sub, v, depth + 1);
    if (!drop && next === v) continue;
    out ??= { ...given };
    if (drop) delete out[key];
    else Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return out ?? value;
}

/** Deep equality of two parsed argument values (plain data, dates; anything else by its JSON). */
export function sameArgs(a: unknown, b: unknown, depth = 0): boolean {
  if (Object.is(a, b)) return true;
  if (depth > 200 || typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && sameItems(a, b, depth);
  if (!isPlain(a) || !isPlain(b)) return JSON.stringify(a) === JSON.stringify(b);
  // the members that are there (an undefined one is not, in JSON), counted as they are compared: no key lists copied
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let members = 0;
  for (const k in x) {
    if (!hasOwn.call(x, k) || x[k] === undefined) continue;
    members++;
    if (!sameArgs(x[k], y[k], depth + 1)) return false;
  }
  for (const k in y) if (hasOwn.call(y, k) && y[k] !== undefined) members--;
  return members === 0;
}

/**
 * `sameArgs` of two arrays, as `every` compared them (a hole of `a` skipped). A loop of its own, not
 * a closure in `sameArgs`: one capturing `b` and `depth` gave every call of it (each member of
 * every call's arguments) a context to allocate.
 */
function sameItems(a: unknown[], b: unknown[], depth: number): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (i in a && !sameArgs(a[i], b[i], depth + 1)) return false;
  return true;
}

/**
 * The value with every `-0` made `0`, at any depth; the same value (not a copy) when it has none.
 * The policy reads `-0` as CTRLRun does, the integer 0 (the lossless parse); the SDK's JSON.parse
 * gives the body `-0`. The door hands the body this value, so both see the one the policy decided
 * on, and the call is not refused as arguments that changed (`arguments_mismatch`).
 */
export function withoutNegativeZero(value: unknown, depth = 0): unknown {
  if (Object.is(value, -0)) return 0;
  if (depth > 200 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return itemsWithoutNegativeZero(value, depth);
  if (!isPlain(value)) return value;
  let out: Record<string, unknown> | null = null;
  const given = value as Record<string, unknown>;
  for (const key in given) {
    if (!hasOwn.call(given, key)) continue;
    const v = given[key];
    const next = withoutNegativeZero(v, depth + 1);
    if (Object.is(next, v)) continue; // (-0 === 0: compared with Object.is)
    out ??= { ...(value as Record<string, unknown>) };
    Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return out ?? value;
}

/** `withoutNegativeZero` of an array (its closures here: in the walk they gave each member's call a context). */
function itemsWithoutNegativeZero(value: unknown[], depth: number): unknown[] {
  const items = value.map((v) => withoutNegativeZero(v, depth + 1));
  return items.some((v, i) => !Object.is(v, value[i])) ? items : value;
}

/** A plain object (Object's prototype or none): one read, nothing allocated (both checks run on every call). */
function isPlain(o: object): boolean {
  const proto = Object.getPrototypeOf(o);
  return proto === Object.prototype || proto === null;
}
