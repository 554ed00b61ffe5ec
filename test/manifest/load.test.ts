import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/diagnostics.js';
import { findManifest, loadProject, parseManifest } from '../../src/manifest/load.js';
import { sdkToolName } from '../../src/runtime/internals.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function repo(files: Record<string, string>): string {
  const dir = makeTempDir('manifest-');
  dirs.push(dir);
  writeFiles(dir, files);
  return dir;
}

const POLICY = `schema: ctrlrun.policy/v6
actions:
  stripe.refund: { decision: approve }
  stripe.charge.read: { decision: allow }
  github.create_issue: { decision: approve }
  gitmcp.call: { decision: deny }
`;

function codes(text: string): string[] {
  return parseManifest(text, '/repo/ctrlrun.tools.yaml').diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`);
}

describe('parseManifest', () => {
  it('reads the SPEC example: tool, mcp and hosted_mcp entries, paths resolved from the manifest', () => {
    const r = parseManifest(
      `schema: ctrlrun.tools/v1
policy: ctrlrun.yaml
output: src/ctrlrun.generated.ts
control: src/ctrlrun.control.ts
tools:
  - tool: refund
    action: stripe.refund
  - tool: 'Refund Expert'
    action: stripe.refund
  - mcp: { server: github, tool: create_issue }
    action: github.create_issue
  - hosted_mcp: { server_label: gitmcp }
    action: gitmcp.call
`,
      '/repo/ctrlrun.tools.yaml',
    );
    expect(r.diagnostics).toEqual([]);
    const m = r.value!;
    expect(m).toMatchObject({
      schemaVersion: 1,
      root: '/repo',
      policy: '/repo/ctrlrun.yaml',
      output: '/repo/src/ctrlrun.generated.ts',
      control: '/repo/src/ctrlrun.control.ts',
    });
    expect(m.tools.map(({ loc: _loc, ...t }) => t)).toEqual([
      { kind: 'function', tool: 'refund', action: 'stripe.refund' },
      { kind: 'function', tool: 'Refund Expert', action: 'stripe.refund' },
      { kind: 'mcp', server: 'github', tool: 'create_issue', action: 'github.create_issue' },
      { kind: 'hosted_mcp', serverLabel: 'gitmcp', action: 'gitmcp.call' },
    ]);
    expect(m.tools[2]!.loc).toMatchObject({ line: 10, column: 5 });
  });

  it('fills in default paths', () => {
    const m = parseManifest('schema: ctrlrun.tools/v1\ntools: []\n', '/r/ctrlrun.tools.yaml').value!;
    expect(m).toMatchObject({ policy: '/r/ctrlrun.yaml', output: '/r/src/ctrlrun.generated.ts', control: '/r/src/ctrlrun.control.ts', tools: [] });
  });

  it('closed mappings with hints, at every level', () => {
    const r = parseManifest(
      'schema: ctrlrun.tools/v1\noutptu: x.ts\ntools:\n  - tol: refund\n    action: a\n  - mcp: { server: s, tools: t }\n    action: a\n',
      '/r/m.yaml',
    );
    const d = r.diagnostics.map((x) => [x.line, x.column, x.code, x.hint]);
    expect(d).toEqual([
      [2, 1, 'unknown-key', 'did you mean `output`?'],
      [4, 5, 'unknown-key', 'did you mean `tool`?'],
      [4, 5, 'missing-tool', expect.any(String)],
      [6, 10, 'missing-key', 'add `tool: <MCP tool name>`'],
      [6, 23, 'unknown-key', 'did you mean `tool`?'],
    ]);
  });

  it('refuses a tool mapped twice, naming both places', () => {
    const r = parseManifest('schema: ctrlrun.tools/v1\ntools:\n  - tool: refund\n    action: a\n  - tool: refund\n    action: b\n', '/r/m.yaml');
    expect(r.value).toBeUndefined();
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ line: 5, column: 11, code: 'duplicate-tool', path: 'tools[1].tool', related: { line: 3, column: 11 } });
  });

  it('refuses the same MCP tool or hosted server twice, and names that sanitize alike', () => {
    expect(codes('schema: ctrlrun.tools/v1\ntools:\n  - mcp: { server: g, tool: t }\n    action: a\n  - mcp: { server: g, tool: t }\n    action: a\n')).toEqual(
      ['5:10 duplicate-tool'],
    );
    expect(
      codes('schema: ctrlrun.tools/v1\ntools:\n  - hosted_mcp: { server_label: g }\n    action: a\n  - hosted_mcp: { server_label: g }\n    action: b\n'),
    ).toEqual(['5:17 duplicate-tool']);
    expect(codes("schema: ctrlrun.tools/v1\ntools:\n  - tool: 'Refund Expert'\n    action: a\n  - tool: Refund_Expert\n    action: a\n")).toEqual([
      '5:11 tool-name-clash',
    ]);
    expect(sdkToolName('Refund Expert!')).toBe('Refund_Expert_');
  });

  it('refuses output and control outside the repo, wrong extensions, and both at once', () => {
    expect(codes('schema: ctrlrun.tools/v1\noutput: ../elsewhere/gen.ts\ncontrol: /etc/control.ts\ntools: []\n')).toEqual([
      '2:9 outside-root',
      '3:10 outside-root',
    ]);
    expect(codes('schema: ctrlrun.tools/v1\noutput: src/gen.py\ntools: []\n')).toEqual(['2:9 bad-extension']);
    expect(codes('schema: ctrlrun.tools/v1\noutput: src/x.ts\ncontrol: src/x.ts\ntools: []\n')).toEqual(['2:9 same-path']);
  });

  it('refuses a missing or wrong schema, a policy schema, two tool kinds in one entry, a bad action id', () => {
    expect(codes('tools: []\n')).toEqual(['1:1 missing-key']);
    expect(codes('schema: ctrlrun.tools/v2\ntools: []\n')).toEqual(['1:9 bad-schema']);
    expect(parseManifest('schema: ctrlrun.policy/v6\ntools: []\n', 'm').diagnostics[0]!.hint).toMatch(/policy schema/);
    expect(codes('schema: ctrlrun.tools/v1\ntools:\n  - tool: a\n    mcp: { server: s, tool: t }\n    action: x\n')).toEqual(['4:5 several-tools']);
    expect(codes('schema: ctrlrun.tools/v1\ntools:\n  - tool: a\n    action: ""\n')).toEqual(['4:13 empty-string']);
    expect(codes('schema: ctrlrun.tools/v1\ntools:\n  - tool: a\n')).toEqual(['3:5 missing-key']);
  });

  it('never throws on junk', () => {
    for (const text of ['', '[', '- a', 'a: *b', '{', 'schema: [', '\u0000', 'tools: 3']) {
      const r = parseManifest(text, 'm.yaml');
      expect(r.value).toBeUndefined();
      expect(r.diagnostics.length).toBeGreaterThan(0);
      expect(r.diagnostics.every((d) => d.line >= 1 && d.column >= 1 && d.code !== 'internal')).toBe(true);
    }
  });
});

describe('findManifest', () => {
  it('searches upward from the working directory', () => {
    const dir = repo({ 'ctrlrun.tools.yaml': 'schema: ctrlrun.tools/v1\ntools: []\n', 'src/deep/er/x.ts': '' });
    expect(findManifest(path.join(dir, 'src/deep/er'))).toBe(path.join(dir, 'ctrlrun.tools.yaml'));
    expect(findManifest(dir)).toBe(path.join(dir, 'ctrlrun.tools.yaml'));
  });
});

describe('loadProject', () => {
  it('loads the refund-desk fixture', () => {
    const p = loadProject({ cwd: path.join(FIXTURES, 'refund-desk', 'src') });
    expect(p.manifest.tools.map((t) => t.action)).toEqual(['stripe.refund', 'stripe.charge.read', 'accounts.close']);
    expect(Object.keys(p.policy.actions)).toContain('stripe.refund');
    expect(p.sources.get(p.manifest.file)).toContain('ctrlrun.tools/v1');
    expect(p.warnings).toEqual([]);
  });

  it('refuses a mapped action missing from the policy, naming both files', () => {
    const dir = repo({
      'ctrlrun.yaml': POLICY,
      'src/ctrlrun.control.ts': '',
      'ctrlrun.tools.yaml': 'schema: ctrlrun.tools/v1\ntools:\n  - tool: refund\n    action: stripe.refnud\n  - tool: other\n    action: nothing.like.it\n',
    });
    let error: unknown;
    try {
      loadProject({ cwd: dir });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UserError);
    const d = (error as UserError).diagnostics;
    expect(d.map((x) => [x.file, x.line, x.column, x.code, x.hint])).toEqual([
      [path.join(dir, 'ctrlrun.tools.yaml'), 4, 13, 'unknown-action', 'did you mean `stripe.refund`?'],
      [path.join(dir, 'ctrlrun.tools.yaml'), 6, 13, 'unknown-action', 'add `nothing.like.it:` under `actions:` in the policy'],
    ]);
    expect(d[0]!.related).toMatchObject({ file: path.join(dir, 'ctrlrun.yaml'), line: 3, column: 3 });
    expect(d[1]!.related).toMatchObject({ file: path.join(dir, 'ctrlrun.yaml'), line: 1, column: 1 });
  });

  it('reports a missing policy at the manifest line that names it', () => {
    const dir = repo({ 'ctrlrun.tools.yaml': 'schema: ctrlrun.tools/v1\npolicy: policies/ctrlrun.yaml\ntools: []\n' });
    expect(() => loadProject({ cwd: dir })).toThrow(UserError);
    try {
      loadProject({ cwd: dir });
    } catch (e) {
      expect((e as UserError).diagnostics).toMatchObject([
        { file: path.join(dir, 'ctrlrun.tools.yaml'), line: 2, column: 9, code: 'file-not-found', path: 'policy' },
      ]);
    }
  });

  it('collects the errors of both files at once', () => {
    const dir = repo({
      'ctrlrun.yaml': 'schema: ctrlrun.policy/v6\nactions:\n  a: { decison: allow }\n',
      'ctrlrun.tools.yaml': 'schema: ctrlrun.tools/v1\ntools:\n  - tool: x\n    acton: a\n',
    });
    try {
      loadProject({ cwd: dir });
      expect.unreachable();
    } catch (e) {
      const codes = (e as UserError).diagnostics.map((d) => `${path.basename(d.file)}:${d.line}:${d.column} ${d.code}`);
      expect(codes).toEqual([
        'ctrlrun.tools.yaml:3:5 missing-key',
        'ctrlrun.tools.yaml:4:5 unknown-key',
        'ctrlrun.yaml:3:3 missing-decision',
        'ctrlrun.yaml:3:8 unknown-key',
      ]);
    }
  });

  it('--policy and --manifest override discovery; no manifest is a clear error', () => {
    const dir = repo({ 'p/custom.yaml': POLICY, 'conf/tools.yaml': 'schema: ctrlrun.tools/v1\ncontrol: ../src/c.ts\ntools: []\n' });
    expect(() => loadProject({ cwd: dir })).toThrow(/no ctrlrun.tools.yaml found/);
    expect(() => loadProject({ cwd: dir, manifest: 'conf/tools.yaml', policy: 'p/custom.yaml' })).toThrow(UserError);
    const ok = repo({ 'p/custom.yaml': POLICY, 'ctrlrun.tools.yaml': 'schema: ctrlrun.tools/v1\ntools:\n  - tool: refund\n    action: stripe.refund\n' });
    const p = loadProject({ cwd: ok, policy: 'p/custom.yaml' });
    expect(p.policy.file).toBe(path.join(ok, 'p/custom.yaml'));
    expect(p.warnings!.map((w) => w.code)).toEqual(['missing-control']);
  });
});
