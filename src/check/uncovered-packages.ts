import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { GENERATED_HEADER } from '../generate/write.js';
import { MANIFEST_FILE } from '../manifest/find.js';
import { listSourceFilesSync, outsideDirs } from '../scan/list.js';
import { packagesBelow, pathsInPackage } from '../manifest/workspace.js';
import { displayPath } from '../format-diagnostics.js';
import { type CheckResult, runCheck } from './engine.js';

/*
 * At a root whose packages have manifests of their own, check goes through those manifests. A
 * package that never had one, or deleted it, would then not be scanned at all: its doors open and
 * the root's check green. Each such package is checked with no manifest, as it would be on its own.
 */

/** A part of the tree no manifest covers: a package's folder (absolute), and the paths (relative to cwd) to check in it. */
export interface UncoveredRegion {
  dir: string;
  paths: string[];
}

/**
 * The regions below `cwd` that no manifest's folder holds and that `paths` reach (all without
 * paths): each package without a manifest, and the root's own files outside every package (a
 * workspace's `scripts/`), unless the root has a manifest of its own (its check covers them).
 */
export function uncoveredRegions(cwd: string, manifests: readonly string[], paths?: readonly string[]): UncoveredRegion[] {
  const root = path.resolve(cwd);
  const packages = packagesBelow(cwd);
  const regions = uncoveredPackages(cwd, manifests, packages, paths);
  if (manifests.some((m) => path.dirname(m) === root)) return regions;
  const wanted = paths && paths.length > 0 ? { paths: paths.map((p) => path.resolve(cwd, p)) } : {};
  const own = outsideDirs(listSourceFilesSync({ root, ...wanted }), packages).map((f) => path.relative(cwd, f));
  return own.length > 0 ? [{ dir: root, paths: own }, ...regions] : regions;
}

/** The packages (of `packages`, default: every package below `cwd`) that no manifest's folder holds and `paths` reach. */
export function uncoveredPackages(cwd: string, manifests: readonly string[], packages = packagesBelow(cwd), paths?: readonly string[]): UncoveredRegion[] {
  const covered = manifests.map((m) => path.dirname(m));
  const inside = (outer: string, inner: string) => {
    const rel = path.relative(outer, inner);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };
  return packages.flatMap((dir) => {
    if (covered.some((c) => inside(c, dir)) || isSdkPackage(dir)) return [];
    const within = pathsInPackage(cwd, dir, paths);
    return within === undefined || within.length > 0 ? [{ dir, paths: within ?? [path.relative(cwd, dir)] }] : [];
  });
}

/**
 * One region without a manifest, checked from `cwd`: its findings, with the missing manifest
 * placed where the package's own would be. A region where nothing is an error (no door, at most a
 * warning) reports nothing, as before: a workspace's docs, utility or tool-less agent package needs
 * no manifest, and the ESLint plugin at that root says nothing of it either.
 */
export async function checkWithoutManifest(cwd: string, region: UncoveredRegion): Promise<CheckResult> {
  const within = region.paths;
  const result = await runCheck({ cwd, paths: within });
  // a generated module left behind protects with a policy nobody can regenerate or check any more;
  // the missing manifest says so, the module's own code (the runtime's binders) is no door
  const generated = generatedModuleIn(cwd, within);
  const shown = generated === undefined ? undefined : displayPath(generated, cwd);
  const doors = result.findings.filter((f) => f.ruleId !== 'policy-invalid' && f.file !== shown);
  const open = doors.some((f) => f.severity === 'error') || generated !== undefined;
  const rel = displayPath(region.dir, cwd);
  const where = rel === '.' ? 'The root, outside every package,' : rel;
  const why = generated
    ? `its generated module (${displayPath(generated, cwd)}) is left without the manifest it was built from`
    : 'nothing maps its tools to policy actions';
  const missing = result.findings
    .filter((f) => f.ruleId === 'policy-invalid' && open)
    .map((f) => ({
      ...f,
      file: rel === '.' ? MANIFEST_FILE : `${rel}/${MANIFEST_FILE}`,
      message: `${where} uses the SDK and has no ${MANIFEST_FILE}: ${why}, and the other packages' manifests do not cover it.`,
      hint:
        rel === '.'
          ? 'Move these files into a package with a manifest, or run `npx ctrlrun-gen init` at the root.'
          : `Run \`npx ctrlrun-gen init\` in ${rel} (or at the root), then generate and codemod --write.`,
    }));
  const findings = open ? [...missing, ...doors] : [];
  return { ...result, findings, configError: missing.length > 0 };
}

/** Whether the file's first line is the generated module's header. */
export function startsGenerated(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(GENERATED_HEADER.length + 3);
    const n = readSync(fd, head, 0, head.length, 0);
    return head
      .subarray(0, n)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .startsWith(GENERATED_HEADER);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The SDK's own packages (a fork of the SDK's repo): their code is the SDK's implementation of the doors, not an app's doors. */
function isSdkPackage(dir: string): boolean {
  try {
    const name = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name;
    return typeof name === 'string' && /^@openai\/agents(?:-[a-z-]+)?$/.test(name);
  } catch {
    return false;
  }
}

/** A generated module among the source files under `paths` (relative to `cwd`), absolute; undefined when none. */
export function generatedModuleIn(cwd: string, paths: readonly string[]): string | undefined {
  return listSourceFilesSync({ root: cwd, paths: paths.map((p) => path.resolve(cwd, p)) }).find(startsGenerated);
}
