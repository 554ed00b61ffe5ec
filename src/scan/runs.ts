import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';
import { spanOf } from './parse.js';
import { isRunStateValue } from './approvals.js';
import { constInitializer, unwrapValue, valuesInScope } from './local-values.js';
import { callReturnsRunner, mayStartRun, typedRunner } from './run-values.js';
import { resumeThroughCall } from './resume-calls.js';
import type { HoistedVars } from './scope.js';
import type { ContextShape, IdentityRead, ModuleImport, RunCall } from './types.js';

/**
 * Runs and identities (issue 21, item 4): where an agent is run (`run()` of the SDK or of
 * ctrlrun-gen/runtime, `runner.run()` of an SDK `Runner`) with the context it is given, and what
 * the control's `identity(runContext)` reads of that context. Together they tell which runs pass no
 * context the identity needs, so every protected call of the run is refused (`no_principal`).
 */
export interface RunScanContext {
  sf: ts.SourceFile;
  /** The SDK export a callee expression stands for (`run`, `Runner`), if any. */
  sdkMember: (expr: ts.Expression) => string | undefined;
  /** The SDK export a written type names, type-only imports through the app's barrels too (a run's input typed `RunState`). */
  sdkTypeMember?: (expr: ts.Expression) => string | undefined;
  /** Local name -> export of the names imported from ctrlrun-gen/runtime. */
  runtimeNames: ReadonlyMap<string, string>;
  initializerOf: (name: string) => ts.Expression | undefined;
  ancestors: readonly ts.Node[];
  /** The `var`s each function of the file hoists, filed by the scan (local-values.ts). */
  hoisted?: HoistedVars;
  /** Absolute path of the file, and its imports: a run's input may come through an imported function. */
  fileAbs: string;
  imports: readonly ModuleImport[];
}

const RUNTIME = /^ctrlrun-gen\/runtime(?:\/|$)/;

/** Local names of this file's imports from ctrlrun-gen/runtime (named imports only). */
export function runtimeImportNames(
  imports: ReadonlyArray<{ module: string; typeOnly: boolean; named: ReadonlyArray<{ imported: string; local: string; typeOnly: boolean }> }>,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const imp of imports) {
    if (imp.typeOnly || !RUNTIME.test(imp.module)) continue;
    for (const n of imp.named) if (!n.typeOnly) out.set(n.local, n.imported);
  }
  return out;
}

/** A run of an agent, or undefined. */
export function runCallOf(node: ts.CallExpression, ctx: RunScanContext): RunCall | undefined {
  const callee = unwrapValue(node.expression);
  let via: RunCall['via'] | undefined;
  if (typescript.isIdentifier(callee) && ctx.runtimeNames.get(callee.text) === 'run') via = 'ctrlrun-run';
  else if (ctx.sdkMember(callee) === 'run') via = 'sdk-run';
  else if (typescript.isPropertyAccessExpression(callee) && callee.name.text === 'run' && isRunner(callee.expression, ctx)) via = 'runner';
  if (!via) return undefined;
  const [agent, input, options] = node.arguments;
  if (!agent || !input) return undefined;
  const text = agent.getText(ctx.sf);
  // an input typed `AgentInputItem[] | RunState` starts runs too: not taken for a resume
  const resumes =
    (isRunStateValue(input, ctx.ancestors, ctx.sf, { imports: ctx.imports, hoisted: ctx.hoisted, sdkMember: ctx.sdkTypeMember ?? ctx.sdkMember }) &&
      !mayStartRun(input, ctx)) ||
    isCaughtState(input, ctx);
  // a state handed through a function that gives it back (`decode(answers, state)`)
  const through = resumes ? undefined : resumeThroughCall(input, ctx);
  const run: RunCall = {
    kind: 'run',
    span: spanOf(node, ctx.sf),
    callee: spanOf(node.expression, ctx.sf),
    via,
    resumes: resumes || through === 'resumes',
    context: contextOf(options, ctx),
  };
  if (through !== undefined && through !== 'resumes') run.resumeThrough = through;
  if (text.length <= 40) run.agent = text;
  return run;
}

/**
 * `e.state` of a caught error (`catch (e) { await run(agent, e.state) }`, the SDK's guardrail and
 * interruption errors carry the run's state): a resume, which keeps the context the run began with.
 * Also a variable holding it, or an error typed `…Error`/`…Exception`.
 */
function isCaughtState(input: ts.Expression, ctx: RunScanContext): boolean {
  let e = unwrapValue(input);
  if (typescript.isIdentifier(e)) {
    // the name as declared where the run is: another function's `const state = e.state` is not this one
    const init = constInitializer(e.text, ctx.ancestors, ctx.hoisted);
    if (init) e = unwrapValue(init);
  }
  if (!typescript.isPropertyAccessExpression(e) || e.name.text !== 'state') return false;
  const holder = unwrapValue(e.expression);
  if (!typescript.isIdentifier(holder)) return false;
  const name = holder.text;
  for (const a of ctx.ancestors) {
    if (typescript.isCatchClause(a) && a.variableDeclaration && typescript.isIdentifier(a.variableDeclaration.name) && a.variableDeclaration.name.text === name)
      return true;
  }
  const init = constInitializer(name, ctx.ancestors, ctx.hoisted);
  const inner = init && typescript.isAsExpression(init) ? init : undefined;
  const typed = inner?.type.getText(ctx.sf) ?? '';
  if (/(?:Error|Exception)\b/.test(typed)) return true;
  if (init && typescript.isIdentifier(unwrapValue(init)))
    return ctx.ancestors.some((a) => typescript.isCatchClause(a) && a.variableDeclaration?.name.getText(ctx.sf) === (unwrapValue(init) as ts.Identifier).text);
  return false;
}

/** `new Runner(...)`, a variable holding one or typed Runner, or a call of a method/function of the file returning one. */
function isRunner(expr: ts.Expression, ctx: RunScanContext, depth = 0): boolean {
  const e = unwrapValue(expr);
  if (typescript.isNewExpression(e)) return ctx.sdkMember(e.expression) === 'Runner';
  if (typescript.isCallExpression(e)) return callReturnsRunner(e, ctx);
  if (typescript.isIdentifier(e) && depth < 4) {
    if (typedRunner(e.text, ctx)) return true;
    // the variable the name is where it is read (another function's `runner` is not this one), any
    // value a `let` or `var` is given; a parameter or an import the scope cannot follow keeps the
    // file's first declaration of the name: taking it for a Runner sees more runs, never fewer (fail closed)
    const held = valuesInScope(e.text, ctx.ancestors, ctx.hoisted);
    if (held) return held.some((v) => isRunner(v.init, { ...ctx, ancestors: v.ancestors }, depth + 1));
    const init = ctx.initializerOf(e.text);
    return init !== undefined && isRunner(init, ctx, depth + 1);
  }
  return false;
}

/** What `options.context` is: absent, an object literal's keys, or something check cannot read. */
function contextOf(options: ts.Expression | undefined, ctx: RunScanContext): ContextShape {
  const opts = literalOf(options, ctx);
  if (options === undefined) return { kind: 'none' };
  if (!opts) return { kind: 'opaque' };
  let spread = false;
  for (const p of opts.properties) {
    if (typescript.isSpreadAssignment(p)) spread = true;
    const key = p.name && (typescript.isIdentifier(p.name) || typescript.isStringLiteral(p.name)) ? p.name.text : undefined;
    if (key !== 'context') continue;
    const value = typescript.isPropertyAssignment(p) ? p.initializer : typescript.isShorthandPropertyAssignment(p) ? p.name : undefined;
    const obj = literalOf(value, ctx);
    if (
      !obj ||
      obj.properties.some((q) => !typescript.isPropertyAssignment(q) && !typescript.isShorthandPropertyAssignment(q) && !typescript.isMethodDeclaration(q))
    )
      return { kind: 'opaque' };
    const keys = obj.properties.flatMap((q) => (q.name && (typescript.isIdentifier(q.name) || typescript.isStringLiteral(q.name)) ? [q.name.text] : []));
    return { kind: 'keys', keys, span: spanOf(p, ctx.sf) };
  }
  return spread ? { kind: 'opaque' } : { kind: 'none' };
}

/** An object literal written in place or held by a variable of this file. */
function literalOf(expr: ts.Expression | undefined, ctx: RunScanContext): ts.ObjectLiteralExpression | undefined {
  if (!expr) return undefined;
  const e = unwrapValue(expr);
  if (typescript.isObjectLiteralExpression(e)) return e;
  if (typescript.isIdentifier(e)) {
    // the options the name holds where it is used: another function's `const options = { context }` passes nothing here
    const init = constInitializer(e.text, ctx.ancestors, ctx.hoisted);
    const i = init ? unwrapValue(init) : undefined;
    return i && typescript.isObjectLiteralExpression(i) ? i : undefined;
  }
  return undefined;
}

/** `createControl({ identity })` of ctrlrun-gen/runtime: what the identity reads of the run's context. */
export function identityReadOf(node: ts.CallExpression, ctx: RunScanContext): IdentityRead | undefined {
  const callee = unwrapValue(node.expression);
  if (!typescript.isIdentifier(callee) || ctx.runtimeNames.get(callee.text) !== 'createControl') return undefined;
  const opts = literalOf(node.arguments[0], ctx);
  const prop = opts?.properties.find((p) => p.name && typescript.isIdentifier(p.name) && p.name.text === 'identity');
  if (!prop) return { kind: 'identity', span: spanOf(node, ctx.sf), reads: { kind: 'opaque' } };
  let fn: ts.Node | undefined = typescript.isMethodDeclaration(prop) ? prop : typescript.isPropertyAssignment(prop) ? unwrapValue(prop.initializer) : undefined;
  // the function the name is where the control is made (another function's `identify` may read nothing); a `let` may be given another
  if (fn && typescript.isIdentifier(fn)) fn = constInitializer(fn.text, ctx.ancestors, ctx.hoisted);
  if (!fn || !(typescript.isArrowFunction(fn) || typescript.isFunctionExpression(fn) || typescript.isMethodDeclaration(fn))) {
    return { kind: 'identity', span: spanOf(prop, ctx.sf), reads: { kind: 'opaque' } };
  }
  return { kind: 'identity', span: spanOf(prop, ctx.sf), reads: contextReads(fn) };
}

/**
 * The keys of `runContext.context` a function reads: `rc.context.user`, `const c = rc.context; c?.user`,
 * `const { user } = rc.context`, `({ context }) => context.user`. Reads none: the identity needs no
 * context (a service principal). Any other use of the context (passed to a helper): opaque.
 */
function contextReads(fn: ts.ArrowFunction | ts.FunctionExpression | ts.MethodDeclaration): IdentityRead['reads'] {
  const param = fn.parameters[0];
  if (!param || !fn.body) return { kind: 'none' };
  const runContexts = new Set<string>();
  const contexts = new Set<string>();
  const keys = new Set<string>();
  let opaque = false;
  if (typescript.isIdentifier(param.name)) runContexts.add(param.name.text);
  else if (typescript.isObjectBindingPattern(param.name)) {
    for (const el of param.name.elements) {
      const key =
        el.propertyName && typescript.isIdentifier(el.propertyName) ? el.propertyName.text : typescript.isIdentifier(el.name) ? el.name.text : undefined;
      if (key === 'context' && typescript.isIdentifier(el.name)) contexts.add(el.name.text);
    }
  } else return { kind: 'opaque' };
  /** Whether `e` is the run's context: `rc.context`, `rc?.context`, or a name holding it. */
  const isContext = (e: ts.Expression): boolean => {
    const u = unwrapValue(e);
    if (typescript.isIdentifier(u)) return contexts.has(u.text);
    return (
      typescript.isPropertyAccessExpression(u) &&
      u.name.text === 'context' &&
      typescript.isIdentifier(unwrapValue(u.expression)) &&
      runContexts.has((unwrapValue(u.expression) as ts.Identifier).text)
    );
  };
  const visit = (n: ts.Node, parent: ts.Node | undefined): void => {
    if (typescript.isVariableDeclaration(n) && n.initializer && isContext(n.initializer)) {
      if (typescript.isIdentifier(n.name)) contexts.add(n.name.text);
      else if (typescript.isObjectBindingPattern(n.name)) {
        for (const el of n.name.elements) {
          const k =
            el.propertyName && typescript.isIdentifier(el.propertyName) ? el.propertyName.text : typescript.isIdentifier(el.name) ? el.name.text : undefined;
          if (k !== undefined) keys.add(k);
          else opaque = true;
        }
      }
      return;
    }
    if ((typescript.isPropertyAccessExpression(n) || typescript.isElementAccessExpression(n)) && isContext(n.expression)) {
      const key = typescript.isPropertyAccessExpression(n)
        ? n.name.text
        : typescript.isStringLiteral(n.argumentExpression)
          ? n.argumentExpression.text
          : undefined;
      if (key !== undefined) keys.add(key);
      else opaque = true;
      return;
    }
    // the context used as a whole (returned, passed on, spread): what it reads cannot be told
    if (isContext(n as ts.Expression) && !(typescript.isIdentifier(n) && parent && typescript.isParameter(parent))) {
      opaque = true;
      return;
    }
    // the run context passed on as a whole (`userOf(runContext)`)
    if (typescript.isIdentifier(n) && runContexts.has(n.text)) {
      const read = parent && (typescript.isPropertyAccessExpression(parent) || typescript.isElementAccessExpression(parent)) && parent.expression === n;
      if (!read) opaque = true;
    }
    typescript.forEachChild(n, (c) => visit(c, n));
  };
  visit(fn.body, fn);
  if (opaque) return { kind: 'opaque' };
  return keys.size > 0 ? { kind: 'keys', keys: [...keys] } : { kind: 'none' };
}
