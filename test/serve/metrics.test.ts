import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindProtectedTool, createControl, run } from '../../src/runtime/index.js';
import { agentWith, assistantMessage, makePolicy, refundCall, scripted } from '../runtime/helpers.js';
import { type TenantsFixture, twoTenants } from './tenant-fixture.js';
import { z } from 'zod';

const PROMETHEUS = '/usr/bin/prometheus';

/** Calls of one tenant's agent through the real Runner, over serve (httpStore with its runtime token). */
async function agentCalls(f: TenantsFixture, tenant: 'acme' | 'globex' | 'legacy', calls: [string, number][]) {
  const control = createControl({ store: f.http(tenant), identity: () => `${tenant}-user`, telemetry: false });
  const tool = bindProtectedTool(control, makePolicy())('stripe.refund', {
    name: 'refund',
    description: 'refund',
    parameters: z.object({ payment_id: z.string(), amount: z.number().int() }),
    execute: async () => 'refunded',
  });
  const steps = calls.map(([id, amount]) => [refundCall({ payment_id: `pay_${id}`, amount }, id)]);
  await run(agentWith(scripted(...steps, [assistantMessage('done')]), [tool]), 'go', { context: {} });
}

async function scrape(f: TenantsFixture, token?: string) {
  const res = await fetch(`${f.serve.url}/metrics`, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

describe("serve's /metrics", () => {
  let f: TenantsFixture;
  beforeAll(async () => {
    f = await twoTenants({ kind: 'sqlite' });
    await agentCalls(f, 'acme', [
      ['a1', 500],
      ['a2', 5_000_000],
      ['a3', 500_000],
    ]);
    await agentCalls(f, 'globex', [['g1', 500]]);
    await agentCalls(f, 'legacy', [['l1', 700]]);
  });
  afterAll(async () => f?.close());

  it('answers a bearer token only, in the Prometheus text format', async () => {
    expect((await scrape(f)).status).toBe(401);
    expect((await scrape(f, 'not-a-token')).status).toBe(401);
    const all = await scrape(f, f.tokens.bob);
    expect(all.status).toBe(200);
    expect(all.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(all.text).toContain('# TYPE ctrlrun_decisions_total counter\n');
    expect(all.text).toContain('ctrlrun_decisions_total{tenant="acme",action="stripe.refund",decision="allow",outcome="allowed"} 1\n');
    expect(all.text).toContain('ctrlrun_refusals_total{tenant="acme",action="stripe.refund",reason="rule[2]"} 1\n');
    expect(all.text).toContain('ctrlrun_approvals_pending{tenant="acme",action="stripe.refund"} 1\n');
    expect(all.text).toContain('ctrlrun_decisions_total{tenant="globex",action="stripe.refund",decision="allow",outcome="allowed"} 1\n');
    expect(all.text).toContain('ctrlrun_decisions_total{action="stripe.refund",decision="allow",outcome="allowed"} 1\n');
  });

  it("per-tenant series only to that tenant's token: a runtime or operator token of acme sees acme's, the default tenant's token its own", async () => {
    for (const token of [f.tokens.acme, f.tokens.ann]) {
      const { text } = await scrape(f, token);
      expect(text).toContain('tenant="acme"');
      expect(text).not.toContain('globex');
      expect(text).not.toMatch(/ctrlrun_decisions_total\{action=/);
    }
    const legacy = (await scrape(f, f.tokens.legacy)).text;
    expect(legacy).toContain('ctrlrun_decisions_total{action="stripe.refund",decision="allow",outcome="allowed"} 1\n');
    expect(legacy).not.toContain('tenant=');
  });

  describe("Debian's prometheus scraping it", { skip: !existsSync(PROMETHEUS) && process.env.CI !== 'true' }, () => {
    let prometheus: ChildProcess | undefined;
    let api = '';
    beforeAll(async () => {
      const dir = path.join(f.dir, 'prometheus');
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'bob.token'), f.tokens.bob);
      writeFileSync(path.join(dir, 'acme.token'), f.tokens.acme);
      const target = new URL(f.serve.url).host;
      const job = (name: string) =>
        `  - job_name: ${name}\n    scrape_interval: 1s\n    authorization: { type: Bearer, credentials_file: ${path.join(dir, `${name}.token`)} }\n    static_configs: [{ targets: ['${target}'] }]\n`;
      writeFileSync(path.join(dir, 'prometheus.yml'), `global: { scrape_interval: 1s }\nscrape_configs:\n${job('bob')}${job('acme')}`);
      const port = await freePort();
      api = `http://127.0.0.1:${port}`;
      prometheus = spawn(
        PROMETHEUS,
        [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
        { stdio: 'ignore' },
      );
    });
    afterAll(() => {
      prometheus?.kill('SIGTERM');
    });

    /** A PromQL query through the query API, asked until it has a result (Prometheus starts, then scrapes each second). */
    async function query(promql: string) {
      for (let i = 0; i < 150; i++) {
        try {
          const res = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(promql)}`);
          const body = (await res.json()) as { data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
          if (body.data.result.length > 0) return body.data.result.map((r) => [r.metric, Number(r.value[1])] as const);
        } catch {
          // not listening yet
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`prometheus: no result for ${promql}`);
    }

    it('reads the counters back through its query API, each tenant under its own token', async () => {
      const byTenant = await query('sum by (tenant) (ctrlrun_decisions_total{job="bob"})');
      expect(Object.fromEntries(byTenant.map(([m, v]) => [m.tenant ?? '', v]))).toEqual({ acme: 3, globex: 1, '': 1 });
      expect(await query('ctrlrun_refusals_total{job="bob",tenant="acme"}')).toEqual([
        [
          { __name__: 'ctrlrun_refusals_total', action: 'stripe.refund', instance: new URL(f.serve.url).host, job: 'bob', reason: 'rule[2]', tenant: 'acme' },
          1,
        ],
      ]);
      // acme's token: acme's series only
      const acme = await query('count by (tenant) (ctrlrun_decisions_total{job="acme"})');
      expect(acme.map(([m]) => m.tenant)).toEqual(['acme']);
      expect(await query('ctrlrun_approvals_pending{job="acme"}')).toEqual([
        [{ __name__: 'ctrlrun_approvals_pending', action: 'stripe.refund', instance: new URL(f.serve.url).host, job: 'acme', tenant: 'acme' }, 1],
      ]);
    });
  });
});
