import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveWithReferences } from '../../src/scan/tsconfig.js';

/** Configs in memory, by absolute path: what `resolveWithReferences` reads. */
const reader = (files: Record<string, unknown>) => (f: string) => files[f] as Record<string, unknown> | undefined;
const R = path.resolve('/repo/web');
const at = (f: string) => path.join(R, f);

describe('a solution-style tsconfig.json read through its references (issue 40, Vite)', () => {
  it("takes a referenced config's paths, relative to its baseUrl or its folder, made absolute", () => {
    const read = reader({
      [at('tsconfig.json')]: { files: [], references: [{ path: './tsconfig.app.json' }, { path: './tools' }] },
      [at('tsconfig.app.json')]: { compilerOptions: { baseUrl: './src', paths: { '@agents/*': ['../../agents/src/*'] } } },
      [at('tools/tsconfig.json')]: { compilerOptions: { paths: { '@agents/*': ['./nope/*'], '#tools': ['./index.ts'] } } },
    });
    const r = resolveWithReferences(at('tsconfig.json'), read);
    expect(r.baseUrl).toBe(at('src'));
    expect(r.paths?.map).toEqual({ '@agents/*': [path.resolve(R, '../agents/src/*')], '#tools': [at('tools/index.ts')] });
  });

  it("keeps the config's own paths or baseUrl when it has them, and reads no reference then", () => {
    const app = { compilerOptions: { paths: { '@x/*': ['./x/*'] } } };
    const own = resolveWithReferences(
      at('tsconfig.json'),
      reader({ [at('tsconfig.json')]: { compilerOptions: { baseUrl: '.' }, references: [{ path: './tsconfig.app.json' }] }, [at('tsconfig.app.json')]: app }),
    );
    expect(own).toEqual({ baseUrl: R });
  });

  it('reads one level of references, no more', () => {
    const read = reader({
      [at('tsconfig.json')]: { references: [{ path: './a.json' }] },
      [at('a.json')]: { references: [{ path: './b.json' }] },
      [at('b.json')]: { compilerOptions: { paths: { '@b': ['./b.ts'] } } },
    });
    expect(resolveWithReferences(at('tsconfig.json'), read)).toEqual({});
  });
});
