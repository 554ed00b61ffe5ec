import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { declarationsInScans } from '../../src/generate/declarations.js';
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

describe('parameters read from a scan’s tree, which has no parent pointers', () => {
  // the reader needs a declaration's list (is it a `const`?): its walk keeps the parent itself
  const BOUND = `import { tool } from '@openai/agents';
import { z } from 'zod';

const First = z.object({ unused: z.string() }), Refund = z.object({ payment_id: z.string() });
let Loose = z.object({ a: z.string() });
var Old = z.object({ b: z.string() });
function takes(Twice: unknown) { return Twice; }
const Twice = z.object({ c: z.string() });
try { takes(1); } catch (Caught) { takes(Caught); }
for (const Looped of [z.object({ e: z.string() })]) takes(Looped);

export const t1 = tool({ name: 'refund', description: 'r', parameters: Refund, execute: async () => 'ok' });
export const t2 = tool({ name: 'loose', description: 'l', parameters: Loose, execute: async () => 'ok' });
export const t3 = tool({ name: 'old', description: 'o', parameters: Old, execute: async () => 'ok' });
export const t4 = tool({ name: 'twice', description: 't', parameters: Twice, execute: async () => 'ok' });
export const t5 = tool({ name: 'caught', description: 'c', parameters: Caught, execute: async () => 'ok' });
export const t6 = tool({ name: 'looped', description: 'c', parameters: Looped, execute: async () => 'ok' });
export function make() {
  const Inner = z.object({ d: z.number().int() });
  return tool({ name: 'inner', description: 'i', parameters: Inner, execute: async () => 'ok' });
}
`;

  it('follow a name to a `const` only, as a parse with parent pointers does', () => {
    const root = repo({ 'package.json': '{"type":"module"}', 'src/tools.ts': BOUND });
    const scans = scanRepoSync({ root }).files;
    const names = new Set(['refund', 'loose', 'old', 'twice', 'caught', 'looped', 'inner']);
    const fromTree = declarationsInScans(root, names, scans, () => undefined);
    const fresh = declarationsInScans(
      root,
      names,
      scans.map((s) => ({ ...s })),
      (s) => readSourceText(path.join(root, s.file)),
    );
    expect(fromTree).toEqual(fresh);
    const read = (name: string) => fromTree.get(name)![0]!.parameters;
    expect(read('refund')).toMatchObject({ readable: true, parameters: [{ name: 'payment_id' }] });
    expect(read('inner')).toMatchObject({ readable: true, parameters: [{ name: 'd', type: 'integer' }] });
    for (const name of ['loose', 'old', 'caught', 'looped'])
      expect(read(name)).toMatchObject({ readable: false, reason: expect.stringContaining('is not a const with an initializer') });
    expect(read('twice')).toMatchObject({ readable: false, reason: expect.stringContaining('declared more than once') });
  });
});
