import path from 'node:path';
import type { ts } from 'ts-morph';
import { DEFAULT_HOLDER, heldBefore, heldInside } from './alias-text.js';
import { DOOR_WORD } from './door-words.js';
import { ANY_EXPORT, isEsModuleSyntax, loadedExport } from './file/commonjs-exports.js';
import { AGENT_DOOR, ANY_KEY, importedPath, importOf } from './file/door-exports.js';
import { propertyName, skipWrappers } from './syntax.js';
import { resolveSpecifier, type RepoLayout } from './links.js';
import { parseSource, type Parsed } from './parse.js';
import { isSourceFile } from './source-files.js';
import { typescript } from './typescript.js';
import type { FileScan, ImportedWrite } from './types.js';

// A door made in one module and written in another (issue 40 item 4): each file's scan keeps the
// writes of imported bindings (file/door-exports.ts); here they meet the doors the imported module
// exports, through re-exports (`export * from`, `export { x as y } from`, an import exported again),
// and become the writing file's findings, at the write, as a write in the door's own file is.

export interface DoorModules {
  root: string;
  layout: RepoLayout;
  /** A scanned file's scan, by absolute path. */
  scanOf: (abs: string) => FileScan | undefined;
  /** A module's syntax tree (a barrel naming no SDK is parsed on demand). */
  treeOf: (abs: string) => ts.SourceFile | undefined;
  /**
   * The scan of a module no scan read (a listed module naming neither the SDK nor the generated
   * module), made on demand: which of its exports check cannot tell.
   */
  unreadScanOf: (abs: string) => FileScan | undefined;
  /**
   * Adds the names the doors are exported again under to the search's tokens, once: the scan runs
   * the search only as far as it chooses the writers, so it is completed for the first text edited
   * later (ESLint).
   */
  renamedTokens: () => void;
  /**
   * Takes a new text of a file (an ESLint session's edit) as the module the writes are settled
   * against from now on, with its scan (undefined: not scanned); true when the text is new, so the
   * scans whose writes were settled against the file before are stale.
   */
  edited: (abs: string, text: string, scan: FileScan | undefined) => boolean;
}

/** The local doors whose body is a common word (`shell`, `editor`, `computer`). */
const LOCAL_DOORS = new Set(['protectShellTool', 'protectApplyPatchTool', 'protectComputerTool']);

/** How many re-exports a door is followed through. */
const CHAIN = 8;

/** Settles the imported writes of `scans` into their door writes and invoke replacements. */
export function settleImportedWrites(scans: readonly FileScan[], modules: DoorModules): void {
  for (const scan of scans) {
    if (!scan.importedWrites) continue;
    const from = path.resolve(modules.root, scan.file);
    for (const w of scan.importedWrites) {
      if (w.anyOf !== undefined) {
        const door = w.anyOf.map((specifier) => ownDoors(modules, specifier, from).find((d) => w.breaks.includes(d))).find((d) => d !== undefined);
        if (door !== undefined) report(scan, w, door, true);
        continue;
      }
      const read = commonJsDefault(modules, { specifier: w.specifier, name: w.name, members: w.members ?? [] }, from);
      const door = exportedDoor(modules, read, from, 0, new Set());
      if (typeof door === 'object') {
        // one of several values (`cond ? shellTool : other`): as a write on an object check cannot tell,
        // naming the door it breaks if it is that one
        const breaks = door.doors.find((d) => w.breaks.includes(d)) ?? (door.unknown ? w.unknown : undefined);
        if (breaks !== undefined) report(scan, w, breaks, true);
      } else if (door === TOO_FAR) {
        // followed through more re-exports than CHAIN: reported as a write check cannot follow (fail closed)
        const breaks = w.breaks.find((d) => d !== AGENT_DOOR);
        if (breaks !== undefined) report(scan, w, breaks, true);
      } else if (door === UNKNOWN || (door === undefined && read.members.length > 0)) {
        // an export check cannot tell (a factory's result), or a member of an import that is no door
        // of the module (`config.server.errorFunction = …`): as a write on an object check cannot follow
        if (w.unknown !== undefined) report(scan, w, w.unknown, true);
      } else if (door !== undefined && w.breaks.includes(door)) report(scan, w, door);
    }
  }
}

/**
 * An ES default import of a CommonJS module read through a member (`import d from './doors.cjs';
 * d.github.x = …`): the default is its `module.exports`, so the member is the export read, as
 * through a whole `require`. A module with ES import or export syntax keeps its own default.
 */
function commonJsDefault(m: DoorModules, read: ExportRead, fromAbs: string): ExportRead {
  if (read.name !== 'default' || read.members.length === 0) return read;
  const target = resolveSpecifier(m.layout, read.specifier, fromAbs);
  const sf = target?.kind === 'file' ? m.treeOf(target.file) : undefined;
  if (sf === undefined || sf.statements.some(isEsModuleSyntax)) return read;
  const [name, ...members] = read.members as [string, ...string[]];
  return { specifier: read.specifier, name, members };
}

/** The doors a module exports under any name (its own exports; re-exports are not followed). */
function ownDoors(m: DoorModules, specifier: string, fromAbs: string): string[] {
  const target = resolveSpecifier(m.layout, specifier, fromAbs);
  return target?.kind === 'file' ? Object.values(m.scanOf(target.file)?.exportedDoors ?? {}) : [];
}

/** What `exportedDoor` answers when the chain of re-exports is longer than it follows. */
const TOO_FAR = '\0too-far';
/** What `exportedDoor` answers for an export whose value its module's scan cannot tell. */
const UNKNOWN = '\0unknown';
/**
 * What `exportedDoor` answers for an export that is one of several values (`cond ? shellTool :
 * other`, `a ?? b`), not all the same door: the doors among them, and whether a value check cannot
 * tell is too.
 */
interface OneOf {
  doors: string[];
  unknown: boolean;
}
type ExportedDoor = string | OneOf | undefined;

function report(scan: FileScan, w: ImportedWrite, door: string, unresolved = false): void {
  if (door === AGENT_DOOR) {
    const form = w.form as 'assignment' | 'object-assign' | 'reflection';
    scan.invokeReplacements = scan.invokeReplacements ?? [];
    scan.invokeReplacements.push({
      kind: 'invoke-replacement',
      span: w.span,
      form,
      method: w.property,
      ...(w.via !== undefined ? { via: w.via } : {}),
      ...(w.target !== undefined ? { target: w.target } : {}),
    });
    return;
  }
  scan.doorWrites = scan.doorWrites ?? [];
  scan.doorWrites.push({
    kind: 'door-write',
    span: w.span,
    door,
    property: w.property,
    form: w.form,
    ...(w.inner !== undefined ? { inner: w.inner } : {}),
    ...(w.via !== undefined ? { via: w.via } : {}),
    ...(w.target !== undefined ? { target: w.target } : {}),
    ...(unresolved ? { unresolved: true as const } : {}),
  });
}

/** An export read from a module, and the members read on it (a namespace's export, `'*'` the namespace itself). */
interface ExportRead {
  specifier: string;
  name: string;
  members: readonly string[];
}

/**
 * The door `read.specifier` (imported from `fromAbs`) exports as `read.name`, followed through
 * re-exports and namespaces (`export * as ns`, `import * as d; export { d as ns }`: the next member
 * is the export read there); TOO_FAR past CHAIN of them. A module and name met again on the way
 * (`export *` both ways) is a cycle: nothing more there.
 */
function exportedDoor(m: DoorModules, read: ExportRead, fromAbs: string, depth: number, seen: Set<string>): ExportedDoor {
  let { name, members } = read;
  if (name === '*') {
    if (members.length === 0) return undefined;
    [name, ...members] = members as [string, ...string[]];
  }
  const target = resolveSpecifier(m.layout, read.specifier, fromAbs);
  if (target?.kind !== 'file') return undefined;
  const key = `${target.file}\0${name}\0${members.join('.')}`;
  if (seen.has(key)) return undefined;
  if (depth > CHAIN) return TOO_FAR;
  seen.add(key);
  const scanned = m.scanOf(target.file);
  // own keys only: a write of `require('…/a').__proto__` reads no door of the record's prototype
  const own = scanned?.exportedDoors !== undefined && Object.hasOwn(scanned.exportedDoors, name) ? scanned.exportedDoors[name] : undefined;
  // a member of a door (`desk.github.x = …`) is no door of this module
  if (own !== undefined && members.length > 0) return undefined;
  const sf = m.treeOf(target.file);
  // `export const gh = github` of an imported door (`d.github`, a `const` exported by a list, one of
  // `cond ? shellTool : other`): the imports followed, each on its own path (a door met twice is one)
  const alias = sf && aliasedImports(sf, name, members, scanned?.heldDoors?.at);
  // more values than are read: as a chain longer than is followed (fail closed)
  if (alias === TOO_MANY) return TOO_FAR;
  if (alias !== undefined) {
    const doors = [...alias.reads.map((r) => exportedDoor(m, r, target.file, depth + 1, new Set(seen))), ...alias.made];
    const door = joined(doors, own, alias.other);
    if (typeof door === 'object') {
      door.unknown ||= unknownExport(scanned, name) || (scanned === undefined && unknownExport(m.unreadScanOf(target.file), name));
    }
    if (door !== undefined) return door;
    // every value the export may hold is an import followed to no door: none, though the module's
    // own scan could not tell it (a CommonJS `require`'s member); not through a `let` or `var`, whose
    // later values are not read
    if (!alias.other && !alias.reassigned && own === undefined) return undefined;
  }
  if (own !== undefined) return own;
  if (unknownExport(scanned, name)) return UNKNOWN;
  if (!sf) return undefined;
  for (const st of sf.statements) {
    if (!typescript.isExportDeclaration(st) || st.isTypeOnly) continue;
    const again = reexported(sf, st, name);
    if (again === undefined) continue;
    const door = exportedDoor(m, { ...again, members }, target.file, depth + 1, seen);
    if (door !== undefined) return door;
  }
  // a module no scan read makes no door (it names neither the SDK nor the generated module), but its
  // export may hold one made elsewhere (`export const gh = makeServer()`, the factory imported):
  // check asks that module's own scan, as it asks a scanned one's (fail closed)
  if (scanned === undefined && unknownExport(m.unreadScanOf(target.file), name)) return UNKNOWN;
  return undefined;
}

/**
 * The door of an export held as one of `doors` (the imports its value may be) or as `own` (what the
 * module's scan read among its own values); `other`: a value that is neither (a local object). One
 * door everywhere is that door; doors beside anything else are a `OneOf`.
 */
function joined(doors: readonly ExportedDoor[], own: string | undefined, other: boolean): ExportedDoor {
  if (doors.length === 1 && own === undefined && !other) return doors[0];
  if (doors.includes(TOO_FAR)) return TOO_FAR;
  const found = new Set<string>(own !== undefined ? [own] : []);
  let unknown = false;
  let noDoor = other && own === undefined;
  for (const d of doors) {
    if (d === UNKNOWN) unknown = true;
    else if (typeof d === 'object') {
      for (const x of d.doors) found.add(x);
      unknown = true;
    } else if (d !== undefined) found.add(d);
    else if (own === undefined) noDoor = true;
  }
  if (found.size === 0) return unknown ? UNKNOWN : undefined;
  // the module's own door with imports that are none (or the same door) is its door, as its scan says
  if (found.size === 1 && !unknown && !noDoor) return [...found][0];
  return { doors: [...found], unknown };
}

/** Whether a module's scan cannot tell its export `name`: that export, or any (a CommonJS `module.exports` check cannot list). */
function unknownExport(scan: FileScan | undefined, name: string): boolean {
  return scan?.unknownExports?.some((n) => n === name || n === ANY_EXPORT) === true;
}

/**
 * How many parts of one export's value are read (each value and each `??`, `?:` of `a ?? b ?? c`, a
 * `const a = b` step): the only bound, so a longer chain of steps is reported, not left silent.
 */
const ALIAS_PARTS = 32;
/** What `aliasedImports` answers past ALIAS_PARTS: the export is then followed no further (fail closed). */
const TOO_MANY = 'too-many';

/**
 * The imports the module's own export `name` may hold as they are (`export const gh = github`,
 * `export default d.github`, `const gh = github; export { gh }`, through `const a = b` steps; each
 * value of `cond ? a : b`, `a ?? b`, `a || b`, the right of `a && b`), and whether it may hold
 * anything else (`other`); undefined when it holds no import. The scan of the module leaves an
 * import to the repo scan (an import is no value it can tell). `members` read on the export are
 * followed into the lists and objects it holds (`export const tools = [shellTool]` read as
 * `tools[0]`, `{ shell: shellTool }` as `kit.shell`); each read keeps the members left.
 */
function aliasedImports(
  sf: ts.SourceFile,
  name: string,
  members: readonly string[] = [],
  heldDoors: Readonly<Record<string, string>> = {},
): { reads: ExportRead[]; made: string[]; other: boolean; reassigned: boolean } | typeof TOO_MANY | undefined {
  const start = exportedExpression(sf, name);
  if (start === undefined) return undefined;
  // a `let` or `var` stepped through: only its initializer is read, not the values given it later
  let reassigned = isLetOrVarInitializer(sf, start);
  const reads: ExportRead[] = [];
  // the doors the module's scan saw made where a member leads (file/held-doors.ts)
  const made: string[] = [];
  let other = false;
  let budget = ALIAS_PARTS;
  // `names`: the declarations stepped through to here (one met again is a cycle: no value); `path`:
  // the members still to read on the value
  const visit = (expr: ts.Expression, names: readonly string[], path: readonly string[]): void => {
    if (--budget < 0) return;
    const read = importedPath(sf, expr);
    if (read !== undefined) return void reads.push({ ...read, members: [...read.members, ...path] });
    const e = skipWrappers(expr);
    if (typescript.isConditionalExpression(e)) {
      visit(e.whenTrue, names, path);
      visit(e.whenFalse, names, path);
      return;
    }
    if (typescript.isBinaryExpression(e)) {
      const op = e.operatorToken.kind;
      if (op === typescript.SyntaxKind.QuestionQuestionToken || op === typescript.SyntaxKind.BarBarToken) {
        visit(e.left, names, path);
        visit(e.right, names, path);
        return;
      }
      if (op === typescript.SyntaxKind.AmpersandAmpersandToken) {
        // the left is the value only when it is falsy: no door
        visit(e.right, names, path);
        return;
      }
    }
    const door = path.length === 0 ? heldDoors[String(e.getStart(sf))] : undefined;
    if (door !== undefined) return void made.push(door);
    if (path.length > 0 && (typescript.isArrayLiteralExpression(e) || typescript.isObjectLiteralExpression(e))) {
      const [key, ...rest] = path as [string, ...string[]];
      const held = typescript.isArrayLiteralExpression(e) ? elementsAt(e, key) : propertiesAt(e, key);
      if (held.other) other = true;
      for (const v of held.values) visit(v.expr, names, [...v.path, ...rest]);
      return;
    }
    const init = typescript.isIdentifier(e) && !names.includes(e.text) ? topInitializer(sf, e.text) : undefined;
    if (init !== undefined) {
      if (isLetOrVarInitializer(sf, init)) reassigned = true;
      visit(init, [...names, (e as ts.Identifier).text], path);
    } else other = true;
  };
  visit(start, [], members);
  if (budget < 0) return TOO_MANY;
  return reads.length > 0 || made.length > 0 ? { reads, made, other, reassigned } : undefined;
}

/** Whether `e` is the initializer of a top-level `let` or `var` (which may be given other values later). */
function isLetOrVarInitializer(sf: ts.SourceFile, e: ts.Expression): boolean {
  return sf.statements.some(
    (st) =>
      typescript.isVariableStatement(st) &&
      (st.declarationList.flags & typescript.NodeFlags.Const) === 0 &&
      st.declarationList.declarations.some((d) => d.initializer === e),
  );
}

/** What a member of a list or an object may be: values to follow (with the member read on each first: a spread's), and whether it may be anything else. */
interface HeldAt {
  values: Array<{ expr: ts.Expression; path: string[] }>;
  other: boolean;
}

/**
 * The elements `list[key]` may be: the one at the index, or any past a spread before it (the spread's
 * own elements too) or for a key check cannot read (`ANY_KEY`); another key (`length`) is no door.
 */
function elementsAt(list: ts.ArrayLiteralExpression, key: string): HeldAt {
  const index = /^(?:0|[1-9]\d*)$/.test(key) ? Number(key) : key === ANY_KEY ? -1 : undefined;
  if (index === undefined) return { values: [], other: true };
  const out: HeldAt = { values: [], other: false };
  let spread = false;
  list.elements.forEach((el, i) => {
    if (typescript.isSpreadElement(el)) {
      spread = true;
      out.values.push({ expr: el.expression, path: [ANY_KEY] });
    } else if (index < 0 || spread || i === index) {
      if (typescript.isOmittedExpression(el)) out.other = true;
      else out.values.push({ expr: el, path: [] });
    }
  });
  return out;
}

/**
 * The values `object[key]` may be: the last property of that name, and any spread or computed
 * name after it (either may hold the key); every property for a key check cannot read.
 */
function propertiesAt(object: ts.ObjectLiteralExpression, key: string): HeldAt {
  const out: HeldAt = { values: [], other: false };
  for (let i = object.properties.length - 1; i >= 0; i--) {
    const p = object.properties[i]!;
    if (typescript.isSpreadAssignment(p)) {
      out.values.push({ expr: p.expression, path: [key] });
      continue;
    }
    const named = propertyName(p.name);
    if (named !== undefined && key !== ANY_KEY && named !== key) continue;
    if (typescript.isPropertyAssignment(p)) out.values.push({ expr: p.initializer, path: [] });
    else if (typescript.isShorthandPropertyAssignment(p)) out.values.push({ expr: p.name, path: [] });
    else out.other = true;
    // the property of that name written last is the value; one whose name check cannot read may be it
    if (named !== undefined && key !== ANY_KEY) break;
  }
  return out;
}

/** The value the module exports as `name` itself: a variable's initializer, the default's expression, or a top-level variable exported by a list. */
function exportedExpression(sf: ts.SourceFile, name: string): ts.Expression | undefined {
  for (const st of sf.statements) {
    if (typescript.isVariableStatement(st) && st.modifiers?.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword)) {
      const d = st.declarationList.declarations.find((x) => typescript.isIdentifier(x.name) && x.name.text === name);
      if (d) return d.initializer;
    } else if (name === 'default' && typescript.isExportAssignment(st) && !st.isExportEquals) return st.expression;
    else if (typescript.isExportDeclaration(st) && !st.moduleSpecifier && !st.isTypeOnly && st.exportClause && typescript.isNamedExports(st.exportClause)) {
      const el = st.exportClause.elements.find((e) => e.name.text === name && !e.isTypeOnly);
      if (el) return topInitializer(sf, (el.propertyName ?? el.name).text);
    }
  }
  // a CommonJS module's `exports.gh = d.github`, or TypeScript's getter of a re-export
  return sf.statements.some(isEsModuleSyntax) ? undefined : loadedExport(sf, name);
}

/** The initializer of the top-level variable `local`, or undefined. */
function topInitializer(sf: ts.SourceFile, local: string): ts.Expression | undefined {
  for (const st of sf.statements) {
    if (!typescript.isVariableStatement(st)) continue;
    const d = st.declarationList.declarations.find((x) => typescript.isIdentifier(x.name) && x.name.text === local);
    if (d) return d.initializer;
  }
  return undefined;
}

/**
 * Where an export statement takes `name` from: `export * from 's'`, `export { a as name } from 's'`,
 * `import { a } from 's'; export { a as name }`; `'*'` for a namespace (`export * as name from 's'`).
 */
export function reexported(sf: ts.SourceFile, st: ts.ExportDeclaration, name: string): { specifier: string; name: string } | undefined {
  const clause = st.exportClause;
  if (st.moduleSpecifier && typescript.isStringLiteral(st.moduleSpecifier)) {
    if (!clause) return name === 'default' ? undefined : { specifier: st.moduleSpecifier.text, name };
    if (typescript.isNamespaceExport(clause)) return clause.name.text === name ? { specifier: st.moduleSpecifier.text, name: '*' } : undefined;
    const el = clause.elements.find((e) => e.name.text === name && !e.isTypeOnly);
    return el ? { specifier: st.moduleSpecifier.text, name: (el.propertyName ?? el.name).text } : undefined;
  }
  if (!clause || !typescript.isNamedExports(clause)) return undefined;
  const el = clause.elements.find((e) => e.name.text === name && !e.isTypeOnly);
  return el ? importOf(sf, (el.propertyName ?? el.name).text) : undefined;
}

export interface WriterSearch {
  root: string;
  layout: RepoLayout;
  parsed: Map<string, Parsed>;
  texts: { texts: ReadonlyMap<string, string | Buffer>; textOf: (abs: string) => string | undefined };
  /** The scans so far: the writers found are scanned into it (kept sorted by file). */
  scans: FileScan[];
  /** The tokens a new text of a file is parsed for: the doors' exported names are added. */
  seenTokens: Set<string>;
  /** Whether a file's bytes name a door word, when the read already tested them (read.ts); undefined: test here. */
  doorWord?: (abs: string) => boolean | undefined;
  scan: (abs: string) => FileScan;
  /** A scan of a module the scans so far left out, from its text's tree (not added to `scans`: its findings are no one's). */
  scanUnread: (abs: string, text: string, parsed: Parsed) => FileScan;
  leftOut: (abs: string) => boolean;
}

/**
 * The files the prefilter passed over that may write an exported door (their text names one of the
 * exported names and a property a door depends on: `import { github } from './a'` with
 * `github.toolInputGuardrails = []` names no SDK), parsed and scanned into `scans`; the modules
 * the imported writes are settled against.
 */
export function writersOfDoors(s: WriterSearch): DoorModules {
  const names = new Set<string>();
  for (const scan of s.scans) for (const name of Object.keys(scan.exportedDoors ?? {})) if (name !== 'default') names.add(name);
  // the variables holding a door made in a list or an object (`tools` of `[protectShellTool(…)]`)
  for (const scan of s.scans) for (const name of scan.heldDoors?.holders ?? []) if (name !== 'default') names.add(name);
  const defaults = s.scans.some((scan) => scan.exportedDoors?.default !== undefined || scan.heldDoors?.holders.includes('default'));
  // a file writing a local door's body on an object check cannot follow, importing a module that
  // exports such a door under a name the file never spells (file/door-writes.ts `anyImportedDoorWrite`):
  // the module's own name (its folder's, for an index) is in the import's specifier
  const modules = new Set<string>();
  for (const scan of s.scans) {
    if (!Object.values(scan.exportedDoors ?? {}).some((d) => LOCAL_DOORS.has(d))) continue;
    const base = path.basename(scan.file).replace(/\.[^.]+$/, '');
    modules.add(base === 'index' ? path.basename(path.dirname(scan.file)) : base);
  }
  // the files that may write a door: those the prefilter passed over that name a door word (few, and
  // rare outside a writer); the names they must also hold, the test-file rule last, as it costs a path
  const mayWrite: Array<readonly [string, string | Buffer]> = [];
  if (names.size > 0 || defaults || modules.size > 0) {
    for (const [abs, text] of s.texts.texts) {
      if (s.parsed.has(abs) || !isSourceFile(abs)) continue;
      if (s.doorWord?.(abs) ?? DOOR_WORD.test(typeof text === 'string' ? text : text.toString('latin1'))) mayWrite.push([abs, text]);
    }
  }
  // renamed more often than the rounds follow, or a default export (imported under any name): every
  // file naming a door word is a writer to read (fail closed; the door words are rare)
  const rounds = renameRounds(names);
  // the renames matter to such a file; with none, only to a text edited later, so searched for then
  // (all rounds: the tokens a new text is parsed for are the same whatever stopped them here)
  let renamed = false;
  const renamedTokens = (): void => {
    if (renamed) return;
    renamed = true;
    while (renameRound(s, rounds));
    for (const n of names) s.seenTokens.add(n);
  };
  for (const n of names) s.seenTokens.add(n);
  const unnamed = mayWrite.length > 0 ? writersNamed(s, rounds, mayWrite, modules, defaults) : { anyName: defaults, unnamed: new Set<string>() };
  const fresh: string[] = [];
  for (const [abs] of mayWrite) {
    if ((!unnamed.anyName && unnamed.unnamed.has(abs)) || s.leftOut(abs)) continue;
    s.parsed.set(abs, parseSource(abs, s.texts.textOf(abs)!));
    fresh.push(abs);
  }
  if (fresh.length > 0) {
    s.scans.push(...fresh.map(s.scan));
    s.scans.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  }
  const byAbs = new Map(s.scans.map((scan) => [path.resolve(s.root, scan.file), scan]));
  // the texts edited since the scan (an ESLint session): read in place of the scan's
  const latest = new Map<string, string>();
  const textOf = (abs: string): string | undefined => latest.get(abs) ?? s.texts.textOf(abs);
  const trees = new Map<string, Parsed | null>();
  const parsedOf = (abs: string): Parsed | undefined => {
    const known = (latest.has(abs) ? undefined : s.parsed.get(abs)) ?? trees.get(abs);
    if (known !== undefined) return known ?? undefined;
    const text = textOf(abs);
    const tree = text !== undefined && isSourceFile(abs) ? parseSource(abs, text) : null;
    trees.set(abs, tree);
    return tree ?? undefined;
  };
  const unread = new Map<string, FileScan | null>();
  const unreadScanOf = (abs: string): FileScan | undefined => {
    const known = unread.get(abs);
    if (known !== undefined) return known ?? undefined;
    const parsed = parsedOf(abs);
    const scan = parsed ? s.scanUnread(abs, textOf(abs)!, parsed) : null;
    unread.set(abs, scan);
    return scan ?? undefined;
  };
  const edited = (abs: string, text: string, scan: FileScan | undefined): boolean => {
    if (scan) byAbs.set(abs, scan);
    else byAbs.delete(abs);
    if (textOf(abs) === text) return false;
    latest.set(abs, text);
    trees.delete(abs);
    unread.delete(abs);
    return true;
  };
  return { root: s.root, layout: s.layout, scanOf: (abs) => byAbs.get(abs), treeOf: (abs) => parsedOf(abs)?.sf, unreadScanOf, renamedTokens, edited };
}

/** How many renames deep the names are searched for. */
const RENAME_ROUNDS = 4;

/**
 * The search for the names the doors are exported again under, a few renames deep: an `as` rename
 * (`export { github as gh } from './doors'`) and a variable holding one as its value (`export const
 * gh = shellTool`, `const a = d.shellTool`, `cond ? shellTool : other`, `shellTool ?? other`). Run a
 * round at a time (`renameRound`), so it stops once every writer is read anyway and is completed
 * later for the tokens an edited text is parsed for.
 */
interface RenameRounds {
  /** The names found so far (the doors' own first). */
  names: Set<string>;
  /** The names the last round found: the next round searches for these. */
  layer: string[];
  round: number;
  /** A default export holds a door (imported under any name): every writer is read. */
  anyName: boolean;
  /** A name was renamed again past the last round: every writer is read. */
  pastLast: boolean;
}

function renameRounds(names: Set<string>): RenameRounds {
  return { names, layer: [...names], round: 0, anyName: false, pastLast: false };
}

/**
 * Runs the rounds only as far as they change which of `mayWrite` are read: none once a default
 * export holds a door, or once every file (not left out) names a name or a module (more names read
 * no more files). The files naming none, when the names are all known; `anyName`: every file is read.
 */
function writersNamed(
  s: WriterSearch,
  r: RenameRounds,
  mayWrite: ReadonlyArray<readonly [string, string | Buffer]>,
  modules: ReadonlySet<string>,
  defaults: boolean,
): { anyName: boolean; unnamed: Set<string> } {
  const names = (text: string | Buffer, list: Iterable<string>): boolean => [...list].some((n) => text.includes(n));
  let unnamed = mayWrite.filter(([abs, text]) => !names(text, r.names) && !names(text, modules) && !s.leftOut(abs));
  while (!defaults && !r.anyName && unnamed.length > 0 && renameRound(s, r)) unnamed = unnamed.filter(([, text]) => !names(text, r.layer));
  return { anyName: defaults || r.anyName || r.pastLast, unnamed: new Set(unnamed.map(([abs]) => abs)) };
}

/** One round of the rename search over every source text: false when none is left to run (the last found nothing, or was the last). */
function renameRound(s: WriterSearch, r: RenameRounds): boolean {
  if (r.layer.length === 0) return false;
  if (r.round === RENAME_ROUNDS) {
    r.pastLast = true;
    return false;
  }
  const next: string[] = [];
  const alternatives = r.layer.map((n) => n.replace(/\$/g, '\\$')).join('|');
  const as = new RegExp(`(?<![\\w$])(?:${alternatives})\\s+as\\s+([A-Za-z_$][\\w$]*)`, 'g');
  // a name as a whole word, tested on the bytes read as latin1 when the names are ASCII (a byte of
  // a multibyte character is no word character there either): one pass, where a test per name was
  // one pass a name; most files are never decoded
  const named = new RegExp(`(?<![\\w$])(?:${alternatives})(?![\\w$])`);
  const namedAll = new RegExp(named.source, 'g');
  const ascii = r.layer.every((n) => /^[\x21-\x7e]+$/.test(n));
  const mayName = (raw: string | Buffer): boolean =>
    typeof raw === 'string' || ascii ? named.test(typeof raw === 'string' ? raw : raw.toString('latin1')) : r.layer.some((n) => raw.includes(n));
  for (const [abs, raw] of s.texts.texts) {
    // the word test alone: on 3,000 files of 2 KB it takes about 1.3 ms for 1 to 60 names, less
    // than the test for ` as ` that used to come first (Buffer.includes of a string)
    if (!isSourceFile(abs) || !mayName(raw)) continue;
    const text = s.texts.textOf(abs)!;
    const add = (n: string): void => {
      if (r.names.has(n)) return;
      r.names.add(n);
      next.push(n);
    };
    for (const m of text.matchAll(as)) add(m[1]!);
    // a declaration (or the default export) whose value may be a door as it is, and one whose value
    // holds it in a list or an object (`const tools = [shellTool]`: its elements and members are
    // followed by `aliasedImports`): each read with no bound on how far (alias-text.ts)
    const ats = Array.from(text.matchAll(namedAll), (m) => m.index!);
    const back = heldBefore(text, ats);
    for (const n of back.names) add(n);
    for (const n of heldInside(text, ats)) {
      // a default export holding a door is imported under any name: every writer is read
      if (n === DEFAULT_HOLDER) r.anyName = true;
      else add(n);
    }
    if (back.byDefault) r.anyName = true;
  }
  r.layer = next;
  r.round++;
  return true;
}
