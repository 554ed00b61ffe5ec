import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolvePlain } from '../../src/policy/yaml11.js';
import { REPO_ROOT } from '../helpers/paths.js';

/**
 * Plain scalars resolve as CTRLRun reads them (PyYAML's safe_load, YAML 1.1). The expected kinds
 * and values in data/pyyaml-scalars.json were produced by PyYAML itself (`v: <text>`), so this
 * test needs no Python.
 */
const table = JSON.parse(readFileSync(path.join(REPO_ROOT, 'test/policy/data/pyyaml-scalars.json'), 'utf8')) as {
  cases: Array<{ text: string; kind: string; value?: unknown }>;
};

describe('YAML 1.1 plain scalars as PyYAML resolves them', () => {
  it('covers the scalars CTRLRun reads differently from YAML 1.2', () => {
    expect(table.cases.map((c) => c.text)).toEqual(expect.arrayContaining(['no', 'on', '017', '0b11', '1_000', '1:30', '1e3', '0o17', 'y']));
  });

  it.each(table.cases.map((c) => [JSON.stringify(c.text), c] as const))('%s', (_name, c) => {
    const r = resolvePlain(c.text);
    expect(r.kind).toBe(c.kind);
    if (r.kind === 'int') expect(String(r.value)).toBe(c.value);
    if (r.kind === 'bool' || r.kind === 'string') expect(r.value).toBe(c.value);
  });
});
