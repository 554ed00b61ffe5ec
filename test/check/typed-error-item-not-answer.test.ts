import { describe, expect, it } from 'vitest';
import { lines, lintSource } from './rule-tester.js';

/**
 * Red team 21b, "no false alarm" (issue 40 item 3). Code shape: a helper that fails a pending
 * request's deferred, written quickly with `any` for the deferred but a typed error:
 * `export function fail(d: any, err: Error) { d.reject(err); }` (an RPC client over a WebSocket, a
 * queue's timeout). Session 21's approval-parameters.ts takes a parameter typed `any` for a run's
 * state, failing closed, and looks only at the receiver; but the "item" here is written `Error`,
 * which no SDK answer takes (`state.reject(item: RunToolApprovalItem, …)`): the call is reported
 * as the SDK's answer. (onApproval already skips `new Error(…)` and receivers named `deferred`.)
 * Control: the same helper with an untyped item (`i: any`) is still reported, as designed.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const findings = (code: string) => lintSource(code, { ruleId: 'sdk-approval' }).map((f) => `${f.line}:${f.column} ${f.message}`);

describe('an item written as an Error is not an approval item', () => {
  it('no sdk-approval finding: fail(d: any, err: Error) { d.reject(err) }', () => {
    expect(findings(lines(GEN, 'export function fail(d: any, err: Error) { d.reject(err); }'))).toEqual([]);
  });
  it('no sdk-approval finding: a catch clause error rejected through an `any` waiter', () => {
    expect(findings(lines(GEN, 'export async function call(w: any) { try { await send(w.msg); } catch (e) { w.reject(e as Error); } }'))).toEqual([]);
  });
  it('control: fail(d: any, i: any) { d.reject(i) } is still taken for the SDK', () => {
    expect(findings(lines(GEN, 'export function fail(d: any, i: any) { d.reject(i); }'))).toHaveLength(1);
  });
});
