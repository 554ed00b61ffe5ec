import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SDK_ENTRIES } from '../../src/scan/sdk-entries.js';
import { scanSource } from '../../src/scan/index.js';
import { deriveSdkEntries, installedSdkPackages, renderSdkEntries } from '../helpers/sdk-derive.js';
import { REPO_ROOT } from '../helpers/paths.js';

const NODE_MODULES = path.join(REPO_ROOT, 'node_modules');
const TABLE = path.join(REPO_ROOT, 'src/scan/sdk-entries.ts');

describe('SDK entry points come from the installed SDK', async () => {
  const derived = await deriveSdkEntries(NODE_MODULES);
  const versions = Object.fromEntries(
    installedSdkPackages(NODE_MODULES).map((p) => [
      p,
      (JSON.parse(readFileSync(path.join(NODE_MODULES, p, 'package.json'), 'utf8')) as { version: string }).version,
    ]),
  );
  if (process.env['UPDATE_SDK_ENTRIES'] === '1') writeFileSync(TABLE, renderSdkEntries(derived.entries, versions));

  it('every installed entry loads (an entry that cannot be inspected cannot be trusted)', () => {
    expect(derived.failed).toEqual({});
    // The four packages and their subpaths, including `@openai/agents/realtime`.
    expect(derived.specifiers).toEqual(
      expect.arrayContaining(['@openai/agents', '@openai/agents/realtime', '@openai/agents-core', '@openai/agents-openai', '@openai/agents-realtime']),
    );
  });

  it('every installed subpath that exports a tool factory is in the table, with the same factories', () => {
    const table = new Map(SDK_ENTRIES.map((e) => [e.specifier, e]));
    const missing = derived.entries.filter((e) => !table.has(e.specifier)).map((e) => e.specifier);
    expect(missing, 'run UPDATE_SDK_ENTRIES=1 npx vitest run test/scan/sdk-entries').toEqual([]);
    for (const e of derived.entries) {
      expect(table.get(e.specifier)?.factories, e.specifier).toEqual(e.factories);
      expect(table.get(e.specifier)?.agentClasses, e.specifier).toEqual(e.agentClasses);
      expect(table.get(e.specifier)?.namespaces, e.specifier).toEqual(e.namespaces);
    }
  });

  it('the table is exactly what the installed SDK gives (no hand-added or stale entries)', () => {
    expect(readFileSync(TABLE, 'utf8')).toBe(renderSdkEntries(derived.entries, versions));
  });

  it('the scanner sees `tool` from every entry that exports it, named and as a namespace member', () => {
    const withTool = derived.entries.filter((e) => e.factories.includes('tool'));
    expect(withTool.map((e) => e.specifier)).toContain('@openai/agents/realtime');
    for (const e of withTool) {
      const named = scanSource('a.ts', `import { tool } from '${e.specifier}';\ntool({ name: 'x' });\n`);
      expect(
        named.sdkToolCalls.map((c) => c.name),
        e.specifier,
      ).toEqual(['x']);
      const ns = scanSource('b.ts', `import * as sdk from '${e.specifier}';\nsdk.tool({ name: 'y' });\n`);
      expect(
        ns.sdkToolCalls.map((c) => c.name),
        e.specifier,
      ).toEqual(['y']);
    }
  });

  it("a namespace export (`realtime`) reaches its entry's tool", () => {
    for (const e of derived.entries) {
      for (const ns of Object.keys(e.namespaces)) {
        const scan = scanSource('c.ts', `import { ${ns} } from '${e.specifier}';\n${ns}.tool({ name: 'z' });\n`);
        expect(
          scan.sdkToolCalls.map((c) => c.name),
          `${e.specifier} ${ns}`,
        ).toEqual(['z']);
      }
    }
  });
});
