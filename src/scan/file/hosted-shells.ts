import type { ts } from 'ts-morph';
import { typescript } from '../typescript.js';
import { isToolFactory } from '../imports.js';
import { isStringLike, propertyName, skipWrappers, spreadAfter } from '../syntax.js';
import type { PropertyWrite } from './property-writes.js';
import { resolve, type FileContext } from './context.js';
import { constStringOf } from './names.js';

// A hosted shell (`shellTool({ environment: { type: 'container_auto' } })`, or the object it
// returns) runs at OpenAI. agents-core 0.20's runner (runner/modelOutputs) runs a shell call here
// unless the tool's `environment.type` is other than 'local' (`environment?.type ?? 'local'`), so
// the same object with its environment made local afterwards is a local shell with no policy.

/** The door name a hosted shell goes by among the doors a write may break (file/door-writes.ts). */
export const HOSTED_SHELL = 'hostedShell';

/** Whether `e` makes a hosted shell: SDK `shellTool({ environment, ... })` with no `shell` and no spread, or `{ type: 'shell', environment: { type: <not 'local'> } }`. */
export function makesHostedShell(cx: FileContext, e: ts.Expression): boolean {
  if (typescript.isCallExpression(e)) {
    const r = resolve(cx, e.expression);
    if (r?.member !== 'shellTool' || !isToolFactory(r.module, r.member)) return false;
    const opts = e.arguments[0] && skipWrappers(e.arguments[0]);
    if (!opts || !typescript.isObjectLiteralExpression(opts) || opts.properties.some((p) => typescript.isSpreadAssignment(p))) return false;
    const keys = new Set(opts.properties.map((p) => (typescript.isSpreadAssignment(p) ? undefined : propertyName(p.name))));
    return keys.has('environment') && !keys.has('shell');
  }
  if (!typescript.isObjectLiteralExpression(e)) return false;
  const type = propertyOf(e, 'type');
  if (!type || constStringOf(cx, type) !== 'shell' || spreadAfter(e, 'environment', cx.sf)) return false;
  const env = propertyOf(e, 'environment');
  const envObject = env && skipWrappers(env);
  if (!envObject || !typescript.isObjectLiteralExpression(envObject) || spreadAfter(envObject, 'type', cx.sf)) return false;
  const envType = propertyOf(envObject, 'type');
  const value = envType ? constStringOf(cx, envType) : undefined;
  return value !== undefined && value !== 'local';
}

/**
 * Whether a write may make a hosted shell local: its `environment` replaced by what is not an
 * object literal whose last `type` is a string other than 'local' (an unknown value fails closed),
 * or its `environment.type` set to what is not such a string.
 */
export function makesShellLocal(w: PropertyWrite): boolean {
  if (w.key !== 'environment' || w.beforeSpread) return false;
  const v = w.value && skipWrappers(w.value);
  if (w.inner === 'type') return !hostedType(v);
  if (w.inner !== undefined) return false;
  if (!v || !typescript.isObjectLiteralExpression(v) || v.properties.some((p) => typescript.isSpreadAssignment(p))) return true;
  return !hostedType(propertyOf(v, 'type'));
}

/** A string literal other than 'local'. */
function hostedType(v: ts.Expression | undefined): boolean {
  const e = v && skipWrappers(v);
  return e !== undefined && isStringLike(e) && e.text !== 'local';
}

/** The value of an object literal's last property `key` (a shorthand's name). */
function propertyOf(o: ts.ObjectLiteralExpression, key: string): ts.Expression | undefined {
  let out: ts.Expression | undefined;
  for (const p of o.properties) {
    if (typescript.isSpreadAssignment(p) || propertyName(p.name) !== key) continue;
    out = typescript.isPropertyAssignment(p) ? p.initializer : typescript.isShorthandPropertyAssignment(p) ? p.name : undefined;
  }
  return out;
}
