/**
 * Derives the SDK entry-point table (src/scan/sdk-entries.ts) from the installed SDK: every
 * `@openai/agents*` package under node_modules, every subpath of its `exports` map, loaded for
 * real, and what each exports. Used by test/scan/sdk-entries.test.ts (which also rewrites the table
 * with UPDATE_SDK_ENTRIES=1).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { SdkEntry } from '../../src/scan/sdk-entries.js';

/** An export is a tool factory when it is a function named `tool` or `<lowerCamel>Tool`, except `invokeFunctionTool` (it runs a tool, it makes none). */
const FACTORY = /^(?:tool|[a-z][A-Za-z0-9]*Tool)$/;
const NOT_FACTORIES = new Set(['invokeFunctionTool']);

export interface DerivedSdk {
  /** Every specifier the installed packages export (loadable or not). */
  specifiers: string[];
  /** Specifiers that failed to load, with the reason. */
  failed: Record<string, string>;
  entries: SdkEntry[];
}

/** `@openai/agents*` package names installed under `nodeModules`. */
export function installedSdkPackages(nodeModules: string): string[] {
  return readdirSync(path.join(nodeModules, '@openai'))
    .filter((d) => d === 'agents' || d.startsWith('agents-'))
    .map((d) => `@openai/${d}`)
    .sort();
}

/** The public specifiers of a package: its `exports` keys without wildcards (`.` is the package itself). */
export function exportedSpecifiers(nodeModules: string, pkg: string): string[] {
  const manifest = JSON.parse(readFileSync(path.join(nodeModules, pkg, 'package.json'), 'utf8')) as { exports?: unknown };
  const exp = manifest.exports;
  if (!exp || typeof exp !== 'object' || Object.keys(exp).every((k) => !k.startsWith('.'))) return [pkg];
  return Object.keys(exp)
    .filter((k) => k.startsWith('.') && !k.includes('*') && !k.endsWith('package.json'))
    .map((k) => (k === '.' ? pkg : `${pkg}/${k.slice(2)}`));
}

export async function deriveSdkEntries(nodeModules: string): Promise<DerivedSdk> {
  const specifiers = installedSdkPackages(nodeModules).flatMap((p) => exportedSpecifiers(nodeModules, p));
  const loaded = new Map<string, Record<string, unknown>>();
  const failed: Record<string, string> = {};
  for (const spec of specifiers) {
    try {
      loaded.set(spec, (await import(spec)) as Record<string, unknown>);
    } catch (error) {
      failed[spec] = (error as Error).message.split('\n')[0] ?? 'failed';
    }
  }
  const core = loaded.get('@openai/agents-core');
  const realtime = loaded.get('@openai/agents-realtime');
  const agentClasses = [core?.['Agent'], realtime?.['RealtimeAgent']].filter((c): c is abstract new (...args: never[]) => unknown => typeof c === 'function');
  const entries: SdkEntry[] = [];
  for (const [spec, mod] of loaded) {
    const factories = Object.keys(mod)
      .filter((k) => FACTORY.test(k) && !NOT_FACTORIES.has(k) && typeof mod[k] === 'function')
      .sort();
    const agents = Object.keys(mod)
      .filter((k) => {
        const v = mod[k];
        return typeof v === 'function' && agentClasses.some((c) => v === c || (v as { prototype?: unknown }).prototype instanceof c);
      })
      .sort();
    const namespaces: Record<string, string> = {};
    for (const k of Object.keys(mod).sort()) {
      const v = mod[k];
      if (!v || typeof v !== 'object') continue;
      // A re-exported module namespace (`export * as realtime from '@openai/agents-realtime'`): the
      // entry whose `tool` is the same function.
      const target = [...loaded].find(([s, m]) => s !== spec && typeof m['tool'] === 'function' && m['tool'] === (v as Record<string, unknown>)['tool']);
      if (target) namespaces[k] = target[0];
    }
    if (factories.length === 0 && agents.length === 0 && Object.keys(namespaces).length === 0) continue;
    entries.push({ specifier: spec, factories, agentClasses: agents, namespaces });
  }
  entries.sort((a, b) => (a.specifier < b.specifier ? -1 : a.specifier > b.specifier ? 1 : 0));
  return { specifiers, failed, entries };
}

/** The table's source text. */
export function renderSdkEntries(entries: SdkEntry[], versions: Record<string, string>): string {
  const body = entries
    .map(
      (e) =>
        `  {\n    specifier: ${JSON.stringify(e.specifier)},\n    factories: ${JSON.stringify(e.factories)},\n    agentClasses: ${JSON.stringify(e.agentClasses)},\n    namespaces: ${JSON.stringify(e.namespaces)},\n  },`,
    )
    .join('\n');
  return `${HEADER(versions)}\nexport const SDK_ENTRIES: readonly SdkEntry[] = [\n${body}\n];\n`;
}

const HEADER = (versions: Record<string, string>): string => `/**
 * The SDK entry points: every specifier of the installed \`@openai/agents*\` packages that exports a
 * tool factory, an Agent class or a namespace of another entry. Derived from the packages'
 * \`exports\` maps by loading each entry (test/helpers/sdk-derive.ts); do not edit by hand:
 * \`UPDATE_SDK_ENTRIES=1 npx vitest run test/scan/sdk-entries\` rewrites it, and that test fails
 * when the installed SDK has an entry this table lacks.
 * Derived from: ${Object.entries(versions)
   .map(([k, v]) => `${k}@${v}`)
   .join(', ')}.
 */

export interface SdkEntry {
  /** The import specifier (\`@openai/agents/realtime\`). */
  specifier: string;
  /** Exported tool factories (\`tool\`, \`hostedMcpTool\`, \`shellTool\`, ...). */
  factories: readonly string[];
  /** Exported Agent classes (\`Agent\`, \`RealtimeAgent\`). */
  agentClasses: readonly string[];
  /** Exports that are another entry's namespace (\`realtime\` → \`@openai/agents-realtime\`). */
  namespaces: Readonly<Record<string, string>>;
}
`;
