/**
 * The arguments of a zod tool as the SDK's strict mode hands them to the schema: the model sends
 * `null` for a field it may leave out, and the SDK drops that `null` before zod parses
 * (`stripStrictNullsForZodSchema` in @openai/agents-core, not exported: mirrored here step for
 * step). The order matters: parsed first, a `.optional().catch('low')` field's null would become
 * 'low', where the body gets the field left out. Pure.
 */

type Def = Record<string, unknown> | undefined;

const DECORATORS: ReadonlySet<string> = new Set([
  'brand',
  'branded',
  'catch',
  'default',
  'effects',
  'pipeline',
  'pipe',
  'prefault',
  'readonly',
  'refinement',
  'transform',
]);

/** Whether `value` holds a `null` anywhere: only then can strict mode have dropped anything. */
export function holdsNull(value: unknown, depth = 0): boolean {
  if (value === null) return true;
  if (typeof value !== 'object' || depth > 200) return false;
  // a for-in over own keys, not Object.values: it runs on every zod tool's call, and copies no list
  if (Array.isArray(value)) {
    // a loop, not `some`: its closure would give every call (each member's) a context
    for (const v of value) if (holdsNull(v, depth + 1)) return true;
    return false;
  }
  for (const key in value) if (hasOwn.call(value, key) && holdsNull((value as Record<string, unknown>)[key], depth + 1)) return true;
  return false;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** `value` as the SDK's strict mode hands it to the zod `schema` (undefined: the member is dropped). */
export function strictNullsDropped(schema: unknown, value: unknown): unknown {
  const { inner, optional, nullable } = unwrapOptionalNullable(schema);
  if (value === undefined) return undefined;
  if (value === null) return optional && !nullable && !accepts(inner, null) ? undefined : value;
  const type = zodType(inner);
  const def = definition(inner);
  if (type === 'union' || type === 'discriminatedunion') {
    for (const option of unionOptions(def)) {
      const normalized = strictNullsDropped(option, value);
      if (accepts(option, normalized)) return normalized;
    }
  }
  if (type === 'intersection') return strictNullsDropped(def?.right, strictNullsDropped(def?.left, value));
  if (type === 'object' && isRecord(value)) {
    const shape = shapeOf(inner);
    if (!shape) return value;
    const normalized: Record<string, unknown> = { ...value };
    for (const [key, field] of Object.entries(shape)) {
      const next = strictNullsDropped(field, normalized[key]);
      if (next === undefined) delete normalized[key];
      else normalized[key] = next;
    }
    return normalized;
  }
  if (type === 'array' && Array.isArray(value)) {
    const item = firstOf(def, 'element', 'items', 'type');
    return value.map((entry) => strictNullsDropped(item, entry));
  }
  if (type === 'tuple' && Array.isArray(value)) {
    const items = Array.isArray(def?.items) ? def.items : def?.items === undefined ? [] : [def.items];
    return value.map((entry, i) => strictNullsDropped(items[i], entry));
  }
  if (type === 'record' && isRecord(value)) {
    const valueSchema = def?.valueType ?? def?.values;
    return Object.fromEntries(
      Object.entries(value).flatMap(([key, entry]) => {
        const normalized = strictNullsDropped(valueSchema, entry);
        return normalized === undefined ? [] : [[key, normalized]];
      }),
    );
  }
  if (type === 'set' && Array.isArray(value)) return value.map((entry) => strictNullsDropped(def?.valueType, entry));
  return value;
}

function unwrapOptionalNullable(schema: unknown): { inner: unknown; optional: boolean; nullable: boolean } {
  let current = unwrapDecorators(schema);
  let optional = false;
  let nullable = false;
  const visited = new Set<unknown>();
  while (current && typeof current === 'object' && !visited.has(current)) {
    visited.add(current);
    const type = zodType(current);
    const def = definition(current);
    if (type !== 'optional' && type !== 'nullable') break;
    if (type === 'optional') optional = true;
    else nullable = true;
    const next = unwrapDecorators(type === 'optional' ? def?.innerType : (def?.innerType ?? def?.type));
    if (!next || next === current) break;
    current = next;
  }
  return { inner: current, optional, nullable };
}

function unwrapDecorators(schema: unknown): unknown {
  let current = schema;
  const visited = new Set<unknown>();
  while (current && typeof current === 'object' && !visited.has(current)) {
    visited.add(current);
    const type = zodType(current);
    if (!type || !DECORATORS.has(type)) break;
    const def = definition(current);
    const next = def?.innerType ?? def?.schema ?? def?.base ?? def?.type ?? def?.wrapped ?? def?.underlying;
    if (!next || next === current) break;
    current = next;
  }
  return current;
}

function accepts(schema: unknown, value: unknown): boolean {
  const candidate = unwrapDecorators(schema) as { safeParse?: unknown; parse?: unknown } | undefined;
  try {
    if (typeof candidate?.safeParse === 'function') return (candidate.safeParse(value) as { success: boolean }).success;
    if (typeof candidate?.parse === 'function') {
      candidate.parse(value);
      return true;
    }
  } catch {
    return false;
  }
  return false;
}

function definition(input: unknown): Def {
  if (typeof input !== 'object' || input === null) return undefined;
  const c = input as { _zod?: { def?: Def }; _def?: Def; def?: Def };
  return c._zod?.def || c._def || c.def;
}

function zodType(input: unknown): string | undefined {
  const def = definition(input);
  if (!def) return undefined;
  const raw = (typeof def.typeName === 'string' && def.typeName) || (typeof def.type === 'string' && def.type);
  if (typeof raw !== 'string') return undefined;
  const lower = raw.toLowerCase();
  return lower.startsWith('zod') ? lower.slice(3) : lower;
}

function firstOf(def: Def, ...keys: string[]): unknown {
  if (!def) return undefined;
  for (const key of keys) if (key in def && def[key] !== undefined) return def[key];
  return undefined;
}

function unionOptions(def: Def): unknown[] {
  for (const options of [def?.options, def?.optionsMap]) {
    if (Array.isArray(options)) return options;
    if (options instanceof Map) return [...options.values()];
    if (options && typeof options === 'object') return Object.values(options);
  }
  return [];
}

function shapeOf(input: unknown): Record<string, unknown> | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  for (const shape of [(input as { shape?: unknown }).shape, definition(input)?.shape]) {
    if (shape && typeof shape === 'object') return shape as Record<string, unknown>;
    if (typeof shape === 'function') {
      try {
        return shape() as Record<string, unknown>;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
