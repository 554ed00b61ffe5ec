import path from 'node:path';
import { PackageFacts } from '../../scan/package-facts.js';
import { bareSpecifier, isRuntimeSpecifier, specifierVersion } from '../../scan/bare-specifier.js';
import { type DenoImportMaps, type ImportMap, mappedSpecifier, nearestDenoConfig, readDenoImportMaps } from '../../scan/deno-import-map.js';
import {
  findInstalledSdk,
  PINNED_SDK_HINT,
  pinnedSdkMessage,
  pinnedSdkVerdict,
  sdkVerdict,
  UNTESTED_SDK_HINT,
  untestedSdkMessage,
} from '../../scan/sdk-version.js';
import { SDK_TESTED } from '../../scan/sdk-surface.js';
import type { FileScan } from '../../scan/types.js';
import type { Finding, ProjectContext, RepoFacts, RuleMeta, ScannedFile } from '../types.js';
import { readRegularText } from '../../safe-read.js';
import { findingOf } from './rule-finding.js';

export const sdkVersionUntestedMeta: RuleMeta = {
  id: 'sdk-version-untested',
  severity: 'warning',
  short: `The installed @openai/agents is outside the range this release is tested with (${SDK_TESTED.range}).`,
  full: 'Every SDK minor can add a door (0.6 added tool search, 0.9 sandboxes, 0.14 programmatic tool calling): this release classifies every export of the SDKs in its tested range (its census) and its runtime is tested against each of their minors. With a newer SDK, a door the SDK added is not known to init, the codemod, check or protectAgent, and nothing else would say so; with an older one (or a prerelease), the runtime was not tested against it. Reported once per installed SDK, at the `@openai/agents` dependency of the package.json of the package that uses it (line 1 when that package.json does not name it). Nothing is reported when no SDK is installed (a CI job that lints before installing). A file that loads the SDK by a specifier pinning its version (Deno\'s `npm:@openai/agents@0.21.0`, an esm.sh, jsdelivr or unpkg URL naming `@openai/agents@0.21.0`; also `-core`, `-openai`, `-realtime`, released with it) runs that version, not an installed one: such a pin outside the range is reported at its import, once per version in the file. A range that fixes the minor (`^0.21`, `~0.21.1`, `0.21`) is judged by the minor; one that fixes none (`latest`, `^1.2`, no version) is not reported. The pin may be in an `import()` too, or in a Deno import map: an import of `@openai/agents` that the `"imports"` of the nearest `deno.json` or `deno.jsonc` (or the file its `"importMap"` names) maps to `npm:@openai/agents@0.21.0` is judged so, at the import. A Deno config that does not parse (it is read as JSON with comments and trailing commas) is reported at the place it fails, since the pin it may hold cannot be checked.',
  help: 'Install an @openai/agents in the tested range, or a ctrlrun-gen release that tests this SDK (its census classifies every export of the SDKs it supports).',
};

/**
 * `sdk-version-untested` (warning, repo-wide): the `@openai/agents` Node loads for a package whose
 * files use the SDK is outside SDK_TESTED (src/scan/sdk-surface.ts). Read from the disk through the
 * session's facts (an editor sees a reinstall), once per installed copy.
 */
export function sdkVersionUntestedRule(files: ScannedFile[], project: ProjectContext | undefined, facts?: RepoFacts): Finding[] {
  if (!project) return [];
  const root = project.manifest.root;
  const packages = facts?.packages ?? new PackageFacts(root);
  const io = { exists: (f: string) => packages.exists(f), read: (f: string) => packages.read(f, () => readText(f)) };
  const dirs = new Set<string>();
  for (const { scan } of files) if (scan.importsSdk) dirs.add(packages.packageDirOf(path.resolve(root, scan.file)));
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const dir of [...dirs].sort()) {
    const sdk = findInstalledSdk(dir, io);
    if (!sdk || seen.has(sdk.packageJson)) continue;
    seen.add(sdk.packageJson);
    const verdict = sdkVerdict(sdk.version);
    if (verdict === 'tested') continue;
    const manifest = path.join(dir, 'package.json');
    const text = io.exists(manifest) ? io.read(manifest) : '';
    const at = dependencyLine(text);
    findings.push(
      findingOf(
        sdkVersionUntestedMeta,
        path.relative(root, manifest).split(path.sep).join('/'),
        at,
        untestedSdkMessage(sdk, verdict, path.relative(dir, sdk.packageJson).split(path.sep).join('/')),
        UNTESTED_SDK_HINT,
      ),
    );
  }
  const maps = denoMapsLookup(root, io);
  const reported = new Set<string>();
  for (const { scan } of files) {
    const deno = scan.importsSdk ? maps(path.dirname(path.resolve(root, scan.file))) : undefined;
    findings.push(...pinnedFindings(scan, deno?.maps ?? []));
    for (const problem of deno?.problems ?? []) {
      const file = path.relative(root, problem.file).split(path.sep).join('/');
      if (reported.has(`${file}\0${problem.message}`)) continue;
      reported.add(`${file}\0${problem.message}`);
      findings.push(findingOf(sdkVersionUntestedMeta, file, problem, denoConfigMessage(path.basename(problem.file), problem.message), DENO_CONFIG_HINT));
    }
  }
  return findings;
}

/** The SDK packages released together, under one version: a pin of any of them is the SDK's version. */
const SDK_RELEASED = /^@openai\/agents(?:-core|-openai|-realtime)?(?:\/|$)/;

/** The import maps of the Deno config nearest each folder (none: an empty list), each config read once. */
function denoMapsLookup(root: string, io: { exists: (f: string) => boolean; read: (f: string) => string }): (dir: string) => DenoImportMaps | undefined {
  const byConfig = new Map<string, DenoImportMaps>();
  const read = { exists: io.exists, read: (f: string) => io.read(f) };
  return (dir) => {
    const config = nearestDenoConfig(dir, root, io.exists);
    if (config === undefined) return undefined;
    if (!byConfig.has(config)) byConfig.set(config, readDenoImportMaps(config, read));
    return byConfig.get(config);
  };
}

/**
 * A file that loads the SDK by a specifier pinning its version (Deno's `npm:@openai/agents@0.21.0`,
 * a CDN URL, in an import or an `import()`), or by a name its Deno import map maps to such a
 * specifier: that version, not a node_modules one, is what runs (a Deno app often has no
 * package.json). Reported at the import, once per pinned text in the file.
 */
function pinnedFindings(scan: FileScan, maps: readonly ImportMap[]): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  const loads = [...(scan.moduleImports ?? []).filter((imp) => !imp.typeOnly), ...(scan.dynamicImports ?? [])];
  for (const imp of loads) {
    for (const { target, via } of pinsOf(imp.module, maps)) {
      if (!SDK_RELEASED.test(bareSpecifier(target))) continue;
      const pinned = specifierVersion(target);
      const verdict = pinned === undefined ? undefined : pinnedSdkVerdict(pinned);
      if (verdict === undefined || verdict === 'tested' || seen.has(pinned!)) continue;
      seen.add(pinned!);
      const message = pinnedSdkMessage(via === undefined ? imp.module : `${imp.module}\`, which ${via} maps to \`${target}`, verdict);
      out.push(findingOf(sdkVersionUntestedMeta, scan.file, imp.span, message, PINNED_SDK_HINT));
    }
  }
  return out;
}

/** What a specifier loads: itself when it pins by itself, else each import map's target for it (with the map's file name). */
function pinsOf(specifier: string, maps: readonly ImportMap[]): Array<{ target: string; via?: string }> {
  if (isRuntimeSpecifier(specifier) || specifier.startsWith('.') || specifier.startsWith('/')) return [{ target: specifier }];
  const out: Array<{ target: string; via?: string }> = [];
  for (const map of maps) {
    const target = mappedSpecifier(specifier, map.imports);
    if (target !== undefined) out.push({ target, via: path.basename(map.file) });
  }
  return out;
}

const DENO_CONFIG_HINT =
  'Deno reads its config as JSON with comments: fix it so it parses (Deno refuses it too), then run check again; check reads the SDK version its import map pins from it.';

function denoConfigMessage(name: string, why: string): string {
  return `The Deno config \`${name}\` ${why}: the SDK version its import map pins is not checked.`;
}

function readText(file: string): string {
  // the rule reads one or two small package.json files; a failure reads as no version at all
  try {
    return readRegularText(file); // a FIFO reads as no version, never waited on
  } catch {
    return '';
  }
}

/** Where a package.json names `"@openai/agents"` as a dependency key (1-based), else its first line. */
export function dependencyLine(text: string): { line: number; column: number } {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const column = lines[i]!.search(/"@openai\/agents"\s*:/);
    if (column >= 0) return { line: i + 1, column: column + 1 };
  }
  return { line: 1, column: 1 };
}
