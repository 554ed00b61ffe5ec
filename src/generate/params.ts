/**
 * Reads a tool's parameters statically from its `tool({ parameters })` expression: a zod object
 * (`z.object` / `z.strictObject`) or a JSON-schema object literal, possibly through an identifier
 * bound in the same file. Anything else is "cannot be read statically": the caller warns, it never
 * guesses.
 */
import type { ts } from 'ts-morph';
import { bareSpecifier } from '../scan/bare-specifier.js';
import { isWrapper } from '../scan/syntax.js';
import { typescript } from '../scan/typescript.js';
import { componentScript, isComponentFile } from '../scan/component-script.js';
import type { SourceLocation } from '../policy/types.js';
import type { SdkToolCall } from '../scan/types.js';

/** What the policy can test: `integer` is a safe-integer number, `number` may be fractional. */
export type ParamType = 'string' | 'integer' | 'number' | 'boolean' | 'enum' | 'unknown';

export interface ToolParameter {
  name: string;
  type: ParamType;
  /** The allowed strings of a `z.enum([...])` / `enum: [...]` (type `enum`). */
  enumValues?: string[];
  /**
   * Present in every call the policy decides: not `.optional()`, or given a value by a `.default()`
   * (the policy decides on what the body gets: issue 40), or listed in `required`.
   */
  required: boolean;
  /** May be `null` (`.nullable()`, `type: ['string', 'null']`). */
  nullable: boolean;
  /**
   * An `.optional()` (or `.nullish()`) anywhere in its chain of wrappers, even under a `.default()`:
   * the SDK's strict mode drops a `null` sent for it before zod parses (stripStrictNullsForZodSchema).
   */
  optional?: true;
  /** Why the type is `unknown`. */
  note?: string;
  /** The least value of a number (`.min()`, `.gte()`, `.positive()`, `minimum`, `exclusiveMinimum`…), when a literal states it. */
  min?: NumericBound;
  /** The greatest value of a number (`.max()`, `.lt()`, `.negative()`, `maximum`, `exclusiveMaximum`…), when a literal states it. */
  max?: NumericBound;
  /**
   * A step whose result cannot be known statically (`.transform()`, `.pipe()`, `z.preprocess()`, a
   * `.default()` or `.catch()` of a computed value, `z.coerce.date()`): the policy decides on what the
   * body gets (issue 40), so where a rule, a template or a `data:` label reads the parameter, the
   * generator could not check that reading; it refuses it there. Steps whose result is known (a
   * literal `.default('medium')`, `.trim()`, `.optional()`) carry no mark.
   */
  transforms?: string;
  /** A `.default()`/`.catch()`/`.prefault()` that fills in a float (`.default(0.5)`): CTRLRun refuses every call it fills. */
  floatFill?: string;
  /** The literal zod puts in the body's arguments in place of what the model sent (see {@link Fill}). */
  fill?: Fill;
  /**
   * The string steps the schema applies to what the model sent, in order (`.trim().toLowerCase()`),
   * when each is known: the runtime decides on the result, and `test` and `explain` apply them too.
   * Absent when there is none, or one whose result is not known here (`.overwrite(fn)`, `.slugify()`).
   */
  steps?: StringStep[];
  /** A string's length checks, in zod's order among its `steps` (see {@link LengthCheck}). */
  lengths?: LengthCheck[];
  loc: SourceLocation;
}

/**
 * A string's length check (`.min(3)`, `.max(9)`, `.length(2)`, `.nonempty()`), in code points as
 * zod 4 and JSON Schema count them. `after`: how many of the parameter's `steps` zod has applied
 * when it checks (`.trim().min(3)` checks the trimmed string, `.min(3).trim()` the one sent).
 */
export interface LengthCheck {
  min?: number;
  max?: number;
  after: number;
}

/** A string step of zod's whose result is known: the same as JavaScript's method of that name. */
export type StringStep = 'trim' | 'toLowerCase' | 'toUpperCase';
const STRING_STEPS: ReadonlySet<string> = new Set<StringStep>(['trim', 'toLowerCase', 'toUpperCase']);

/**
 * The literals a zod schema (zod 4, the SDK's) puts in the body's arguments, one per case, as zod
 * applies its wrappers (checked against the installed zod: test/generate/fill-ins-zod.test.ts).
 * `absent`: what a field left out becomes, and `from` which wrapper gives it: a `.default(v)`, a
 * `.catch(v)` over a value that may not be absent, or a `.prefault(v)` (v goes through the schema
 * as if sent, so its string steps apply and a refused v is refused or caught). An `.optional()`
 * after a default keeps it; after a catch it leaves the field out; after a prefault it leaves the
 * field out only where v is refused (`orLeftOut`: zod's optional runs the prefault and takes a
 * failure on a missing value as left out). `invalid`: what a
 * value the schema refuses becomes: the innermost `.catch(v)`. The runtime decides on the result;
 * `test` and `explain` fill it in as well.
 */
export interface Fill {
  absent?: { value: unknown; from: 'default' | 'catch' | 'prefault'; orLeftOut?: true };
  invalid?: { value: unknown };
}

/** One end of a number's range: `exclusive` for `.gt()`/`.lt()`/`.positive()`/`exclusiveMinimum`. */
export interface NumericBound {
  value: number;
  exclusive: boolean;
}

export type ReadParametersResult =
  | { readable: true; form: 'zod' | 'json-schema'; parameters: ToolParameter[]; loc: SourceLocation }
  | { readable: false; reason: string; loc: SourceLocation };

export interface SourceText {
  /** The path recorded in locations (absolute in the generator). */
  file: string;
  text: string;
  /** A parsed tree of `text`, when the caller has one. */
  sourceFile?: ts.SourceFile;
}

const MAX_FOLLOW = 8;

/** Reads the parameters of one scanned `tool({...})` call of a file. */
export function readToolParameters(source: SourceText, call: Pick<SdkToolCall, 'span' | 'options'>): ReadParametersResult {
  const sf = source.sourceFile ?? parseSource(source.file, source.text);
  const callLoc = locationOf(sf, source.file, call.span.start);
  const prop = call.options.properties['parameters'];
  if (!prop) {
    const reason = call.options.hasSpread
      ? 'its options object has a spread and no literal `parameters`'
      : call.options.span
        ? 'it has no `parameters` property'
        : 'its options are not an object literal';
    return { readable: false, reason, loc: callLoc };
  }
  const node = nodeAtSpan(sf, prop.valueSpan.start, prop.valueSpan.end);
  if (!node) return { readable: false, reason: 'the `parameters` expression was not found', loc: callLoc };
  const reader = new Reader(sf, source.file);
  return reader.readParameters(node);
}

export function parseSource(file: string, text: string): ts.SourceFile {
  // a component's code is read in place, as the scanner reads it (its spans are the scan's)
  if (isComponentFile(file)) {
    const script = componentScript(file, text);
    return typescript.createSourceFile(
      file,
      script.text,
      typescript.ScriptTarget.Latest,
      true,
      script.jsx ? typescript.ScriptKind.TSX : typescript.ScriptKind.TS,
    );
  }
  const kind = /\.tsx$|\.jsx$/.test(file) ? typescript.ScriptKind.TSX : /\.[mc]?js$/.test(file) ? typescript.ScriptKind.JS : typescript.ScriptKind.TS;
  return typescript.createSourceFile(file, text, typescript.ScriptTarget.Latest, true, kind);
}

export function locationOf(sf: ts.SourceFile, file: string, pos: number): SourceLocation {
  const { line, character } = sf.getLineAndCharacterOfPosition(pos);
  return { file, line: line + 1, column: character + 1 };
}

/** The outermost node whose span (without leading trivia) is exactly [start, end). */
function nodeAtSpan(sf: ts.SourceFile, start: number, end: number): ts.Node | undefined {
  let found: ts.Node | undefined;
  const visit = (node: ts.Node): void => {
    if (found) return;
    const s = node.getStart(sf);
    if (s === start && node.getEnd() === end) {
      found = node;
      return;
    }
    if (s <= start && node.getEnd() >= end) typescript.forEachChild(node, visit);
  };
  typescript.forEachChild(sf, visit);
  return found;
}

interface Shape {
  type: ParamType;
  enumValues?: string[];
  required: boolean;
  nullable: boolean;
  note?: string;
  min?: NumericBound;
  max?: NumericBound;
  /** A step whose result cannot be known statically (see ToolParameter.transforms). */
  transforms?: string;
  /** A fill-in of a float (see ToolParameter.floatFill). */
  floatFill?: string;
  /** A literal fill-in (see ToolParameter.fill). */
  fill?: Fill;
  /** An `.optional()` in its chain (see ToolParameter.optional). */
  optional?: true;
  /** Known string steps (see ToolParameter.steps); null once one whose result is not known was met. */
  steps?: StringStep[] | null;
  /** Length checks (see ToolParameter.lengths). */
  lengths?: LengthCheck[];
}

/** Methods of a zod schema that keep what the model may send (its JSON type) as it is. */
const TYPE_PRESERVING = new Set([
  'describe',
  'meta',
  'brand',
  'readonly',
  'refine',
  'superRefine',
  'check',
  'min',
  'max',
  'length',
  'positive',
  'negative',
  'nonnegative',
  'nonpositive',
  'gt',
  'gte',
  'lt',
  'lte',
  'multipleOf',
  'step',
  'finite',
  'safe',
  'nonempty',
  'email',
  'url',
  'uuid',
  'cuid',
  'cuid2',
  'ulid',
  'regex',
  'lowercase',
  'uppercase',
  'startsWith',
  'endsWith',
  'includes',
  'datetime',
  'date',
  'time',
  'ip',
  'emoji',
  'nanoid',
  'base64',
]);
/** Methods that keep the JSON type and change the value the body receives: decided as changed (issue 40). */
const VALUE_CHANGING = new Set(['trim', 'toLowerCase', 'toUpperCase', 'normalize', 'slugify', 'overwrite']);
/** Methods whose result's type cannot be known statically. */
const RESHAPING = new Set(['transform', 'pipe']);
/** Methods that give a value where the model sent none (or an invalid one): known when it is a literal. */
const FILLING = new Set(['default', 'catch', 'prefault']);
/** `z.coerce.<type>()` whose output is a JSON value of that type (the others give a Date, a bigint). */
const COERCED: Record<string, ParamType> = { string: 'string', number: 'number', boolean: 'boolean' };
const OBJECT_PRESERVING = new Set(['describe', 'meta', 'strict', 'brand', 'readonly']);
const ZOD_INTEGER = new Set(['int', 'int32', 'uint32', 'safeint']);

/**
 * The first step inside `node` whose result cannot be known statically (a `.transform()` of a
 * member of a nested object, a `.default()` of a computed value), as `.name()`; z.preprocess and
 * the coercions that give no JSON too. Schemas named by an identifier are not followed (the run-time
 * check refuses a part of the output that is not JSON).
 */
function nestedTransform(node: ts.Node): string | undefined {
  let found: string | undefined;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (typescript.isCallExpression(n) && typescript.isPropertyAccessExpression(n.expression)) {
      const name = n.expression.name.text;
      const target = n.expression.expression;
      if (RESHAPING.has(name)) found = `.${name}()`;
      else if (FILLING.has(name) && (n.arguments[0] === undefined || jsonLiteral(n.arguments[0]) === undefined)) found = `.${name}(…)`;
      else if (name === 'preprocess') found = 'z.preprocess()';
      else if (typescript.isPropertyAccessExpression(target) && target.name.text === 'coerce' && COERCED[name] === undefined) found = `z.coerce.${name}()`;
    }
    if (!found) typescript.forEachChild(n, visit);
  };
  typescript.forEachChild(node, visit);
  return found;
}

/**
 * The JSON value a literal states (`'medium'`, `5`, `-1`, `true`, `null`, `[]`, `{ a: 1 }`), with
 * whether a float is in it; undefined for anything computed (a call, an arrow function, a name not
 * followed here, a template with substitutions).
 */
function jsonLiteral(node: ts.Expression): { value: unknown; float: boolean } | undefined {
  const expr = unwrap(node);
  if (typescript.isStringLiteral(expr) || typescript.isNoSubstitutionTemplateLiteral(expr)) return { value: expr.text, float: false };
  if (expr.kind === typescript.SyntaxKind.TrueKeyword) return { value: true, float: false };
  if (expr.kind === typescript.SyntaxKind.FalseKeyword) return { value: false, float: false };
  if (expr.kind === typescript.SyntaxKind.NullKeyword) return { value: null, float: false };
  const n = numericLiteral(expr);
  if (n !== undefined) return { value: n, float: !Number.isSafeInteger(n) };
  if (typescript.isArrayLiteralExpression(expr)) {
    const items = expr.elements.map((e) => (typescript.isExpression(e) && !typescript.isSpreadElement(e) ? jsonLiteral(e) : undefined));
    if (items.some((i) => i === undefined)) return undefined;
    return { value: items.map((i) => i!.value), float: items.some((i) => i!.float) };
  }
  if (typescript.isObjectLiteralExpression(expr)) {
    const out: Record<string, unknown> = {};
    let float = false;
    for (const property of expr.properties) {
      const named = propertyNameAndValue(property);
      const value = named && !typescript.isShorthandPropertyAssignment(property) ? jsonLiteral(named.value) : undefined;
      if (!named || value === undefined) return undefined;
      out[named.name] = value.value;
      float ||= value.float;
    }
    return { value: out, float };
  }
  return undefined;
}

class Reader {
  private readonly zodNames: Set<string>;
  /** Built when a name is first followed: most parameters are written in place. */
  private bindings: Map<string, Array<ts.Expression | null>> | undefined;

  constructor(
    private readonly sf: ts.SourceFile,
    private readonly file: string,
  ) {
    this.zodNames = zodBindings(sf);
  }

  readParameters(start: ts.Node): ReadParametersResult {
    const loc = this.loc(start);
    let node: ts.Node = start;
    if (typescript.isShorthandPropertyAssignment(node)) node = node.name;
    for (let depth = 0; ; depth += 1) {
      if (!typescript.isExpression(node)) return { readable: false, reason: 'it is not an expression', loc };
      const expr = unwrap(node);
      if (typescript.isIdentifier(expr)) {
        const target = this.follow(expr);
        if (typeof target === 'string') return { readable: false, reason: target, loc };
        if (depth >= MAX_FOLLOW) return { readable: false, reason: 'it is bound through too many names', loc };
        node = target;
        continue;
      }
      if (typescript.isObjectLiteralExpression(expr)) return this.readJsonSchemaObject(expr, loc);
      if (typescript.isCallExpression(expr)) return this.readZodObject(expr, loc);
      return { readable: false, reason: `\`${snippet(this.sf, expr)}\` is neither a z.object({...}) nor a JSON-schema object literal`, loc };
    }
  }

  private follow(id: ts.Identifier): ts.Expression | string {
    this.bindings ??= constBindings(this.sf);
    const bound = this.bindings.get(id.text);
    if (!bound || bound.length === 0) return `\`${id.text}\` is not a const bound in this file`;
    if (bound.length > 1) return `\`${id.text}\` is declared more than once in this file`;
    const target = bound[0];
    if (!target) return `\`${id.text}\` is not a const with an initializer`;
    return target;
  }

  private loc(node: ts.Node): SourceLocation {
    return locationOf(this.sf, this.file, node.getStart(this.sf));
  }

  // ----- zod -----------------------------------------------------------------------------------

  private readZodObject(call: ts.CallExpression, loc: SourceLocation): ReadParametersResult {
    let current: ts.Expression = call;
    for (let depth = 0; depth < 64; depth += 1) {
      current = unwrap(current);
      if (typescript.isIdentifier(current) && depth > 0) {
        const target = this.follow(current);
        if (typeof target === 'string') return { readable: false, reason: target, loc };
        current = target;
        continue;
      }
      if (!typescript.isCallExpression(current) || !typescript.isPropertyAccessExpression(current.expression)) break;
      const callee = current.expression;
      const method = callee.name.text;
      if (this.isZod(callee.expression)) {
        if (method !== 'object' && method !== 'strictObject') {
          return { readable: false, reason: `z.${method}(...) is not an object of named arguments (use z.object({...}))`, loc };
        }
        const shape = current.arguments[0] ? unwrap(current.arguments[0]) : undefined;
        if (!shape || !typescript.isObjectLiteralExpression(shape)) {
          return { readable: false, reason: `the argument of z.${method}(...) is not an object literal`, loc };
        }
        return this.readZodShape(shape, loc);
      }
      if (!OBJECT_PRESERVING.has(method)) {
        return { readable: false, reason: `\`.${method}()\` on the parameters object cannot be read statically`, loc };
      }
      current = callee.expression;
    }
    return { readable: false, reason: `\`${snippet(this.sf, call)}\` is neither a z.object({...}) nor a JSON-schema object literal`, loc };
  }

  private readZodShape(shape: ts.ObjectLiteralExpression, loc: SourceLocation): ReadParametersResult {
    const parameters: ToolParameter[] = [];
    for (const property of shape.properties) {
      const named = propertyNameAndValue(property);
      if (!named) {
        return { readable: false, reason: `\`${snippet(this.sf, property)}\` in the parameters object cannot be read statically`, loc: this.loc(property) };
      }
      const { steps, ...s } = this.readZodType(named.value, 0);
      parameters.push({ name: named.name, ...s, ...(steps ? { steps } : {}), loc: this.loc(property) });
    }
    return { readable: true, form: 'zod', parameters, loc };
  }

  private readZodType(node: ts.Expression, depth: number): Shape {
    const expr = unwrap(node);
    const unknown = (note: string): Shape => ({ type: 'unknown', required: true, nullable: false, note });
    if (depth > 64) return unknown('it is nested too deeply');
    if (typescript.isIdentifier(expr)) {
      const target = this.follow(expr);
      if (typeof target === 'string') return unknown(target);
      return this.readZodType(target, depth + 1);
    }
    if (!typescript.isCallExpression(expr) || !typescript.isPropertyAccessExpression(expr.expression)) {
      return unknown(`\`${snippet(this.sf, expr)}\` is not a zod schema this tool reads`);
    }
    const callee = expr.expression;
    const method = callee.name.text;
    const args = expr.arguments;
    const base = unwrap(callee.expression);
    if (typescript.isPropertyAccessExpression(base) && base.name.text === 'coerce' && this.isZod(base.expression)) {
      // decided as converted (what the body gets): a string, number or boolean is a known JSON type
      const type = COERCED[method];
      if (type !== undefined) return { type, required: true, nullable: false };
      return { ...unknown(`z.coerce.${method}() converts what the model sent`), transforms: `z.coerce.${method}()` };
    }
    if (this.isZod(callee.expression) && method === 'preprocess') {
      const inner: Shape = args[1] ? this.readZodType(args[1], depth + 1) : unknown('z.preprocess() without a schema');
      return { ...inner, transforms: 'z.preprocess()' };
    }
    if (this.isZod(callee.expression)) {
      switch (method) {
        case 'string':
          return { type: 'string', required: true, nullable: false };
        case 'number':
          return { type: 'number', required: true, nullable: false };
        case 'boolean':
          return { type: 'boolean', required: true, nullable: false };
        case 'enum': {
          const values = args[0] ? stringList(unwrap(args[0])) : undefined;
          return values
            ? { type: 'enum', enumValues: values, required: true, nullable: false }
            : unknown('the values of z.enum(...) are not a literal list of strings');
        }
        case 'literal': {
          const value = args[0] ? unwrap(args[0]) : undefined;
          if (value && (typescript.isStringLiteral(value) || typescript.isNoSubstitutionTemplateLiteral(value))) {
            return { type: 'enum', enumValues: [value.text], required: true, nullable: false };
          }
          if (value && (value.kind === typescript.SyntaxKind.TrueKeyword || value.kind === typescript.SyntaxKind.FalseKeyword)) {
            return { type: 'boolean', required: true, nullable: false };
          }
          return unknown('z.literal(...) of something other than a string or a boolean');
        }
        case 'optional':
        case 'nullable':
        case 'nullish': {
          if (!args[0]) return unknown(`z.${method}() without a schema`);
          return applyModifier(method, this.readZodType(args[0], depth + 1));
        }
        default: {
          if (ZOD_INTEGER.has(method)) return { type: 'integer', required: true, nullable: false, ...INTEGER_RANGES[method] };
          // z.object({...}), z.array(...): not read, but a transform inside changes what the body gets
          const nested = nestedTransform(expr);
          return { ...unknown(`z.${method}(...) is not a string, integer, number, boolean or enum`), ...(nested ? { transforms: nested } : {}) };
        }
      }
    }
    const inner = this.readZodType(callee.expression, depth + 1);
    if (RESHAPING.has(method)) return { ...unknown(`\`.${method}()\` cannot be read statically`), transforms: inner.transforms ?? `.${method}()` };
    if (FILLING.has(method)) return this.filled(method, args[0], inner);
    // the body gets the changed value, of the same type: decided as changed
    if (VALUE_CHANGING.has(method) && inner.type === 'string') {
      // a step whose result is known is recorded (null for good once one is not), so test decides as the body gets it
      const known = STRING_STEPS.has(method) && args.length === 0 && inner.steps !== null;
      return { ...inner, steps: known ? [...(inner.steps ?? []), method as StringStep] : null };
    }
    if (VALUE_CHANGING.has(method) || inner.type === 'unknown') return inner;
    if (method === 'int' || method === 'safe') {
      return inner.type === 'number' || inner.type === 'integer' ? { ...inner, type: 'integer' } : unknown(`\`.${method}()\` on a ${inner.type}`);
    }
    if (method === 'optional' || method === 'nullable' || method === 'nullish') return applyModifier(method, inner);
    // a length after a step whose result is not known checks what cannot be known here: not recorded
    const length = inner.type === 'string' && inner.steps !== null ? lengthCheck(method, args[0]) : undefined;
    if (length) return { ...inner, lengths: [...(inner.lengths ?? []), { ...length, after: inner.steps?.length ?? 0 }] };
    if (inner.type === 'number' || inner.type === 'integer') {
      const bound = numberBound(method, args[0]);
      if (bound) return tighter(inner, bound.side, bound.bound);
    }
    if (TYPE_PRESERVING.has(method)) return inner;
    return unknown(`\`.${method}()\` cannot be read statically`);
  }

  /**
   * `.default(v)`, `.prefault(v)`, `.catch(v)`: the body gets `v` where the model sent nothing (or,
   * for `.catch`, something invalid); decided on as given. Known when `v` is a JSON literal (or a
   * const of one); a computed value (a function, a call) is marked `transforms`.
   */
  private filled(method: string, arg: ts.Expression | undefined, inner: Shape): Shape {
    const literal = arg ? jsonLiteral(this.resolve(arg) ?? arg) : undefined;
    // `.catch` leaves an absent optional value absent (valid); a default always gives one
    const shape: Shape = method === 'catch' ? inner : { ...inner, required: true };
    if (literal === undefined) return { ...shape, transforms: inner.transforms ?? `.${method}(…)` };
    if (literal.float) return { ...shape, floatFill: `.${method}(${arg ? snippet(this.sf, arg) : ''})` };
    return { ...shape, fill: wrapped(method, literal.value, inner) };
  }

  private isZod(node: ts.Expression): boolean {
    const expr = unwrap(node);
    return typescript.isIdentifier(expr) && this.zodNames.has(expr.text);
  }

  // ----- JSON schema ---------------------------------------------------------------------------

  private readJsonSchemaObject(obj: ts.ObjectLiteralExpression, loc: SourceLocation): ReadParametersResult {
    const props = this.literalProperties(obj);
    if (typeof props === 'string') return { readable: false, reason: props, loc };
    const type = props.get('type');
    const typeName = type ? stringValue(unwrap(type)) : undefined;
    if (typeName !== 'object') {
      return { readable: false, reason: "the JSON schema is not `type: 'object'`", loc };
    }
    let required = new Set<string>();
    const req = props.get('required');
    if (req) {
      const list = stringList(unwrap(req));
      if (!list) return { readable: false, reason: '`required` is not a literal list of strings', loc };
      required = new Set(list);
    }
    const propertiesNode = props.get('properties');
    if (!propertiesNode) return { readable: true, form: 'json-schema', parameters: [], loc };
    const propertiesExpr = this.resolve(propertiesNode);
    if (!propertiesExpr || !typescript.isObjectLiteralExpression(propertiesExpr)) {
      return { readable: false, reason: '`properties` is not an object literal', loc };
    }
    const parameters: ToolParameter[] = [];
    for (const property of propertiesExpr.properties) {
      const named = propertyNameAndValue(property);
      if (!named) {
        return { readable: false, reason: `\`${snippet(this.sf, property)}\` in \`properties\` cannot be read statically`, loc: this.loc(property) };
      }
      // a JSON schema changes nothing the model sent: no steps
      const { steps: _none, ...s } = this.readJsonSchemaType(named.value);
      parameters.push({ name: named.name, ...s, required: required.has(named.name), loc: this.loc(property) });
    }
    return { readable: true, form: 'json-schema', parameters, loc };
  }

  private readJsonSchemaType(node: ts.Expression): Omit<Shape, 'required'> {
    const unknown = (note: string): Omit<Shape, 'required'> => ({ type: 'unknown', nullable: false, note });
    const expr = this.resolve(node);
    if (!expr || !typescript.isObjectLiteralExpression(expr)) return unknown('its schema is not an object literal');
    const props = this.literalProperties(expr);
    if (typeof props === 'string') return unknown(props);
    const typeNode = props.get('type');
    const enumNode = props.get('enum');
    let types: string[] | undefined;
    if (typeNode) {
      const t = unwrap(typeNode);
      const single = stringValue(t);
      types = single !== undefined ? [single] : stringList(t);
      if (!types) return unknown('its `type` is not a literal');
    }
    const nullable = types?.includes('null') ?? false;
    const nonNull = types?.filter((t) => t !== 'null');
    let enumValues: string[] | undefined;
    if (enumNode) {
      const e = unwrap(enumNode);
      if (!typescript.isArrayLiteralExpression(e)) return unknown('its `enum` is not a literal list');
      const values = stringList(e);
      if (!values) return unknown('its `enum` holds values other than strings');
      enumValues = values;
    }
    if (enumValues && (!nonNull || (nonNull.length === 1 && nonNull[0] === 'string'))) {
      return { type: 'enum', enumValues, nullable };
    }
    if (nonNull?.length !== 1) return unknown('it has no single JSON type');
    switch (nonNull[0]) {
      case 'string':
        return { type: 'string', nullable, ...jsonSchemaLengths(props) };
      case 'integer':
        return { type: 'integer', nullable, ...jsonSchemaRange(props) };
      case 'number':
        return { type: 'number', nullable, ...jsonSchemaRange(props) };
      case 'boolean':
        return { type: 'boolean', nullable };
      default:
        return unknown(`its type \`${nonNull[0]}\` is not a string, integer, number or boolean`);
    }
  }

  /** An object literal's properties by name; a string says why it cannot be read. */
  private literalProperties(obj: ts.ObjectLiteralExpression): Map<string, ts.Expression> | string {
    const map = new Map<string, ts.Expression>();
    for (const property of obj.properties) {
      const named = propertyNameAndValue(property);
      if (!named) return `\`${snippet(this.sf, property)}\` cannot be read statically`;
      map.set(named.name, named.value);
    }
    return map;
  }

  private resolve(node: ts.Expression): ts.Expression | undefined {
    let expr = unwrap(node);
    for (let depth = 0; typescript.isIdentifier(expr); depth += 1) {
      if (depth >= MAX_FOLLOW) return undefined;
      const target = this.follow(expr);
      if (typeof target === 'string') return undefined;
      expr = unwrap(target);
    }
    return expr;
  }
}

/** The ranges of zod's sized integers (`z.int32()`, `z.uint32()`). */
const INTEGER_RANGES: Record<string, Pick<Shape, 'min' | 'max'>> = {
  int32: { min: { value: -2147483648, exclusive: false }, max: { value: 2147483647, exclusive: false } },
  uint32: { min: { value: 0, exclusive: false }, max: { value: 4294967295, exclusive: false } },
};

/** The end of a number's range a zod method states with a literal (`.max(50)`, `.positive()`); undefined for any other method or a non-literal. */
function numberBound(method: string, arg: ts.Expression | undefined): { side: 'min' | 'max'; bound: NumericBound } | undefined {
  const zero = { value: 0, exclusive: false };
  if (method === 'positive') return { side: 'min', bound: { ...zero, exclusive: true } };
  if (method === 'nonnegative') return { side: 'min', bound: zero };
  if (method === 'negative') return { side: 'max', bound: { ...zero, exclusive: true } };
  if (method === 'nonpositive') return { side: 'max', bound: zero };
  const side = method === 'min' || method === 'gte' || method === 'gt' ? 'min' : method === 'max' || method === 'lte' || method === 'lt' ? 'max' : undefined;
  const value = arg ? numericLiteral(arg) : undefined;
  if (!side || value === undefined) return undefined;
  return { side, bound: { value, exclusive: method === 'gt' || method === 'lt' } };
}

/** The length a string's `.min(n)`, `.max(n)`, `.length(n)` or `.nonempty()` checks, when a literal states it. */
function lengthCheck(method: string, arg: ts.Expression | undefined): { min?: number; max?: number } | undefined {
  if (method === 'nonempty') return { min: 1 };
  const n = arg ? numericLiteral(arg) : undefined;
  if (n === undefined) return undefined;
  if (method === 'min') return { min: n };
  if (method === 'max') return { max: n };
  return method === 'length' ? { min: n, max: n } : undefined;
}

/** The shape with one end of its range narrowed to `bound` (the tighter of the two). */
function tighter<S extends Pick<Shape, 'min' | 'max'>>(shape: S, side: 'min' | 'max', bound: NumericBound): S {
  const old = shape[side];
  if (!old) return { ...shape, [side]: bound };
  const further = side === 'min' ? bound.value > old.value : bound.value < old.value;
  const keep = further || (bound.value === old.value && bound.exclusive) ? bound : old;
  return { ...shape, [side]: keep };
}

/** A finite number written as a literal (`50`, `-1`, `1_000`, `1e6`). */
function numericLiteral(node: ts.Expression): number | undefined {
  const expr = unwrap(node);
  if (typescript.isNumericLiteral(expr)) {
    const n = Number(expr.text.replace(/_/g, ''));
    return Number.isFinite(n) ? n : undefined;
  }
  if (typescript.isPrefixUnaryExpression(expr) && expr.operator === typescript.SyntaxKind.MinusToken) {
    const n = numericLiteral(expr.operand);
    return n === undefined ? undefined : -n;
  }
  return undefined;
}

/**
 * The fill-ins of `inner` wrapped in `.default(v)`, `.prefault(v)` or `.catch(v)`, as zod 4 runs
 * them: a default or prefault takes a missing value before anything inside; a catch takes what the
 * inside refuses, so an inner `.catch()` catches first, and a missing value the inside fills in or
 * leaves out (`.optional()`) is no failure to catch.
 */
function wrapped(method: string, value: unknown, inner: Shape): Fill {
  const invalid = inner.fill?.invalid;
  if (method === 'default' || method === 'prefault') return { absent: { value, from: method }, ...(invalid ? { invalid } : {}) };
  const absent = inner.fill?.absent ?? (inner.required ? { value, from: 'catch' as const } : undefined);
  return { ...(absent ? { absent } : {}), invalid: invalid ?? { value } };
}

function applyModifier(method: string, inner: Shape): Shape {
  switch (method) {
    case 'optional':
      return { ...inner, required: false, optional: true, ...optionalFill(inner.fill) };
    case 'nullable':
      return { ...inner, nullable: true };
    case 'nullish':
      return { ...inner, required: false, nullable: true, optional: true, ...optionalFill(inner.fill) };
    default:
      return inner;
  }
}

/**
 * zod 4: an `.optional()` over a `.default()` fills a missing value in still; over a `.catch()` it
 * leaves it missing; over a `.prefault()` it leaves it missing where the prefault is refused
 * (checked against the installed zod: test/policy-test/fill-ins-zod.test.ts).
 */
function optionalFill(fill: Fill | undefined): { fill?: Fill } {
  if (fill?.absent === undefined || fill.absent.from === 'default') return {};
  const { absent, ...rest } = fill;
  if (absent.from === 'catch') return { fill: rest };
  // a prefault a `.catch()` inside covers never fails; one outside comes after the optional's own leaving out
  return rest.invalid ? {} : { fill: { ...rest, absent: { ...absent, orLeftOut: true } } };
}

/** A JSON-schema number's range: `minimum`, `maximum`, and the numeric `exclusiveMinimum` / `exclusiveMaximum` of draft 6 on. */
function jsonSchemaRange(props: Map<string, ts.Expression>): Pick<Shape, 'min' | 'max'> {
  let range: Pick<Shape, 'min' | 'max'> = {};
  for (const [key, side, exclusive] of [
    ['minimum', 'min', false],
    ['exclusiveMinimum', 'min', true],
    ['maximum', 'max', false],
    ['exclusiveMaximum', 'max', true],
  ] as const) {
    const node = props.get(key);
    const value = node ? numericLiteral(node) : undefined;
    if (value !== undefined) range = tighter(range, side, { value, exclusive });
  }
  return range;
}

/** A JSON-schema string's `minLength` and `maxLength` when literals state them: one check, before any step (there is none). */
function jsonSchemaLengths(props: Map<string, ts.Expression>): Pick<Shape, 'lengths'> {
  const [min, max] = ['minLength', 'maxLength'].map((key) => {
    const node = props.get(key);
    return node ? numericLiteral(node) : undefined;
  });
  if (min === undefined && max === undefined) return {};
  return { lengths: [{ ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}), after: 0 }] };
}

/** Strips parentheses, `as`, `satisfies`, `!` and `<T>` casts. */
function unwrap(node: ts.Expression): ts.Expression {
  let expr = node;
  while (isWrapper(expr)) expr = expr.expression;
  return expr;
}

function propertyNameAndValue(property: ts.ObjectLiteralElementLike): { name: string; value: ts.Expression } | undefined {
  if (typescript.isPropertyAssignment(property)) {
    const n = property.name;
    if (typescript.isIdentifier(n) || typescript.isStringLiteral(n) || typescript.isNoSubstitutionTemplateLiteral(n) || typescript.isNumericLiteral(n)) {
      return { name: n.text, value: property.initializer };
    }
    if (typescript.isComputedPropertyName(n)) {
      const e = unwrap(n.expression);
      if (typescript.isStringLiteral(e) || typescript.isNoSubstitutionTemplateLiteral(e)) return { name: e.text, value: property.initializer };
    }
    return undefined;
  }
  if (typescript.isShorthandPropertyAssignment(property)) return { name: property.name.text, value: property.name };
  return undefined;
}

function stringValue(node: ts.Expression): string | undefined {
  return typescript.isStringLiteral(node) || typescript.isNoSubstitutionTemplateLiteral(node) ? node.text : undefined;
}

function stringList(node: ts.Expression): string[] | undefined {
  if (!typescript.isArrayLiteralExpression(node)) return undefined;
  const out: string[] = [];
  for (const element of node.elements) {
    const value = stringValue(unwrap(element));
    if (value === undefined) return undefined;
    out.push(value);
  }
  return out;
}

function snippet(sf: ts.SourceFile, node: ts.Node): string {
  const text = node.getText(sf).replace(/\s+/g, ' ');
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** zod or one of its subpaths (`zod/v4`), also by Deno's `npm:zod@3` or a URL serving it. */
const isZodSpecifier = (specifier: string): boolean => /^zod(\/|$)/.test(bareSpecifier(specifier));

/** Local names bound to a zod module: `import { z } from 'zod'`, `import * as z`, `import z`. */
function zodBindings(sf: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of sf.statements) {
    if (typescript.isVariableStatement(statement)) {
      // const { z } = require('zod'); const z = require('zod');
      for (const d of statement.declarationList.declarations) {
        const init = d.initializer ? unwrap(d.initializer) : undefined;
        if (!init || !typescript.isCallExpression(init) || !typescript.isIdentifier(init.expression) || init.expression.text !== 'require') continue;
        const spec = init.arguments[0];
        if (!spec || !typescript.isStringLiteral(spec) || !isZodSpecifier(spec.text)) continue;
        if (typescript.isIdentifier(d.name)) names.add(d.name.text);
        if (typescript.isObjectBindingPattern(d.name)) {
          for (const element of d.name.elements) {
            const imported =
              element.propertyName && typescript.isIdentifier(element.propertyName)
                ? element.propertyName.text
                : typescript.isIdentifier(element.name)
                  ? element.name.text
                  : undefined;
            if (imported === 'z' && typescript.isIdentifier(element.name)) names.add(element.name.text);
          }
        }
      }
      continue;
    }
    if (!typescript.isImportDeclaration(statement) || !typescript.isStringLiteral(statement.moduleSpecifier)) continue;
    if (!isZodSpecifier(statement.moduleSpecifier.text)) continue;
    const clause = statement.importClause;
    if (!clause) continue;
    if (clause.name) names.add(clause.name.text);
    const bindings = clause.namedBindings;
    if (bindings && typescript.isNamespaceImport(bindings)) names.add(bindings.name.text);
    if (bindings && typescript.isNamedImports(bindings)) {
      for (const element of bindings.elements) {
        const imported = (element.propertyName ?? element.name).text;
        if (imported === 'z' || imported === 'default') names.add(element.name.text);
      }
    }
  }
  return names;
}

const bindingsByTree = new WeakMap<ts.SourceFile, Map<string, Array<ts.Expression | null>>>();

/**
 * Every binding of the file (any scope), by name: the initializer of a `const NAME = <init>`, or
 * null for any other binding (let, var, parameter, function, class), which makes a name unfollowable.
 * The walk keeps each node's parent itself: the scan's tree has no parent pointers, and setting them
 * on a whole tree cost more than the reading (issue 40, item 8).
 */
function constBindings(sf: ts.SourceFile): Map<string, Array<ts.Expression | null>> {
  // one walk a tree: a file of several tools is read by one Reader each
  const known = bindingsByTree.get(sf);
  if (known) return known;
  const map = new Map<string, Array<ts.Expression | null>>();
  bindingsByTree.set(sf, map);
  const add = (name: string, value: ts.Expression | null): void => {
    const list = map.get(name) ?? [];
    list.push(value);
    map.set(name, list);
  };
  let parent: ts.Node = sf;
  const visit = (node: ts.Node): void => {
    if (typescript.isVariableDeclaration(node) && typescript.isIdentifier(node.name)) {
      const isConst = typescript.isVariableDeclarationList(parent) && (parent.flags & typescript.NodeFlags.Const) !== 0;
      add(node.name.text, isConst && node.initializer ? node.initializer : null);
    } else if (
      (typescript.isParameter(node) || typescript.isFunctionDeclaration(node) || typescript.isClassDeclaration(node)) &&
      node.name &&
      typescript.isIdentifier(node.name)
    ) {
      add(node.name.text, null);
    }
    const outer = parent;
    parent = node;
    typescript.forEachChild(node, visit);
    parent = outer;
  };
  visit(sf);
  return map;
}
