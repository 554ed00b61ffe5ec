import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { GENERATED_HEADER } from '../generate/write.js';
import { findManifest, MANIFEST_FILE } from '../manifest/find.js';
import { isSdkModule } from '../scan/imports.js';
import { listSourceFilesSync, outsideDirs, outsideOf } from '../scan/list.js';
import type { ListedRoot } from '../scan/read.js';
import { listRoot } from '../scan/read-here.js';
import { isTestFile } from '../scan/test-files.js';
import { manifestsFor, packagesBelow, pathsInPackage } from '../manifest/workspace.js';
import { displayPath } from '../format-diagnostics.js';
import { type CheckResult, runCheck } from './engine.js';
import type { Finding } from './types.js';

/*
 * At a root whose packages have manifests of their own, check goes through those manifests. A
 * package that never had one, or deleted it, would then not be scanned at all: its doors open and
 * the root's check green. Each such package is checked with no manifest, as it would be on its own.
 */

/**
 * At a root whose packages have manifests (none of its own), `paths` that reach none of them: `[]`,
 * no manifest to go through, and the packages without one and the root's own files the paths reach
 * checked as the whole root's check checks them there (a package without a manifest is quiet unless
 * open, its missing manifest named in its folder). Undefined elsewhere: one check, as ever.
 */
export function noManifestReached(cwd: string, paths?: readonly string[]): string[] | undefined {
  if (!paths || paths.length === 0 || findManifest(cwd) !== undefined) return undefined;
  return manifestsFor(cwd).length > 0 ? [] : undefined;
}

/**
 * The packages below `cwd` (absolute) that no manifest's folder holds and that `paths` reach (all
 * without paths); `below`: `packagesBelow(cwd)`, when the caller has it.
 */
export function packagesWithoutManifest(cwd: string, manifests: readonly string[], paths?: readonly string[], below?: readonly string[]): string[] {
  const covered = manifests.map((m) => path.dirname(m));
  return (below ?? packagesBelow(cwd)).filter((dir) => {
    if (covered.some((c) => inside(c, dir)) || isSdkPackage(dir)) return false;
    const within = pathsInPackage(cwd, dir, paths);
    return within === undefined || within.length > 0;
  });
}

/**
 * The root's own source files outside every package (a workspace's `scripts/`), relative to `cwd`,
 * that `paths` reach; none when the root has a manifest of its own (its check covers them).
 */
export function rootFilesOutsidePackages(
  cwd: string,
  manifests: readonly string[],
  paths?: readonly string[],
  listed?: readonly string[],
  below?: readonly string[],
): string[] {
  const root = path.resolve(cwd);
  if (manifests.some((m) => path.dirname(m) === root)) return [];
  const wanted = paths && paths.length > 0 ? { paths: paths.map((p) => path.resolve(cwd, p)) } : {};
  // named one by one, a test file would be scanned as the app's: the root's tests are none of its doors
  return outsideDirs(listed ?? listSourceFilesSync({ root, ...wanted }), below ?? packagesBelow(cwd))
    .map((f) => path.relative(cwd, f))
    .filter((rel) => !isTestFile(rel));
}

/** Whether `inner` is `outer` or below it (both absolute). */
function inside(outer: string, inner: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Each package below `cwd` that no manifest covers, checked as it would be on its own (`checkRegion`). A
 * package below another one is left out of the outer one's findings: it is checked on its own
 * (with its manifest, or as one more package without), and would otherwise be reported twice, or
 * its generated module be taken for one the outer package left behind.
 */
export async function checkPackagesWithoutManifest(cwd: string, manifests: readonly string[], paths?: readonly string[]): Promise<CheckResult[]> {
  const root = path.resolve(cwd);
  // without paths, one listing of the root serves every region (a listing is a git process and a
  // walk): the packages, the root's own files, each region's files (its check lists nothing again),
  // the generated module looked for, and the packages with no source file at all, whose check would
  // consider none and report nothing (a docs site, a build output)
  const listed = paths && paths.length > 0 ? undefined : listRoot(root);
  const listing = listed?.listing;
  const below = packagesBelow(cwd, listing?.configs);
  const dirs = packagesWithoutManifest(cwd, manifests, paths, below);
  const results: CheckResult[] = [];
  const own = rootFilesOutsidePackages(cwd, manifests, paths, listing?.files, below);
  const narrowed = (files: string[]): ListedRoot | undefined => listed && { ...listed, listing: { ...listed.listing, files } };
  if (own.length > 0) results.push(await checkRegion(cwd, root, own, [], narrowed(own.map((f) => path.resolve(cwd, f)).sort())));
  const checkedBelow = packagesCheckedBelow(dirs, manifests);
  for (const dir of dirs) {
    const files = listing && filesInFolder(listing.files, dir);
    if (files && files.length === 0) continue;
    const within = pathsInPackage(cwd, dir, paths) ?? [path.relative(cwd, dir)];
    results.push(await checkRegion(cwd, dir, within, checkedBelow.get(dir) ?? [], files && narrowed(files)));
  }
  return results;
}

/**
 * For each of `dirs` (the packages without a manifest), the packages below it checked on their own:
 * those with a manifest, and the other packages without one. Walks up from each of those: the
 * folders times their depth, not the folders squared.
 */
export function packagesCheckedBelow(dirs: readonly string[], manifests: readonly string[]): Map<string, string[]> {
  const checked = [...manifests.map((m) => path.dirname(m)), ...dirs];
  const out = new Map<string, string[]>(dirs.map((d) => [d, []]));
  for (const d of checked) {
    for (let up = path.dirname(d); ; up = path.dirname(up)) {
      out.get(up)?.push(d);
      if (path.dirname(up) === up) break;
    }
  }
  return out;
}

/** Of a sorted listing, the files below `dir` (absolute): the contiguous run that starts with its path. */
export function filesInFolder(sorted: readonly string[], dir: string): string[] {
  const prefix = dir + path.sep;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  while (end < sorted.length && sorted[end]!.startsWith(prefix)) end++;
  return sorted.slice(lo, end);
}

/**
 * A region without a manifest (a package's folder, or the root's own files: `within`, relative to
 * `cwd`), checked from `cwd`: its findings, with the missing manifest placed where the package's
 * own would be. A region where nothing is an error (no door, at most a warning) reports nothing: a
 * workspace's docs, utility or tool-less agent package needs no manifest, and the ESLint plugin at
 * that root says nothing of it either.
 */
async function checkRegion(
  cwd: string,
  dir: string,
  within: readonly string[],
  checkedOnTheirOwn: readonly string[],
  listed?: ListedRoot,
): Promise<CheckResult> {
  const result = await runCheck({ cwd, paths: [...within], ...(listed ? { listed } : {}) });
  const mine = outsideOf(checkedOnTheirOwn);
  // a generated module left behind protects with a policy nobody can regenerate or check any more;
  // the missing manifest says so, the module's own code (the runtime's binders) is no door
  const generated = generatedModuleIn(cwd, within, mine, listed?.listing.files);
  const shown = generated === undefined ? undefined : displayPath(generated, cwd);
  const doors = result.findings.filter((f) => f.ruleId !== 'policy-invalid' && f.file !== shown && mine(path.resolve(cwd, f.file)));
  const open = doors.some(opensRegion) || generated !== undefined;
  const missing = result.findings.filter((f) => f.ruleId === 'policy-invalid' && open).map((f) => missingManifestFinding(f, cwd, dir, generated));
  const findings = open ? [...missing, ...doors] : doors.filter(reportedWhenClosed);
  return { ...result, findings, configError: missing.length > 0 };
}

/**
 * An error that makes a region without a manifest open (its missing manifest then reported): a
 * door of its own. An SDK answer to another package's protected tools (`sdk-approval`) is no door
 * of the region's: it is reported alone (reportedWhenClosed), without a manifest the region does
 * not need for tools it does not own.
 */
export function opensRegion(f: Finding): boolean {
  return f.severity === 'error' && !reportedWhenClosed(f);
}

/** What a region without a manifest reports even when it is not open: its SDK answers to protected tools. */
export function reportedWhenClosed(f: Finding): boolean {
  return f.ruleId === 'sdk-approval';
}

/**
 * The finding that names an open region's missing manifest (`dir`: a package's folder, or `cwd`
 * for the root's own files), placed where the package's own manifest would be (relative to `cwd`)
 * and saying why the region is open: check's and the ESLint plugin's, from the loader's `base`.
 */
export function missingManifestFinding(base: Finding, cwd: string, dir: string, generated: string | undefined): Finding {
  const rel = displayPath(dir, cwd);
  const where = rel === '.' ? 'The root, outside every package,' : rel;
  const why = generated
    ? `its generated module (${displayPath(generated, cwd)}) is left without the manifest it was built from`
    : 'nothing maps its tools to policy actions';
  return {
    ...base,
    file: rel === '.' ? MANIFEST_FILE : `${rel}/${MANIFEST_FILE}`,
    message: `${where} uses the SDK and has no ${MANIFEST_FILE}: ${why}, and the other packages' manifests do not cover it.`,
    hint:
      rel === '.'
        ? 'Move these files into a package with a manifest, or run `npx ctrlrun-gen init` at the root.'
        : `Run \`npx ctrlrun-gen init\` in ${rel} (or at the root), then generate and codemod --write.`,
  };
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
    // the scanner's one definition of the SDK's names (a package name holds no subpath)
    return typeof name === 'string' && isSdkModule(name);
  } catch {
    return false;
  }
}

/**
 * A generated module among the source files under `paths` (relative to `cwd`), absolute; undefined
 * when none. `listed`: those source files, when the caller has listed them.
 */
export function generatedModuleIn(
  cwd: string,
  paths: readonly string[],
  keep: (abs: string) => boolean = () => true,
  listed?: readonly string[],
): string | undefined {
  const files = listed ?? listSourceFilesSync({ root: cwd, paths: paths.map((p) => path.resolve(cwd, p)) });
  return files.find((f) => keep(f) && startsGenerated(f));
}
