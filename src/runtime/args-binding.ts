import { parseArguments } from './arguments.js';
import { canonicalHash } from './canonical.js';
import { parseJson } from './internals.js';
import type { ApprovalRequest } from './types.js';

/**
 * Whether a stored request's `args` text (what an operator reads) is the call its `argsHash` binds
 * (what runs). Whoever can write the store could pair one with another: the inbox would show one
 * call and approve another. Checked before a request is shown as answerable or an answer accepted.
 * The text is read as the runtime reads arguments (losslessly), or as JSON.parse does for the
 * hosted MCP door, which hashes that way.
 */
export function argsMatchHash(request: Pick<ApprovalRequest, 'args' | 'argsHash'>): boolean {
  if (typeof request.args !== 'string' || typeof request.argsHash !== 'string') return false;
  try {
    const lossless = parseArguments(request.args);
    if (lossless.ok && canonicalHash(lossless.value) === request.argsHash) return true;
    const plain = parseJson(request.args);
    return plain.ok && canonicalHash(plain.value) === request.argsHash;
  } catch {
    return false;
  }
}

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Sets an own member (a key such as `__proto__` stays data, as the arguments' parse made it). */
function put(target: Node, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A local `$ref` (`#/$defs/x`, `#/definitions/x`) of the strict schema, resolved in its root; undefined when it cannot be. */
function resolved(schema: Node, root: unknown): unknown {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = root;
  for (const part of ref.slice(2).split('/')) at = isNode(at) ? at[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return at;
}

/**
 * A value as OpenAI's strict mode writes the call (every property the strict schema requires is
 * sent; `null` for an optional one left empty), from the SDK's parse of it, which dropped those
 * `null`s before the tool saw it. `complete` is false when a property is missing where the schema
 * does not say which one it was (a `$ref` it cannot follow, a union of several object shapes).
 * The same value (not a copy) when nothing was missing.
 */
export function strictCompleted(schema: unknown, value: unknown, root: unknown = schema, depth = 0): { value: unknown; complete: boolean } {
  // (each answer made where it is given: the walk of an object ends in an answer of its own)
  if (value === null || typeof value !== 'object') return { value, complete: true };
  const node = isNode(schema) ? resolved(schema, root) : undefined;
  if (depth > 64 || !isNode(node)) return { value, complete: false };
  if (Array.isArray(node.anyOf)) {
    const shape = Array.isArray(value) ? 'items' : 'properties';
    const branches = (node.anyOf as unknown[]).map((b) => (isNode(b) ? resolved(b, root) : undefined)).filter((b): b is Node => isNode(b) && shape in b);
    if (branches.length === 1) return strictCompleted(branches[0], value, root, depth + 1);
    // several shapes: only a value missing nothing in one of them is known
    const whole = branches.some((b) => strictCompleted(b, value, root, depth + 1).value === value);
    return { value, complete: whole };
  }
  if (Array.isArray(value)) {
    if (node.items === undefined) return { value, complete: true };
    let changed = false;
    let complete = true;
    const items = value.map((v) => {
      const c = strictCompleted(node.items, v, root, depth + 1);
      changed ||= c.value !== v;
      complete &&= c.complete;
      return c.value;
    });
    return { value: changed ? items : value, complete };
  }
  const properties = node.properties;
  if (!isNode(properties)) return { value, complete: true };
  const given = value as Node;
  let out: Node | null = null;
  let complete = true;
  // (run on every call needsApproval sees: no key pairs, no set of the required, no answer for a scalar)
  for (const key in properties) {
    if (!Object.hasOwn(properties, key)) continue; // (own keys, as Object.keys gives them: no key list copied)
    if (!Object.hasOwn(given, key)) {
      if (!Array.isArray(node.required) || !node.required.includes(key)) continue;
      out ??= { ...given };
      put(out, key, null);
      continue;
    }
    const member = given[key];
    if (member === null || typeof member !== 'object') continue; // a scalar is complete as it is
    const c = strictCompleted(properties[key], member, root, depth + 1);
    complete &&= c.complete;
    if (c.value !== member) {
      out ??= { ...given };
      put(out, key, c.value);
    }
  }
  return { value: out ?? value, complete };
}

/**
 * `value` with `null` put back wherever `template` (a filed request's arguments) has a `null`
 * member that `value` lacks, at any depth: the call as the request's strict form writes it. The
 * same value (not a copy) when nothing was put back.
 */
export function nullsFrom(value: unknown, template: unknown, depth = 0): unknown {
  if (depth > 512 || value === null || template === null || typeof value !== 'object' || typeof template !== 'object') return value;
  if (Array.isArray(value) || Array.isArray(template)) {
    if (!Array.isArray(value) || !Array.isArray(template) || value.length !== template.length) return value;
    const items = value.map((v, i) => nullsFrom(v, template[i], depth + 1));
    return items.some((v, i) => v !== value[i]) ? items : value;
  }
  const given = value as Node;
  let out: Node | null = null;
  for (const [key, t] of Object.entries(template as Node)) {
    const next = Object.hasOwn(given, key) ? nullsFrom(given[key], t, depth + 1) : t === null ? null : undefined;
    if (next === undefined || (Object.hasOwn(given, key) && next === given[key])) continue;
    out ??= { ...given };
    put(out, key, next);
  }
  return out ?? value;
}

/**
 * The call's arguments in the form a request filed at the pause wrote them (`nullsFrom` its
 * arguments) when that form is what the request's hash binds and differs from the call's own;
 * else undefined. Whether the two forms may share the approval is the caller's (CTRLRun must
 * decide them alike).
 */
export function filedForm(value: unknown, request: Pick<ApprovalRequest, 'args' | 'argsHash'>): unknown {
  if (typeof request.args !== 'string') return undefined;
  const filed = parseArguments(request.args);
  if (!filed.ok) return undefined;
  const written = nullsFrom(value, filed.value);
  return written !== value && canonicalHash(written) === request.argsHash ? written : undefined;
}
