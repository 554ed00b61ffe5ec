/** A tool's parameter schema (as `generate` reads it) in the form the decision procedure reads. Pure. */
import { acceptsValue, type ParamSchema, schemaValues } from '../generate/tool-schemas.js';
import type { ArgSchema } from '../policy/exact/values.js';

/** Per argument, what the schema accepts and the values at its edges (undefined: no schema read). */
export function argSchemas(params: ReadonlyMap<string, ParamSchema> | undefined): Map<string, ArgSchema> | undefined {
  if (!params) return undefined;
  return new Map([...params].map(([name, p]) => [name, { accepts: (v) => acceptsValue(p, v), edges: p.type === 'unknown' ? [] : schemaValues(p) }]));
}
