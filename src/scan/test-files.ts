import path from 'node:path';
import { workspaceMatcher } from '../manifest/workspace.js';

/*
 * Test files are not the app's doors: a `tool()` there is a test double (issue: a library whose only
 * tools were its tests' got a policy, a control and a rewritten test). The conventions of the common
 * runners (Jest, Vitest, Mocha, node:test) name them; nothing is configured.
 */

/** Folder names whose files are tests, at any depth inside the package that holds them. */
export const TEST_DIRS = ['test', 'tests', '__tests__', '__mocks__'] as const;

const TEST_NAME = /\.(?:test|spec)\.[^./]+$/i;

/** Whether a file is a test file, by its path inside its package (`foo.test.ts`, `foo.spec.js`, or under a test folder). */
export function isTestFile(rel: string): boolean {
  const parts = rel.split(/[\\/]/);
  const base = parts.pop() ?? '';
  return TEST_NAME.test(base) || parts.some((p) => (TEST_DIRS as readonly string[]).includes(p));
}

/**
 * The test-file rule of a scan at `root`, over paths relative to it. The folder rule reads the path
 * inside the workspace package that holds the file: a package that is itself a folder named `test`
 * (`packages/test/src/agent.ts`, a root-level member `test/`) is the app's code, while a test folder
 * inside a package (`apps/web/test/x.ts`) stays a test folder. Packages are those of `root`'s own
 * workspace (its `workspaces` or pnpm-workspace.yaml) among the package.json files of the listing:
 * any package.json would make a test fixture with one (`test/fixtures/app/`) the app's.
 */
export function testFileRule(root: string, configs: readonly string[]): (rel: string) => boolean {
  const matches = workspaceMatcher(root);
  const members =
    matches === undefined
      ? []
      : configs
          .filter((f) => path.basename(f) === 'package.json')
          .map((f) => path.relative(root, path.dirname(f)).split(path.sep).join('/'))
          .filter((dir) => dir !== '' && !dir.startsWith('..') && matches(dir))
          // the longest first: the nearest package of a nested member
          .sort((a, b) => b.length - a.length);
  return (rel) => {
    const member = members.find((dir) => rel.startsWith(`${dir}/`));
    return isTestFile(member === undefined ? rel : rel.slice(member.length + 1));
  };
}

/** The files named one by one in `paths` (absolute): a test file named so is scanned as the app's (as a git-ignored one is kept). */
export function namedFiles(root: string, paths: readonly string[] | undefined): Set<string> {
  return new Set((paths ?? []).map((p) => path.resolve(root, p)));
}
