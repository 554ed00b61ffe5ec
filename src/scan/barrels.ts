import type { ts } from 'ts-morph';
import { collectModuleImports, isSdkModule, sdkModuleValue, type Binding, type ModuleLinks } from './imports.js';
import { importTokens, resolveSpecifier, type RepoLayout } from './links.js';
import { parseSource } from './parse.js';
import { barrelValue, sdkExportsOf, topLevelBindings, type SdkExports } from './values.js';

// The repo's barrels: which parsed files export SDK values (found in rounds, each round parsing the
// importers of the barrels found so far), and the module links that follow them to the SDK.

type ParsedFile = ReturnType<typeof parseSource>;

/** The top-level bindings a file's exports were read from, over the tree's shared imports (`collectModuleImports`). */
export interface KeptBindings {
  sf: ts.SourceFile;
  bindings: ReadonlyMap<string, Binding>;
}

/** Module links that follow the repo's barrels to the SDK, over a cache of each parsed file's SDK exports. */
export interface BarrelLinks {
  links: ModuleLinks;
  exportsOf: (file: string) => SdkExports | undefined;
  /**
   * The top-level bindings the file's exports were read from, when they are the ones a scan of
   * that tree computes now (see `barrelLinks`); undefined otherwise.
   */
  keptBindings: (fileAbs: string, sf: ts.SourceFile) => KeptBindings | undefined;
  /** Forgets the cached exports (the parsed files changed). */
  reset: () => void;
}

/**
 * The links over `parsed`. Reading a file's exports computes its top-level bindings (issue 40,
 * item 8: the scan computed them again for every parsed file); they are kept for the file's scan
 * when nothing they were read from can change: every module they resolve is then either cached
 * for good or computed on the way (and cached for good), except a module whose exports were being
 * read at that moment (a cycle: it reads as nothing then, and as its exports later). A reading
 * that met such a module keeps nothing, and a reset forgets all.
 */
export function barrelLinks(layout: RepoLayout, parsed: Map<string, ParsedFile>, generatedModule: string | undefined): BarrelLinks {
  let exportsCache = new Map<string, SdkExports | null>();
  let kept = new Map<string, KeptBindings>();
  const reading = new Set<string>();
  // how many times a module being read was asked for (its exports read as nothing there)
  let cyclesMet = 0;
  const links: ModuleLinks = {
    resolve: (specifier, fromFile) => {
      const target = resolveSpecifier(layout, specifier, fromFile);
      if (!target) return undefined;
      if (target.kind === 'bare') return isSdkModule(target.specifier) ? sdkModuleValue(target.specifier) : undefined;
      const exp = exportsOf(target.file);
      return exp ? barrelValue(specifier, exp) : undefined;
    },
    inRepo: (specifier, fromFile) => {
      const target = resolveSpecifier(layout, specifier, fromFile);
      return target === undefined ? undefined : target.kind === 'file';
    },
  };
  const exportsOf = (file: string): SdkExports | undefined => {
    if (exportsCache.has(file)) {
      if (reading.has(file)) cyclesMet++;
      return exportsCache.get(file) ?? undefined;
    }
    const p = parsed.get(file);
    if (!p) return undefined;
    exportsCache.set(file, null); // a cycle resolves to nothing
    reading.add(file);
    const before = cyclesMet;
    const bindings = topLevelBindings(p.sf, collectModuleImports(p.sf), { fileAbs: file, generatedModule }, links);
    if (cyclesMet === before) kept.set(file, { sf: p.sf, bindings });
    const exp = sdkExportsOf(p.sf, bindings, file, links);
    reading.delete(file);
    const value = exp.named.size > 0 || exp.stars.length > 0 ? exp : null;
    exportsCache.set(file, value);
    return value ?? undefined;
  };
  const keptBindings = (fileAbs: string, sf: ts.SourceFile): KeptBindings | undefined => {
    const k = kept.get(fileAbs);
    return k !== undefined && k.sf === sf ? k : undefined;
  };
  const reset = (): void => {
    exportsCache = new Map();
    kept = new Map();
  };
  return { links, exportsOf, keptBindings, reset };
}

/**
 * Barrels, in rounds: a parsed file that exports SDK values makes its importers candidates (their
 * text holds one of its import tokens); each is parsed into `parsed`. Returns the import tokens seen.
 */
export function barrelRounds(
  parsed: Map<string, ParsedFile>,
  texts: ReadonlyMap<string, string | Buffer>,
  textOf: (abs: string) => string | undefined,
  barrels: BarrelLinks,
): Set<string> {
  const seenTokens = new Set<string>();
  // the exports found stay valid while no file is added: each round after one that added files starts afresh
  let added = 0;
  for (let round = 0; round < 20; round++) {
    if (added > 0) barrels.reset();
    added = 0;
    const fresh: string[] = [];
    for (const file of parsed.keys()) {
      if (!barrels.exportsOf(file)) continue;
      for (const t of importTokens(file)) {
        if (!seenTokens.has(t)) {
          seenTokens.add(t);
          fresh.push(t);
        }
      }
    }
    if (fresh.length === 0) break;
    for (const [abs, text] of texts) {
      if (parsed.has(abs)) continue;
      if (fresh.some((t) => text.includes(t))) {
        parsed.set(abs, parseSource(abs, textOf(abs)!));
        added++;
      }
    }
    if (added === 0) break;
  }
  if (added > 0) barrels.reset();
  return seenTokens;
}
