import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { certFilesBeside, parsePolicy } from '../../src/policy/load.js';
import { FIXTURES, REPO_ROOT } from '../helpers/paths.js';

/**
 * Every fixture under fixtures/policy: valid ones load (and validate under policy.schema.json);
 * invalid ones give exactly the errors (code line:col) listed in invalid/expected.json, and fail the
 * schema where the schema can express the rule ("reject"), or pass it where only the loader can
 * tell ("accept": the loader goes further), or are not loadable YAML at all ("not-yaml").
 */

const VALID = path.join(FIXTURES, 'policy/valid');
const INVALID = path.join(FIXTURES, 'policy/invalid');
const schema = JSON.parse(readFileSync(path.join(REPO_ROOT, 'policy.schema.json'), 'utf8'));
const ajv = new Ajv2020.default({ allErrors: true });
const validate = ajv.compile(schema);

type Expectation = { schema: 'reject' | 'accept' | 'not-yaml'; errors: string[] };
const expected: Record<string, Expectation> = JSON.parse(readFileSync(path.join(INVALID, 'expected.json'), 'utf8'));
const yamlFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
const read = (dir: string, f: string) => readFileSync(path.join(dir, f), 'utf8');

/** Warnings the valid fixtures are expected to produce. */
const VALID_WARNINGS: Record<string, string[]> = {
  'unreachable-rule.yaml': ['unreachable-rule 7:9'],
  'duplicate-control-ref.yaml': ['duplicate-control 7:26'],
  'eq-values.yaml': ['empty-in 6:82'],
};

describe('valid policy fixtures', () => {
  it('there are fixtures for every schema version', () => {
    const versions = new Set(yamlFiles(VALID).map((f) => parsePolicy(read(VALID, f), f, certFilesBeside(path.join(VALID, f))).value?.schemaVersion));
    expect([...versions].sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  for (const file of yamlFiles(VALID)) {
    it(`${file}: loads, and validates under policy.schema.json`, () => {
      const text = read(VALID, file);
      const r = parsePolicy(text, file, certFilesBeside(path.join(VALID, file)));
      expect(r.diagnostics.map((d) => `${d.code} ${d.line}:${d.column}`)).toEqual(VALID_WARNINGS[file] ?? []);
      expect(r.diagnostics.every((d) => d.severity === 'warning')).toBe(true);
      expect(r.value).toBeDefined();
      expect(r.value!.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
      const ok = validate(YAML.parse(text));
      expect(validate.errors ?? [], file).toEqual([]);
      expect(ok).toBe(true);
    });
  }
});

describe('invalid policy fixtures', () => {
  it('expected.json lists exactly the invalid fixtures', () => {
    expect(Object.keys(expected).sort()).toEqual(yamlFiles(INVALID));
  });

  for (const file of yamlFiles(INVALID)) {
    const want = expected[file]!;
    it(`${file}: ${want.errors.join(', ')}`, () => {
      const text = read(INVALID, file);
      const r = parsePolicy(text, file, certFilesBeside(path.join(INVALID, file)));
      expect(r.value).toBeUndefined();
      expect(r.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.line}:${d.column}`)).toEqual(want.errors);
      for (const d of r.diagnostics) {
        expect(d.file).toBe(file);
        expect(d.message.length).toBeGreaterThan(10);
        expect(d.code).not.toBe('internal');
        expect(d.hint, `${d.code} has a hint`).toBeTruthy();
        if (d.code === 'unknown-key' || d.code === 'key-version' || d.code === 'unsupported-key' || d.code === 'reserved-subject') {
          expect(d.hint).toBeTruthy();
          expect(d.path).toBeTruthy();
        }
      }
      if (want.schema === 'not-yaml') {
        expect(() => YAML.parse(text)).toThrow();
      } else {
        expect(validate(YAML.parse(text)), 'schema verdict').toBe(want.schema === 'accept');
      }
    });
  }
});

describe('error details', () => {
  it('names the nearest valid key, and the version it needs', () => {
    const [d] = parsePolicy(read(INVALID, 'unknown-action-key.yaml'), 'p.yaml').diagnostics;
    expect(d).toMatchObject({
      path: 'actions.stripe.refund.approval_required',
      message: expect.stringContaining('approval_required'),
      hint: 'did you mean `approvals_required`?',
    });
    const [v] = parsePolicy(read(INVALID, 'v5-approvals-required.yaml'), 'p.yaml').diagnostics;
    expect(v!.message).toMatch(/needs ctrlrun\.policy\/v6 .*declares ctrlrun\.policy\/v5/);
    expect(v!.hint).toMatch(/v6/);
  });

  it('says "not supported" for CTRLRun keys it does not implement', () => {
    for (const d of parsePolicy(read(INVALID, 'unsupported-keys.yaml'), 'p.yaml').diagnostics) expect(d.message).toMatch(/is not supported/);
  });

  it('names both places for a duplicate key and for decision + rules', () => {
    const [d] = parsePolicy(read(INVALID, 'duplicate-key.yaml'), 'p.yaml').diagnostics;
    expect(d!.related).toMatchObject({ file: 'p.yaml', line: 4, column: 3 });
    const [b] = parsePolicy(read(INVALID, 'decision-and-rules.yaml'), 'p.yaml').diagnostics;
    expect(b!.related).toMatchObject({ line: 5, column: 5 });
  });

  it('points into the template at the offending brace', () => {
    const ds = parsePolicy(read(INVALID, 'template-braces.yaml'), 'p.yaml').diagnostics;
    const lines = read(INVALID, 'template-braces.yaml').split('\n');
    expect(lines[ds[0]!.line - 1]![ds[0]!.column - 1]).toBe('}');
    expect(lines[ds[1]!.line - 1]![ds[1]!.column - 1]).toBe('{');
  });

  it('suggests the defined control', () => {
    const [d] = parsePolicy(read(INVALID, 'undefined-control.yaml'), 'p.yaml').diagnostics;
    expect(d).toMatchObject({ hint: 'did you mean `payments-approval`?', related: { line: 3, column: 1 } });
  });
});
