import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { canonicalHash } from '../../src/runtime/canonical.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import type { NewApprovalRequest, ReceiptBody, Store } from '../../src/runtime/types.js';

export function tempDir(prefix = 'ctrlrun-cli-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** A repo with a manifest at its root and a nested directory to run commands from. */
export function tempRepo(): { root: string; nested: string; dbPath: string } {
  const root = tempDir('ctrlrun-repo-');
  writeFileSync(path.join(root, 'ctrlrun.tools.yaml'), 'schema: ctrlrun.tools/v1\n');
  const nested = path.join(root, 'src', 'agents');
  mkdirSync(nested, { recursive: true });
  return { root, nested, dbPath: path.join(root, '.ctrlrun', 'state.db') };
}

export const request = (callId: string, overrides: Partial<NewApprovalRequest> = {}): NewApprovalRequest => ({
  callId,
  action: 'stripe.refund',
  toolName: 'refund',
  argsHash: argsHashOfText(overrides.args ?? '{"amount":5000,"payment_id":"pi_1"}'),
  args: '{"amount":5000,"payment_id":"pi_1"}',
  policyHash: 'p'.repeat(64),
  principal: 'alice',
  approvalsRequired: 1,
  createdAt: Date.UTC(2026, 0, 2, 3, 4, 5),
  ...overrides,
});

export const requestedReceipt = (callId: string): ReceiptBody => ({
  at: 1,
  action: 'stripe.refund',
  call_id: callId,
  args_hash: 'a'.repeat(64),
  principal: 'alice',
  decision: 'approve',
  reason: 'rule 1 matched',
  approvers: [],
  effect_key: null,
  result: 'requested',
  policy_hash: 'p'.repeat(64),
  mode: 'enforce',
  environment: 'production',
});

/** Opens the SQLite store at `file`, runs `fn`, closes it. */
export async function withSqlite<T>(file: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = sqliteStore({ path: file });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** The hash the runtime binds to an arguments text (answers check it); invalid JSON binds nothing. */
export function argsHashOfText(args: string): string {
  try {
    return canonicalHash(JSON.parse(args));
  } catch {
    return 'a'.repeat(64);
  }
}
