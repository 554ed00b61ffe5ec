import type { ts as TypeScript } from 'ts-morph';

/**
 * The compiler's objects the scanner reads that are never reassigned: its enums and its node
 * factory. Its other objects (`sys`, the object allocator) are settings a caller may replace.
 */
const CONSTANT_OBJECTS = new Set(['SyntaxKind', 'NodeFlags', 'ModifierFlags', 'ScriptKind', 'ScriptTarget', 'ModuleKind', 'ModuleResolutionKind', 'factory']);

/**
 * The compiler's exports as plain data properties, copied on first read. The compiler module
 * exports its 2,000-odd names as getters on an object too large for V8's fast properties, so each
 * `typescript.isX` there is a dictionary lookup and a getter call: in the scanner's walks, which
 * read such names at every node, that was a large share of the scan. A name read once becomes an
 * own property of this object (a few hundred at most, which V8 keeps fast); a value that may
 * change (anything but a function declared under its own name, or a constant object above) is
 * read from the compiler each time, so the view never holds a stale one.
 */
export function compilerView(compiler: typeof TypeScript): typeof TypeScript {
  const source = compiler as unknown as Record<PropertyKey, unknown>;
  const copyOnRead = new Proxy(source, {
    get: (target, key, view: object) => {
      const value = target[key];
      if (typeof key === 'string' && isConstant(key, value)) Object.defineProperty(view, key, { value, enumerable: true });
      return value;
    },
  });
  return Object.create(copyOnRead) as typeof TypeScript;
}

/** Whether the export `key` holds `value` for good: a function declared under its name (a `let` of another function fails it), or a constant object. */
function isConstant(key: string, value: unknown): boolean {
  if (typeof value === 'function') return value.name === key;
  return typeof value === 'object' && value !== null && CONSTANT_OBJECTS.has(key);
}
