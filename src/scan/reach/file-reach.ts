import type { ts } from 'ts-morph';
import { isSdkModule } from '../imports.js';
import { constObjectLiteral, doorOf, isProtectedToolCallee, resolve, type FileContext } from '../file/context.js';
import { typescript } from '../typescript.js';
import { neverToolNamesOf, optionsOf, propertyName, skipWrappers, spreadAfter } from '../syntax.js';
import { stringValuesOf } from './strings.js';
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
    if (!cx.options.reachLater) run.reach = evaluateReach(run.agentValue, undefined, loose);
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

/**
 * The labels of `hostedMcpTool` calls not written in place (issue 40, item 5): options held by a
 * constant of the file (read as the call's options), and a label the file shows all the values of
 * (`function makeMcp(label) { … hostedMcpTool({ serverLabel: label }) }` with `makeMcp('gitmcp')`).
 */
export function readHostedLabels(cx: FileContext, pending: FileContext['pendingHosted']): void {
  const rc = fileReachContext(cx);
  for (const { call, optionsArg } of pending) {
    let opts = optionsArg ? skipWrappers(optionsArg) : undefined;
    if (opts && typescript.isIdentifier(opts)) {
      const b = rc.bindings().lookup(opts.text, opts.end - 1);
      const init = b?.declared.kind === 'var' && b.declared.path.length === 0 ? b.declared.init : undefined;
      const literal = init ? skipWrappers(init) : undefined;
      if (!b || b.assigned.length > 0 || b.added.length > 0 || b.opaque || !literal || !typescript.isObjectLiteralExpression(literal)) continue;
      opts = literal;
      call.options = optionsOf(literal, cx.sf);
      const never = neverToolNamesOf(literal, cx.sf, (name) => constObjectLiteral(cx, name));
      if (never) call.neverToolNames = never;
      const later = spreadAfter(literal, 'requireApproval', cx.sf);
      if (later) call.spreadAfterRequireApproval = later;
    }
    if (!opts || !typescript.isObjectLiteralExpression(opts) || call.options.hasSpread) continue;
    const written = (call.options.properties.serverLabel ?? call.options.properties.server_label)?.stringValue;
    if (written !== undefined) {
      call.serverLabel = written;
      continue;
    }
    const prop = opts.properties.find((p) => ['serverLabel', 'server_label'].includes(propertyName(p.name) ?? ''));
    const value =
      prop && typescript.isPropertyAssignment(prop) ? prop.initializer : prop && typescript.isShorthandPropertyAssignment(prop) ? prop.name : undefined;
    const labels = value ? stringValuesOf(value, rc) : undefined;
    if (labels && labels.length > 0) call.serverLabels = [...labels].sort();
  }
}
