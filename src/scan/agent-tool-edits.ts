import path from 'node:path';
import { handedNames, type AgentToolSearch, type HandedNames } from './agent-tool-modules.js';
import { parseSource } from './parse.js';
import type { FileScan } from './types.js';

// An ESLint session's edits as the agents' tools see them (issue 40 item 4): the modules an agent's
// `tools` hands literal doors from were found once, by the repo scan; an agent's file edited to
// hand another module's literal (or no longer to hand it), or a module edited to hold a literal it
// is handed, changes what is handed. `check` reads its files once and never takes this path.

type ScanText = (abs: string, text: string) => FileScan | undefined;
type Edited = (abs: string, text: string) => string[];

/**
 * Wraps the index's `scanText` and `edited`: a scan of an agent's file (its `tools` read from
 * imports, before or now) or of a module the search reached reads what is handed again, into
 * `found.handed` (the map `scanText` reads the names from); the edited file is scanned again with
 * its new names, and the other modules whose names changed are named stale by the next `edited`.
 */
export function agentToolEdits(
  search: Omit<AgentToolSearch, 'scan'>,
  found: HandedNames,
  scanText: ScanText,
  edited: Edited,
): { scanText: ScanText; edited: Edited } {
  let current: Map<string, FileScan> | undefined;
  const texts = new Map<string, string>();
  let reached = found.reached;
  const stale = new Set<string>();
  const read = {
    ...search,
    textOf: (abs: string) => texts.get(abs) ?? search.textOf(abs),
    // an edited module is read from its new text; the others as the repo scan read them
    treeOf: (abs: string, text: string) => (texts.has(abs) ? parseSource(abs, text).sf : search.treeOf(abs, text)),
  };
  return {
    scanText: (abs, text) => {
      // the repo scan's scans (the live list: filled after the index was made), then the edits'
      current ??= new Map(search.scans.map((s) => [path.resolve(search.root, s.file), s]));
      const before = current.get(abs);
      const scan = scanText(abs, text);
      texts.set(abs, text);
      const keep = (s: FileScan | undefined): void => void (s ? current!.set(abs, s) : current!.delete(abs));
      keep(scan);
      if (!(before?.agentToolImports || scan?.agentToolImports || reached.has(abs))) return scan;
      const now = handedNames({ ...read, scans: [...current.values()] });
      reached = now.reached;
      for (const module of changedNames(found.handed, now.handed)) stale.add(module);
      found.handed.clear();
      for (const [module, names] of now.handed) found.handed.set(module, names);
      // the edited module's own names changed: its scan is taken again with them
      if (!stale.delete(abs)) return scan;
      const again = scanText(abs, text);
      keep(again);
      return again;
    },
    edited: (abs, text) => {
      const readers = edited(abs, text);
      if (stale.size === 0) return readers;
      const out = [...new Set([...readers, ...stale])].filter((f) => f !== abs);
      stale.clear();
      return out;
    },
  };
}

/** The modules whose handed names differ between two readings (added, dropped or changed). */
function changedNames(before: ReadonlyMap<string, ReadonlySet<string>>, now: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const same = (a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined): boolean =>
    a !== undefined && b !== undefined && a.size === b.size && [...a].every((n) => b.has(n));
  return [...new Set([...before.keys(), ...now.keys()])].filter((m) => !same(before.get(m), now.get(m)));
}
