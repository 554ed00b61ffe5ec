import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanRepo } from '../../src/scan/index.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

// Issue 40, item 3 (the real-repo audit, a pnpm workspace): check run in the workspace's example app
// reads a resume through a function of the workspace's own package, linked into node_modules.
const DECLS = lines(
  'export interface Answerable { approve(item: unknown): void }',
  'export declare function decodeAnswers<StateT extends Answerable>(answers: Readonly<Record<string, boolean>>, state: StateT): StateT;',
  'export declare function label(state: Answerable): string;',
);

function lines(...l: string[]): string {
  return `${l.join('\n')}\n`;
}

/**
 * `line: resumes` of every run the scan of `app/` finds in app/src/main.ts, in a workspace of
 * `files` with the links of `app/node_modules/@acme` (name -> target, relative to that folder).
 */
async function resumesIn(files: Record<string, string>, links: Record<string, string>): Promise<string[]> {
  const ws = makeTempDir('workspace-resume-');
  try {
    writeFiles(ws, files);
    const scope = path.join(ws, 'app/node_modules/@acme');
    mkdirSync(scope, { recursive: true });
    for (const [name, target] of Object.entries(links)) symlinkSync(target, path.join(scope, name));
    const scan = await scanRepo({ root: path.join(ws, 'app') });
    const main = scan.files.find((f) => f.file === 'src/main.ts');
    return (main?.runCalls ?? []).map((r) => `${r.span.line}: ${r.resumes}`);
  } finally {
    removeDir(ws);
  }
}

describe('a resume through a function of a workspace package outside the scanned folder', () => {
  it('is read from the .d.ts of the package linked into node_modules, and only there', async () => {
    expect(
      await resumesIn(
        {
          'package.json': JSON.stringify({ name: '@acme/kit', exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } } }),
          'dist/index.d.ts': "export * from './decode.js';\n",
          'dist/decode.d.ts': DECLS,
          'app/package.json': JSON.stringify({ name: 'app', dependencies: { '@acme/kit': 'workspace:*' } }),
          // an installed package (no link) and a link into a package store declare the same function: not read
          'app/node_modules/@acme/installed/package.json': JSON.stringify({ name: '@acme/installed', types: './index.d.ts' }),
          'app/node_modules/@acme/installed/index.d.ts': DECLS,
          'app/node_modules/.pnpm/stored/package.json': JSON.stringify({ name: '@acme/stored', types: './index.d.ts' }),
          'app/node_modules/.pnpm/stored/index.d.ts': DECLS,
          'app/src/main.ts': lines(
            "import { Agent, run, type RunState } from '@openai/agents';",
            "import { decodeAnswers, label } from '@acme/kit';",
            "import { decodeAnswers as installed } from '@acme/installed';",
            "import { decodeAnswers as stored } from '@acme/stored';",
            "const agent = new Agent({ name: 'a' });",
            'declare const state: RunState<undefined, typeof agent>;',
            'await run(agent, decodeAnswers({}, state));',
            'await run(agent, label(state));',
            'await run(agent, installed({}, state));',
            'await run(agent, stored({}, state));',
          ),
        },
        { kit: '../../..', stored: '../.pnpm/stored' },
      ),
    ).toEqual(['7: true', '8: false', '9: false', '10: false']);
  });

  it('a package whose .d.ts is missing is read from the source its dist entry is built from; unreadable: no resume', async () => {
    expect(
      await resumesIn(
        {
          'kit/package.json': JSON.stringify({ name: '@acme/kit', main: './dist/index.js' }),
          'kit/src/index.ts': lines('export function decodeAnswers<S>(answers: unknown, state: S): S {', '  return state;', '}'),
          'app/package.json': JSON.stringify({ name: 'app' }),
          'app/src/main.ts': lines(
            "import { Agent, run, type RunState } from '@openai/agents';",
            "import { decodeAnswers } from '@acme/kit';",
            "import { decodeAnswers as gone } from '@acme/gone';",
            "const agent = new Agent({ name: 'a' });",
            'declare const state: RunState<undefined, typeof agent>;',
            'await run(agent, decodeAnswers({}, state));',
            'await run(agent, gone({}, state));',
          ),
        },
        { kit: '../../../kit', gone: '../../../nowhere' },
      ),
    ).toEqual(['6: true', '7: false']);
  });
});
