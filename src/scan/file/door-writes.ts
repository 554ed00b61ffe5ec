import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { spanOf } from '../parse.js';
import { isToolFactory } from '../imports.js';
import { isStringLike, propertyName, skipWrappers } from '../syntax.js';
import type { DoorWrite, ImportedWrite, InvokeReplacement } from '../types.js';
import { doorOf, resolve, usesAgents, varKey, type FileContext } from './context.js';
import type { PropertyWrite } from './property-writes.js';
import { AGENT_DOOR, type DoorOfValue, exportedDoors, importedWrite } from './door-exports.js';
import { heldDoorsOf } from './held-doors.js';
import { heldValues, type HeldValue } from './door-holders.js';
import { onHandoffInvokeWritten } from './handoffs.js';
import { HOSTED_SHELL, makesHostedShell, makesShellLocal } from './hosted-shells.js';

// What a door depends on, written after it is made: each kind of door names the properties that
// matter to it; the writes themselves are read once, by file/property-writes.ts.

/**
 * The methods the SDK's runner gets an agent's tools and handoffs from (agents-core `getAllTools`,
 * which calls `getMcpTools`; `getEnabledHandoffs`): replaced, they hand the model what no list of
 * the agent holds, so neither the lists' guards nor protectAgent reach it.
 */
export const TOOL_SOURCES = new Set(['getAllTools', 'getMcpTools', 'getEnabledHandoffs']);

/** The lists `protectMcpServer` puts its guards first in: a write that may drop an element drops the guard. */
const GUARD_LISTS = new Set(['toolInputGuardrails', 'toolOutputGuardrails']);
/**
 * What may remove a list's first element. Adding one (`push`, `unshift`) or reordering (`sort`)
 * leaves the policy's guard in the list, and the SDK runs every input guardrail until one rejects.
 */
const DROPS = new Set(['pop', 'shift', 'splice', 'fill', 'copyWithin', 'length', '[]']);

/** Whether a write on a hosted MCP tool may turn its approval off: `providerData` replaced, its `require_approval` set to other than 'always', its `on_approval` set. */
function dropsHostedApproval(w: PropertyWrite): boolean {
  if (w.key !== 'providerData' || w.beforeSpread) return false;
  if (w.inner === undefined || w.inner === 'on_approval') return true;
  const v = w.value && skipWrappers(w.value);
  return w.inner === 'require_approval' && !(v && isStringLike(v) && v.text === 'always');
}

/**
 * For each door whose object the app can change, whether a write breaks it. A protected local door
 * decides in `needsApproval` and runs only in the wrapped `shell`, `editor` or `computer` it built
 * (runtime/doors/local-tools.ts): another one runs what was denied or not approved (another
 * `needsApproval` finds the body refusing, which fails closed). A guarded MCP server decides in the
 * input guardrail it puts first and settles in its output guardrail and its error function
 * (runtime/doors/mcp.ts).
 */
const BREAKS: Record<string, (w: PropertyWrite) => boolean> = {
  protectShellTool: (w) => w.key === 'shell' && !w.beforeSpread,
  protectApplyPatchTool: (w) => w.key === 'editor' && !w.beforeSpread,
  protectComputerTool: (w) => w.key === 'computer' && !w.beforeSpread,
  protectMcpServer: (w) =>
    !w.beforeSpread && (w.key === 'errorFunction' ? w.inner === undefined : GUARD_LISTS.has(w.key) && (w.inner === undefined || DROPS.has(w.inner))),
  hostedMcpTool: dropsHostedApproval,
  protectHostedMcp: dropsHostedApproval,
  // a hosted shell whose environment is made local runs its calls here, with no policy (file/hosted-shells.ts)
  [HOSTED_SHELL]: makesShellLocal,
};

/** Every property some door of `BREAKS` depends on: only writes of these wait for the walk's end. */
const DOOR_PROPERTIES = new Set(['shell', 'editor', 'computer', 'errorFunction', 'providerData', 'environment', ...GUARD_LISTS]);

/** The writes one node makes (an assignment, a call, an object literal): `invoke`, the agent's tool sources and a handoff's `onInvokeHandoff` at once, the doors' properties once the walk is done. */
export function onPropertyWrites(cx: FileContext, writes: readonly PropertyWrite[]): void {
  let replaced = false;
  let handedOff = false;
  for (const w of writes) {
    if (!replaced && replacesInvoke(cx, w)) {
      pushInvokeReplacement(cx, w);
      replaced = true;
    }
    // an agent's tool sources wait too when the file names no SDK: the agent may be imported (door-exports.ts)
    if (DOOR_PROPERTIES.has(w.key) || (TOOL_SOURCES.has(w.key) && !cx.scan.importsSdk)) cx.pendingWrites.push({ write: w, ancestors: cx.ancestors.slice() });
    // a handoff's invoke function given another way than `h.onInvokeHandoff = f` (a copy, Object.assign, reflection)
    if (!handedOff && w.key === 'onInvokeHandoff' && w.form !== 'contents' && !w.beforeSpread) {
      onHandoffInvokeWritten(cx, w.node, w.target);
      handedOff = true;
    }
  }
}

/** `invoke` written on any object (a tool's body replaced), or the agent's tool sources in a file of the SDK (the names are the SDK's own). */
function replacesInvoke(cx: FileContext, w: PropertyWrite): boolean {
  if (w.form === 'contents') return false;
  return w.key === 'invoke' || (TOOL_SOURCES.has(w.key) && cx.scan.importsSdk && w.form !== 'spread');
}

function pushInvokeReplacement(cx: FileContext, w: PropertyWrite): void {
  const form = w.form as InvokeReplacement['form'];
  const r: InvokeReplacement = { kind: 'invoke-replacement', span: spanOf(w.node, cx.sf), form };
  const t = skipWrappers(w.target);
  if (typescript.isIdentifier(t)) r.target = t.text;
  if (w.key !== 'invoke') r.method = w.key;
  if (w.via !== undefined) r.via = w.via;
  cx.scan.invokeReplacements!.push(r);
}

/** The door writes of the file, once it knows which servers it guards in place and where. */
export function settleDoorWrites(cx: FileContext): void {
  const reported = new Set<ts.Node>();
  for (const { write: w, ancestors } of cx.pendingWrites) {
    if (reported.has(w.node)) continue;
    const held = doorHeldBy(cx, w.target, ancestors, w.node.pos);
    // the door the write breaks if its object is one check cannot tell (an opaque holder, or an import
    // whose value the repo scan cannot tell: a factory's result)
    const unknown = unknownHolderDoor(cx, w);
    const door = held.door ?? (held.opaque ? unknown : undefined);
    if (held.door === undefined) {
      const imported = importedWrite(cx, w, ancestors, breaksOf(w)) ?? (held.opaque && door === undefined ? anyImportedDoorWrite(cx, w) : undefined);
      if (imported !== undefined) {
        if (unknown !== undefined) imported.unknown = unknown;
        reported.add(w.node);
        cx.scan.importedWrites = [...(cx.scan.importedWrites ?? []), imported];
        continue;
      }
    }
    if (door === undefined || !BREAKS[door]!(w)) continue;
    reported.add(w.node);
    const d: DoorWrite = { kind: 'door-write', span: spanOf(w.node, cx.sf), door, property: w.key, form: w.form };
    if (w.inner !== undefined) d.inner = w.inner;
    if (w.via !== undefined) d.via = w.via;
    const t = skipWrappers(w.target);
    if (typescript.isIdentifier(t)) d.target = t.text;
    else if (held.door === undefined) d.target = t.getText(cx.sf);
    if (held.door === undefined) d.unresolved = true;
    cx.scan.doorWrites!.push(d);
  }
  const doorOf: DoorOfValue = (e, ancestors) => doorHeldBy(cx, e, ancestors, cx.sf.end);
  const exported = exportedDoors(cx, doorOf);
  if (exported.doors !== undefined) cx.scan.exportedDoors = exported.doors;
  if (exported.unknown !== undefined) cx.scan.unknownExports = exported.unknown;
  const held = heldDoorsOf(cx, doorOf);
  if (held !== undefined) cx.scan.heldDoors = held;
}

/** The doors a write would break if its object were one of them (an imported binding's door is known only to the repo scan). */
function breaksOf(w: PropertyWrite): string[] {
  const out = Object.keys(BREAKS).filter((door) => BREAKS[door]!(w));
  if (TOOL_SOURCES.has(w.key) && w.form !== 'spread' && w.form !== 'contents') out.push(AGENT_DOOR);
  return out;
}

/**
 * The door of `BREAKS` an expression holds where `ancestors` end: a call of it, what a variable, an
 * object's property, a class field or a parameter holds (file/door-holders.ts), a server guarded in
 * place (`protectMcpServer(fs)`) before `at`. The first door found, when the holder may hold several.
 */
function doorHeldBy(cx: FileContext, expr: ts.Expression, ancestors: readonly ts.Node[], at: number): { door?: string; opaque: boolean } {
  const held = heldValues(cx, { expr, ancestors, at });
  for (const v of held.values) {
    const door = doorMadeBy(cx, v);
    if (door !== undefined) return { door, opaque: false };
  }
  return { opaque: held.opaque };
}

/**
 * The door a write on an object check cannot follow would break if the object were one (issue 40,
 * item 4; fail closed, as `invoke` on any object is). Only for the properties that are the SDK's own
 * and rare elsewhere (a server's guard lists and `errorFunction`, a hosted tool's approval in
 * `providerData`), and for a local door's body (`shell`, `editor`, `computer`, common words) only in
 * a file that uses the SDK or the generated module.
 */
function unknownHolderDoor(cx: FileContext, w: PropertyWrite): string | undefined {
  if (w.beforeSpread || w.form === 'spread') return undefined;
  if (GUARD_LISTS.has(w.key) || w.key === 'errorFunction') return 'protectMcpServer';
  if (w.key === 'providerData') return writesApproval(w) ? 'hostedMcpTool' : undefined;
  const local = LOCAL_BODIES[w.key];
  return local !== undefined && usesAgents(cx) ? local : undefined;
}

/**
 * A local door's body (`shell`, `editor`, `computer`) written on an object check cannot follow in a
 * file naming neither the SDK nor the generated module (session 31): the words are common, so it
 * is reported only if a module the file imports exports such a door (the repo scan decides,
 * imported-door-writes.ts), as a write on an object check cannot tell.
 */
function anyImportedDoorWrite(cx: FileContext, w: PropertyWrite): ImportedWrite | undefined {
  const local = LOCAL_BODIES[w.key];
  if (local === undefined || w.beforeSpread || w.form === 'spread') return undefined;
  const specifiers = cx.sf.statements.flatMap((st) =>
    typescript.isImportDeclaration(st) && typescript.isStringLiteral(st.moduleSpecifier) && !st.importClause?.isTypeOnly ? [st.moduleSpecifier.text] : [],
  );
  if (specifiers.length === 0) return undefined;
  const out: ImportedWrite = {
    specifier: specifiers[0]!,
    name: '*',
    anyOf: specifiers,
    breaks: [local],
    span: spanOf(w.node, cx.sf),
    property: w.key,
    form: w.form,
  };
  if (w.inner !== undefined) out.inner = w.inner;
  if (w.via !== undefined) out.via = w.via;
  out.target = skipWrappers(w.target).getText(cx.sf);
  return out;
}

const LOCAL_BODIES: Record<string, string | undefined> = { shell: 'protectShellTool', editor: 'protectApplyPatchTool', computer: 'protectComputerTool' };

/** `x.providerData.require_approval = v`, `.on_approval = f`, or `x.providerData = { require_approval, ... }`: items of the SDK carry a `providerData` too, so only a write of the approval keys counts. */
function writesApproval(w: PropertyWrite): boolean {
  if (w.inner !== undefined) return w.inner === 'require_approval' || w.inner === 'on_approval';
  const v = w.value && skipWrappers(w.value);
  return (
    v !== undefined &&
    typescript.isObjectLiteralExpression(v) &&
    v.properties.some((p) => typescript.isSpreadAssignment(p) || ['require_approval', 'on_approval'].includes(propertyName(p.name) ?? ''))
  );
}

function doorMadeBy(cx: FileContext, v: HeldValue): string | undefined {
  const e = v.expr;
  if (typescript.isIdentifier(e)) {
    const guardedAt = cx.serverGuardEnds.get(varKey(cx, e.text, v.ancestors));
    return guardedAt !== undefined && guardedAt <= v.at ? 'protectMcpServer' : undefined;
  }
  if (makesHostedShell(cx, e)) return HOSTED_SHELL;
  if (!typescript.isCallExpression(e)) return undefined;
  const door = doorOf(cx, e.expression);
  if (door !== undefined) return door in BREAKS ? door : undefined;
  const r = resolve(cx, e.expression);
  return r?.member === 'hostedMcpTool' && isToolFactory(r.module, r.member) ? r.member : undefined;
}
