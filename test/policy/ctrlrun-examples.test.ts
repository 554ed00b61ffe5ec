import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { parsePolicy } from '../../src/policy/load.js';
import { FIXTURES } from '../helpers/paths.js';

/**
 * CTRLRun 0.12.2's 32 example policies (fixtures/conformance/ctrlrun-examples.json: their schema and
 * decision inputs restated as facts). CTRLRun loads all of them, and so does ctrlrun-gen: the upstream
 * TLS pin of authority-escalation is honoured (the HTTP MCP doors' pinned fetch), not refused.
 */
interface Example {
  policy: Record<string, unknown>;
  verdict: 'loads';
}

const { examples } = JSON.parse(readFileSync(path.join(FIXTURES, 'conformance/ctrlrun-examples.json'), 'utf8')) as { examples: Record<string, Example> };

describe("CTRLRun's example policies", () => {
  it('are all 32, and all of them load here', () => {
    expect(Object.keys(examples)).toHaveLength(32);
    expect(Object.values(examples).filter((e) => e.verdict === 'loads')).toHaveLength(32);
  });

  it.each(Object.entries(examples))('%s', (file, example) => {
    // Written as YAML 1.1, as CTRLRun reads its files.
    const text = YAML.stringify(example.policy, { version: '1.1' });
    const r = parsePolicy(text, path.basename(file));
    const errors = r.diagnostics.filter((d) => d.severity === 'error');
    expect(example.verdict).toBe('loads');
    expect(errors, text).toEqual([]);
    expect(r.value!.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(Object.keys(r.value!.actions).sort()).toEqual(Object.keys(example.policy.actions as object).sort());
    // the upstream pins CTRLRun loads are kept, not dropped
    for (const [id, action] of Object.entries(example.policy.actions as Record<string, { upstream?: { tls_cert_sha256?: string[] } }>)) {
      expect(r.value!.actions[id]!.upstream?.tlsCertSha256).toEqual(action.upstream?.tls_cert_sha256);
    }
  });
});
