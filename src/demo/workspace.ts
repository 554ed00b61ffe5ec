import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../package-root.js';
import { typescript } from '../scan/typescript.js';
import { SUPPORT_MANIFEST, SUPPORT_POLICY } from './support-policy.js';

/** The installed package's root (see packageRoot). */
export const PACKAGE_ROOT = packageRoot();
const SAMPLE = path.join(PACKAGE_ROOT, 'fixtures', 'refund-desk');

export interface Workspace {
  dir: string;
  /** The workspace is a git repo with the sample committed (so `codemod` sees a clean tree). */
  git: boolean;
}

/** The directory of an installed package, as this package resolves it. */
function packageDir(name: string): string {
  const entry = createRequire(import.meta.url).resolve(name);
  const marker = `${path.sep}node_modules${path.sep}${name.split('/').join(path.sep)}${path.sep}`;
  const at = entry.lastIndexOf(marker);
  if (at < 0) throw new Error(`cannot locate the installed package ${name} (resolved to ${entry})`);
  return entry.slice(0, at + marker.length - 1);
}

/**
 * Copies the bundled sample into a fresh temporary directory and links the packages it imports
 * (this package, the SDK and zod) into its node_modules, as `npm install` would.
 */
export function makeWorkspace(parent: string = os.tmpdir()): Workspace {
  const dir = mkdtempSync(path.join(parent, 'ctrlrun-demo-'));
  cpSync(SAMPLE, dir, {
    recursive: true,
    filter: (src) => {
      const rel = path.relative(SAMPLE, src).split(path.sep);
      return !rel.includes('node_modules') && !rel.includes('.ctrlrun') && rel[rel.length - 1] !== 'ctrlrun.generated.ts';
    },
  });
  const modules = path.join(dir, 'node_modules');
  mkdirSync(path.join(modules, '@openai'), { recursive: true });
  symlinkSync(PACKAGE_ROOT, path.join(modules, 'ctrlrun-gen'), 'dir');
  symlinkSync(packageDir('@openai/agents'), path.join(modules, '@openai', 'agents'), 'dir');
  symlinkSync(packageDir('zod'), path.join(modules, 'zod'), 'dir');
  // the MCP scene's server tool: its action and mapping (the sample's policy and manifest end with those lists)
  appendFileSync(path.join(dir, 'ctrlrun.yaml'), SUPPORT_POLICY);
  appendFileSync(path.join(dir, 'ctrlrun.tools.yaml'), SUPPORT_MANIFEST);
  writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\n.ctrlrun/\nbuild/\n');
  return { dir, git: commitAll(dir, 'The refund desk, before ctrlrun-gen') };
}

/** `git init` + commit everything; false when git is not available. */
export function commitAll(dir: string, message: string): boolean {
  const git = (...args: string[]) =>
    spawnSync('git', ['-c', 'user.name=ctrlrun-gen demo', '-c', 'user.email=demo@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
      cwd: dir,
      encoding: 'utf8',
    });
  const init = git('init', '-q');
  if (init.error || init.status !== 0) return false;
  return git('add', '-A').status === 0 && git('commit', '-q', '-m', message).status === 0;
}

/**
 * Compiles the workspace's `src/*.ts` to ESM JavaScript in `build/` (imports keep their `.js`
 * suffixes, as NodeNext requires), so Node 20 can run the agent. Type-checking is not this step's job.
 */
export function compileWorkspace(dir: string): string {
  const src = path.join(dir, 'src');
  const out = path.join(dir, 'build');
  mkdirSync(out, { recursive: true });
  for (const name of readdirSync(src)) {
    if (!name.endsWith('.ts') || name.endsWith('.d.ts')) continue;
    const text = typescript.sys.readFile(path.join(src, name)) ?? '';
    const js = typescript.transpileModule(text, {
      fileName: name,
      compilerOptions: { module: typescript.ModuleKind.ESNext, target: typescript.ScriptTarget.ES2022, verbatimModuleSyntax: false },
    }).outputText;
    writeFileSync(path.join(out, name.replace(/\.ts$/, '.js')), js);
  }
  writeFileSync(path.join(out, 'package.json'), '{ "type": "module" }\n');
  return out;
}
