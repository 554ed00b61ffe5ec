import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/manifest/types.js';
import { importerBound, pathImporterAnswers, protectedToolModules } from '../../src/scan/path-importers.js';
import { scanSource } from '../../src/scan/index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-path-importers-'));
  dirs.push(dir);
  return dir;
}

function write(root: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
}

describe('importerBound: where the search for a package’s importers stops', () => {
  it('the nearer of the git work tree’s top and a workspace root above the package; none at the package itself or without either', () => {
    const root = scratch();
    write(root, {
      'repo/.git/HEAD': '',
      'repo/ws/package.json': '{"workspaces":["*"]}',
      'repo/ws/agents/package.json': '{}',
      'repo/agents/package.json': '{}',
    });
    expect(importerBound(path.join(root, 'repo/ws/agents'))).toBe(path.join(root, 'repo/ws'));
    expect(importerBound(path.join(root, 'repo/agents'))).toBe(path.join(root, 'repo'));
    // the package is the work tree's top: nothing outside it is read
    expect(importerBound(path.join(root, 'repo'))).toBeUndefined();
    write(root, { 'plain/agents/package.json': '{}' });
    expect(importerBound(path.join(root, 'plain/agents'))).toBeUndefined();
  });
});

describe('protectedToolModules: the modules of the package that declare a tool its manifest protects', () => {
  it('a mapped function tool’s declaration, a computed tool’s file, a protectedTool call; not a tool the manifest does not map', () => {
    const root = scratch();
    const at = { file: 'ctrlrun.tools.yaml', line: 1, column: 1 };
    const manifest = {
      root,
      tools: [
        { kind: 'function', tool: 'refund', action: 'a.refund', loc: at },
        { kind: 'computed', at: { file: 'src/flows.ts' }, names: '*', action: 'a.flow', loc: at },
        { kind: 'mcp', server: 's', tool: 'lookup', action: 'a.lookup', loc: at },
      ],
    } as unknown as Manifest;
    const tool = (name: string) =>
      `import { tool } from '@openai/agents';\nexport const t = tool({ name: '${name}', description: 'd', parameters: {} as never, execute: async () => 'x' });\n`;
    const scans = [
      scanSource('src/refund.ts', tool('refund')),
      scanSource('src/other.ts', tool('other')),
      scanSource('src/lookup.ts', tool('lookup')),
      scanSource('src/flows.ts', 'export const flows = [];\n'),
      scanSource(
        'src/protected.ts',
        "import { protectedTool } from './ctrlrun.generated.js';\nexport const t = protectedTool('a.x', { name: 'x' } as never);\n",
      ),
    ];
    expect([...protectedToolModules(manifest, scans)].sort()).toEqual(['src/flows.ts', 'src/protected.ts', 'src/refund.ts'].map((f) => path.join(root, f)));
  });
});

/** A file answering an interruption through the SDK (the scanner's `sdkApprovals`), importing `imports`. */
const answering = (imports: readonly string[]) =>
  `${imports.map((s) => `import '${s}';\n`).join('')}import { Agent, run } from '@openai/agents';\nconst a = new Agent({ name: 'a' });\nexport async function go() {\n  const result = await run(a, 'x');\n  for (const item of result.interruptions) result.state.approve(item);\n}\n`;

/**
 * A workspace of `agents` (its tools declared in `agents/src/tools.ts`) and the sibling packages
 * `others`, with `files` written too: the answering files outside `agents` whose imports reach its
 * tools, the folders in `skipped` left out.
 */
function answersOutside(others: readonly string[], files: Record<string, string>, skipped: readonly string[] = []): string[] | undefined {
  const root = scratch();
  write(root, {
    'package.json': JSON.stringify({ workspaces: ['agents', ...others] }),
    'agents/package.json': '{"name":"agents"}',
    'agents/src/tools.ts': 'export const t = 1;\n',
    ...Object.fromEntries(others.map((o) => [`${o}/package.json`, '{}'])),
    ...files,
  });
  const declaring = () => new Set([path.join(root, 'agents/src/tools.ts')]);
  return pathImporterAnswers(
    path.join(root, 'agents'),
    declaring,
    skipped.map((d) => path.join(root, d)),
  )?.files.map((s) => s.file);
}

describe('pathImporterAnswers: what is not read', () => {
  it('a test file, the package’s own files and the folders skipped (its dependents by name), reaching or not', () => {
    const files = {
      'agents/src/app.ts': answering(['./tools.js']),
      'server/src/app.ts': answering(['../../agents/src/tools.js']),
      'server/test/app.test.ts': answering(['../../agents/src/tools.js']),
      'web/src/app.ts': answering(['../../agents/src/tools.js']),
    };
    expect(answersOutside(['server', 'web'], files)).toEqual(['server/src/app.ts', 'web/src/app.ts']);
    expect(answersOutside(['server', 'web'], files, ['web'])).toEqual(['server/src/app.ts']);
  });
});

describe('pathImporterAnswers: a helper module', () => {
  it('counts where a module that reaches the tools imports it, not where only a test file does', () => {
    const files = {
      'server/src/app.ts': "import '../../agents/src/tools.js';\nimport './approve.js';\n",
      'server/src/approve.ts': answering([]),
      'web/src/approve.ts': answering([]),
      'web/test/app.test.ts': "import '../../agents/src/tools.js';\nimport '../src/approve.js';\n",
    };
    expect(answersOutside(['server', 'web'], files)).toEqual(['server/src/approve.ts']);
  });
});

describe('pathImporterAnswers: a helper whose state is a type of its own module', () => {
  /** `server` reaches the tools; its helper answers a `RunState` imported from `./workflow.js`, whose text is `workflow`. */
  const withWorkflow = (workflow: string) =>
    answersOutside(['server'], {
      'server/src/approve.ts':
        "import '../../agents/src/tools.js';\nimport type { RunState } from './workflow.js';\nexport function go(state: RunState, step: unknown) { state.approve(step); }\n",
      'server/src/workflow.ts': workflow,
    });

  it('is no answer when that module declares its own class RunState (the own-type reader the package scan uses)', () => {
    expect(withWorkflow('export class RunState { approve(step: unknown) {} }\n')).toEqual([]);
  });

  it("still counts when that module hands out the SDK's RunState (failing closed)", () => {
    expect(withWorkflow("export type { RunState } from '@openai/agents';\n")).toEqual(['server/src/approve.ts']);
  });

  it('reads a type another file of the outside folder writes (the type reader the package scan uses)', () => {
    const files = {
      'server/src/approve.ts':
        "import '../../agents/src/tools.js';\nimport type { Pending } from './types.js';\nexport function go(p: Pending) { p.state.approve(p.item); }\n",
      'server/src/types.ts':
        "import type { RunState, RunToolApprovalItem } from '@openai/agents';\nexport interface Pending { state: RunState<unknown, never>; item: RunToolApprovalItem }\n",
    };
    expect(answersOutside(['server'], files)).toEqual(['server/src/approve.ts']);
  });
});

describe('pathImporterAnswers: exactly the answering files outside the package whose imports reach a declaring module', () => {
  it('equals the transitive closure of the import graph, on small random graphs across the package and a sibling', () => {
    let found = 0;
    let helpers = 0;
    const node = fc.record({
      inAgents: fc.boolean(),
      declares: fc.boolean(),
      answers: fc.boolean(),
      imports: fc.array(fc.nat(5), { maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.array(node, { minLength: 1, maxLength: 6 }), (nodes) => {
        const root = scratch();
        const name = (i: number) => `${nodes[i]!.inAgents ? 'agents' : 'server'}/src/f${i}.ts`;
        const edges = nodes.map((n) => [...new Set(n.imports.filter((j) => j < nodes.length))]);
        const files: Record<string, string> = {
          'package.json': '{"workspaces":["agents","server"]}',
          'agents/package.json': '{"name":"agents"}',
          'server/package.json': '{}',
        };
        nodes.forEach((_, i) => {
          const specs = edges[i]!.map((j) =>
            path.posix
              .relative(path.posix.dirname(name(i)), name(j))
              .replace(/^(?!\.)/, './')
              .replace(/\.ts$/, '.js'),
          );
          files[name(i)] = nodes[i]!.answers ? answering(specs) : specs.map((sp) => `import '${sp}';\n`).join('');
        });
        write(root, files);
        const declaring = new Set(nodes.flatMap((n, i) => (n.inAgents && n.declares ? [path.join(root, name(i))] : [])));
        // brute force: the files reachable from i in one or more steps
        const reaches = (i: number): boolean => {
          const seen = new Set<number>();
          const stack = [...edges[i]!];
          while (stack.length > 0) {
            const j = stack.pop()!;
            if (seen.has(j)) continue;
            seen.add(j);
            if (declaring.has(path.join(root, name(j)))) return true;
            stack.push(...edges[j]!);
          }
          return false;
        };
        // and the files a module that declares or reaches a tool imports, in one or more steps (a helper it calls)
        const running = nodes.flatMap((_, i) => (declaring.has(path.join(root, name(i))) || reaches(i) ? [i] : []));
        const importedBy = (k: number, i: number): boolean => {
          const seen = new Set<number>();
          const stack = [...edges[k]!];
          while (stack.length > 0) {
            const j = stack.pop()!;
            if (j === i) return true;
            if (seen.has(j)) continue;
            seen.add(j);
            stack.push(...edges[j]!);
          }
          return false;
        };
        const counts = (i: number) => reaches(i) || running.some((k) => importedBy(k, i));
        const expected = nodes.flatMap((n, i) => (!n.inAgents && n.answers && counts(i) ? [name(i)] : [])).sort();
        if (nodes.some((n, i) => !n.inAgents && n.answers && counts(i) && !reaches(i))) helpers++;
        const got = pathImporterAnswers(path.join(root, 'agents'), () => declaring)
          ?.files.map((s) => s.file)
          .sort();
        expect(got).toEqual(expected);
        if (expected.length > 0) found++;
      }),
      { numRuns: 60 },
    );
    // not only empty answers: the reach was followed, helpers included
    expect(found).toBeGreaterThan(0);
    expect(helpers).toBeGreaterThan(0);
  });
});
