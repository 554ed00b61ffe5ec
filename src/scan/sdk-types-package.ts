import path from 'node:path';
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

/** `@openai/agents` and its packages (`-core`, `-openai`, `-realtime`, `-extensions`). */
function isSdkPackage(name: string): boolean {
  return name === '@openai/agents' || name.startsWith('@openai/agents-');
}

/**
 * From `fromDir` up, the first package.json that lists an SDK package decides, as Node's resolution
 * would find it (a workspace member resolves its root's dependencies): `@openai/agents` when it
 * lists that, else `@openai/agents-core`; undefined when it lists neither (`@openai/agents-realtime`
 * alone: under pnpm its code cannot import core) or no package.json lists an SDK package. Read from
 * the package.json files, never from what is installed, so the generated text (and `check`'s
 * staleness) does not depend on whether the app's dependencies are installed.
 */
export function sdkTypesPackage(fromDir: string, facts: PackageFacts = new PackageFacts(fromDir)): SdkTypesPackage | undefined {
  for (let dir = path.resolve(fromDir); ; dir = path.dirname(dir)) {
    const names = dependencyNames(facts.packageJson(dir), DEPENDENCY_FIELDS);
    if (names.some(isSdkPackage)) return SDK_TYPES_PACKAGES.find((name) => names.includes(name));
    if (path.dirname(dir) === dir) return undefined;
  }
}
