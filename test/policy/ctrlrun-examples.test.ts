import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { parsePolicy } from '../../src/policy/load.js';
import { FIXTURES } from '../helpers/paths.js';

/**
 * CTRLRun 0.12.2's 32 example policies (fixtures/conformance/ctrlrun-examples.json: their schema and
 * decision inputs restated as facts). CTRLRun loads all of them; ctrlrun-gen loads each one too, or
 * refuses by name exactly the keys it cannot honour (an upstream TLS pin), never another.
 */
interface Example {
  policy: Record<string, unknown>;
  verdict: 'loads' | 'refused';
  refusedKeys?: string[];
}

const { examples } = JSON.parse(readFileSync(path.join(FIXTURES, 'conformance/ctrlrun-examples.json'), 'utf8')) as { examples: Record<string, Example> };

describe("CTRLRun's example policies", () => {
  it('are all 32, and 31 of them load here', () => {
    expect(Object.keys(examples)).toHaveLength(32);
    expect(Object.values(examples).filter((e) => e.verdict === 'loads')).toHaveLength(31);
  });

  it.each(Object.entries(examples))('%s', (file, example) => {
    // Written as YAML 1.1, as CTRLRun reads its files.
    const text = YAML.stringify(example.policy, { version: '1.1' });
    const r = parsePolicy(text, path.basename(file));
    const errors = r.diagnostics.filter((d) => d.severity === 'error');
    if (example.verdict === 'loads') {
      expect(errors, text).toEqual([]);
      expect(r.value!.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(Object.keys(r.value!.actions).sort()).toEqual(Object.keys(example.policy.actions as object).sort());
    } else {
      expect(r.value).toBeUndefined();
      expect(errors.map((d) => d.code)).toEqual(example.refusedKeys!.map(() => 'unsupported-key'));
      expect(errors.map((d) => d.path?.split('.').at(-1))).toEqual(example.refusedKeys);
      // the message names the key and why it cannot be honoured here (CTRLRun would refuse every call unverified)
      for (const d of errors) expect(d.message).toMatch(/^`tls_cert_(sha256|file)` is not supported: .*observed.*`upstream_unverified`.*could never run$/);
      for (const d of errors) expect(d.message).toMatch(/is not supported/);
    }
  });
});
