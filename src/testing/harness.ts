/**
 * The test framework's functions, passed in so this package never imports a test runner at run
 * time. Vitest's `describe`, `it`, `expect`, `beforeEach`, `afterEach` fit (so do Jest's).
 */
export interface ConformanceHarness {
  describe: (name: string, body: () => void) => unknown;
  it: (name: string, body: () => Promise<void> | void) => unknown;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  expect: (value: unknown) => any;
  beforeEach: (body: () => Promise<void> | void) => unknown;
  afterEach: (body: () => Promise<void> | void) => unknown;
}
