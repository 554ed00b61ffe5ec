import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ts } from 'ts-morph';
import { declarationsInScans, withParents } from '../../src/generate/declarations.js';
import { parseSource } from '../../src/scan/parse.js';
import { typescript } from '../../src/scan/typescript.js';
import { readSourceText, scanRepoSync, treeOf } from '../../src/scan/index.js';
import { settingsWithoutConfig } from '../../src/scan/specifier.js';

// Issue 40, item 8: check read and parsed each file declaring a mapped tool again after its scan,
// and listed the repo again to render the generated module. These tests pin the reuse.

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function repo(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'ctrlrun-scan-tree-'));
  dirs.push(root);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  return root;
}

const TOOLS = `import { tool } from '@openai/agents';
import { z } from 'zod';

export const refund = tool({
  name: 'refund',
  description: 'Refund a charge.',
  parameters: z.object({ payment_id: z.string(), amount: z.number().int().max(50000) }),
  execute: async ({ payment_id, amount }) => \`refunded \${amount} on \${payment_id}\`,
});
`;

describe("a file's scan keeps the tree it was made from", () => {
  it('declarations are read from the scan alone: the file is not read again, the parameters as a fresh parse reads them', () => {
    const root = repo({ 'package.json': '{"type":"module"}', 'src/tools.ts': TOOLS });
    const scans = scanRepoSync({ root }).files;
    const scan = scans.find((s) => s.file === 'src/tools.ts');
    expect(treeOf(scan!)?.text).toBe(TOOLS);
    const names = new Set(['refund']);
    const unread = declarationsInScans(root, names, scans, () => undefined);
    // a copy of a scan has no tree (not enumerable): the file is read and parsed afresh
    const fresh = declarationsInScans(
      root,
      names,
      scans.map((s) => ({ ...s })),
      (s) => readSourceText(path.join(root, s.file)),
    );
    expect(unread.get('refund')).toHaveLength(1);
    expect(unread.get('refund')![0]!.parameters).toMatchObject({ readable: true, parameters: [{ name: 'payment_id' }, { name: 'amount', type: 'integer' }] });
    expect(unread).toEqual(fresh);
  });

  it('a copy of a scan carries no tree, and JSON of a scan holds none', () => {
    const root = repo({ 'src/tools.ts': TOOLS });
    const scan = scanRepoSync({ root }).files[0]!;
    expect(treeOf({ ...scan })).toBeUndefined();
    expect(JSON.stringify(scan)).not.toContain('"statements"');
  });
});

describe('the import settings of a repo without a tsconfig', () => {
  it('come from the listing handed over, not from listing the repo again', () => {
    // on disk, the repo writes `.js` imports; the listing handed over names a file that writes `.ts` ones
    const root = repo({
      'a.ts': "import { b } from './b.js';\nimport { c } from './c.js';\n",
      'b.ts': 'export const b = 1;\n',
      'c.ts': 'export const c = 1;\n',
    });
    const other = repo({ 'x.ts': "import { y } from './y.ts';\n", 'y.ts': 'export const y = 1;\n' });
    expect(settingsWithoutConfig(root).extension).toBe('js');
    expect(settingsWithoutConfig(root, [path.join(other, 'x.ts'), path.join(other, 'y.ts')]).extension).toBe('ts');
  });
});

describe('parent pointers set on a scan’s tree (withParents)', () => {
  it('are the very parents the compiler sets when it parses with them, JSDoc nodes’ included', () => {
    const text = `/** The refund tool. @param id the payment */
export function f(id: string, { a = 1 }: { a?: number } = {}) {
  /** inner */ const g = (x: number) => [x, ...[id]].map((y) => ({ y, z: y as unknown as string }))!;
  for (const k of g(1)) if (k) try { throw new Error(\`\${k.y}\`); } catch { return <T,>(t: T) => t; }
  return class { m() { return this; } };
}
`;
    const ours = withParents(parseSource('a.ts', text).sf);
    const theirs = typescript.createSourceFile('a.ts', text, typescript.ScriptTarget.Latest, true, typescript.ScriptKind.TS);
    let nodes = 0;
    let docs = 0;
    const same = (a: ts.Node, b: ts.Node): void => {
      nodes++;
      expect(a.kind).toBe(b.kind);
      expect([a.parent?.kind, a.parent?.pos, a.parent?.end]).toEqual([b.parent?.kind, b.parent?.pos, b.parent?.end]);
      const ca: ts.Node[] = [];
      const cb: ts.Node[] = [];
      typescript.forEachChild(a, (c) => void ca.push(c));
      typescript.forEachChild(b, (c) => void cb.push(c));
      const da = (a as { jsDoc?: ts.Node[] }).jsDoc ?? [];
      const db = (b as { jsDoc?: ts.Node[] }).jsDoc ?? [];
      docs += da.length;
      expect([ca.length, da.length]).toEqual([cb.length, db.length]);
      for (const [i, c] of ca.entries()) same(c, cb[i]!);
      for (const [i, d] of da.entries()) same(d, db[i]!);
    };
    same(ours, theirs);
    expect(nodes).toBeGreaterThan(90);
    expect(docs).toBe(2);
  });
});
