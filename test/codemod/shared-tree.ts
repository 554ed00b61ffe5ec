import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCodemod } from '../../src/codemod/index.js';
import { loadProject } from '../../src/manifest/load.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir } from '../helpers/temp-repo.js';

/**
 * The codemod's dry run over a copy of the shared codemod fixture with `files` written over it
 * (paths relative to the copy, the manifest among them); the copy's folder is pushed on `dirs` for
 * the caller to remove.
 */
export async function codemodInSharedTree(prefix: string, files: Record<string, string>, dirs: string[]) {
  const dir = makeTempDir(prefix);
  dirs.push(dir);
  cpSync(path.join(FIXTURES, 'codemod', '_shared'), dir, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  const project = loadProject({ cwd: dir });
  return { dir, result: await runCodemod({ manifest: project.manifest, policy: project.policy }) };
}

/** A manifest listing no tool: the trees of the red-team tests map nothing, so every door is left. */
export const EMPTY_MANIFEST = 'schema: ctrlrun.tools/v1\npolicy: ctrlrun.yaml\noutput: src/ctrlrun.generated.ts\ncontrol: src/ctrlrun.control.ts\ntools: []\n';

/** A module's text from its lines. */
export const lines = (...l: string[]): string => `${l.join('\n')}\n`;
