import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_POLICY_BYTES, parsePolicy } from '../../src/policy/load.js';
import { parseManifest } from '../../src/manifest/load.js';
import { FIXTURES } from '../helpers/paths.js';

/** The loaders never throw: any text gives a value or located diagnostics of their own. */

const TOKENS = [
  'schema: ',
  'ctrlrun.policy/v6',
  'ctrlrun.policy/v1',
  'ctrlrun.tools/v1',
  'mode: ',
  'observe',
  'actions:',
  'controls:',
  'rules:',
  'when: ',
  'decision: ',
  'allow',
  'deny',
  'approve',
  'effect: ',
  '"refund:{id}"',
  '{x}',
  'amount_lte: ',
  'amount_in: ',
  'principal_eq: ',
  'tools:',
  '- tool: ',
  'action: ',
  'mcp: ',
  'stripe.refund',
  'a.b',
  '\n',
  '\n  ',
  '\n    ',
  '  ',
  '- ',
  '{',
  '}',
  '[',
  ']',
  ', ',
  ': ',
  '&a ',
  '*a',
  '&b ',
  '*b',
  '!!int ',
  '!!str ',
  '!!binary ',
  '!foo ',
  '"',
  "'",
  '# c',
  '---',
  '...',
  '1',
  '-5',
  '1.5',
  '.nan',
  '.inf',
  '0x1F',
  '1e3',
  '99999999999999999999',
  'null',
  '~',
  'true',
  '? ',
  '|',
  '>',
  '%YAML 1.1\n',
  '\t',
  '<<: ',
  '\r\n',
  '\u00e9',
  '\uFEFF',
  '\u0000',
  '@',
  '`',
];
const yamlish = fc.array(fc.constantFrom(...TOKENS), { maxLength: 60 }).map((t) => t.join(''));

const validTexts = ['policy/valid', 'manifest/valid'].flatMap((d) =>
  readdirSync(path.join(FIXTURES, d))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => readFileSync(path.join(FIXTURES, d, f), 'utf8')),
);
const mutated = fc
  .tuple(
    fc.constantFrom(...validTexts),
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.constantFrom(...TOKENS, '', ' ', ':', '-')), { minLength: 1, maxLength: 6 }),
  )
  .map(([text, edits]) =>
    edits.reduce((t, [at, del, ins]) => {
      const i = at % (t.length + 1);
      return t.slice(0, i) + ins + t.slice(i + del);
    }, text),
  );

function wellFormed(diagnostics: ReturnType<typeof parsePolicy>['diagnostics'], text: string): void {
  const lines = text.split(/\r\n|\r|\n/).length + 1;
  for (const d of diagnostics) {
    expect(d.code, d.message).not.toBe('internal');
    expect(d.file).toBe('f.yaml');
    expect(d.line).toBeGreaterThanOrEqual(1);
    expect(d.line).toBeLessThanOrEqual(lines);
    expect(d.column).toBeGreaterThanOrEqual(1);
    expect(typeof d.message).toBe('string');
    expect(typeof d.code).toBe('string');
  }
}

describe('parsePolicy and parseManifest never throw', () => {
  it('on random YAML-ish text', () => {
    fc.assert(
      fc.property(fc.oneof(yamlish, mutated, fc.string({ maxLength: 200 })), (text) => {
        for (const parse of [parsePolicy, parseManifest]) {
          const r = parse(text, 'f.yaml');
          expect(r.source).toBe(text);
          wellFormed(r.diagnostics, text);
          if (r.value === undefined) expect(r.diagnostics.some((d) => d.severity === 'error')).toBe(true);
          else expect(r.diagnostics.every((d) => d.severity === 'warning')).toBe(true);
        }
      }),
      { numRuns: 1500 },
    );
  });
});

describe('hostile input', () => {
  it('an alias bomb (a billion laughs, 10^9 nodes) is refused with alias-limit', () => {
    const levels = ['  - &l0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i <= 8; i++)
      levels.push(
        `  - &l${i} [${Array(10)
          .fill(`*l${i - 1}`)
          .join(', ')}]`,
      );
    const text = `schema: ctrlrun.policy/v6\nactions:\n  a.b:\n    rules:\n${levels.map((l) => `    ${l}`).join('\n')}\n      - when: { n_in: *l8 }\n        decision: allow\n`;
    const r = parsePolicy(text, 'f.yaml');
    expect(r.diagnostics.find((d) => d.code === 'alias-limit')).toMatchObject({ line: 14, column: 23, path: 'actions.a.b.rules[9].when.n_in' });
    expect(r.value).toBeUndefined();
    expect(r.diagnostics.map((d) => d.code)).toContain('alias-limit');
  });

  it('a self-referencing alias is refused, not looped on', () => {
    const r = parsePolicy('schema: ctrlrun.policy/v6\nactions: &a\n  x: *a\n', 'f.yaml');
    expect(r.value).toBeUndefined();
    expect(r.diagnostics.map((d) => d.code)).toContain('alias-limit');
  });

  it('a file over the size cap is refused before parsing', () => {
    const big = `schema: ctrlrun.policy/v6\nactions:\n${'  # padding padding padding padding padding padding padding\n'.repeat(Math.ceil((5 * 1024 * 1024) / 60))}`;
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
    const r = parsePolicy(big, 'f.yaml');
    expect(r.diagnostics).toMatchObject([{ code: 'file-too-large', line: 1, column: 1 }]);
    expect(r.diagnostics[0]!.message).toMatch(/limit is 256\.0 KiB/);
  });

  it('a policy just under the cap with many actions loads', () => {
    const action = (i: number) => `  a${i}:\n    rules:\n      - when: { amount_lte: ${i} }\n        decision: allow\n`;
    const chunks = ['schema: ctrlrun.policy/v6\nactions:\n'];
    let length = chunks[0]!.length;
    let i = 0;
    while (length < MAX_POLICY_BYTES - 200) {
      const next = action(i++);
      chunks.push(next);
      length += next.length;
    }
    const text = chunks.join('');
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_POLICY_BYTES);
    const r = parsePolicy(text, 'f.yaml');
    expect(r.diagnostics).toEqual([]);
    expect(Object.keys(r.value!.actions).length).toBe(i);
  });

  it('a mapping with many duplicate keys is reported key by key', () => {
    const text = `schema: ctrlrun.policy/v6\nactions:\n${'  a.b: { decision: allow }\n'.repeat(2000)}`;
    const r = parsePolicy(text, 'f.yaml');
    expect(r.diagnostics.filter((d) => d.code === 'duplicate-key')).toHaveLength(1999);
  });

  it('deep nesting is an error, not a crash', () => {
    const deep = `schema: ctrlrun.policy/v6\nactions: ${'['.repeat(20000)}${']'.repeat(20000)}\n`;
    const r = parsePolicy(deep, 'f.yaml');
    expect(r.value).toBeUndefined();
    expect(r.diagnostics.length).toBeGreaterThan(0);
    expect(r.diagnostics.every((d) => d.code !== 'internal')).toBe(true);
  });
});
