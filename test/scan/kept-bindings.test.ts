import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { barrelLinks, barrelRounds } from '../../src/scan/barrels.js';
import { moduleImportsToCount, type Binding } from '../../src/scan/imports.js';
import { readLayout } from '../../src/scan/layout.js';
import { aliasTokens } from '../../src/scan/links.js';
import { listRepo } from '../../src/scan/list.js';
import { parseSource } from '../../src/scan/parse.js';
import { makePrefilter } from '../../src/scan/prefilter.js';
import { countingBindings, scanParsed, topLevelBindings } from '../../src/scan/scan-source.js';
import type { ImportedName, ModuleImport, SdkValue } from '../../src/scan/types.js';

// A file's scan takes the top-level bindings the barrels computed for its tree (issue 40, item 8:
// they were computed twice for every parsed file) when they are the ones it would compute itself.
// Checked here against the scan's own computation, after the barrel rounds, for every parsed file
// of every codemod fixture and of trees with barrel cycles, a file importing itself and a barrel
// found in a later round; and each file's whole scan with and without them.

const tmp = mkdtempSync(path.join(os.tmpdir(), 'ctrlrun-kept-bindings-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function writeTree(name: string, files: Record<string, string>): string {
  const root = path.join(tmp, name);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  return root;
}

const TREES: Record<string, Record<string, string>> = {
  // a file importing itself: its own exports read as nothing while they are being read
  'self-import': {
    'src/a.ts': "import { tool as t2 } from './a';\nexport { tool } from '@openai/agents';\nexport const x = t2({ name: 'x' });\n",
  },
  // two barrels re-exporting each other, read first from a file that only imports them
  cycle: {
    'src/main.ts': "import { tool } from './b';\nimport { Agent } from './c';\nexport const t = tool({ name: 't' }); new Agent({ tools: [t] });\n",
    'src/b.ts': "export * from './c';\nexport { tool } from '@openai/agents';\n",
    'src/c.ts': "export * from './b';\nexport { Agent } from '@openai/agents';\nimport { tool } from './b';\nexport const made = tool({ name: 'm' });\n",
  },
  // a barrel whose importer names the SDK nowhere: found in a second round (a reset of the exports)
  rounds: {
    'src/sdk.ts': "export { tool, Agent, run } from '@openai/agents';\n",
    'src/lib.ts': "import * as s from './sdk';\nexport const t = s.tool;\nexport { s };\n",
    'src/use.ts': "import { t, s } from './lib';\nconst a = new s.Agent({ tools: [t({ name: 'u' })] });\ns.run(a, 'x');\n",
    'src/late.ts': "import { t as lt } from './use';\nimport { s as ls } from './lib';\nexport const b = ls.tool;\n",
  },
  // a file kept clean in the first round, then met in a cycle once its import is parsed (a reset
  // forgets what it kept)
  reset: {
    'src/sdk.ts': "export { tool } from '@openai/agents';\n",
    'src/x.ts': "// over @openai/agents, through y\nimport { tool } from './y';\nexport const z = tool;\n",
    'src/y.ts': "import { tool } from './sdk';\nimport { z } from './x';\nexport { tool, z };\n",
  },
  // the generated module's imports, CommonJS and aliases at the top level
  shapes: {
    'src/gen.ts': 'export const protectedTool = 1;\n',
    'src/a.ts':
      "import { protectedTool as p } from './gen';\nimport * as g from './gen';\nimport sdk, { tool, Agent as A } from '@openai/agents';\nconst { run } = sdk;\nconst t = sdk.tool;\nexport { t, run, A };\n",
    'src/b.cjs': "const agents = require('@openai/agents');\nconst { tool } = require('./a');\nmodule.exports = { tool: agents.tool, other: tool };\n",
  },
};

function fixtureRoots(): string[] {
  const dir = path.resolve(__dirname, '../../fixtures/codemod');
  const roots = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('_'))
    .map((e) => path.join(dir, e.name, 'input'));
  return [...roots, ...Object.entries(TREES).map(([name, files]) => writeTree(name, files))];
}

/** A value as the scan reads it: a member by its names, a module by the members it answers for. */
function describeValue(v: SdkValue | undefined, depth = 0): unknown {
  if (v === undefined) return undefined;
  if (v.kind === 'member') return v;
  const names = ['tool', 'Agent', 'run', 'Runner', 'default', 'hostedMcpTool', 's', 't', 'other'];
  return { module: v.module, members: depth > 1 ? undefined : names.map((n) => describeValue(v.member(n), depth + 1)) };
}

/** A binding as the scan reads it; its import named by place in the list it came from (and checked to be that list's). */
function describeBinding(b: Binding, imports: readonly ModuleImport[]): unknown {
  if (b.kind === 'generated-namespace') return b;
  const place = (spec: ImportedName | undefined) => {
    if (spec === undefined) return undefined;
    for (let i = 0; i < imports.length; i++) {
      const j = imports[i]!.named.indexOf(spec);
      if (j >= 0) return [i, j];
    }
    return 'not in the scan’s own imports';
  };
  return b.kind === 'generated'
    ? { kind: b.kind, spec: place(b.spec) }
    : { kind: b.kind, via: b.via, importedFrom: b.importedFrom, spec: place(b.spec), value: describeValue(b.value) };
}

function describeAll(bindings: ReadonlyMap<string, Binding>, imports: readonly ModuleImport[]): unknown {
  return [...bindings].map(([name, b]) => [name, describeBinding(b, imports)]);
}

describe('the bindings the barrels keep for a scan', () => {
  const roots = fixtureRoots();
  let kept = 0;
  let computed = 0;

  it.each(roots.map((r) => [path.relative(path.resolve(__dirname, '../..'), r), r]))('%s', (_name, root) => {
    const listing = listRepo({ root });
    const layout = readLayout(listing.files, listing.configs);
    const prefilter = makePrefilter(aliasTokens(layout));
    const texts = new Map<string, string>();
    const parsed = new Map<string, ReturnType<typeof parseSource>>();
    for (const abs of listing.files) {
      const text = readFileSync(abs, 'utf8');
      texts.set(abs, text);
      if (prefilter.text(text)) parsed.set(abs, parseSource(abs, text));
    }
    const generatedModule = path.join(root, 'src/gen.ts');
    const barrels = barrelLinks(layout, parsed, generatedModule);
    barrelRounds(parsed, texts, (abs) => texts.get(abs), barrels);
    const options = { root, generatedModule, links: barrels.links, reachLater: true };
    for (const [abs, p] of parsed) {
      const own = moduleImportsToCount(p.sf);
      const fresh = topLevelBindings(p.sf, own, { fileAbs: abs, generatedModule }, barrels.links);
      const k = barrels.keptBindings(abs, p.sf);
      computed++;
      if (k) {
        kept++;
        const copies = moduleImportsToCount(p.sf);
        expect(describeAll(countingBindings(k, copies), copies)).toEqual(describeAll(fresh, own));
      }
      const rel = path.relative(root, abs);
      const slow = scanParsed(rel, texts.get(abs)!, p, options);
      const fast = scanParsed(rel, texts.get(abs)!, p, { ...options, keptBindings: barrels.keptBindings });
      expect(JSON.stringify(fast)).toBe(JSON.stringify(slow));
    }
    // a tree of another parse (an edited text rescanned) is never given the kept bindings
    for (const [abs, p] of parsed) expect(barrels.keptBindings(abs, parseSource(abs, p.sf.text).sf)).toBeUndefined();
  });

  it('keeps most, not all', () => {
    // the fixtures' files are kept; the cycles' files are not (each met a module being read)
    expect(kept).toBeGreaterThan(computed / 2);
    expect(kept).toBeLessThan(computed);
  });
});
