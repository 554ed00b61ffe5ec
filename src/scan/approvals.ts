import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';
import { valueBranches } from './value-branches.js';
import { castType } from './bound-types.js';
import { declaredReturnType, isAwaited, promised } from './declared-returns.js';
import { declarationOf, unwrapValue } from './local-values.js';
import { type HeldType, mapGetType, mapSetValues } from './map-values.js';
import type { HoistedVars } from './scope.js';
import { useRefType, useStateType } from './react-state.js';
import { type ClassField, destructuredKey, fieldFromThis, outsideBaseName, thisField, thisFieldType } from './this-fields.js';
import { type ModuleTreeReader, typeNamesOf } from './imported-types.js';
import {
  classPropertyType,
  settledType,
  type WrittenType,
  writtenCallType,
  writtenDestructuredType,
  writtenElementType,
  writtenHeldType,
  writtenMemberType,
} from './written-members.js';
import type { ModuleImport } from './types.js';
import { ITEM_TYPES, isSdkClass, isWrittenSdkType, mayBeWrittenSdkType, RECEIVER_TYPES, type SdkTypeNames } from './written-sdk-type.js';

/**
 * Whether `receiver.approve(item)` (or reject/approveTool/rejectTool) is the SDK's own approval:
 * the receiver is a `RunState` (a run result's `state`, `RunState.fromString(...)`), a
 * `RunContext` or a `RealtimeSession`, or the item is an interruption (from `result.interruptions`,
 * `getInterruptions()`, a realtime request's `approvalItem`). An app's own `companyClient.approve(id)`
 * is neither (issue 21: 16 false findings in one repo).
 */
export function isSdkApprovalCall(receiver: ts.Expression, item: ts.Expression, ancestors: readonly ts.Node[], sf: ts.SourceFile, file: ApprovalFile): boolean {
  const ctx = newCtx(ancestors, sf, file, mayBeWrittenSdkType);
  return isSdkReceiver(receiver, ctx) || isInterruption(item, ctx);
}

/**
 * Whether the receiver alone may be the SDK's (a RunState, a RunContext, a RealtimeSession): an
 * answer by a key check cannot read (`state[k](item)`) may be any method, so only the receiver
 * says it is the SDK's, not an interruption passed to the app's own object (`handlers[k](item)`).
 */
export function isSdkAnswerReceiver(receiver: ts.Expression, ancestors: readonly ts.Node[], sf: ts.SourceFile, file: ApprovalFile): boolean {
  return isSdkReceiver(receiver, newCtx(ancestors, sf, file, mayBeWrittenSdkType));
}

/**
 * Whether a run's input is a RunState (a resume: the state carries the context it was run with).
 * A union counts only when every alternative is the SDK's: a resume skips the context-runs and
 * identity checks, so a wrong "yes" would hide their findings.
 */
export function isRunStateValue(expr: ts.Expression, ancestors: readonly ts.Node[], sf: ts.SourceFile, file: ApprovalFile): boolean {
  return isSdkReceiver(expr, newCtx(ancestors, sf, file, isWrittenSdkType));
}

/** What the file's scan already collected that the readers use: its imports (the SDK's type names among them), its hoisted `var`s, its resolver of the SDK's exports. */
export interface ApprovalFile {
  imports: readonly ModuleImport[];
  /** The `var`s each function of the file hoists, when the scan filed them (local-values.ts). */
  hoisted?: HoistedVars | undefined;
  /** The scan's resolver of an expression to the SDK's export it names (through barrels and aliases). */
  sdkMember?: SdkMember | undefined;
  /** The file's absolute path and the repo scan's reader of the app's other files: a type they export is read there (imported-types.ts). */
  fileAbs?: string | undefined;
  readModule?: ModuleTreeReader | undefined;
}

interface Ctx {
  ancestors: readonly ts.Node[];
  sf: ts.SourceFile;
  depth: number;
  /** The `var`s each function of the file hoists, when the scan filed them (local-values.ts). */
  hoisted: HoistedVars | undefined;
  /** The SDK's type names the file imports, read once when a written type is first asked about. */
  names: () => SdkTypeNames;
  /** The test of a written type: every alternative of a union the SDK's, or any one (an answer, failing closed). */
  sdk: SdkTypeTest;
}

type SdkTypeTest = typeof isWrittenSdkType;

/** The scan's resolver of an expression to the SDK's export it names (through barrels and aliases). */
type SdkMember = (expr: ts.Expression) => string | undefined;

function newCtx(ancestors: readonly ts.Node[], sf: ts.SourceFile, file: ApprovalFile, sdk: SdkTypeTest): Ctx {
  let names: SdkTypeNames | undefined;
  return {
    ancestors,
    sf,
    depth: 0,
    hoisted: file.hoisted,
    names: () => (names ??= typeNamesOf(file.imports, file.fileAbs, file.readModule, file.sdkMember)),
    sdk,
  };
}

const RESULT_TYPES: ReadonlySet<string> = new Set(['RunResult', 'StreamedRunResult', 'RunState']);

/** Whether a written type is the SDK's (one of `wanted`); with `element`, a list of them too. */
const isSdk = (type: ts.TypeNode | undefined, wanted: ReadonlySet<string>, ctx: Ctx, element = false): boolean =>
  ctx.sdk(type, wanted, ctx.names(), ctx.sf, { element });
/**
 * Whether the alternatives a member may be (those the tag tests around the use leave) are the
 * SDK's: any one, for an answer (fail closed); every one for a resume, unless a test around the use
 * may or may not have narrowed them.
 */
const sdkAlternatives = (types: readonly WrittenType[], wanted: ReadonlySet<string>, ctx: Ctx): boolean => {
  const sdk = (t: WrittenType) => ctx.sdk(t.type, wanted, t.names, t.sf);
  return ctx.sdk === mayBeWrittenSdkType || types.some((t) => t.unsure === true) ? types.some(sdk) : types.every(sdk);
};
/** The file the readers are in, as the member reader takes it. */
const here = (ctx: Ctx) => ({ sf: ctx.sf, names: ctx.names() });
/** The type a declaration writes (`state: RunState<...>`), or undefined. */
const declaredType = (decl: ts.Node): ts.TypeNode | undefined =>
  typescript.isVariableDeclaration(decl) || typescript.isParameter(decl) ? decl.type : undefined;

/**
 * Whether a class field holds one of the SDK's `wanted` values: its written type says so, or, with
 * none written, it is made by `new` of the SDK's class (`session = new RealtimeSession(agent)`).
 */
function isSdkField(field: ClassField, wanted: ReadonlySet<string>, ctx: Ctx): boolean {
  if (field.type) return isSdk(field.type, wanted, ctx);
  const init = field.initializer && unwrapValue(field.initializer);
  return init !== undefined && typescript.isNewExpression(init) && isSdkClass(unwrapValue(init.expression), wanted, ctx.names());
}

/**
 * `this.name` of a field the class's base declares in another file of the app (`class Desk extends
 * BaseDesk`, imported-types.ts), read with that file's names; undefined when it is not one.
 */
function baseField(e: ts.Expression, ctx: Ctx): WrittenType | undefined {
  if (!typescript.isPropertyAccessExpression(e) || e.expression.kind !== typescript.SyntaxKind.ThisKeyword) return undefined;
  const base = outsideBaseName(ctx.ancestors);
  const found = base === undefined ? undefined : ctx.names().imported?.(base);
  if (found?.kind !== 'declared' || !typescript.isClassDeclaration(found.decl)) return undefined;
  const type = classPropertyType(found.decl, e.name.text);
  return type && { type, sf: found.sf, names: found.names };
}

/** Whether `this.name` is a field of a base class of another file whose written type is one of `wanted`. */
const isSdkBaseField = (e: ts.Expression, wanted: ReadonlySet<string>, ctx: Ctx): boolean => {
  const f = baseField(e, ctx);
  return f !== undefined && ctx.sdk(f.type, wanted, f.names, f.sf);
};

/** Whether a map's value type is one of `wanted`, read in the file it is written in. */
const isSdkHeld = (held: HeldType, wanted: ReadonlySet<string>, ctx: Ctx): boolean =>
  held.from ? ctx.sdk(held.type, wanted, held.from.names, held.from.sf) : isSdk(held.type, wanted, ctx);

const deeper = (ctx: Ctx): Ctx | undefined => (ctx.depth >= 6 ? undefined : { ...ctx, depth: ctx.depth + 1 });

/**
 * Whether a value the class puts in the untyped map `e` reads is one `test` takes (the SDK's):
 * any one is enough, failing closed, as a map holding the SDK's sessions is answered through.
 */
function anySet(e: ts.Expression, ctx: Ctx, test: (v: ts.Expression, ctx: Ctx) => boolean): boolean {
  const sets = mapSetValues(e, ctx.ancestors);
  const next = sets && deeper(ctx);
  return next !== undefined && sets!.some((s) => test(s.value, { ...next, ancestors: s.ancestors }));
}

/**
 * Whether `test` takes the branches of `e` (value-branches.ts): any one for an answer (fail closed,
 * as for an untested union), each for a resume, which also reads the left of `&&` (`ok && s` may be
 * `false`); undefined when `e` has none.
 */
function eachBranch(e: ts.Expression, ctx: Ctx, test: (v: ts.Expression, ctx: Ctx) => boolean): boolean | undefined {
  const answer = ctx.sdk === mayBeWrittenSdkType;
  const sides = valueBranches(e, !answer);
  if (sides === undefined) return undefined;
  const next = deeper(ctx);
  if (!next) return false;
  // among the ancestors, `?:` narrows its branches by its test (`t.kind === 'review' ? t.state : r`), as `||` and `&&` their right side
  const within = { ...next, ancestors: [...ctx.ancestors, e] };
  return answer ? sides.some((s) => test(s, within)) : sides.every((s) => test(s, within));
}

/** A value of the SDK: a RunState, a RunContext or a RealtimeSession. */
function isSdkReceiver(expr: ts.Expression, ctx: Ctx): boolean {
  // `(x as RunState<…>).approve(i)`: the cast's type says so; any other cast leaves the value's own reading (fail closed)
  const cast = castType(expr);
  if (cast !== undefined && sdkAlternatives(settledType(cast, here(ctx)), RECEIVER_TYPES, ctx)) return true;
  const e = unwrapValue(expr);
  // `(c ? s : review).approve(i)`, `(saved ?? review).approve(i)`, `(ok && s).approve(i)`
  const either = eachBranch(e, ctx, isSdkReceiver);
  if (either !== undefined) return either;
  const field = thisField(e, ctx.ancestors);
  if (field?.type !== undefined) return isSdk(field.type, RECEIVER_TYPES, ctx);
  if (field !== undefined && isSdkField(field, RECEIVER_TYPES, ctx)) return true;
  if (field === undefined && isSdkBaseField(e, RECEIVER_TYPES, ctx)) return true;
  if (typescript.isPropertyAccessExpression(e)) {
    // `entry.state` of an object whose written type says what `state` is
    const member = writtenMemberType(e.expression, e.name.text, ctx.ancestors, here(ctx), ctx.hoisted);
    if (member !== undefined) return sdkAlternatives(member, RECEIVER_TYPES, ctx);
    // `result.state` of a run's result; `session.current` of a realtime hook is not followed
    if (e.name.text === 'state') return isRunResult(e.expression, ctx);
    if (e.name.text === 'context') return isRunResult(e.expression, ctx);
    // `session.current` of `useRef<RealtimeSession | null>(…)`
    if (e.name.text === 'current' && typescript.isIdentifier(e.expression)) {
      const ref = declarationOf(e.expression.text, ctx.ancestors, ctx.hoisted);
      return ref !== undefined && isSdk(useRefType(ref), RECEIVER_TYPES, ctx);
    }
    return false;
  }
  // `states['a']` of `Record<string, RunState>`, `states[0]` of `RunState[]` (type-shapes.ts)
  const element = typescript.isElementAccessExpression(e) ? writtenElementType(e, ctx.ancestors, here(ctx), ctx.hoisted) : undefined;
  if (element !== undefined) return sdkAlternatives(element, RECEIVER_TYPES, ctx);
  // `this.sessions.get(id)!` of `Map<string, RealtimeSession>`
  const held = mapGetType(e, ctx.ancestors, ctx.hoisted, ctx.names());
  if (held !== undefined) return isSdkHeld(held, RECEIVER_TYPES, ctx);
  // `p.states.get(id)!` of a member written `Map<string, RunState>`
  const inMember = writtenHeldType(e, ctx.ancestors, here(ctx), ctx.hoisted);
  if (inMember !== undefined) return sdkAlternatives(inMember, RECEIVER_TYPES, ctx);
  // of an untyped `new Map()` the class fills with `this.sessions.set(id, new RealtimeSession(…))`
  if (anySet(e, ctx, isSdkReceiver)) return true;
  // `load()` of a function the file declares returning the state (declared-returns.ts), `await` kept
  const returned = typescript.isCallExpression(e) ? declaredReturnType(expr, ctx.ancestors, ctx.hoisted, ctx.sf) : undefined;
  if (returned !== undefined && sdkAlternatives(settledType(returned, here(ctx)), RECEIVER_TYPES, ctx)) return true;
  // `p.current()` of a method (or a function-typed member) whose written return type says so (written-returns.ts)
  const written = typescript.isCallExpression(e) ? writtenCallType(e, ctx.ancestors, here(ctx), ctx.hoisted) : undefined;
  // `await load()` of `load: () => Promise<RunState>`: what the promise gives, read where the return type is written
  const called = written && isAwaited(expr) ? written.flatMap((t) => settledType(promised(t.type), t)) : written;
  if (called !== undefined && sdkAlternatives(called, RECEIVER_TYPES, ctx)) return true;
  if (typescript.isCallExpression(e) || typescript.isNewExpression(e)) return makesSdkValue(e, ctx);
  if (typescript.isIdentifier(e)) {
    const decl = declarationOf(e.text, ctx.ancestors, ctx.hoisted);
    if (!decl) return false;
    // `const { state } = this`: the class's field
    const own = fieldFromThis(e.text, ctx.ancestors, ctx.hoisted);
    if (own !== undefined) return isSdkField(own, RECEIVER_TYPES, ctx);
    // `const [state] = e` of a pair `[RunState, Item]`: the element in its place
    const placed = writtenDestructuredType(e.text, ctx.ancestors, here(ctx), ctx.hoisted);
    if (placed !== undefined) return sdkAlternatives(placed, RECEIVER_TYPES, ctx);
    const type = declaredType(decl);
    // `s: Pending['state']`: the member it reads (type-shapes.ts)
    if (type !== undefined) return sdkAlternatives(settledType(type, here(ctx)), RECEIVER_TYPES, ctx);
    const next = deeper(ctx);
    if (!next || !typescript.isVariableDeclaration(decl) || !decl.initializer) return false;
    // `const { state } = await run(...)`: the result's `state`, as `result.state` is
    const key = destructuredKey(decl, e.text);
    // `const { state } = this.entry!` of an object whose written type says what `state` is
    const member = key === undefined ? undefined : writtenMemberType(decl.initializer, key, ctx.ancestors, here(ctx), ctx.hoisted);
    if (member !== undefined) return sdkAlternatives(member, RECEIVER_TYPES, ctx);
    if (key !== undefined) return (key === 'state' || key === 'context') && isRunResult(decl.initializer, next);
    return typescript.isIdentifier(decl.name) && isSdkReceiver(decl.initializer, next);
  }
  return false;
}

/**
 * `RunState.fromString(...)`, `new RealtimeSession(...)`, `new RunState(...)`: the SDK's class, as
 * the file imports it (the app's own `RealtimeSession` wrapper is not the SDK's).
 */
function makesSdkValue(e: ts.CallExpression | ts.NewExpression, ctx: Ctx): boolean {
  const callee = unwrapValue(e.expression);
  if (typescript.isNewExpression(e)) return isSdkClass(callee, RECEIVER_TYPES, ctx.names());
  return (
    typescript.isPropertyAccessExpression(callee) &&
    /^fromString/.test(callee.name.text) &&
    isSdkClass(unwrapValue(callee.expression), STATE_CLASS, ctx.names())
  );
}

const STATE_CLASS: ReadonlySet<string> = new Set(['RunState']);

/** A run's result: `await run(...)`, `await runner.run(...)`, or a value typed as one. */
function isRunResult(expr: ts.Expression, ctx: Ctx): boolean {
  const e = unwrapValue(expr);
  // `this.last!` of `last?: RunResult<…>`
  const field = thisFieldType(e, ctx.ancestors);
  if (field !== undefined) return isSdk(field, RESULT_TYPES, ctx);
  if (isSdkBaseField(e, RESULT_TYPES, ctx)) return true;
  if (typescript.isCallExpression(e)) {
    // `this.runs.get(id)!` of `Map<string, RunResult<…>>`
    const held = mapGetType(e, ctx.ancestors, ctx.hoisted, ctx.names());
    if (held !== undefined) return isSdkHeld(held, RESULT_TYPES, ctx);
    const callee = unwrapValue(e.expression);
    const name = typescript.isIdentifier(callee) ? callee.text : typescript.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
    return name === 'run';
  }
  if (typescript.isIdentifier(e)) {
    const decl = declarationOf(e.text, ctx.ancestors, ctx.hoisted);
    if (!decl) return false;
    const type = declaredType(decl);
    if (type !== undefined) return isSdk(type, RESULT_TYPES, ctx);
    const init = typescript.isVariableDeclaration(decl) && typescript.isIdentifier(decl.name) ? decl.initializer : undefined;
    const next = deeper(ctx);
    return !!init && !!next && isRunResult(init, next);
  }
  return false;
}

/** An interruption item: `result.interruptions[0]`, a loop over them, a callback's item, `request.approvalItem`. */
function isInterruption(expr: ts.Expression, ctx: Ctx): boolean {
  const e = unwrapValue(expr);
  // `o.approve(c ? item : row)`: either may be the run's interruption
  const either = eachBranch(e, ctx, isInterruption);
  if (either !== undefined) return either;
  if (typescript.isPropertyAccessExpression(e) && e.name.text === 'approvalItem') return true;
  if (typescript.isPropertyAccessExpression(e)) {
    const member = writtenMemberType(e.expression, e.name.text, ctx.ancestors, here(ctx), ctx.hoisted);
    if (member !== undefined && sdkAlternatives(member, ITEM_TYPES, ctx)) return true;
  }
  const field = thisFieldType(e, ctx.ancestors);
  if (field !== undefined) return isSdk(field, ITEM_TYPES, ctx);
  if (isSdkBaseField(e, ITEM_TYPES, ctx)) return true;
  if (typescript.isElementAccessExpression(e)) return isInterruptionList(e.expression, ctx);
  // `this.pending.get(id)!` of `Map<string, RunToolApprovalItem>`
  const held = mapGetType(e, ctx.ancestors, ctx.hoisted, ctx.names());
  if (held !== undefined) return isSdkHeld(held, ITEM_TYPES, ctx);
  // of an untyped `new Map()` the class fills with the run's interruptions
  if (anySet(e, ctx, isInterruption)) return true;
  if (typescript.isCallExpression(e)) {
    const callee = unwrapValue(e.expression);
    return (
      typescript.isPropertyAccessExpression(callee) && /^(?:find|at|pop|shift|findLast)$/.test(callee.name.text) && isInterruptionList(callee.expression, ctx)
    );
  }
  if (!typescript.isIdentifier(e)) return false;
  const decl = declarationOf(e.text, ctx.ancestors, ctx.hoisted);
  if (!decl) return false;
  const next = deeper(ctx);
  if (!next) return false;
  // `({ item }: Pending)`, `for (const { item } of pending)`: the written type down the pattern or loop
  const placed = writtenDestructuredType(e.text, ctx.ancestors, here(ctx), ctx.hoisted);
  if (placed !== undefined && sdkAlternatives(placed, ITEM_TYPES, ctx)) return true;
  if (typescript.isForOfStatement(decl)) return isInterruptionList(decl.expression, next);
  if (isSdk(declaredType(decl) ?? useStateType(decl, e.text), ITEM_TYPES, ctx)) return true;
  if (typescript.isParameter(decl)) return isCallbackOfList(decl, ctx);
  if (typescript.isVariableDeclaration(decl) && decl.initializer) {
    // `const { item } = this.entry!` of an object whose written type says what `item` is
    const key = destructuredKey(decl, e.text);
    const member = key === undefined ? undefined : writtenMemberType(decl.initializer, key, ctx.ancestors, here(ctx), ctx.hoisted);
    if (member !== undefined) return sdkAlternatives(member, ITEM_TYPES, ctx);
    // `const [item] = result.interruptions`, `const item = result.interruptions[0]`
    return typescript.isArrayBindingPattern(decl.name) ? isInterruptionList(decl.initializer, next) : isInterruption(decl.initializer, next);
  }
  return false;
}

/** `result.interruptions`, `state.getInterruptions()`, a filtered copy, or a variable holding one. */
function isInterruptionList(expr: ts.Expression, ctx: Ctx): boolean {
  const e = unwrapValue(expr);
  // a class's field typed as a list of items (`private pending: RunToolApprovalItem[]`)
  if (isSdk(thisFieldType(e, ctx.ancestors), ITEM_TYPES, ctx, true)) return true;
  if (typescript.isPropertyAccessExpression(e)) return e.name.text === 'interruptions';
  if (typescript.isCallExpression(e)) {
    const callee = unwrapValue(e.expression);
    if (!typescript.isPropertyAccessExpression(callee)) return false;
    if (callee.name.text === 'getInterruptions') return true;
    return /^(?:filter|slice|reverse|toReversed|concat)$/.test(callee.name.text) && isInterruptionList(callee.expression, ctx);
  }
  if (typescript.isArrayLiteralExpression(e)) return e.elements.some((el) => typescript.isSpreadElement(el) && isInterruptionList(el.expression, ctx));
  if (typescript.isIdentifier(e)) {
    const decl = declarationOf(e.text, ctx.ancestors, ctx.hoisted);
    // `const [queue] = useState<RunToolApprovalItem[]>([])`
    if (decl && isSdk(useStateType(decl, e.text), ITEM_TYPES, ctx, true)) return true;
    // `const { pending } = this`: the class's field
    const own = decl && fieldFromThis(e.text, ctx.ancestors, ctx.hoisted);
    if (own !== undefined) return isSdk(own.type, ITEM_TYPES, ctx, true);
    const next = deeper(ctx);
    if (!decl || !next || !typescript.isVariableDeclaration(decl) || !decl.initializer) return false;
    // `const { interruptions } = result`: a list named as `result.interruptions` is
    const key = destructuredKey(decl, e.text);
    if (key !== undefined) return key === 'interruptions';
    return typescript.isIdentifier(decl.name) && isInterruptionList(decl.initializer, next);
  }
  return false;
}

/** A parameter of the callback of `list.forEach/map/...((item) => ...)` over interruptions. */
function isCallbackOfList(param: ts.ParameterDeclaration, ctx: Ctx): boolean {
  // the callback is the innermost function-like ancestor declaring the parameter; its call is above it
  for (let i = ctx.ancestors.length - 1; i > 0; i--) {
    const fn = ctx.ancestors[i]!;
    if (!typescript.isFunctionLike(fn) || !(fn as ts.SignatureDeclaration).parameters.includes(param)) continue;
    const call = ctx.ancestors[i - 1]!;
    if (!typescript.isCallExpression(call) || !call.arguments.includes(fn as unknown as ts.Expression)) return false;
    const callee = unwrapValue(call.expression);
    const next = deeper({ ...ctx, ancestors: ctx.ancestors.slice(0, i - 1) });
    return (
      typescript.isPropertyAccessExpression(callee) &&
      (callee.name.text === 'forEach' ||
        callee.name.text === 'map' ||
        callee.name.text === 'filter' ||
        callee.name.text === 'some' ||
        callee.name.text === 'every') &&
      (fn as ts.SignatureDeclaration).parameters[0] === param &&
      !!next &&
      isInterruptionList(callee.expression, next)
    );
  }
  return false;
}

/** The type an item is written with: `e as T`, a typed local or parameter, a class field; undefined when none. */
function writtenItemType(expr: ts.Expression, ctx: Ctx): ts.TypeNode | undefined {
  let e = expr;
  while (typescript.isParenthesizedExpression(e) || typescript.isNonNullExpression(e)) e = e.expression;
  if (typescript.isAsExpression(e) || typescript.isSatisfiesExpression(e) || typescript.isTypeAssertionExpression(e)) return e.type;
  const field = thisFieldType(e, ctx.ancestors);
  if (field !== undefined) return field;
  if (!typescript.isIdentifier(e)) return undefined;
  const decl = declarationOf(e.text, ctx.ancestors, ctx.hoisted);
  // a name a pattern binds (`({ own, item }: Held)`) is not of the pattern's whole type
  const plain = decl && (typescript.isVariableDeclaration(decl) || typescript.isParameter(decl)) && typescript.isIdentifier(decl.name);
  return plain ? declaredType(decl) : undefined;
}

/**
 * Whether an item's written type is one no SDK answer takes: a primitive, a literal, a function or
 * object literal type, or an error class (`Error`, `TimeoutError`), in every alternative. `any`,
 * `unknown` and other names may be an approval item (an alias from another file): not these.
 */
export function cannotBeItem(item: ts.Expression, ancestors: readonly ts.Node[], sf: ts.SourceFile, file: ApprovalFile): boolean {
  // an item that may be the SDK's (`RunToolApprovalItem | string`) is not skipped
  const ctx = newCtx(ancestors, sf, file, mayBeWrittenSdkType);
  const type = writtenItemType(item, ctx);
  return type !== undefined && !isSdk(type, ITEM_TYPES, ctx) && notAnItem(type);
}

/** A keyword type no item is. Read at the call, not at load: the compiler loads only when a file is parsed. */
function isPrimitiveKeyword(kind: ts.SyntaxKind): boolean {
  const k = typescript.SyntaxKind;
  return (
    kind === k.StringKeyword ||
    kind === k.NumberKeyword ||
    kind === k.BooleanKeyword ||
    kind === k.BigIntKeyword ||
    kind === k.SymbolKeyword ||
    kind === k.VoidKeyword ||
    kind === k.NeverKeyword ||
    kind === k.UndefinedKeyword
  );
}

function notAnItem(type: ts.TypeNode): boolean {
  if (typescript.isParenthesizedTypeNode(type)) return notAnItem(type.type);
  if (typescript.isUnionTypeNode(type)) return type.types.every(notAnItem);
  if (isPrimitiveKeyword(type.kind) || typescript.isLiteralTypeNode(type) || typescript.isFunctionTypeNode(type) || typescript.isTypeLiteralNode(type))
    return true;
  return typescript.isTypeReferenceNode(type) && typescript.isIdentifier(type.typeName) && /Error$/.test(type.typeName.text);
}
