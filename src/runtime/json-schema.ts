import { CtrlrunError } from './errors.js';

/**
 * A small JSON Schema validator for the `parameters` of function tools, run before the policy
 * decides. Why not ajv at run time: ajv compiles with `new Function` (blocked by a browser's CSP,
 * and heavy for a runtime that must stay light); its standalone mode needs the schema at
 * `generate` time, but a tool's `parameters` live in the user's code, not in the manifest. So: an
 * interpreter of the keywords function-calling schemas use (the OpenAI strict subset and a little
 * more), checked against ajv by a property test (test/runtime/json-schema.test.ts). A keyword it
 * does not know is refused when the tool is made (fail closed), never silently ignored.
 */

export type SchemaCheck = (value: unknown) => string | null;

type Schema = boolean | { [k: string]: unknown };

/** Keywords that only annotate: they assert nothing. */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  'format',
  'contentMediaType',
  'contentEncoding',
  '$defs',
  'definitions',
  'strict',
  'propertyOrdering',
]);

const ASSERTIONS = new Set([
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  '$ref',
  'minProperties',
  'maxProperties',
  'nullable',
]);

/** Compiles `schema` into a check returning null (valid) or the first problem (`/amount: must be integer`). */
export function compileJsonSchema(schema: unknown, where: string): SchemaCheck {
  const root = schema as Schema;
  const patterns = new Map<string, RegExp>();
  // refuse unknown keywords and bad patterns now, not at the first call
  walk(root, '#', (node, path) => {
    for (const key of Object.keys(node)) {
      if (!ANNOTATIONS.has(key) && !ASSERTIONS.has(key)) {
        throw new CtrlrunError(
          `${where}: its JSON-schema \`parameters\` use "${key}" (at ${path}), which ctrlrun's argument check does not support; use a zod schema or remove it.`,
        );
      }
    }
    if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) {
      throw new CtrlrunError(`${where}: its JSON-schema \`parameters\` refer to ${node.$ref} (at ${path}); only local references (#/…) are supported.`);
    }
    if (typeof node.pattern === 'string' && !patterns.has(node.pattern)) {
      try {
        patterns.set(node.pattern, new RegExp(node.pattern, 'u'));
      } catch {
        throw new CtrlrunError(`${where}: the pattern ${JSON.stringify(node.pattern)} (at ${path}) is not a valid regular expression.`);
      }
    }
  });
  return (value) => check(root, value, '', root, patterns, 0);
}

function walk(schema: Schema, path: string, visit: (node: Record<string, unknown>, path: string) => void, depth = 0): void {
  if (typeof schema !== 'object' || schema === null || depth > 64) return;
  visit(schema, path);
  for (const [key, child] of Object.entries(schema)) {
    if (['properties', '$defs', 'definitions'].includes(key) && child && typeof child === 'object') {
      for (const [name, sub] of Object.entries(child)) walk(sub as Schema, `${path}/${key}/${name}`, visit, depth + 1);
    } else if (['items', 'additionalProperties', 'not'].includes(key)) {
      walk(child as Schema, `${path}/${key}`, visit, depth + 1);
    } else if (['anyOf', 'oneOf', 'allOf', 'prefixItems'].includes(key) && Array.isArray(child)) {
      for (const [i, sub] of child.entries()) walk(sub as Schema, `${path}/${key}/${i}`, visit, depth + 1);
    }
  }
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function hasType(value: unknown, type: unknown): boolean {
  const actual = typeOf(value);
  return type === actual || (type === 'number' && actual === 'integer');
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => equal(x, (b as unknown[])[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function resolveRef(root: Schema, ref: string): Schema {
  let node: unknown = root;
  for (const part of ref.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node && typeof node === 'object' && Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
  }
  if (node === undefined) throw new CtrlrunError(`the JSON-schema reference ${ref} does not resolve`);
  return node as Schema;
}

const own = (o: object, k: string) => Object.hasOwn(o, k);

function check(schema: Schema, value: unknown, path: string, root: Schema, patterns: Map<string, RegExp>, depth: number): string | null {
  const at = path || '(the arguments)';
  if (depth > 200) return `${at}: nested too deeply`;
  if (schema === true) return null;
  if (schema === false) return `${at}: not allowed`;
  if (typeof schema !== 'object' || schema === null) return null;
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === 'string') {
    const problem = check(resolveRef(root, s.$ref), value, path, root, patterns, depth + 1);
    if (problem) return problem;
  }
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (s.nullable === true) types.push('null');
    if (!types.some((t) => hasType(value, t))) return `${at}: must be ${types.join(' or ')}, got ${typeOf(value)}`;
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => equal(e, value))) return `${at}: must be one of ${JSON.stringify(s.enum)}`;
  if (own(s, 'const') && !equal(s.const, value)) return `${at}: must be ${JSON.stringify(s.const)}`;

  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) return `${at}: must be >= ${s.minimum}`;
    if (typeof s.maximum === 'number' && value > s.maximum) return `${at}: must be <= ${s.maximum}`;
    if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum) return `${at}: must be > ${s.exclusiveMinimum}`;
    if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum) return `${at}: must be < ${s.exclusiveMaximum}`;
    // exact, as ajv does by default (no tolerance: 5e-324 is not a multiple of 1)
    if (typeof s.multipleOf === 'number' && s.multipleOf > 0 && value % s.multipleOf !== 0) return `${at}: must be a multiple of ${s.multipleOf}`;
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof s.minLength === 'number' && length < s.minLength) return `${at}: must have at least ${s.minLength} characters`;
    if (typeof s.maxLength === 'number' && length > s.maxLength) return `${at}: must have at most ${s.maxLength} characters`;
    if (typeof s.pattern === 'string' && !patterns.get(s.pattern)!.test(value)) return `${at}: must match ${s.pattern}`;
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems) return `${at}: must have at least ${s.minItems} items`;
    if (typeof s.maxItems === 'number' && value.length > s.maxItems) return `${at}: must have at most ${s.maxItems} items`;
    if (s.uniqueItems === true && value.some((v, i) => value.findIndex((w) => equal(v, w)) !== i)) return `${at}: items must be unique`;
    const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as Schema[]) : [];
    for (let i = 0; i < value.length; i++) {
      const sub = i < prefix.length ? prefix[i] : (s.items as Schema | undefined);
      if (sub === undefined) continue;
      const problem = check(sub, value[i], `${path}/${i}`, root, patterns, depth + 1);
      if (problem) return problem;
    }
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj);
    if (typeof s.minProperties === 'number' && keys.length < s.minProperties) return `${at}: must have at least ${s.minProperties} properties`;
    if (typeof s.maxProperties === 'number' && keys.length > s.maxProperties) return `${at}: must have at most ${s.maxProperties} properties`;
    if (Array.isArray(s.required)) for (const name of s.required as string[]) if (!own(obj, name)) return `${path}/${name}: is required`;
    const props = (s.properties ?? {}) as Record<string, Schema>;
    for (const key of keys) {
      const sub = own(props, key) ? props[key] : (s.additionalProperties as Schema | undefined);
      if (sub === undefined) continue;
      if (sub === false && !own(props, key)) return `${path}/${key}: is not an allowed property`;
      const problem = check(sub!, obj[key], `${path}/${key}`, root, patterns, depth + 1);
      if (problem) return problem;
    }
  }
  if (Array.isArray(s.allOf)) {
    for (const sub of s.allOf as Schema[]) {
      const problem = check(sub, value, path, root, patterns, depth + 1);
      if (problem) return problem;
    }
  }
  if (Array.isArray(s.anyOf) && !(s.anyOf as Schema[]).some((sub) => check(sub, value, path, root, patterns, depth + 1) === null)) {
    return `${at}: matches none of the allowed shapes (anyOf)`;
  }
  if (Array.isArray(s.oneOf) && (s.oneOf as Schema[]).filter((sub) => check(sub, value, path, root, patterns, depth + 1) === null).length !== 1) {
    return `${at}: must match exactly one of the allowed shapes (oneOf)`;
  }
  if (s.not !== undefined && check(s.not as Schema, value, path, root, patterns, depth + 1) === null) return `${at}: matches a shape that is not allowed`;
  return null;
}
