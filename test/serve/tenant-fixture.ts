import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadPolicyOrThrow } from '../../src/policy/load.js';
import type { Policy } from '../../src/policy/types.js';
import { httpStore } from '../../src/runtime/index.js';
import { postgresStore } from '../../src/runtime/postgres.js';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import type { Store } from '../../src/runtime/types.js';
import { addOperator, emptyOperators, writeOperators } from '../../src/serve/operators.js';
import { type RunningServe, startServe, type StartServeOptions } from '../../src/serve/server.js';
import { dropSchema, freshSchema } from '../stores/pg-helpers.js';
import { POLICY_YAML } from './helpers.js';

/**
 * Two tenants on one serve (issue 37): runtime tokens for acme, globex and the default tenant
 * (legacy), an operator for every tenant (bob) and one for acme only (ann), over SQLite or over
 * Postgres (a fresh schema). serve's clock is the test's to set.
 */
export interface TenantsFixture {
  dir: string;
  store: Store;
  policy: Policy;
  operatorsFile: string;
  tokens: Record<'acme' | 'globex' | 'legacy' | 'bob' | 'ann', string>;
  serve: RunningServe;
  /** httpStore with that runtime token. */
  http(tenant: 'acme' | 'globex' | 'legacy'): Store;
  /** serve's clock (Date.now unless set). */
  clock: { now: number | undefined };
  close(): Promise<void>;
}

export type Backing = { kind: 'sqlite' } | { kind: 'postgres'; url: string };

export async function twoTenants(backing: Backing, extra: Partial<StartServeOptions> = {}): Promise<TenantsFixture> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-tenants-'));
  writeFileSync(path.join(dir, 'ctrlrun.yaml'), POLICY_YAML);
  const policy = loadPolicyOrThrow(path.join(dir, 'ctrlrun.yaml')).policy;
  const schema = freshSchema();
  const store = backing.kind === 'sqlite' ? sqliteStore({ path: path.join(dir, 'state.db') }) : postgresStore({ connectionString: backing.url, schema });
  let data = emptyOperators();
  const tokens = {} as TenantsFixture['tokens'];
  for (const [key, name, kind, tenant, roles] of [
    ['acme', 'acme-agent', 'runtime', 'acme', []],
    ['globex', 'globex-agent', 'runtime', 'globex', []],
    ['legacy', 'legacy-agent', 'runtime', undefined, []],
    ['bob', 'bob', 'operator', undefined, ['payments-approver']],
    ['ann', 'ann', 'operator', 'acme', ['payments-approver']],
  ] as const) {
    const added = addOperator(data, { name, kind, roles: [...roles], ...(tenant ? { tenant } : {}), now: 0 });
    data = added.data;
    tokens[key] = added.token;
  }
  const operatorsFile = path.join(dir, 'operators.json');
  writeOperators(operatorsFile, data);
  const clock: { now: number | undefined } = { now: undefined };
  const serve = await startServe({
    store,
    policy,
    operatorsFile,
    host: '127.0.0.1',
    port: 0,
    approvalTtlMs: 15 * 60_000,
    log: () => {},
    clock: () => clock.now ?? Date.now(),
    ...extra,
  });
  return {
    dir,
    store,
    policy,
    operatorsFile,
    tokens,
    serve,
    clock,
    http: (tenant) => httpStore({ url: serve.url, token: tokens[tenant] }),
    close: async () => {
      await serve.close();
      await store.close();
      if (backing.kind === 'postgres') await dropSchema(backing.url, schema);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
