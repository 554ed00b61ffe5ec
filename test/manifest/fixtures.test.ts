import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { parseManifest } from '../../src/manifest/load.js';
import { FIXTURES, REPO_ROOT } from '../helpers/paths.js';

const VALID = path.join(FIXTURES, 'manifest/valid');
const INVALID = path.join(FIXTURES, 'manifest/invalid');
const ajv = new Ajv2020.default({ allErrors: true });
const validate = ajv.compile(JSON.parse(readFileSync(path.join(REPO_ROOT, 'manifest.schema.json'), 'utf8')));
const expected: Record<string, { schema: 'reject' | 'accept'; errors: string[] }> = JSON.parse(readFileSync(path.join(INVALID, 'expected.json'), 'utf8'));
const yamlFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort();

describe('manifest fixtures', () => {
  for (const file of [...yamlFiles(VALID), path.join('..', '..', 'refund-desk', 'ctrlrun.tools.yaml')]) {
    it(`valid/${file}: loads, and validates under manifest.schema.json`, () => {
      const text = readFileSync(path.join(VALID, file), 'utf8');
      const r = parseManifest(text, path.join('/repo', path.basename(file)));
      expect(r.diagnostics).toEqual([]);
      expect(r.value).toBeDefined();
      validate(YAML.parse(text));
      expect(validate.errors ?? []).toEqual([]);
    });
  }

  it('expected.json lists exactly the invalid fixtures', () => {
    expect(Object.keys(expected).sort()).toEqual(yamlFiles(INVALID));
  });

  for (const file of yamlFiles(INVALID)) {
    const want = expected[file]!;
    it(`invalid/${file}: ${want.errors.join(', ')}`, () => {
      const text = readFileSync(path.join(INVALID, file), 'utf8');
      const r = parseManifest(text, path.join('/repo', file));
      expect(r.value).toBeUndefined();
      expect(r.diagnostics.map((d) => `${d.code} ${d.line}:${d.column}`)).toEqual(want.errors);
      for (const d of r.diagnostics) expect(d.hint, `${d.code} has a hint`).toBeTruthy();
      expect(validate(YAML.parse(text)), 'schema verdict').toBe(want.schema === 'accept');
    });
  }
});
