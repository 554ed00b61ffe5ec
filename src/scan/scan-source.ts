import path from 'node:path';
import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';
import { collectModuleImports, isGeneratedSpecifier, isSdkModule, moduleImportsToCount, moduleValue, type Binding, type GeneratedMatch } from './imports.js';
import type { KeptBindings } from './barrels.js';
import { parseSource } from './parse.js';
import { namesCreateRequire } from './module-loads.js';
import { runtimeImportNames } from './runs.js';
import { findSuppressions } from './suppressions.js';
import { collectAliasNames, topLevelConstStrings } from './syntax.js';
import { topLevelBindings } from './values.js';
import type { FileScan, ImportedName, ModuleImport } from './types.js';
import { GENERATED_DOORS, initializerOf, sdkMember, sdkTypeMember, type FileContext, type ScanSourceOptions } from './file/context.js';
import { settleServerLists } from './file/mcp-servers.js';
import { settleHandoffLists } from './file/handoffs.js';
import { settleDoorWrites } from './file/door-writes.js';
import { settleSandboxAgents } from './file/sandbox-agents.js';
import { visitFile } from './file/visit.js';
import { fileReach, loosePartsOf, readHostedLabels, readRunReach, type FileReach } from './reach/file-reach.js';

// One file's scan: what its imports bind, then one walk that hands each door to its reader
// (src/scan/file/), then what can only be read once the whole file is known.

export type { ImportedConstResolver, ScanSourceOptions } from './file/context.js';
export { exportedConstString, optionsOf, topLevelConstStrings } from './syntax.js';
export { barrelValue, sdkExportsOf, topLevelBindings, type SdkExports } from './values.js';

/** Scans one file's text (pure). */
export function scanSource(file: string, text: string, options: ScanSourceOptions = {}): FileScan {
  return scanParsed(file, text, parseSource(file, text), options);
}

type Parsed = ReturnType<typeof parseSource>;

/** Scans one already-parsed file (pure). */
export function scanParsed(file: string, text: string, parsed: Parsed, options: ScanSourceOptions = {}): FileScan {
  const cx = createFileContext(file, text, parsed, options);
  readModuleFacts(cx, file);
  visitFile(cx);
  settleServerLists(cx);
  settleSandboxAgents(cx);
  settleHandoffLists(cx);
  settleDoorWrites(cx);
  // the tree stays with the scan (not enumerable: a scan is plain data): readers of the same file reuse it
  Object.defineProperty(cx.scan, TREE, { value: parsed.sf, enumerable: false });
  if (cx.pendingHosted.length > 0) readHostedLabels(cx, cx.pendingHosted);
  if (cx.pendingRuns.length > 0) readRunReach(cx, cx.pendingRuns);
  else if (GROWS_AGENT_PARTS.test(text)) {
    const loose = loosePartsOf(cx);
    if (loose.length > 0) cx.scan.looseParts = loose;
  }
  return cx.scan;
}

const TREE: unique symbol = Symbol('ctrlrun.scan.tree');

/**
 * The syntax tree a file's scan was made from (issue 40, item 8: `check` parsed each file that
 * declares a mapped tool twice more, to read its parameters). Undefined for a scan of another origin.
 */
export function treeOf(scan: FileScan): ts.SourceFile | undefined {
  return (scan as { [TREE]?: ts.SourceFile })[TREE];
}

/** A file that may add to an agent's parts after it is made (`x.tools.push(t)`, `x.tools = [...]`): read for them. */
const GROWS_AGENT_PARTS = /\.(?:tools|handoffs|mcpServers)\s*(?:\.\s*(?:push|unshift|splice)\b|\[|=(?!=))/;

/** A parsed file's exports as the run reach reads them (src/scan/reach/), for a file of the repo. */
export function fileReachOf(file: string, text: string, parsed: Parsed, options: ScanSourceOptions = {}): FileReach {
  const cx = createFileContext(file, text, parsed, options);
  readModuleFacts(cx, file);
  return fileReach(cx);
}

function emptyScan(file: string, sf: ts.SourceFile, text: string, moduleImports: ModuleImport[]): FileScan {
  return {
    file,
    importsSdk: false,
    sdkToolCalls: [],
    protectedToolCalls: [],
    generatedImports: [],
    hostedMcpCalls: [],
    agentMcpServers: [],
    stickyApprovals: [],
    disablesSensitiveTracing: false,
    suppressions: findSuppressions(sf, text),
    sdkFactoryCalls: [],
    opaqueFactoryUses: [],
    objectLiteralTools: [],
    literalDoors: [],
    invokeReplacements: [],
    sdkApprovals: [],
    generatedDoorCalls: [],
    mcpServerLists: [],
    mcpErrorFunctions: [],
    doorWrites: [],
    agentAsToolCalls: [],
    sandboxAgents: [],
    handoffs: [],
    runCalls: [],
    identityReads: [],
    realtimeSessions: [],
    realtimeApprovalHandlers: [],
    moduleImports,
  };
}

function createFileContext(file: string, text: string, parsed: Parsed, options: ScanSourceOptions): FileContext {
  const { sf, parseError } = parsed;
  const links = options.links;
  const moduleImports = moduleImportsToCount(sf);
  const fileAbs = options.root ? path.resolve(options.root, file) : path.resolve(file);
  const match: GeneratedMatch = { fileAbs: options.root ? fileAbs : undefined, generatedModule: options.generatedModule };
  const kept = options.keptBindings?.(fileAbs, sf);
  const bindings = kept ? countingBindings(kept, moduleImports) : topLevelBindings(sf, moduleImports, { ...match, fileAbs }, links);
  const scan = emptyScan(file, sf, text, moduleImports);
  if (parseError) scan.parseError = parseError;
  // Names worth tracking through scopes: the top-level bindings and every name a variable
  // declaration anywhere could bind to the SDK (an alias in a function body).
  const interesting = new Set(bindings.keys());
  const hoisted = new Map<ts.Node, ts.VariableDeclaration[]>();
  const declarations = collectAliasNames(sf, interesting, hoisted);
  const constStrings = topLevelConstStrings(sf);
  const ancestors: ts.Node[] = [];
  const cx: FileContext = {
    sf,
    fileAbs,
    links,
    match,
    options,
    scan,
    moduleImports,
    bindings,
    interesting,
    hoisted,
    constStrings,
    declarations,
    scopes: [],
    ancestors,
    generatedDoorNames: new Map(),
    generatedNamespaces: new Set(),
    guardedServerVars: new Set(),
    serverGuardEnds: new Map(),
    guardedAgentVars: new Set(),
    guardedAgentNodes: new Set(),
    pendingLists: [],
    mcpProperties: new Map(),
    pendingRuns: [],
    pendingHosted: [],
    pendingSandboxAgents: [],
    pendingHandoffLists: [],
    pendingConversions: [],
    pendingWrites: [],
    cache: {},
    moduleLoads: {
      sf,
      leadsToSdk: (specifier) => isSdkModule(specifier) || moduleValue(specifier, fileAbs, links) !== undefined,
      initializerOf: (name) => initializerOf(cx, name),
      ancestors,
      hoisted,
      constStrings,
      mayCreateRequire: namesCreateRequire(text),
    },
    runScan: {
      sf,
      sdkMember: (e) => sdkMember(cx, e),
      sdkTypeMember: (e) => sdkTypeMember(cx, e),
      runtimeNames: runtimeImportNames(moduleImports),
      initializerOf: (name) => initializerOf(cx, name),
      ancestors,
      hoisted,
      fileAbs,
      imports: moduleImports,
    },
  };
  return cx;
}

/**
 * The bindings the barrels kept for this tree, each import's name moved to the scan's counting copy
 * of it (the same import at the same place of `moduleImportsToCount`'s list): the scan counts its
 * references there, never in the tree's shared list.
 */
export function countingBindings(kept: KeptBindings, moduleImports: readonly ModuleImport[]): Map<string, Binding> {
  const shared = collectModuleImports(kept.sf);
  const copyOf = new Map<ImportedName, ImportedName>();
  for (let i = 0; i < shared.length; i++) {
    const named = shared[i]!.named;
    for (let j = 0; j < named.length; j++) copyOf.set(named[j]!, moduleImports[i]!.named[j]!);
  }
  const out = new Map<string, Binding>();
  for (const [name, b] of kept.bindings) {
    const spec = b.kind === 'generated-namespace' ? undefined : b.spec;
    out.set(name, spec === undefined ? { ...b } : ({ ...b, spec: copyOf.get(spec)! } as Binding));
  }
  return out;
}

/** Whether the file reaches the SDK, imports the generated module (and which of its doors), and its module syntax. */
function readModuleFacts(cx: FileContext, file: string): void {
  const { scan, sf, fileAbs, links, match } = cx;
  let esmSyntax = false;
  let requires = false;
  for (const imp of cx.moduleImports) {
    if (imp.syntax === 'import') esmSyntax = true;
    else requires = true;
    if (isSdkModule(imp.module) || (!imp.typeOnly && moduleValue(imp.module, fileAbs, links))) scan.importsSdk = true;
    if (imp.module && !isSdkModule(imp.module) && isGeneratedSpecifier(imp.module, match)) {
      if (imp.namespaceName && !imp.typeOnly) {
        scan.generatedImports.push({ span: imp.span, specifier: imp.module, localName: `${imp.namespaceName}.protectedTool`, syntax: imp.syntax });
      }
      for (const spec of imp.named) {
        if (spec.imported === 'protectedTool' && !spec.typeOnly) {
          scan.generatedImports.push({ span: imp.span, specifier: imp.module, localName: spec.local, syntax: imp.syntax });
        }
        if (GENERATED_DOORS.has(spec.imported) && !spec.typeOnly) cx.generatedDoorNames.set(spec.local, spec.imported);
      }
      if (imp.namespaceName && !imp.typeOnly) cx.generatedNamespaces.add(imp.namespaceName);
    }
  }
  for (const st of sf.statements) {
    const exported = typescript.canHaveModifiers(st) && !!typescript.getModifiers(st)?.some((m) => m.kind === typescript.SyntaxKind.ExportKeyword);
    if (typescript.isExportDeclaration(st) || typescript.isExportAssignment(st) || exported) esmSyntax = true;
    if (
      typescript.isExportDeclaration(st) &&
      st.moduleSpecifier &&
      typescript.isStringLiteral(st.moduleSpecifier) &&
      moduleValue(st.moduleSpecifier.text, fileAbs, links)
    )
      scan.importsSdk = true;
  }
  const ext = path.extname(file).toLowerCase();
  scan.moduleSyntax = ext === '.cts' || ext === '.cjs' || (requires && !esmSyntax) ? 'commonjs' : 'esm';
}
