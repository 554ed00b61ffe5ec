import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The runtime's end-to-end tests against another `@openai/agents` (and zod) than the one in
 * devDependencies: `CTRLRUN_SDK_DIR` is an installed `@openai/agents` package directory,
 * `CTRLRUN_ZOD_DIR` a zod one. Both the tests and the runtime's source import them (vite aliases);
 * the SDK itself resolves its own dependencies (and zod) from where it is installed.
 * `.ci/sdk-range` installs each minor of the supported range and runs this config against it.
 * An SDK older than `@openai/agents/testing` gets `test/compat/testing.ts` (the same scripted
 * model API, written against the SDK's Model interface).
 */
const root = path.dirname(fileURLToPath(import.meta.url));
const sdk = process.env.CTRLRUN_SDK_DIR;
const zod = process.env.CTRLRUN_ZOD_DIR;
if (!sdk || !zod) throw new Error('CTRLRUN_SDK_DIR and CTRLRUN_ZOD_DIR must name installed @openai/agents and zod packages');
const exportsOf = (dir: string): Record<string, unknown> =>
  (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { exports?: Record<string, unknown> }).exports ?? {};
/** The ESM file of a package export entry (`{ types, require, import }`, nested conditions, or a path). */
const esmFile = (entry: unknown): string | undefined => {
  if (typeof entry === 'string') return entry;
  if (typeof entry !== 'object' || entry === null) return undefined;
  const conditions = entry as Record<string, unknown>;
  return esmFile(conditions['import'] ?? conditions['default'] ?? conditions['node']);
};
const testingEntry = esmFile(exportsOf(sdk)['./testing']);
const testing = testingEntry ? path.join(sdk, testingEntry) : path.join(root, 'test/compat/testing.ts');
if (!existsSync(path.join(sdk, 'package.json')) || !existsSync(path.join(zod, 'package.json')))
  throw new Error('no package.json in CTRLRUN_SDK_DIR or CTRLRUN_ZOD_DIR');

const sdkVersion = (JSON.parse(readFileSync(path.join(sdk, 'package.json'), 'utf8')) as { version: string }).version;

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@openai\/agents\/testing$/, replacement: testing },
      { find: /^@openai\/agents$/, replacement: sdk },
      { find: /^zod$/, replacement: zod },
    ],
  },
  test: {
    include: (process.env.CTRLRUN_COMPAT_TESTS ?? 'test/runtime/**/*.test.ts').split(','),
    // The MCP doors rely on SDK 0.20 surfaces (MCP server toolInputGuardrails/toolOutputGuardrails/
    // errorFunction, getAllMcpTools' options form): not measured across the range yet.
    // the MCP doors use 0.20's MCP server guardrails; the local-tool and agent-tool doors, 0.20's shell/apply_patch approvals and nested runs;
    // the computer door, 0.20's per-action computer needsApproval with the call id
    exclude: [
      'test/runtime/mcp.test.ts',
      'test/runtime/upstream-tls.test.ts',
      'test/runtime/hosted-mcp.test.ts',
      'test/runtime/local-tools.test.ts',
      'test/runtime/computer-tool.test.ts',
      'test/runtime/agent-tool.test.ts',
      'node_modules/**',
    ],
    // the SDK under test, for the few tests whose observable text differs on older SDKs (test/runtime/helpers.ts)
    env: { CTRLRUN_SDK_VERSION: sdkVersion },
    pool: 'forks',
    // One worker that keeps its module cache between files: the SDK is imported once per run, not
    // once per file (most of the time of a run). The runtime keeps no global state to leak.
    isolate: false,
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
