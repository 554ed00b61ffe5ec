import { haltInputProblem, haltScope, liftHalt, setHalt } from '../runtime/halt-actions.js';
import type { ReceiptSigner } from '../runtime/signing.js';
import type { Halt, HaltTarget, Store } from '../runtime/types.js';
import type { Principal } from './auth.js';

export type HaltView = { ok: true; halt: Halt; message: string } | { ok: false; status: 400 | 403 | 404 | 409; code: string; message: string };

const KEYS = new Set(['target', 'value', 'reason', 'hard']);

function keepsHalts(store: Store): boolean {
  return typeof store.readHalts === 'function' && typeof store.putHalt === 'function' && typeof store.liftHalt === 'function';
}

/**
 * An operator's halt through serve (the inbox, `POST /api/halts`, `halts set --server`, the MCP
 * console with `--server`): any operator token may halt, within its tenant (one without a tenant
 * halts the whole store); serve's clock and the authenticated name, never the caller's; serve
 * writes and signs the receipt. A runtime token never halts.
 */
export async function haltAs(store: Store, who: Principal, body: Record<string, unknown>, now: number, signer?: ReceiptSigner): Promise<HaltView> {
  if (who.kind !== 'operator') return { ok: false, status: 403, code: 'forbidden', message: 'halt: a runtime token never halts (an operator does).' };
  const extra = Object.keys(body).find((k) => !KEYS.has(k));
  if (extra !== undefined)
    return {
      ok: false,
      status: 400,
      code: 'bad_arguments',
      message: `halt: unknown field ${JSON.stringify(extra.slice(0, 40))} (target, value, reason, hard).`,
    };
  if (!keepsHalts(store)) return { ok: false, status: 409, code: 'unsupported', message: "halt: this server's store keeps no halts." };
  const input = {
    target: body.target as HaltTarget,
    value: typeof body.value === 'string' ? body.value : null,
    reason: body.reason as string,
    hard: body.hard === undefined ? false : (body.hard as boolean),
    by: who.name,
  };
  const problem = haltInputProblem(input);
  if (problem) return { ok: false, status: 400, code: 'bad_arguments', message: `halt: ${problem}.` };
  const halt = await setHalt(store, input, now, signer);
  return { ok: true, halt, message: `Halted ${haltScope(halt)} (${halt.id}) as ${who.name}, from the next call on.` };
}

/** An operator's lift through serve: the same act as a halt (receipted, attributed), within the operator's tenant. */
export async function liftAs(store: Store, who: Principal, id: string, body: Record<string, unknown>, now: number, signer?: ReceiptSigner): Promise<HaltView> {
  if (who.kind !== 'operator') return { ok: false, status: 403, code: 'forbidden', message: 'lift: a runtime token never lifts a halt.' };
  if (!keepsHalts(store)) return { ok: false, status: 409, code: 'unsupported', message: "lift: this server's store keeps no halts." };
  const reason = body.reason;
  if (reason !== undefined && (typeof reason !== 'string' || haltInputProblem({ target: 'all', reason, by: who.name }) !== undefined))
    return { ok: false, status: 400, code: 'bad_arguments', message: 'lift: the reason is one line of text.' };
  const lifted = await liftHalt(store, id, who.name, now, signer, reason as string | undefined);
  if (!lifted) return { ok: false, status: 404, code: 'unknown', message: `No halt ${id} in force (here).` };
  return { ok: true, halt: lifted, message: `Lifted the halt of ${haltScope(lifted)} (${lifted.id}) as ${who.name}.` };
}
