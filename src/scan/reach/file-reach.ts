import type { ts } from 'ts-morph';
import { isSdkModule } from '../imports.js';
import { doorOf, isProtectedToolCallee, resolve, type FileContext } from '../file/context.js';
import type { ReachValue, RunCall } from '../types.js';
import { buildBindings, type BindingIndex } from './bindings.js';
import { reachValueOf, type ReachContext } from './convert.js';
import { evaluateReach } from './evaluate.js';
import { exportedValue, type ExportLookup } from './exports.js';
import { callValue } from './leaves.js';
import { exportNamesOf, importersPass, type ImportersPass } from './callers.js';

/**
 * One file's part of the run reach (issue 40, item 3): each run's agent as a `ReachValue`, what the
 * file adds to agents' parts through receivers it cannot follow, and its exports for other files.
 * The binding index is built once, and only when a value is asked for.
 */
export interface FileReach {
  exported(name: string): ExportLookup;
  /** The names a local function is exported under. */
  exportNamesOf(local: string): string[];
  /** What this file's calls of `name`, imported from a module `isTarget` names, pass at `index`. */
  importersPass(isTarget: (specifier: string) => boolean, name: string, index: number): ImportersPass;
}

export function fileReachContext(cx: FileContext): ReachContext {
  let index: BindingIndex | undefined;
  const isSdkCallee = (callee: ts.Expression): boolean => {
    const r = resolve(cx, callee);
    return (r !== undefined && isSdkModule(r.module)) || doorOf(cx, callee) !== undefined || isProtectedToolCallee(cx, callee);
  };
  return {
    cx,
    callValue,
    bindings: () => (index ??= buildBindings(cx.sf, isSdkCallee)),
    seen: new Set(),
    depth: 0,
  };
}

/** Sets each run's agent value and its reach within this file, and the file's loose parts. */
export function readRunReach(cx: FileContext, runs: ReadonlyArray<{ run: RunCall; agent: ts.Expression }>): void {
  if (runs.length === 0) return;
  const rc = fileReachContext(cx);
  const loose = rc.bindings().looseParts.map((e) => reachValueOf(e, rc));
  if (loose.length > 0) cx.scan.looseParts = loose;
  for (const { run, agent } of runs) {
    run.agentValue = reachValueOf(agent, rc);
    run.reach = evaluateReach(run.agentValue, undefined, loose);
  }
}

/** A file's exports as other files see them (its own loose parts are read by its scan). */
export function fileReach(cx: FileContext): FileReach {
  const rc = fileReachContext(cx);
  return {
    exported: (name) => exportedValue(name, rc),
    exportNamesOf: (local) => exportNamesOf(local, rc),
    importersPass: (isTarget, name, index) => importersPass(isTarget, name, index, rc),
  };
}

/** What a file adds to agents' parts through receivers it cannot follow (files with no run of their own). */
export function loosePartsOf(cx: FileContext): ReachValue[] {
  const rc = fileReachContext(cx);
  return rc.bindings().looseParts.map((e) => reachValueOf(e, rc));
}
