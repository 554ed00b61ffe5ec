import { existsSync } from 'node:fs';
import path from 'node:path';
import { workspacePatterns } from '../manifest/workspace.js';
import { isSdkModule } from './imports.js';
import { dependencyNames, PackageFacts } from './package-facts.js';

/**
 * The SDK package a package's own code can import the SDK's types from (issue 40): the generated
 * module writes `protectedTool`'s type with `FunctionTool`, `ToolInputParameters`, `ToolOptions`
 * and `UnknownContext` imported from it. Both packages export the four names on every SDK of the
 * peer range (0.3.8 to 0.20); `@openai/agents-openai` and `-realtime` do not (realtime exports
 * `FunctionTool` alone).
 */
export const SDK_TYPES_PACKAGES = ['@openai/agents', '@openai/agents-core'] as const;
export type SdkTypesPackage = (typeof SDK_TYPES_PACKAGES)[number];

const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

/**
 * From `fromDir` up to the project's boundary (`projectBoundary`), the first package.json that lists
 * an SDK package decides, as Node's resolution would find it (a workspace member resolves its root's
 * dependencies): `@openai/agents` when it lists that, else `@openai/agents-core`; undefined when it
 * lists neither (`@openai/agents-realtime` alone: under pnpm its code cannot import core) or no
 * package.json inside the boundary lists an SDK package. Read from the package.json files, never
 * from what is installed, so the generated text (and `check`'s staleness) does not depend on whether
 * the app's dependencies are installed; and never from above the boundary, so it does not depend on
 * where the repository is checked out (a package.json in a parent folder is no input of it).
 */
export function sdkTypesPackage(fromDir: string, facts: PackageFacts = new PackageFacts(fromDir)): SdkTypesPackage | undefined {
  const stop = projectBoundary(fromDir);
  for (let dir = path.resolve(fromDir); ; dir = path.dirname(dir)) {
    const names = dependencyNames(facts.packageJson(dir), DEPENDENCY_FIELDS);
    // the scanner's one definition of the SDK's names (`-core`, `-openai`, `-realtime`, `-extensions`, …)
    if (names.some(isSdkModule)) return SDK_TYPES_PACKAGES.find((name) => names.includes(name));
    if (dir === stop || path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The highest folder whose package.json can speak for the code in `fromDir`: the nearest folder up
 * that is a repository's root (it holds `.git`, a folder or a submodule's file) or a workspace root
 * (`workspacePatterns`); where there is neither, the nearest folder with a package.json (the package
 * itself), else `fromDir`. Everything above it is outside the project.
 */
export function projectBoundary(fromDir: string): string {
  let nearestPackage: string | undefined;
  for (let dir = path.resolve(fromDir); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git')) || workspacePatterns(dir) !== undefined) return dir;
    if (nearestPackage === undefined && existsSync(path.join(dir, 'package.json'))) nearestPackage = dir;
    if (path.dirname(dir) === dir) return nearestPackage ?? path.resolve(fromDir);
  }
}
