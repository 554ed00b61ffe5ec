import path from 'node:path';
import type { ts } from 'ts-morph';
import { readCapped } from '../../safe-read.js';
import { resolveSpecifier, type RepoLayout } from '../links.js';
import { parseSource } from '../parse.js';
import { exportSites, returnsGivenState } from '../state-signatures.js';
import { declarationFile, linkedWorkspaceEntry } from '../workspace-links.js';

/**
 * Whether an imported function gives back the RunState it is handed (issue 40, item 3: a resume
 * through `decodeInterruptResponses(answers, state)` of the app's workspace package). The function
 * is looked up as the scan resolves imports (relative files, aliases, workspace packages of the
 * repo), then, for a package of the workspace outside the scanned folder, through its link in
 * `node_modules` (workspace-links.ts) and the files beside it. Every declaration found must say
 * so; one that cannot be found or read: no (the run stays named).
 */
export type StateReturns = (specifier: string, fromAbs: string, name: string, index: number) => boolean;

export function stateReturns(layout: RepoLayout, textOf: (abs: string) => string | undefined): StateReturns {
  const parsed = new Map<string, ts.SourceFile | null>();
  const parse = (abs: string): ts.SourceFile | undefined => {
    const known = parsed.get(abs);
    if (known !== undefined) return known ?? undefined;
    let text = layout.files.has(abs) ? textOf(abs) : undefined;
    if (text === undefined && !layout.files.has(abs)) {
      const read = readCapped(abs, 4_000_000);
      if (read.ok) text = read.text;
    }
    const p = text === undefined ? undefined : parseSource(abs, text);
    const sf = p && !p.parseError ? p.sf : undefined;
    parsed.set(abs, sf ?? null);
    return sf;
  };
  const resolve = (specifier: string, fromAbs: string): string | undefined => {
    if (layout.files.has(fromAbs)) {
      const t = resolveSpecifier(layout, specifier, fromAbs);
      if (t?.kind === 'file') return t.file;
      return t === undefined && !specifier.startsWith('.') ? linkedWorkspaceEntry(specifier, fromAbs) : undefined;
    }
    // a file of a linked package, outside the scan: its relative imports, on disk
    if (specifier.startsWith('./') || specifier.startsWith('../')) return declarationFile(path.resolve(path.dirname(fromAbs), specifier));
    return undefined;
  };
  /** Yes or no; undefined when the module does not export `name`. */
  const returns = (specifier: string, fromAbs: string, name: string, index: number, depth: number): boolean | undefined => {
    const file = depth <= 8 ? resolve(specifier, fromAbs) : undefined;
    const sf = file ? parse(file) : undefined;
    if (!file || !sf) return false;
    const sites = exportSites(sf, name);
    if (sites.length === 0) return undefined;
    if (sites.some((s) => 'star' in s)) {
      for (const site of sites) {
        const got = 'specifier' in site ? returns(site.specifier, file, site.name, index, depth + 1) : undefined;
        if (got !== undefined) return got;
      }
      return undefined;
    }
    return sites.every((site) =>
      'signatures' in site ? returnsGivenState(site.signatures, index) : returns(site.specifier, file, site.name, index, depth + 1) === true,
    );
  };
  return (specifier, fromAbs, name, index) => returns(specifier, fromAbs, name, index, 0) === true;
}
