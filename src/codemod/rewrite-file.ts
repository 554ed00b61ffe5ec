import { sdkErrorFunctionProblem } from '../scan/error-function.js';
import type { Policy } from '../policy/types.js';
import { isRuntimeSpecifier } from '../scan/bare-specifier.js';
import { isGeneratedSpecifier, isSdkModule } from '../scan/imports.js';
import type { FileScan, ImportedName, ModuleImport, SdkToolCall } from '../scan/types.js';
import { behaviourChanges, canPause } from './behaviour.js';
import { appAnswerConflict, type AppAnswer } from './app-approvals.js';
import { planDoors, type DoorPlan } from './doors.js';
import { doorsLeftByHand } from './hand-doors.js';
import { applyEdits, endOfLineAfter, removalRange, type TextEdit } from './edits.js';
import { relativeSpecifier, type ModuleSettings } from '../scan/specifier.js';
import { needsApprovalVerdict } from './strictness.js';
import type { CodemodFinding } from './types.js';
import type { Diagnostic } from '../diagnostics.js';

export interface FileContext {
  /** Absolute path of the file. */
  fileAbs: string;
  /** Tool name → action, from the manifest's function tools. */
  actions: ReadonlyMap<string, string>;
  /**
   * The manifest's `tool: { at }` entry for a call of this file, in a top-level declaration, whose
   * name is computed (issue 40, item 5): its action, and its key (`@src/flows.ts`, as in `leftOut`).
   */
  computedAt?: (container: string | undefined) => { action: string; key: string } | undefined;
  /** Hosted MCP server labels and MCP server names the manifest maps (default: none). */
  hostedLabels?: ReadonlySet<string>;
  mcpServers?: ReadonlySet<string>;
  /** MCP servers with a mapped tool whose action pins a TLS certificate. */
  pinnedMcpServers?: ReadonlySet<string>;
  /** The manifest maps SandboxAgent capability tools; handoff target → action. */
  sandboxMapped?: boolean;
  handoffActions?: ReadonlyMap<string, string>;
  policy: Policy;
  /** Absolute path of the generated module. */
  generatedModule: string;
  settings: ModuleSettings;
  /** Mapped tools `generate` leaves unprotected (generate/crosscheck.ts): left as they are, as conflicts. */
  leftOut?: ReadonlyMap<string, { action: string; error: Diagnostic }>;
  /** Where the app answers interruptions through the SDK (app-approvals.ts): a tool that can pause is left as it is. */
  appAnswers?: readonly AppAnswer[];
}

export interface FileRewrite {
  /** The new text; undefined when nothing changes. */
  after?: string;
  findings: CodemodFinding[];
  alreadyProtected: number;
}

const PROTECTED = 'protectedTool';

/**
 * Plans and applies the rewrite of one scanned file as text splices at the scanner's spans: the
 * callee, the removed `needsApproval` and import lines change; every other byte stays.
 */
export function rewriteFile(scan: FileScan, text: string, ctx: FileContext): FileRewrite {
  const at = (span: { line: number; column: number }) => ({ file: ctx.fileAbs, line: span.line, column: span.column });
  const findings: CodemodFinding[] = [];
  if (scan.parseError) {
    findings.push({ kind: 'parse-error', ...at(scan.parseError), message: scan.parseError.message });
    return { findings, alreadyProtected: 0 };
  }
  const imports = scan.moduleImports ?? [];
  // the SDK loaded by Deno's `npm:` or a URL: every tool and door is left, with why (`leftByRuntime`)
  const runtime = imports.find((i) => isSdkModule(i.module) && isRuntimeSpecifier(i.module))?.module;
  const edits: TextEdit[] = [];
  const rewritten: SdkToolCall[] = [];
  const localName = scan.generatedImports[0]?.localName ?? PROTECTED;

  for (const call of scan.sdkToolCalls) {
    const planned = planToolCall(call, text, ctx, localName, at, runtime);
    findings.push(...planned.findings);
    edits.push(...planned.edits);
    if (planned.rewritten) rewritten.push(call);
  }

  // The other doors: their callees name the generated module's exports as this file reaches them.
  const { generatedNs, generatedNamed } = generatedBindings(imports, { fileAbs: ctx.fileAbs, generatedModule: ctx.generatedModule });
  const fileQuote = quoteOf(text, imports.find((i) => isSdkModule(i.module))?.span.start, true);
  const doors = planDoors(scan, text, {
    fileAbs: ctx.fileAbs,
    actions: ctx.actions,
    hostedLabels: ctx.hostedLabels ?? new Set(),
    mcpServers: ctx.mcpServers ?? new Set(),
    pinnedMcpServers: ctx.pinnedMcpServers ?? new Set(),
    sandboxMapped: ctx.sandboxMapped ?? false,
    handoffActions: ctx.handoffActions ?? new Map(),
    policy: ctx.policy,
    callee: (name) => (generatedNs !== undefined ? `${generatedNs}.${name}` : (generatedNamed.get(name) ?? name)),
    quoted: (value) => quoted(value, fileQuote),
  });
  findings.push(...doorsLeftByHand(scan, ctx.fileAbs));
  if (runtime !== undefined) {
    findings.push(...doors.findings.map((f) => doorLeftByRuntime(f, runtime)));
    return { findings, alreadyProtected: scan.protectedToolCalls.length };
  }
  findings.push(...doors.findings);
  edits.push(...doors.edits);

  if (rewritten.length === 0 && doors.edits.length === 0) return { findings, alreadyProtected: scan.protectedToolCalls.length };

  edits.push(...importEdits({ scan, text, ctx, imports, rewritten, doors, generatedNs, generatedNamed }));
  return { after: applyEdits(text, edits), findings, alreadyProtected: scan.protectedToolCalls.length };
}

type At = (span: { line: number; column: number }) => { file: string; line: number; column: number };

/**
 * Why a tool or door of a file that loads the SDK by Deno's `npm:` or a URL (issue 40 item 4, gap I)
 * is read as any other but left as it is: the generated module and this library's runtime load the
 * SDK by its package name, which such a runtime may resolve to another copy or to nothing, so the
 * rewritten doors could fail to load or wrap another SDK than the agent's.
 */
function leftByRuntime(specifier: string): { message: string; hint: string } {
  return {
    message: `its file loads the SDK by \`${specifier}\`, not by its package name, by which the generated module and ctrlrun-gen's runtime load it (this file's runtime may resolve that to another copy, or to nothing)`,
    hint: 'import the SDK by its package name (in Deno, an import map entry `"@openai/agents": "npm:@openai/agents@<version>"` in deno.json) and run the codemod again, or protect it by hand with the generated module\'s export',
  };
}

/** A door the plan rewrote, left instead (the file loads the SDK by a runtime's specifier); any other finding as it is. */
function doorLeftByRuntime(f: CodemodFinding, specifier: string): CodemodFinding {
  if (f.kind !== 'door-rewritten') return f;
  return { kind: 'door-left', file: f.file, line: f.line, column: f.column, door: f.door, name: f.name, reason: 'unanalysable', ...leftByRuntime(specifier) };
}

/** One SDK tool() call: its rewrite to protectedTool (edits and a `rewritten` finding), or the finding that says why it stays. */
function planToolCall(
  call: SdkToolCall,
  text: string,
  ctx: FileContext,
  localName: string,
  at: At,
  runtime: string | undefined,
): { findings: CodemodFinding[]; edits: TextEdit[]; rewritten: boolean } {
  const findings: CodemodFinding[] = [];
  const edits: TextEdit[] = [];
  const keep = (f: CodemodFinding) => {
    findings.push(f);
    const problem = sdkErrorFunctionProblem(call);
    if (problem) {
      findings.push({
        kind: 'error-function',
        ...at(problem.at),
        ...(call.name !== undefined ? { tool: call.name } : {}),
        message:
          problem.kind === 'custom'
            ? "left as the SDK's tool() with a custom errorFunction: this library's refusals and every other error reach the model as text it may retry"
            : `left as the SDK's tool() with ${problem.kind === 'maybe-default' ? 'perhaps ' : ''}the default errorFunction: every error reaches the model as "Please try again"`,
      });
    }
  };
  // a name the code computes is mapped by the place of the call (`tool: { at }`)
  const computed = call.name === undefined ? ctx.computedAt?.(call.container) : undefined;
  if (call.name === undefined && computed === undefined) {
    keep({ kind: 'no-literal-name', ...at(call.span), ...(call.nameUnresolved !== undefined ? { reason: call.nameUnresolved } : {}) });
    return { findings, edits, rewritten: false };
  }
  const name = call.name ?? `tool() in ${call.container ?? 'the file'}`;
  const action = computed?.action ?? ctx.actions.get(name);
  if (action === undefined) {
    keep({ kind: 'unmapped', ...at(call.span), tool: name });
    return { findings, edits, rewritten: false };
  }
  const policyAction = ctx.policy.actions[action];
  if (!policyAction) {
    keep({ kind: 'unknown-action', ...at(call.span), tool: name, action });
    return { findings, edits, rewritten: false };
  }
  const left = ctx.leftOut?.get(computed?.key ?? name);
  if (left) {
    const { error } = left;
    keep({
      kind: 'conflict',
      cause: 'generate',
      ...at(call.span),
      tool: name,
      action,
      message: `generate leaves it unprotected (${error.code ?? 'error'})`,
      related: { file: error.file, line: error.line, column: error.column, message: error.message },
    });
    return { findings, edits, rewritten: false };
  }
  if (call.indirect) {
    keep({
      kind: 'unanalysable',
      ...at(call.span),
      tool: name,
      action,
      message: `the factory is called through ${call.indirect === 'reflect' ? 'Reflect.apply' : `.${call.indirect}()`}; call it directly (tool({ ... })) so it can become protectedTool`,
    });
    return { findings, edits, rewritten: false };
  }
  // Type arguments stay where they are: protectedTool takes tool's four, in the same order.
  if (!call.options.span || call.options.hasSpread) {
    keep({
      kind: 'unanalysable',
      ...at(call.span),
      tool: name,
      action,
      message: call.options.span
        ? 'the options spread other properties in (...): a needsApproval there could not be checked'
        : 'the options are not an object literal',
    });
    return { findings, edits, rewritten: false };
  }
  const needsApproval = call.options.properties.needsApproval;
  let removed = false;
  if (needsApproval) {
    const verdict = needsApprovalVerdict(needsApproval, ctx.policy, policyAction);
    if (!verdict.remove) {
      keep({ kind: 'conflict', ...at(needsApproval.span), tool: name, action, message: verdict.reason, related: verdict.related });
      return { findings, edits, rewritten: false };
    }
    removed = true;
  }
  const answered = appAnswerConflict(ctx.appAnswers, canPause(ctx.policy, policyAction), { ...at(call.span), tool: name, action });
  if (answered) {
    keep(answered);
    return { findings, edits, rewritten: false };
  }
  if (runtime !== undefined) {
    const why = leftByRuntime(runtime);
    keep({ kind: 'unanalysable', ...at(call.span), tool: name, action, message: `${why.message}; ${why.hint}` });
    return { findings, edits, rewritten: false };
  }
  if (removed) {
    const [s, e] = removalRange(text, needsApproval!.span.start, needsApproval!.span.end);
    edits.push({ start: s, end: e, text: '' });
  }
  const quote = quoteOf(text, call.options.properties.name?.valueSpan.start);
  edits.push({ start: call.callee.start, end: call.callee.end, text: localName });
  const insertAt = call.argumentsStart ?? call.options.span.start;
  const separator = /\s/.test(text[insertAt] ?? '') ? ',' : ', ';
  edits.push({ start: insertAt, end: insertAt, text: `${quoted(action, quote)}${separator}` });
  findings.push({
    kind: 'rewritten',
    ...at(call.span),
    tool: name,
    action,
    needsApprovalRemoved: removed,
    changes: behaviourChanges(call, ctx.policy, policyAction, removed),
  });
  return { findings, edits, rewritten: true };
}

/** How this file reaches the generated module's exports: a namespace import, and named imports by exported name. */
function generatedBindings(
  imports: ModuleImport[],
  match: { fileAbs: string; generatedModule: string },
): { generatedNs: string | undefined; generatedNamed: Map<string, string> } {
  const generatedNs = imports.find((i) => !i.typeOnly && i.namespaceName && isGeneratedSpecifier(i.module, match))?.namespaceName;
  const generatedNamed = new Map<string, string>();
  for (const i of imports) {
    if (i.typeOnly || !isGeneratedSpecifier(i.module, match)) continue;
    for (const n of i.named) if (!n.typeOnly && !generatedNamed.has(n.imported)) generatedNamed.set(n.imported, n.local);
  }
  return { generatedNs, generatedNamed };
}

interface ImportPlan {
  scan: FileScan;
  text: string;
  ctx: FileContext;
  imports: ModuleImport[];
  rewritten: SdkToolCall[];
  doors: DoorPlan;
  generatedNs: string | undefined;
  generatedNamed: Map<string, string>;
}

/** Imports: drop SDK bindings no longer used; import what the rewrites call unless it is imported. */
function importEdits(p: ImportPlan): TextEdit[] {
  const { scan, text, ctx, imports, rewritten, doors, generatedNs, generatedNamed } = p;
  const match = { fileAbs: ctx.fileAbs, generatedModule: ctx.generatedModule };
  const edits: TextEdit[] = [];
  /** The SDK factories whose calls were replaced, by the binding they were called through. */
  const replaced = [...rewritten.map((c) => ({ factory: 'tool', binding: c.binding, start: c.span.start })), ...doors.replaced];
  const factories = new Set(replaced.map((r) => r.factory));
  const removedSpecs = new Map<ModuleImport, ImportedName[]>();
  for (const imp of imports) {
    // The SDK itself, or a barrel / alias the rewritten calls' factory was imported from.
    const barrel = !isSdkModule(imp.module) && replaced.some((c) => c.binding.importedFrom === imp.module);
    if ((!isSdkModule(imp.module) && !barrel) || imp.typeOnly) continue;
    for (const spec of imp.named) {
      if (spec.typeOnly || (!barrel && !factories.has(spec.imported))) continue;
      const uses = replaced.filter(
        (c) => c.binding.kind !== 'namespace' && c.binding.localName === spec.local && (!barrel || c.binding.importedFrom === imp.module),
      ).length;
      if (uses > 0 && spec.references <= uses) removedSpecs.set(imp, [...(removedSpecs.get(imp) ?? []), spec]);
    }
  }
  const missing: string[] = [];
  if (rewritten.length > 0 && scan.generatedImports.length === 0) missing.push(PROTECTED);
  if (generatedNs === undefined) missing.push(...[...doors.used].filter((n) => !generatedNamed.has(n)).sort());
  const sdkStatement = imports.find((i) => isSdkModule(i.module))?.span;
  const quote = quoteOf(text, sdkStatement?.start, true, sdkStatement?.end);
  let importText: string | undefined;
  let replaceStatement: ModuleImport | undefined;
  if (missing.length > 0) {
    const existing = imports.find((i) => !i.typeOnly && i.namedSpan && i.named.length > 0 && isGeneratedSpecifier(i.module, match));
    if (existing) {
      const last = existing.named[existing.named.length - 1]!;
      edits.push({ start: last.span.end, end: last.span.end, text: `, ${missing.join(', ')}` });
    } else {
      const specifier = relativeSpecifier(ctx.fileAbs, ctx.generatedModule, ctx.settings);
      const sdkImport = imports.find((i) => isSdkModule(i.module)) ?? imports[0];
      const semi = sdkImport && text[sdkImport.span.end - 1] !== ';' ? '' : ';';
      importText =
        scan.moduleSyntax === 'commonjs'
          ? `const { ${missing.join(', ')} } = require(${quoted(specifier, quote)})${semi}`
          : `import { ${missing.join(', ')} } from ${quoted(specifier, quote)}${semi}`;
      replaceStatement = [...removedSpecs].find(([imp, specs]) => wholeStatementGoes(imp, specs))?.[0];
    }
  }
  for (const [imp, specs] of removedSpecs) {
    if (wholeStatementGoes(imp, specs)) {
      if (imp === replaceStatement) edits.push({ start: imp.span.start, end: imp.span.end, text: importText! });
      else {
        const [s, e] = removalRange(text, imp.span.start, imp.span.end, '');
        edits.push({ start: s, end: e, text: '' });
      }
    } else edits.push(...specifierRemovals(imp, specs));
  }
  if (importText !== undefined && !replaceStatement) {
    const newline = text.includes('\r\n') ? '\r\n' : '\n';
    const firstEdit = Math.min(...rewritten.map((c) => c.span.start), ...doors.edits.map((e) => e.start));
    const anchor = lastImportBefore(imports, scan, firstEdit);
    if (anchor) {
      const eol = endOfLineAfter(text, anchor.span.end);
      const needsBreak = eol === text.length && !text.endsWith('\n');
      edits.push({ start: eol, end: eol, text: `${needsBreak ? newline : ''}${importText}${newline}` });
    } else {
      edits.push({ start: 0, end: 0, text: `${importText}${newline}` });
    }
  }
  return edits;
}

function wholeStatementGoes(imp: ModuleImport, specs: ImportedName[]): boolean {
  return specs.length === imp.named.length && !imp.defaultName && !imp.namespaceName;
}

/**
 * Removes specifiers with their commas, a run of adjacent ones at a time (two edits of neighbours
 * would overlap): a run up to the next kept one, or from the previous kept one when the run is last.
 */
function specifierRemovals(imp: ModuleImport, specs: ImportedName[]): TextEdit[] {
  const gone = new Set(specs);
  const edits: TextEdit[] = [];
  for (let i = 0; i < imp.named.length; i++) {
    if (!gone.has(imp.named[i]!)) continue;
    let j = i;
    while (j + 1 < imp.named.length && gone.has(imp.named[j + 1]!)) j++;
    const next = imp.named[j + 1];
    edits.push(
      next ? { start: imp.named[i]!.span.start, end: next.span.start, text: '' } : { start: imp.named[i - 1]!.span.end, end: imp.named[j]!.span.end, text: '' },
    );
    i = j;
  }
  return edits;
}

/** The statement after which the new import goes: the last import (ESM) or require (CommonJS) before the first rewritten call. */
function lastImportBefore(imports: ModuleImport[], scan: FileScan, before: number): ModuleImport | undefined {
  const wanted = scan.moduleSyntax === 'commonjs' ? 'require' : 'import';
  const candidates = imports.filter((i) => i.span.end <= before);
  return candidates.filter((i) => i.syntax === wanted).at(-1) ?? candidates.at(-1);
}

function quoteOf(text: string, at: number | undefined, fallbackSingle = true, end?: number): string {
  if (at === undefined) return fallbackSingle ? "'" : '"';
  // At a string literal: its quote. At a statement: the quote of its specifier (the last quote in
  // it: an import written over several lines has none on its first line).
  const c = text[at];
  if (c === "'" || c === '"') return c;
  if (end !== undefined) {
    const last = Math.max(text.lastIndexOf("'", end), text.lastIndexOf('"', end));
    if (last >= at) return text[last]!;
  }
  const lineEnd = endOfLineAfter(text, at);
  const m = /['"]/.exec(text.slice(at, lineEnd));
  return m ? m[0] : "'";
}

function quoted(value: string, quote: string): string {
  const escaped = value.replace(/\\/g, '\\\\').replace(new RegExp(quote, 'g'), `\\${quote}`);
  return `${quote}${escaped}${quote}`;
}
