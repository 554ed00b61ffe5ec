import { describe, expect, it } from 'vitest';
import type { Manifest, ManifestTool } from '../../src/manifest/types.js';
import { manifestChanges } from '../../src/policy-test/diff-tools.js';

// Each tool decides through the action its manifest maps it to: a manifest change is a policy
// change. These are the mappings diff compares, of every kind of tool the manifest names.

/** A manifest entry of any kind, its location aside. */
type Entry = { [K in ManifestTool['kind']]: Omit<Extract<ManifestTool, { kind: K }>, 'loc'> }[ManifestTool['kind']];

const loc = { file: '/p/ctrlrun.tools.yaml', line: 1, column: 1 };
const manifest = (tools: Entry[], control = 'src/ctrlrun.control.ts'): Manifest => ({
  schemaVersion: 1,
  file: '/p/ctrlrun.tools.yaml',
  root: '/p',
  policy: '/p/ctrlrun.yaml',
  output: '/p/src/ctrlrun.generated.ts',
  control: `/p/${control}`,
  tools: tools.map((t) => ({ ...t, loc }) as ManifestTool),
});

describe('the tool mappings two manifests differ in', () => {
  it('a tool of any kind mapped to another action is a remap, compared through both actions', () => {
    const before = manifest([
      { kind: 'function', tool: 'refund', action: 'stripe.refund' },
      { kind: 'mcp', server: 'github', tool: 'delete_repo', action: 'repo.delete' },
      { kind: 'hosted_mcp', serverLabel: 'docs', action: 'docs.read' },
      { kind: 'handoff', to: 'billing', action: 'handoff.billing' },
    ]);
    const after = manifest([
      { kind: 'function', tool: 'refund', action: 'stripe.read' },
      { kind: 'mcp', server: 'github', tool: 'delete_repo', action: 'repo.read' },
      { kind: 'hosted_mcp', serverLabel: 'docs', action: 'docs.read' },
      { kind: 'handoff', to: 'billing', action: 'handoff.any' },
    ]);
    expect(manifestChanges(before, after)).toEqual({
      remaps: [
        { tool: 'handoff to billing', before: 'handoff.billing', after: 'handoff.any' },
        { tool: 'mcp github/delete_repo', before: 'repo.delete', after: 'repo.read' },
        { tool: 'tool refund', before: 'stripe.refund', after: 'stripe.read' },
      ],
      settings: [],
    });
  });

  it("a sandbox entry of one agent, new, overrides the entry for every agent: that agent's tool is remapped", () => {
    const every = { kind: 'sandbox' as const, tool: 'exec_command', action: 'sandbox.exec' };
    const before = manifest([every]);
    const after = manifest([every, { kind: 'sandbox', tool: 'exec_command', agent: 'ops', action: 'sandbox.free' }]);
    expect(manifestChanges(before, after).remaps).toEqual([{ tool: 'sandbox exec_command of ops', before: 'sandbox.exec', after: 'sandbox.free' }]);
    // and the other way: the agent's own entry gone, it falls back to every agent's
    expect(manifestChanges(after, before).remaps).toEqual([{ tool: 'sandbox exec_command of ops', before: 'sandbox.free', after: 'sandbox.exec' }]);
  });

  it('a mapping gone is looser, a new one other, a moved control module other; the base with no manifest maps nothing', () => {
    const before = manifest([{ kind: 'function', tool: 'refund', action: 'stripe.refund' }]);
    const after = manifest([{ kind: 'function', tool: 'lookup', action: 'stripe.read' }], 'src/other.control.ts');
    expect(manifestChanges(before, after).settings.map((s) => [s.field, s.before, s.after, s.class])).toEqual([
      ['tool lookup', 'not mapped', 'stripe.read', 'other'],
      ['tool refund', 'stripe.refund', 'not mapped', 'looser'],
      ['control module', 'src/ctrlrun.control.ts', 'src/other.control.ts', 'other'],
    ]);
    expect(manifestChanges(null, after)).toEqual({
      remaps: [],
      settings: [{ field: 'tool lookup', before: 'not mapped', after: 'stripe.read', class: 'other', why: 'a new mapping' }],
    });
  });
});
