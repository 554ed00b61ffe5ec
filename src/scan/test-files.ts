import path from 'node:path';

/*
 * Test files are not the app's doors: a `tool()` there is a test double (issue: a library whose only
 * tools were its tests' got a policy, a control and a rewritten test). The conventions of the common
 * runners (Jest, Vitest, Mocha, node:test) name them; nothing is configured.
 */

/** Folder names whose files are tests, at any depth below the scan root. */
export const TEST_DIRS = ['test', 'tests', '__tests__', '__mocks__'] as const;

const TEST_NAME = /\.(?:test|spec)\.[^./]+$/i;

/** Whether a file is a test file, by its path relative to the scan root (`foo.test.ts`, `foo.spec.js`, or under a test folder). */
export function isTestFile(rel: string): boolean {
  const parts = rel.split(/[\\/]/);
  const base = parts.pop() ?? '';
  return TEST_NAME.test(base) || parts.some((p) => (TEST_DIRS as readonly string[]).includes(p));
}

/** The files named one by one in `paths` (absolute): a test file named so is scanned as the app's (as a git-ignored one is kept). */
export function namedFiles(root: string, paths: readonly string[] | undefined): Set<string> {
  return new Set((paths ?? []).map((p) => path.resolve(root, p)));
}
