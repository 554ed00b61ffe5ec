/**
 * Errors thrown by a tool body (not by the SDK or this library), so the error function knows what
 * ran. A WeakSet keyed by the error object: it holds nothing alive and is shared by every door.
 */
const bodyFailures = new WeakSet<object>();

/** The body's error, marked as the body's (a non-object is wrapped in an Error first). */
export function markBodyFailure(error: unknown): unknown {
  const wrapped = error !== null && typeof error === 'object' ? error : new Error(String(error));
  bodyFailures.add(wrapped);
  return wrapped;
}

export function isBodyFailure(error: unknown): boolean {
  return error !== null && typeof error === 'object' && bodyFailures.has(error);
}
