import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';
import { isRunStateValue } from './approvals.js';
import { importedAs } from './imports.js';
import { constInitializer, declarationOf, isConstDeclaration, unwrapValue } from './local-values.js';
import { mayStartRun, type TypeLookup } from './run-values.js';
import { returnsGivenState, topLevelSignatures, variableSignature } from './state-signatures.js';
import type { ModuleImport, RunCall } from './types.js';

export interface ResumeCallContext extends TypeLookup {
  /** Absolute path of the file: where an imported callee is looked up from. */
  fileAbs: string;
  imports: readonly ModuleImport[];
  ancestors: readonly ts.Node[];
  /** The SDK export a written type names, type-only imports through the app's barrels too. */
  sdkTypeMember?: (expr: ts.Expression) => string | undefined;
}

/**
 * A run's input that is a call handed a RunState (`decodeInterruptResponses(answers, state)`):
 * `resumes` when the callee, a function of this file, is declared to give that state back
 * (state-signatures.ts); the import to look it up in when the callee is imported (the repo scan
 * asks, src/scan/reach/graph.ts); undefined otherwise: an arbitrary call wrapping a state, a
 * callee the file does not declare, is not a resume (the run stays named).
 */
export function resumeThroughCall(input: ts.Expression, ctx: ResumeCallContext): 'resumes' | RunCall['resumeThrough'] | undefined {
  let e = unwrapValue(input);
  if (typescript.isIdentifier(e)) {
    const init = constInitializer(e.text, ctx.ancestors, ctx.hoisted);
    if (!init) return undefined;
    e = unwrapValue(init);
  }
  if (!typescript.isCallExpression(e)) return undefined;
  const callee = unwrapValue(e.expression);
  if (!typescript.isIdentifier(callee)) return undefined;
  // a state typed `AgentInputItem[] | RunState` starts runs too, given back or not (as in runs.ts)
  const index = e.arguments.findIndex(
    (a) =>
      !typescript.isSpreadElement(a) &&
      isRunStateValue(a, ctx.ancestors, ctx.sf, { imports: ctx.imports, hoisted: ctx.hoisted, sdkMember: ctx.sdkTypeMember ?? ctx.sdkMember }) &&
      !mayStartRun(a, ctx),
  );
  if (index < 0 || e.arguments.slice(0, index).some((a) => typescript.isSpreadElement(a))) return undefined;
  const local = localSignatures(callee.text, ctx);
  if (local) return returnsGivenState(local, index) ? 'resumes' : undefined;
  const imported = importedAs(callee.text, ctx.imports);
  return imported ? { from: ctx.fileAbs, ...imported, index } : undefined;
}

/** The signatures of a function the file declares under `name` where it is called; undefined when the file does not declare it. */
function localSignatures(name: string, ctx: ResumeCallContext): ts.SignatureDeclaration[] | undefined {
  const decl = declarationOf(name, ctx.ancestors, ctx.hoisted);
  if (decl) {
    if (typescript.isFunctionDeclaration(decl)) return [decl];
    // a `let` may be given another function later: only a `const`
    return typescript.isVariableDeclaration(decl) && typescript.isIdentifier(decl.name) && isConstDeclaration(decl, ctx.ancestors)
      ? variableSignature(decl)
      : [];
  }
  const top = topLevelSignatures(ctx.sf, name);
  return top.length > 0 ? top : undefined;
}
