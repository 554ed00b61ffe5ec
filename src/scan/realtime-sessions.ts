import type { ts } from 'ts-morph';
import { typescript } from './typescript.js';
import { spanOf } from './parse.js';
import { unwrapValue } from './local-values.js';
import type { RealtimeApprovalHandler, RealtimeSessionSite } from './types.js';

/**
 * Realtime sessions and their approval handlers (issue 21, item 6): a call the policy sends to a
 * person pauses a `RealtimeSession` with its `tool_approval_requested` event, and waits until the
 * app answers it; a session nobody answers waits forever (the voice agent goes silent).
 */
export interface RealtimeScanContext {
  sf: ts.SourceFile;
  sdkMember: (expr: ts.Expression) => string | undefined;
  initializerOf: (name: string) => ts.Expression | undefined;
}

/** `new RealtimeSession(...)` of the SDK. */
export function realtimeSessionOf(node: ts.NewExpression, ctx: RealtimeScanContext): RealtimeSessionSite | undefined {
  if (ctx.sdkMember(node.expression) !== 'RealtimeSession') return undefined;
  return { kind: 'realtime-session', span: spanOf(node, ctx.sf) };
}

const LISTEN = new Set(['on', 'once', 'addListener', 'prependListener']);
/** Calls that answer (or file) the request: the Control's realtime methods, the session's own. */
const ANSWERS = /^(?:requestRealtime|resolveRealtime|approve|reject)$/;

/** `x.on('tool_approval_requested', handler)`: whether the handler answers the request. */
export function approvalHandlerOf(node: ts.CallExpression, ctx: RealtimeScanContext): RealtimeApprovalHandler | undefined {
  const callee = unwrapValue(node.expression);
  if (!typescript.isPropertyAccessExpression(callee) || !LISTEN.has(callee.name.text)) return undefined;
  const [event, handler] = node.arguments;
  if (!event || !(typescript.isStringLiteral(event) || typescript.isNoSubstitutionTemplateLiteral(event)) || event.text !== 'tool_approval_requested')
    return undefined;
  return { kind: 'realtime-approval-handler', span: spanOf(node, ctx.sf), answers: handler ? answers(handler, ctx, 0) : 'no' };
}

/**
 * `yes`: it calls requestRealtime/resolveRealtime/approve/reject, or hands the request's item on
 * (to state the app answers from later); `no`: neither; `unknown`: a handler check cannot read.
 * Functions of the same file it calls are followed (three deep).
 */
function answers(handler: ts.Expression, ctx: RealtimeScanContext, depth: number): RealtimeApprovalHandler['answers'] {
  let fn: ts.Node | undefined = unwrapValue(handler);
  if (typescript.isIdentifier(fn)) fn = functionNamed(fn.text, ctx);
  if (!fn || !(typescript.isArrowFunction(fn) || typescript.isFunctionExpression(fn) || typescript.isFunctionDeclaration(fn))) return 'unknown';
  const params = new Set(fn.parameters.flatMap((p) => (typescript.isIdentifier(p.name) ? [p.name.text] : [])));
  // the SDK's handler gets (context, agent, request): the request (or its item) passed on is kept to answer later
  const request = fn.parameters[2] && typescript.isIdentifier(fn.parameters[2].name) ? fn.parameters[2].name.text : undefined;
  let found: RealtimeApprovalHandler['answers'] = 'no';
  const visit = (n: ts.Node): void => {
    if (found === 'yes') return;
    if (typescript.isCallExpression(n)) {
      const c = unwrapValue(n.expression);
      const name = typescript.isIdentifier(c) ? c.text : typescript.isPropertyAccessExpression(c) ? c.name.text : undefined;
      if (name !== undefined && ANSWERS.test(name)) found = 'yes';
      else if (n.arguments.some((a) => handsOnItem(a, request))) found = 'yes';
      else if (typescript.isIdentifier(c) && !params.has(c.text) && depth < 3 && functionNamed(c.text, ctx) && answers(c, ctx, depth + 1) === 'yes')
        found = 'yes';
    }
    if (typescript.isBinaryExpression(n) && n.operatorToken.kind === typescript.SyntaxKind.EqualsToken && handsOnItem(n.right, request)) found = 'yes';
    typescript.forEachChild(n, visit);
  };
  if (fn.body) visit(fn.body);
  return found;
}

/** The request, or its `approvalItem`, as a value. */
function handsOnItem(e: ts.Expression, request: string | undefined): boolean {
  const u = unwrapValue(e);
  if (typescript.isPropertyAccessExpression(u) && u.name.text === 'approvalItem') return true;
  if (request !== undefined && typescript.isIdentifier(u) && u.text === request) return true;
  if (typescript.isObjectLiteralExpression(u))
    return u.properties.some((p) =>
      typescript.isPropertyAssignment(p) ? handsOnItem(p.initializer, request) : typescript.isShorthandPropertyAssignment(p) && p.name.text === request,
    );
  return false;
}

/** A function of this file by name: a declaration, or a `const` holding one. */
function functionNamed(name: string, ctx: RealtimeScanContext): ts.Node | undefined {
  for (const st of ctx.sf.statements) if (typescript.isFunctionDeclaration(st) && st.name?.text === name) return st;
  const init = ctx.initializerOf(name);
  const u = init ? unwrapValue(init) : undefined;
  return u && (typescript.isArrowFunction(u) || typescript.isFunctionExpression(u)) ? u : undefined;
}
