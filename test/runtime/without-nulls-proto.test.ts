import { describe, expect, it } from 'vitest';
import { withoutNulls } from '../../src/runtime/core/arguments.js';

/**
 * The null-free copy keeps an own `__proto__` key the model sent as a key (the SDK's strict-mode
 * step copies with a spread, which keeps it so). Assigned onto a new object, the key would instead
 * become the copy's prototype: its fields would read as the body's arguments without being sent.
 */
describe('withoutNulls and a `__proto__` key', () => {
  it('keeps `__proto__` an own key, not the prototype', () => {
    const sent = JSON.parse('{"__proto__":{"admin":true},"note":null,"id":"x"}') as Record<string, unknown>;
    const copy = withoutNulls(sent) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy.admin).toBeUndefined();
    expect(Object.keys(copy)).toEqual(['__proto__', 'id']);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ admin: true });
  });

  it('does so at depth', () => {
    const sent = JSON.parse('{"inner":{"__proto__":{"admin":true},"x":null}}') as { inner: Record<string, unknown> };
    const copy = withoutNulls(sent) as { inner: Record<string, unknown> };
    expect(copy.inner.admin).toBeUndefined();
    expect(Object.keys(copy.inner)).toEqual(['__proto__']);
  });
});
