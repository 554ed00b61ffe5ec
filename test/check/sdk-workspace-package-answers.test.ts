import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/check/types.js';
import { cli } from '../helpers/cli.js';
import { writeSiblingRoot } from '../helpers/sibling-answers.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * A fork of the SDK's own monorepo (its examples beside `packages/agents-*`): the SDK is a
 * workspace package, so the app's `import ... from '@openai/agents-extensions'` resolves to its
 * source, whose own `approve` implementation answers interruptions. The helper-module search
 * followed the app's imports into it and took the SDK's implementation for the app's answers: 34
 * findings in the fork and 22 of its tools left unprotected as conflicts. The SDK's modules are the
 * SDK, not the app: the app's calls of them are what is read.
 */
function forkLike(): string {
  const root = makeTempDir('sdk-workspace-package-');
  dirs.push(root);
  writeSiblingRoot(root, 'relative', { workspace: true });
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'monorepo', private: true, workspaces: ['agents', 'server', 'sdk'] }));
  const sdk = path.join(root, 'sdk');
  mkdirSync(path.join(sdk, 'src'), { recursive: true });
  writeFileSync(
    path.join(sdk, 'package.json'),
    JSON.stringify({ name: '@openai/agents-extensions', private: true, type: 'module', exports: { '.': './src/index.ts' } }),
  );
  writeFileSync(path.join(sdk, 'src/run-state.ts'), 'export class RunState {\n  approve(_item: unknown): void {}\n}\n');
  writeFileSync(
    path.join(sdk, 'src/index.ts'),
    [
      // the SDK's type, as the real package's source has it: only the package's name tells the SDK from the app
      "import type { RunState } from '@openai/agents';",
      '',
      'export function approveEvery(state: RunState, items: readonly unknown[]): void {',
      '  for (const item of items) state.approve(item);',
      '}',
      '',
    ].join('\n'),
  );
  const app = path.join(root, 'server/src/app.ts');
  writeFileSync(app, `import { approveEvery } from '@openai/agents-extensions';\nvoid approveEvery;\n${readFileSync(app, 'utf8')}`);
  return root;
}

const answersOf = (stdout: string) => (JSON.parse(stdout) as { findings: Finding[] }).findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => f.file);

describe("the SDK's own source in the workspace is not the app's answers", () => {
  it('check in the package names only the app’s answers', async () => {
    const c = await cli(['check', '--format', 'json'], { cwd: path.join(forkLike(), 'agents') });
    const files = answersOf(c.stdout);
    expect(files.length).toBeGreaterThan(0);
    expect(files.every((f) => f === '../server/src/app.ts')).toBe(true);
  });

  it('the same helper in a package of the app’s own counts', async () => {
    const root = forkLike();
    const pkg = path.join(root, 'sdk/package.json');
    writeFileSync(pkg, readFileSync(pkg, 'utf8').replace('@openai/agents-extensions', 'desk-helpers'));
    const app = path.join(root, 'server/src/app.ts');
    writeFileSync(app, readFileSync(app, 'utf8').replace("'@openai/agents-extensions'", "'desk-helpers'"));
    const c = await cli(['check', '--format', 'json'], { cwd: path.join(root, 'agents') });
    expect(answersOf(c.stdout)).toContain('../sdk/src/index.ts');
  });
});
