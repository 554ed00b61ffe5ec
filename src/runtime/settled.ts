/**
 * `make()`'s promise, or its throw as a rejection: what an `async` wrapper would give, without the
 * wrapper's own promise and turn (the per-call path hands the store's promise straight on).
 */
export function settled<T>(make: () => PromiseLike<T> | T): Promise<T> {
  try {
    const made = make();
    return made instanceof Promise ? made : Promise.resolve(made);
  } catch (error) {
    return Promise.reject(error);
  }
}
