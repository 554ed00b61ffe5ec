import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { parsePolicy } from '../../src/policy/load.js';
import { evaluateAuthority } from '../../src/runtime/authority.js';
import { compileGenerated } from '../helpers/compile-module.js';
import { FIXTURES } from '../helpers/paths.js';

/**
 * fixtures/conformance/ctrlrun-authority.json: CTRLRun's authority facts, run against the generated
 * module (the grants as `generate` emits them, constraints compiled) and the runtime's evaluation;
 * and the documents CTRLRun's loader refuses, refused here at the key at fault.
 */
interface Case {
  name: string;
  agent: string;
  user?: string | null;
  action: string;
  resource: string | null;
  environment?: string;
  task?: string | null;
  args: Record<string, unknown>;
  now?: string;
  expect: { passed: boolean; reason?: string; grant: string | null };
}
const table = JSON.parse(readFileSync(path.join(FIXTURES, 'conformance/ctrlrun-authority.json'), 'utf8')) as {
  policy: Record<string, unknown>;
  cases: Case[];
  refused: Array<{ name: string; schema?: string; authority: unknown; path: string }>;
};

describe("CTRLRun's authority, through the generated module", () => {
  const loaded = parsePolicy(YAML.stringify(table.policy, { version: '1.1' }), 'ctrlrun.yaml');
  it('the policy loads', () => expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]));
  let compiled: ReturnType<typeof compileGenerated> | undefined;

  it.each(table.cases)('$name', (c) => {
    compiled ??= compileGenerated(loaded.value!);
    const result = evaluateAuthority(
      compiled.authority!,
      { agent: c.agent, user: c.user ?? null },
      {
        action: c.action,
        resource: c.resource,
        environment: c.environment ?? 'production',
        task: c.task ?? null,
        args: c.args,
        now: Date.parse(c.now ?? '2026-06-01T00:00:00Z'),
      },
    );
    if (c.expect.passed) expect(result).toMatchObject({ passed: true, grant: { id: c.expect.grant } });
    else expect(result).toEqual({ passed: false, reason: c.expect.reason, grantId: c.expect.grant });
  });
});

describe("documents CTRLRun's loader refuses", () => {
  it.each(table.refused)('$name', (c) => {
    const doc = { schema: c.schema ?? 'ctrlrun.policy/v7', authority: c.authority, actions: { 'x.y': { decision: 'allow' } } };
    const r = parsePolicy(YAML.stringify(doc, { version: '1.1' }), 'ctrlrun.yaml');
    expect(r.value).toBeUndefined();
    const errors = r.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.length).toBeGreaterThan(0);
    expect(
      errors.some((d) => d.path === c.path || d.path?.endsWith(`.${c.path}`)),
      JSON.stringify(errors.map((d) => [d.path, d.message])),
    ).toBe(true);
  });
});

describe('a grant that declares resources, over an action without a resource template', () => {
  it('is warned: CTRLRun never lets that grant cover the action', () => {
    const doc = {
      schema: 'ctrlrun.policy/v7',
      authority: { grants: [{ id: 'sales', subject: { agent: 'voice' }, actions: ['cart.*'], resources: ['customer:*'] }] },
      actions: { 'cart.add': { decision: 'allow' }, 'cart.checkout': { resource: 'customer:{phone}', decision: 'allow' } },
    };
    const r = parsePolicy(YAML.stringify(doc, { version: '1.1' }), 'ctrlrun.yaml');
    expect(r.value).toBeDefined();
    const warnings = r.diagnostics.filter((d) => d.code === 'grant-needs-resource');
    expect(warnings.map((d) => d.message)).toEqual([expect.stringContaining('action `cart.add`')]);
  });
});
