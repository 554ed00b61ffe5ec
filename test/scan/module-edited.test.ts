import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scanRepoIndexedSync } from '../../src/scan/repo.js';

/**
 * `RepoIndex.edited` (an ESLint session hands it each text it lints): the files whose scans read a
 * module are named stale only when the module's text differs from the one it is read from. Linting
 * a module as it is on disk (every file, the first time a session sees it) rescans nothing.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const WORKFLOW = 'export interface RunState { approve(step: unknown): void }\n';

function indexed() {
  const root = mkdtempSync(path.join(tmpdir(), 'ctrlrun-module-edited-'));
  dirs.push(root);
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'package.json'), '{ "name": "app", "type": "module" }\n');
  writeFileSync(path.join(root, 'src/workflow.ts'), WORKFLOW);
  writeFileSync(
    path.join(root, 'src/helper.ts'),
    [
      "import { tool } from '@openai/agents';",
      "import type { RunState } from './workflow.js';",
      'export function go(state: RunState, step: unknown) { state.approve(step); }',
      '',
    ].join('\n'),
  );
  const { index } = scanRepoIndexedSync({ root });
  return { index, workflow: path.join(root, 'src/workflow.ts'), helper: path.join(root, 'src/helper.ts') };
}

describe('a module handed to the index again', () => {
  it('with the text it is read from: no reader is stale', () => {
    const { index, workflow } = indexed();
    expect(index.edited(workflow, WORKFLOW)).toEqual([]);
  });

  it('with a new text: its readers are stale, once', () => {
    const { index, workflow, helper } = indexed();
    const next = "export { RunState } from '@openai/agents';\n";
    expect(index.edited(workflow, next)).toEqual([helper]);
    expect(index.edited(workflow, next)).toEqual([]);
  });
});
