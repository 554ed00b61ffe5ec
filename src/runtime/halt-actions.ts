import { CtrlrunError } from './errors.js';
import { HALT_TARGETS } from './halts.js';
import { checkIdentity, identityProblemText } from './identity.js';
import { appendSigned, type ReceiptSigner } from './signing.js';
import type { Halt, HaltStore, HaltTarget, ReceiptBody, Store } from './types.js';

/**
 * Setting and lifting a halt: the one way every surface does it (`control.halt`, `ctrlrun-gen
 * halts`, serve's inbox and API, the MCP console). Each is recorded: the store's change first (the
 * halt is in force, or gone, from the next call on), then a receipt naming the operator
 * (`action: ctrlrun.halt`, `result: halted | lifted`, the halt's id as the call id), signed with the
 * writer's key when it has one. Lifting is the same act as setting, and leaves the same evidence.
 */
export const HALT_ACTION = 'ctrlrun.halt';

export interface HaltInput {
  target: HaltTarget;
  /** The run id, principal or action id; none for `all`. */
  value?: string | null;
  /** Why: the model reads it in the refusal, the receipt keeps it. Required. */
  reason: string;
  /** End the run of a refused call instead of telling the model. Default false. */
  hard?: boolean;
  /** Who halts: the authenticated operator (or `--as` on direct store access). */
  by: string;
}

/** Why a halt input is refused, or undefined. Pure. */
export function haltInputProblem(input: Partial<HaltInput>): string | undefined {
  if (!HALT_TARGETS.includes(input.target as HaltTarget)) return `target must be one of ${HALT_TARGETS.join(', ')}`;
  if (input.target === 'all') {
    if (input.value !== undefined && input.value !== null && input.value !== '') return 'a halt of every call names no value';
  } else if (typeof input.value !== 'string' || input.value.trim() === '' || input.value.length > 500 || UNSAFE.test(input.value)) {
    return `a halt of one ${input.target} names it (a non-empty line of text)`;
  } else if (input.target === 'principal' && !checkIdentity(input.value).ok) {
    return `the principal is not a usable identity: ${identityProblemText((checkIdentity(input.value) as { problem: 'blank' }).problem)}`;
  }
  if (typeof input.reason !== 'string' || input.reason.trim() === '' || input.reason.length > 2000 || UNSAFE.test(input.reason)) {
    return 'say why (a reason: one line of text, at most 2000 characters)';
  }
  if (input.hard !== undefined && typeof input.hard !== 'boolean') return 'hard is true or false';
  if (!checkIdentity(input.by).ok) return 'name who halts (an identity)';
  return undefined;
}

const UNSAFE = /[\p{Cc}\p{Zl}\p{Zp}\p{Cs}\p{Bidi_Control}]/u;

function haltStore(store: Store): Required<HaltStore> {
  if (typeof store.readHalts !== 'function' || typeof store.putHalt !== 'function' || typeof store.liftHalt !== 'function') {
    throw new CtrlrunError(`ctrlrun: this store (${store.kind}) keeps no halts; nothing was halted.`);
  }
  return store as unknown as Required<HaltStore>;
}

/** Sets a halt (in force at the next call of every process sharing the store) and records it; returns it. */
export async function setHalt(store: Store, input: HaltInput, at: number, signer?: ReceiptSigner, id = newHaltId()): Promise<Halt> {
  const problem = haltInputProblem(input);
  if (problem) throw new CtrlrunError(`ctrlrun: halt refused: ${problem}.`);
  const by = (checkIdentity(input.by) as { value: string }).value;
  const value = input.target === 'all' ? null : input.target === 'principal' ? (checkIdentity(input.value) as { value: string }).value : input.value!.trim();
  const halt: Halt = { id, target: input.target, value, hard: input.hard === true, reason: input.reason.trim(), by, at };
  await haltStore(store).putHalt(halt);
  await appendSigned(store, signer, haltReceipt(halt, 'halted', by, at, halt.reason));
  return halt;
}

/** Lifts a halt and records who did; null when no halt has this id (nothing recorded). */
export async function liftHalt(store: Store, id: string, by: string, at: number, signer?: ReceiptSigner, reason?: string): Promise<Halt | null> {
  const who = checkIdentity(by);
  if (!who.ok) throw new CtrlrunError('ctrlrun: name who lifts the halt (an identity).');
  if (reason !== undefined && (reason.length > 2000 || UNSAFE.test(reason))) throw new CtrlrunError('ctrlrun: the reason is one line of text.');
  const { lifted } = await haltStore(store).liftHalt(id);
  if (!lifted) return null;
  await appendSigned(store, signer, haltReceipt(lifted, 'lifted', who.value, at, reason?.trim() || lifted.reason));
  return lifted;
}

/** A halt's description: `action stripe.refund (hard)`, `every call`. */
export function haltScope(halt: Pick<Halt, 'target' | 'value' | 'hard'>): string {
  return `${halt.target === 'all' ? 'every call' : `${halt.target} ${halt.value}`}${halt.hard ? ' (hard: ends the run)' : ''}`;
}

function haltReceipt(halt: Halt, result: 'halted' | 'lifted', by: string, at: number, reason: string): ReceiptBody {
  return {
    at,
    action: HALT_ACTION,
    // the halt's id as the call id: a tenant's halt is its record (serve stores it under the tenant's names)
    call_id: halt.id,
    args_hash: null,
    principal: halt.target === 'principal' ? halt.value : null,
    decision: null,
    reason: `${haltScope(halt)}: ${reason}`,
    approvers: [by],
    effect_key: null,
    result,
    policy_hash: '',
    mode: 'enforce',
    environment: null,
  };
}

export function newHaltId(): string {
  return `halt_${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 20)}`;
}
