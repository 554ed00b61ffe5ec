import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
import { git, TS_AGENT, TSCONFIG_NODENEXT } from './loop-helpers.js';

/**
 * A package nested in a package, each with its own manifest (a library with an `examples/agent`
 * app, no workspace; seen in the loop on public repos): the root's generate, codemod and check go
 * through both manifests (CI at the root is red while the nested package has an open door), each
 * package's files under its own manifest; the nested tools are not the root's "unmapped" tools.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const LOOKUP = `import { Agent, tool } from '@openai/agents';
import { z } from 'zod';

export const lookup = tool({ name: 'lookup_order', description: 'Look an order up.', parameters: z.object({ id: z.string() }), execute: async ({ id }) => id });
export const agent = new Agent({ name: 'orders', tools: [lookup] });
`;

describe('a package nested in a package, each with its own ctrlrun.tools.yaml', () => {
  it("the root's commands go through the nested package's manifest too, each file under its own", async () => {
    const dir = makeTempDir('nested-');
    dirs.push(dir);
    writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'lib', private: true, type: 'module' }),
      'tsconfig.json': TSCONFIG_NODENEXT,
      'src/agent.ts': TS_AGENT,
      'examples/agent/package.json': JSON.stringify({ name: 'example', private: true, type: 'module' }),
      'examples/agent/tsconfig.json': TSCONFIG_NODENEXT,
      'examples/agent/src/orders.ts': LOOKUP,
    });
    git(dir, 'init', '-q', '.');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'the app as it was');
    const init = await cli(['init'], { cwd: dir });
    expect(init.code, init.stdout + init.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8')).not.toContain('lookup_order');
    expect(readFileSync(path.join(dir, 'examples/agent/ctrlrun.tools.yaml'), 'utf8')).toContain('lookup_order');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'init');

    // before the loop, CI's check at the root is red for the nested package's open door too
    const before = await cli(['check', '--format', 'json'], { cwd: dir });
    const open = (JSON.parse(before.stdout) as { findings: Array<{ ruleId: string; file: string }> }).findings;
    expect(
      open.some((f) => f.file === 'examples/agent/src/orders.ts'),
      before.stdout,
    ).toBe(true);
    expect(before.code).toBe(1);
    // and a path into the nested package is checked under its manifest, not passed over
    const one = await cli(['check', '--format', 'json', 'examples/agent/src/orders.ts'], { cwd: dir });
    const inPath = (JSON.parse(one.stdout) as { findings: Array<{ file: string }> }).findings;
    expect(
      inPath.map((f) => f.file),
      one.stdout,
    ).toContain('examples/agent/src/orders.ts');
    expect(
      inPath.every((f) => f.file.startsWith('examples/agent/')),
      one.stdout,
    ).toBe(true);
    expect(one.code).toBe(1);

    // the root's commands go through both manifests; the root's codemod does not call the nested tool unmapped
    const generated = await cli(['generate'], { cwd: dir });
    expect(generated.code, generated.stdout + generated.stderr).toBe(0);
    expect(generated.stdout).toMatch(/wrote examples\/agent\//);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'generate');
    const codemod = await cli(['codemod', '--write'], { cwd: dir });
    expect(codemod.code, codemod.stdout + codemod.stderr).toBe(0);
    const [rootPart, nestedPart] = codemod.stdout.split('examples/agent:\n');
    expect(nestedPart, codemod.stdout).toBeDefined();
    expect(rootPart).not.toContain('lookup_order');
    expect(readFileSync(path.join(dir, 'src/agent.ts'), 'utf8')).toContain("protectedTool('refund'");
    expect(readFileSync(path.join(dir, 'examples/agent/src/orders.ts'), 'utf8')).toContain("protectedTool('lookup_order'");
    const check = await cli(['check', '--format', 'json'], { cwd: dir });
    const findings = (JSON.parse(check.stdout) as { findings: Array<{ ruleId: string; file: string; severity: string }> }).findings;
    expect(
      findings.filter((f) => f.severity === 'error'),
      check.stdout,
    ).toEqual([]);
    expect(check.code, check.stdout).toBe(0);

    // and the nested package on its own, as init printed: nothing left to do there
    expect(init.stdout).toContain('--cwd examples/agent');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'codemod');
    for (const args of [['generate', '--check'], ['codemod', '--write'], ['check']]) {
      const r = await cli([...args, '--cwd', 'examples/agent'], { cwd: dir });
      expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
    }
    const status = spawnSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' });
    expect(status.stdout).toBe('');
  }, 120_000);
});
