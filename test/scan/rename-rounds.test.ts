import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { writersOfDoors } from '../../src/scan/imported-door-writes.js';
import type { RepoLayout } from '../../src/scan/links.js';
import type { Parsed } from '../../src/scan/parse.js';
import type { FileScan } from '../../src/scan/types.js';

/**
 * Session 35 (issue 40 item 8): the writer search's rename rounds run only as far as they change
 * which door-word files are read, and are completed for the tokens an edited text is parsed for
 * (an ESLint session). `passes`: how many times the texts were read through (once to list the
 * door-word files, then once a round).
 */
const root = '/repo';
const abs = (rel: string): string => path.join(root, rel);

function search(files: Record<string, string>, leftOut: (abs: string) => boolean = () => false, exported: Record<string, string> = { github: 'mcp-server' }) {
  const texts = new Map(Object.entries(files).map(([rel, text]) => [abs(rel), text] as [string, string]));
  let passes = 0;
  const counted = new Map(texts);
  counted[Symbol.iterator] = () => {
    passes++;
    return texts[Symbol.iterator]();
  };
  const scanned: string[] = [];
  const seenTokens = new Set<string>();
  const modules = writersOfDoors({
    root,
    layout: {} as RepoLayout,
    parsed: new Map<string, Parsed>(),
    texts: { texts: counted, textOf: (a) => texts.get(a) },
    // the door's own module, scanned already (the prefilter read it: it names the SDK)
    scans: [{ file: 'src/servers.ts', exportedDoors: exported } as unknown as FileScan],
    seenTokens,
    scan: (a) => {
      scanned.push(path.relative(root, a));
      return { file: path.relative(root, a) } as unknown as FileScan;
    },
    scanUnread: (a) => ({ file: path.relative(root, a) }) as unknown as FileScan,
    leftOut,
  });
  return { modules, seenTokens, scanned: scanned.sort(), passes: () => passes };
}

/** `github` renamed twice: `gh` in the first round, `gh2` in the second. */
const CHAIN = {
  'src/servers.ts': 'export const github = made;\n',
  'src/barrel.ts': "export { github as gh } from './servers.js';\n",
  'src/barrel2.ts': "export { gh as gh2 } from './barrel.js';\n",
};

describe('the rename rounds stop once every writer is read anyway', () => {
  it('every door-word file names a door: no round at the scan; all of them for an edited text', () => {
    const s = search({ ...CHAIN, 'src/ops.ts': "import { github } from './servers.js';\ngithub.toolInputGuardrails = [];\n" });
    expect(s.scanned).toEqual(['src/ops.ts']);
    expect(s.passes()).toBe(1);
    expect([...s.seenTokens]).toEqual(['github']);
    s.modules.renamedTokens();
    expect([...s.seenTokens].sort()).toEqual(['gh', 'gh2', 'github']);
    // once: a later edit runs no round again
    const after = s.passes();
    s.modules.renamedTokens();
    expect(s.passes()).toBe(after);
  });

  it('a door-word file named only by a later round: the rounds run until it is named, then stop', () => {
    const s = search({ ...CHAIN, 'src/ops.ts': "import { gh } from './barrel.js';\ngh.toolInputGuardrails = [];\n" });
    expect(s.scanned).toEqual(['src/ops.ts']);
    // the first round names it (`gh`): the second is left to an edited text
    expect(s.passes()).toBe(2);
    s.modules.renamedTokens();
    expect([...s.seenTokens].sort()).toEqual(['gh', 'gh2', 'github']);
  });

  it('a door-word file naming none: every round runs, and it is not read', () => {
    const s = search({ ...CHAIN, 'src/ops.ts': 'other.toolInputGuardrails = [];\n' });
    expect(s.scanned).toEqual([]);
    // gh, gh2, then a round finding nothing
    expect(s.passes()).toBe(4);
  });

  it('a default export holding a door: the rounds stop there, and every door-word file is read', () => {
    const s = search({
      ...CHAIN,
      'src/kit.ts': "import { github } from './servers.js';\nexport default [github];\n",
      'src/ops.ts': 'other.toolInputGuardrails = [];\n',
    });
    expect(s.scanned).toEqual(['src/ops.ts']);
    expect(s.passes()).toBe(2);
    s.modules.renamedTokens();
    expect([...s.seenTokens].sort()).toEqual(['gh', 'gh2', 'github']);
  });

  it("a scanned module's default export a door: no round at the scan, every door-word file read", () => {
    const s = search({ ...CHAIN, 'src/ops.ts': 'other.toolInputGuardrails = [];\n' }, undefined, { github: 'mcp-server', default: 'mcp-server' });
    expect(s.scanned).toEqual(['src/ops.ts']);
    expect(s.passes()).toBe(1);
    s.modules.renamedTokens();
    expect([...s.seenTokens].sort()).toEqual(['gh', 'gh2', 'github']);
  });

  it('renamed past the last round: every door-word file is read', () => {
    const renames = Object.fromEntries(
      Array.from({ length: 5 }, (_, i) => [`src/r${i}.ts`, `export { n${i} as n${i + 1} } from './x.js';\n`.replace('n0', 'github')]),
    );
    const s = search({ 'src/servers.ts': CHAIN['src/servers.ts'], ...renames, 'src/ops.ts': 'other.toolInputGuardrails = [];\n' });
    expect(s.scanned).toEqual(['src/ops.ts']);
    s.modules.renamedTokens();
    expect([...s.seenTokens].sort()).toEqual(['github', 'n1', 'n2', 'n3', 'n4']);
  });

  it('a door-word file left out (a test file) does not keep the rounds running', () => {
    const files = {
      ...CHAIN,
      'src/ops.ts': "import { github } from './servers.js';\ngithub.toolInputGuardrails = [];\n",
      'src/ops.test.ts': 'other.shell = 1;\n',
    };
    const s = search(files, (a) => a.endsWith('.test.ts'));
    expect(s.scanned).toEqual(['src/ops.ts']);
    expect(s.passes()).toBe(1);
  });
});
