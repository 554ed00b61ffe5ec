import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';

/*
 * Module augmentation (issue 40): `declare module './types.js' { interface Pending { state:
 * RunState } }`, in any file of the app, merges its members into the interface `types.ts` exports,
 * so `p.state.approve(item)` of a `Pending` imported from `types.ts` answers the SDK's state though
 * `types.ts` never names it. The repo's files are few that augment a module: a text test (the
 * words `declare module`) picks them before any parse, so the scan stays as fast without them.
 */

/** The words every augmentation holds: a file without them is never parsed for one. */
export const AUGMENTS = 'declare module';

/** One `declare module '…' {…}` block of a file of the app, and the file it is in. */
export interface Augmentation {
  sf: ts.SourceFile;
  abs: string;
  body: ts.ModuleBlock;
}

/** The `declare module '…' {…}` blocks at the top of a file, with the module each names. */
export function augmentationBlocks(sf: ts.SourceFile): Array<{ specifier: string; body: ts.ModuleBlock }> {
  const out: Array<{ specifier: string; body: ts.ModuleBlock }> = [];
  for (const s of sf.statements) {
    if (!typescript.isModuleDeclaration(s) || !typescript.isStringLiteral(s.name) || !s.body || !typescript.isModuleBlock(s.body)) continue;
    out.push({ specifier: s.name.text, body: s.body });
  }
  return out;
}

/** The modules a text's augmentations name, read from the text alone (an edit's before and after: no parse). */
export function augmentedSpecifiers(text: string): string[] {
  if (!text.includes(AUGMENTS)) return [];
  return [...text.matchAll(/\bdeclare\s+module\s+(['"])([^'"\n]+)\1/g)].map((m) => m[2]!);
}

/**
 * Each module's augmentations, over the files whose text holds `declare module` (`candidates`):
 * `tree` parses one, `target` resolves a specifier from it to a file of the app. Built once, when
 * first asked; a block naming a package or no file of the app is left out (not the app's type).
 */
export function augmentationIndex(
  candidates: readonly string[],
  tree: (abs: string) => ts.SourceFile | undefined,
  target: (specifier: string, fromFile: string) => string | undefined,
): (abs: string) => readonly Augmentation[] {
  const byTarget = new Map<string, Augmentation[]>();
  for (const abs of candidates) {
    const sf = tree(abs);
    for (const { specifier, body } of sf ? augmentationBlocks(sf) : []) {
      const to = target(specifier, abs);
      if (to === undefined) continue;
      const list = byTarget.get(to);
      if (list) list.push({ sf: sf!, abs, body });
      else byTarget.set(to, [{ sf: sf!, abs, body }]);
    }
  }
  return (abs) => byTarget.get(abs) ?? [];
}

/** The interfaces named one of `names` the augmentations declare: merged into the module's interface of that name. */
export function augmentedInterfaces(
  augmentations: readonly Augmentation[],
  names: readonly string[],
): Array<{ decl: ts.InterfaceDeclaration; sf: ts.SourceFile; abs: string }> {
  return augmentations.flatMap(({ sf, abs, body }) =>
    body.statements
      .filter((s): s is ts.InterfaceDeclaration => typescript.isInterfaceDeclaration(s) && names.includes(s.name.text))
      .map((decl) => ({ decl, sf, abs })),
  );
}
